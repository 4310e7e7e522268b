// SPDX-License-Identifier: LGPL-2.1-or-later

/// A media playlist as a client reads it: the tags this package writes and a player of
/// Low-Latency HLS relies on. Other tags are passed over; a tag this reader knows whose
/// value does not parse is an error naming its line.
public struct ReadPlaylist: Sendable, Equatable {
    public struct Part: Sendable, Equatable {
        public var uri: String
        public var duration: Double
        public var independent: Bool
    }

    public struct Segment: Sendable, Equatable {
        public var sequence: UInt64
        public var uri: String
        public var duration: Double
        public var parts: [Part]
        public var programDateTime: String?
        public var discontinuity: Bool
    }

    public struct Report: Sendable, Equatable {
        public var uri: String
        public var lastSequence: UInt64
        public var lastPart: Int?
    }

    public struct Malformed: Error, Equatable, CustomStringConvertible, Sendable {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public var version: Int?
    public var targetDuration: Int?
    public var mediaSequence: UInt64 = 0
    public var discontinuitySequence: UInt64 = 0
    public var partTarget: Double?
    public var canBlockReload = false
    public var canSkipUntil: Double?
    public var partHoldBack: Double?
    public var map: String?
    public var skippedSegments = 0
    public var segments: [Segment] = []
    /// The parts after the last complete segment: the segment being written.
    public var openParts: [Part] = []
    public var openProgramDateTime: String?
    public var preloadHint: String?
    public var reports: [Report] = []
    public var ended = false

    /// The newest part: its segment's sequence number and index.
    public var lastPart: (sequence: UInt64, index: Int)? {
        if !openParts.isEmpty { return (mediaSequence + UInt64(skippedSegments + segments.count), openParts.count - 1) }
        guard let last = segments.last, !last.parts.isEmpty else { return nil }
        return (last.sequence, last.parts.count - 1)
    }

    public init(_ text: String) throws(Malformed) {
        var number = 0
        var pending: (parts: [Part], dateTime: String?, discontinuity: Bool, duration: Double?) = ([], nil, false, nil)
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if number == 1 {
                guard line == "#EXTM3U" else { throw Malformed(line: 1, reason: "a playlist starts with #EXTM3U") }
                continue
            }
            if line.isEmpty { continue }
            guard line.hasPrefix("#") else {
                guard let duration = pending.duration else { throw Malformed(line: number, reason: "\(line) has no #EXTINF before it") }
                let sequence = mediaSequence + UInt64(skippedSegments + segments.count)
                segments.append(Segment(sequence: sequence, uri: String(line), duration: duration, parts: pending.parts,
                                        programDateTime: pending.dateTime, discontinuity: pending.discontinuity))
                pending = ([], nil, false, nil)
                continue
            }
            let colon = line.firstIndex(of: ":")
            let tag = colon.map { line[..<$0] } ?? line
            let value = colon.map { line[line.index(after: $0)...] } ?? ""
            func fail(_ reason: String) -> Malformed { Malformed(line: number, reason: "\(tag): \(reason)") }
            func attributes() throws(Malformed) -> AttributeList {
                guard let list = AttributeList(value) else { throw fail("the attribute list \(value) does not parse") }
                return list
            }
            switch tag {
            case "#EXT-X-VERSION":
                guard let version = Int(value) else { throw fail("\(value) is not a version") }
                self.version = version
            case "#EXT-X-TARGETDURATION":
                guard let target = Int(value), target >= 1 else { throw fail("\(value) is not a whole number of seconds") }
                targetDuration = target
            case "#EXT-X-MEDIA-SEQUENCE":
                guard let sequence = UInt64(value) else { throw fail("\(value) is not a sequence number") }
                mediaSequence = sequence
            case "#EXT-X-DISCONTINUITY-SEQUENCE":
                guard let sequence = UInt64(value) else { throw fail("\(value) is not a sequence number") }
                discontinuitySequence = sequence
            case "#EXT-X-PART-INF":
                guard let target = try attributes().decimal("PART-TARGET") else { throw fail("no PART-TARGET") }
                partTarget = target
            case "#EXT-X-SERVER-CONTROL":
                let list = try attributes()
                canBlockReload = list["CAN-BLOCK-RELOAD"] == "YES"
                canSkipUntil = list.decimal("CAN-SKIP-UNTIL")
                partHoldBack = list.decimal("PART-HOLD-BACK")
            case "#EXT-X-MAP":
                guard let uri = try attributes()["URI"] else { throw fail("no URI") }
                map = String(uri)
            case "#EXT-X-SKIP":
                guard let count = try attributes().integer("SKIPPED-SEGMENTS") else { throw fail("no SKIPPED-SEGMENTS") }
                skippedSegments = Int(count)
            case "#EXT-X-PROGRAM-DATE-TIME":
                pending.dateTime = String(value)
            case "#EXT-X-DISCONTINUITY":
                pending.discontinuity = true
            case "#EXT-X-PART":
                let list = try attributes()
                guard let uri = list["URI"], let duration = list.decimal("DURATION") else { throw fail("a part needs URI and DURATION") }
                pending.parts.append(Part(uri: String(uri), duration: duration, independent: list["INDEPENDENT"] == "YES"))
            case "#EXTINF":
                guard let duration = Double(value.prefix { $0 != "," }) else { throw fail("\(value) is not a duration") }
                pending.duration = duration
            case "#EXT-X-PRELOAD-HINT":
                let list = try attributes()
                guard list["TYPE"] == "PART" || list["TYPE"] == "MAP", let uri = list["URI"] else { throw fail("a hint needs TYPE and URI") }
                if list["TYPE"] == "PART" { preloadHint = String(uri) }
            case "#EXT-X-RENDITION-REPORT":
                let list = try attributes()
                guard let uri = list["URI"], let sequence = list.integer("LAST-MSN") else { throw fail("a report needs URI and LAST-MSN") }
                reports.append(Report(uri: String(uri), lastSequence: sequence, lastPart: list.integer("LAST-PART").map(Int.init)))
            case "#EXT-X-ENDLIST":
                ended = true
            default:
                continue
            }
        }
        openParts = pending.parts
        openProgramDateTime = pending.dateTime
    }
}
