// SPDX-License-Identifier: LGPL-2.1-or-later

/// What a playlist request asks of the server (RFC 8216bis, 6.2.5): `_HLS_msn` and
/// `_HLS_part` to hold the answer until that segment or part exists, `_HLS_skip` for a
/// delta update. Other query parameters are the server's own and are ignored here.
public struct DeliveryDirectives: Sendable, Equatable {
    public struct Malformed: Error, Equatable, CustomStringConvertible, Sendable {
        public let description: String
    }

    public var sequence: UInt64?
    public var part: Int?
    /// `YES` or `v2`; with no date ranges in these playlists, the two skip the same.
    public var skip: Bool

    public init(sequence: UInt64? = nil, part: Int? = nil, skip: Bool = false) {
        self.sequence = sequence
        self.part = part
        self.skip = skip
    }

    /// From a query string, `_HLS_msn=12&_HLS_part=3&_HLS_skip=YES`. A directive whose value
    /// is not a decimal integer, or given twice, is malformed.
    public init(query: Substring) throws(Malformed) {
        self.init()
        var seen: Set<Substring> = []
        for pair in query.split(separator: "&") {
            let (name, value) = pair.firstIndex(of: "=").map { (pair[..<$0], pair[pair.index(after: $0)...]) } ?? (pair, "")
            guard name.hasPrefix("_HLS_") else { continue }
            guard seen.insert(name).inserted else { throw Malformed(description: "\(name) is given twice") }
            switch name {
            case "_HLS_msn":
                guard let number = UInt64(value) else { throw Malformed(description: "_HLS_msn=\(value) is not a segment number") }
                sequence = number
            case "_HLS_part":
                guard let number = Int(value), number >= 0 else { throw Malformed(description: "_HLS_part=\(value) is not a part index") }
                part = number
            case "_HLS_skip":
                skip = value == "YES" || value == "v2"
            default:
                continue
            }
        }
    }
}

extension MediaPlaylist {
    public enum Answer: Sendable, Equatable {
        /// Answer with the playlist as it is.
        case now
        /// Hold the request until the playlist changes, then ask again.
        case hold
        /// 400 Bad Request, at once.
        case badRequest(String)
    }

    /// The Advance Part Limit (6.2.5.2): how far past the newest part a request may ask.
    public var advancePartLimit: Int {
        settings.partTarget < 1 ? Int((3 / settings.partTarget).rounded(.down)) : 3
    }

    /// How the server answers `directives` now (6.2.5.2). Without `_HLS_part`, a request
    /// waits for segment `_HLS_msn` to be complete; with it, for that part, where an index
    /// past a complete segment's last part means the next segment's first. A request for what
    /// is already there, or gone, is answered with the whole playlist; an ended playlist
    /// answers everything at once.
    public func answer(to directives: DeliveryDirectives) -> Answer {
        guard let sequence = directives.sequence else {
            return directives.part == nil ? .now : .badRequest("_HLS_part without _HLS_msn")
        }
        if ended { return .now }
        let lastComplete = segments.last?.sequence
        if sequence > (lastComplete.map { $0 + 2 } ?? 1) {
            return .badRequest("_HLS_msn=\(sequence) is more than two segments past the last one, \(lastComplete.map(String.init) ?? "none")")
        }
        guard var part = directives.part else {
            return lastComplete.map { $0 >= sequence } == true ? .now : .hold
        }
        var wanted = sequence
        if let complete = segment(sequence), part >= complete.parts.count {
            wanted += 1
            part = 0
        }
        guard let newest = lastPart else { return part > advancePartLimit ? .badRequest(tooFar(sequence, directives.part!)) : .hold }
        if (wanted, part) <= (newest.sequence, newest.index) { return .now }
        let ahead = wanted == newest.sequence ? part - newest.index : part + 1
        return ahead > advancePartLimit ? .badRequest(tooFar(sequence, directives.part!)) : .hold
    }

    private func segment(_ sequence: UInt64) -> Segment? {
        segments.first { $0.sequence == sequence }
    }

    private func tooFar(_ sequence: UInt64, _ part: Int) -> String {
        "_HLS_msn=\(sequence)&_HLS_part=\(part) is more than \(advancePartLimit) parts past the newest"
    }
}
