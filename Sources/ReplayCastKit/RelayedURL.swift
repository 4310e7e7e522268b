// SPDX-License-Identifier: LGPL-2.1-or-later

/// A publish URL (`rtmp://` or `srt://`) taken through an uplink relay: the relay on
/// 127.0.0.1 passes to the URL's host and port, and the broadcast publishes to the relay
/// with the rest of the URL (application, stream, query) as it was.
struct RelayedURL {
    let relay: UplinkRelay
    let url: String

    init(_ original: String) throws(UplinkRelay.Failure) {
        guard let separator = original.range(of: "://") else {
            throw UplinkRelay.Failure(description: "\(original): not a URL with a scheme (rtmp://, srt://)")
        }
        let scheme = original[..<separator.lowerBound].lowercased()
        let rest = original[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let colon = authority.lastIndex(of: ":")
        let host = String(authority[..<(colon ?? authority.endIndex)])
        let defaultPort = ["rtmp": 1935, "rtmps": 443][scheme]
        let port = colon == nil ? defaultPort : Int(authority[authority.index(after: colon!)...])
        guard let port, (1...65535).contains(port) else {
            throw UplinkRelay.Failure(description: "\(original): no port to relay to")
        }
        guard let address = IPv4Socket.resolved(host) else {
            throw UplinkRelay.Failure(description: "\(original): cannot resolve \(host) to an IPv4 address")
        }
        relay = try UplinkRelay(port: 0, serverHost: address, serverPort: port)
        url = "\(scheme)://127.0.0.1:\(relay.port)\(rest[authorityEnd...])"
    }
}
