// SPDX-License-Identifier: LGPL-2.1-or-later

/// What carries the streams to the server, chosen by the location's scheme: FLV over RTMP
/// (`flvmux ! rtmp2sink`), or MPEG-TS over SRT in caller mode (`mpegtsmux ! srtsink`), the
/// way HaishinKit, Moblin and OBS publish SRT. The reconnection around either is the
/// element's; srtsink's own (`auto-reconnect`) is off, since while it retries its writes
/// block the streaming thread and a receiver gone for good holds the pipeline for ever.
package enum PublishTransport: Sendable {
    case rtmp
    case srt

    package init?(location: String) {
        if location.hasPrefix("rtmp://") || location.hasPrefix("rtmps://") {
            self = .rtmp
        } else if location.hasPrefix("srt://") {
            self = .srt
        } else {
            return nil
        }
    }

    /// Where a location publishes: the host and port (RTMP's 1935 and RTMPS's 443 when it
    /// names none; SRT has no default), and what follows them (application and stream, or
    /// the query).
    package static func server(_ location: String) -> (host: String, port: Int, rest: Substring)? {
        guard let transport = PublishTransport(location: location), let scheme = location.firstRange(of: "://") else { return nil }
        let address = location[scheme.upperBound...]
        let authority = address.prefix { $0 != "/" && $0 != "?" }
        let rest = address[authority.endIndex...]
        if let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) {
            return (String(authority[..<colon]), port, rest)
        }
        guard transport == .rtmp else { return nil }
        return (String(authority), location.hasPrefix("rtmps://") ? 443 : 1935, rest)
    }

    /// The location as messages, errors, logs and status screens give it: an SRT passphrase
    /// masked, and query fields without a value left out.
    package static func shown(_ location: String) -> String {
        guard location.hasPrefix("srt://"), let mark = location.firstIndex(of: "?") else { return location }
        let fields = location[location.index(after: mark)...].split(separator: "&").compactMap { field -> String? in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return String(field) }
            guard !parts[1].isEmpty else { return nil }
            return parts[0] == "passphrase" ? "passphrase=***" : String(field)
        }
        let base = String(location[..<mark])
        return fields.isEmpty ? base : base + "?" + fields.joined(separator: "&")
    }
}
