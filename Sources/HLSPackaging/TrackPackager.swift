// SPDX-License-Identifier: LGPL-2.1-or-later

/// One rendition of one track, packaged as CMAF for Low-Latency HLS into its folder: the
/// init segment, each part as its own fragment file the moment it is complete, each segment
/// as its parts one after the other once it is complete, and the media playlist. Samples come
/// in decode order, in the track's timescale, each with its wall-clock time.
public struct TrackPackager {
    public struct Settings: Sendable {
        /// Seconds; no part is longer.
        public var partTarget: Double
        /// Seconds a segment lasts, ended at the next sync sample from there.
        public var segmentTarget: Double
        /// Complete segments kept listed and on disk.
        public var window: Int

        public init(partTarget: Double, segmentTarget: Double, window: Int) {
            self.partTarget = partTarget
            self.segmentTarget = segmentTarget
            self.window = window
        }

        /// Why these settings cannot make a valid playlist, if they cannot.
        public var problem: String? {
            if !(partTarget > 0) { return "a part duration of \(partTarget) s" }
            if partTarget > segmentTarget { return "parts of \(partTarget) s are longer than segments of \(segmentTarget) s" }
            // A segment may not leave a live playlist that would then last less than three
            // target durations (RFC 8216bis, 6.2.2).
            if Double(window) * segmentTarget < 3 * Double(targetDuration) {
                return "\(window) segments of \(segmentTarget) s last less than three target durations (\(3 * targetDuration) s)"
            }
            return nil
        }

        /// `EXT-X-TARGETDURATION`: the segment target rounded up to whole seconds. A segment
        /// whose keyframe comes late still rounds to it for up to half a second more.
        public var targetDuration: Int { Int(segmentTarget.rounded(.up)) }
    }

    public static let playlistName = "index.m3u8"
    public static let initName = "init.mp4"
    public static func segmentName(_ sequence: UInt64) -> String { "segment\(sequence).m4s" }
    public static func partName(_ sequence: UInt64, _ index: Int) -> String { "part\(sequence).\(index).m4s" }

    public let format: TrackFormat
    public let folder: OutputFolder
    public private(set) var playlist: MediaPlaylist
    /// The newest complete segment: its sequence number, size and duration.
    public private(set) var completedSegment: (sequence: UInt64, bytes: Int, duration: Double)?
    /// Where the samples so far end, in the track's timescale.
    public private(set) var end: UInt64 = 0
    private let partTargetTicks: UInt64
    private var boundaries: PartBoundaries
    private var fragments = FragmentWriter()
    private var samples: [FragmentSample] = []
    private var payload: [UInt8] = []
    private var segment: [UInt8] = []
    private var partStartsSegment = true
    private var segmentAfterGap = false
    private var segmentWallClock = 0.0
    private var sequence: UInt64 = 0
    private var partIndex = 0

    /// Writes the init segment. Fails naming a file it cannot write.
    public init(format: TrackFormat, settings: Settings, folder: OutputFolder) throws {
        precondition(settings.problem == nil, settings.problem ?? "")
        let ticks = { (seconds: Double) in UInt64((seconds * Double(format.timescale)).rounded(.down)) }
        self.format = format
        self.folder = folder
        partTargetTicks = ticks(settings.partTarget)
        // A segment may not round to more than the target duration (RFC 8216bis, 4.4.3.1).
        boundaries = PartBoundaries(partTarget: partTargetTicks, segmentTarget: ticks(settings.segmentTarget),
                                    segmentLimit: ticks(Double(settings.targetDuration) + 0.5) - 1)
        playlist = MediaPlaylist(settings: .init(targetDuration: settings.targetDuration, partTarget: settings.partTarget,
                                                 initURI: Self.initName, window: settings.window))
        samples.reserveCapacity(256)
        payload.reserveCapacity(1 << 20)
        segment.reserveCapacity(4 << 20)
        try InitSegment.bytes(for: format).withUnsafeBytes { try folder.write(Self.initName, $0) }
    }

    /// Adds a sample. Returns whether a part was written before it, so that the playlist
    /// changed. A sample longer than a part is shortened to one: the next sample's decode
    /// time keeps the timeline.
    @discardableResult
    public mutating func add(decodeTime: UInt64, duration: UInt64, compositionOffset: Int32 = 0, isSync: Bool,
                             bytes: UnsafeRawBufferPointer, wallClock: Double) throws -> Bool {
        let duration = min(duration, partTargetTicks)
        let boundary = boundaries.place(decodeTime: decodeTime, duration: duration, isSync: isSync)
        var wrote = false
        switch boundary {
        case .none:
            break
        case .part:
            try writePart(endingSegment: false)
            wrote = true
        case .segment(let afterGap):
            try writePart(endingSegment: true)
            segmentAfterGap = afterGap
            wrote = true
        }
        if samples.isEmpty && partStartsSegment { segmentWallClock = wallClock }
        end = decodeTime + duration
        samples.append(FragmentSample(decodeTime: decodeTime, duration: UInt32(duration), size: UInt32(bytes.count),
                                      compositionOffset: compositionOffset, isSync: isSync))
        payload.append(contentsOf: bytes)
        return wrote
    }

    /// Writes the last part and segment, and the playlist with `EXT-X-ENDLIST`.
    public mutating func finish() throws {
        if !samples.isEmpty { try writePart(endingSegment: true) }
        playlist.end()
    }

    /// Writes the playlist as it is now, with `reports` of the other renditions.
    public func writePlaylist(reports: [MediaPlaylist.RenditionReport] = []) throws {
        try folder.write(Self.playlistName, playlist.text(reports: reports))
    }

    private mutating func writePart(endingSegment: Bool) throws {
        let first = samples[0]
        let ticks = samples.reduce(UInt64(0)) { $0 + UInt64($1.duration) }
        let fragment = payload.withUnsafeBytes { fragments.fragment(samples, payload: $0) }
        let name = Self.partName(sequence, partIndex)
        try fragment.withUnsafeBytes { try folder.write(name, $0) }
        segment.append(contentsOf: fragment)
        let part = MediaPlaylist.Part(uri: name, duration: Double(ticks) / Double(format.timescale), independent: first.isSync)
        let next = endingSegment ? Self.partName(sequence + 1, 0) : Self.partName(sequence, partIndex + 1)
        playlist.append(part, startingSegmentAt: partStartsSegment ? segmentWallClock : nil, afterDiscontinuity: segmentAfterGap,
                        segmentURI: Self.segmentName(sequence), nextPartURI: next)
        samples.removeAll(keepingCapacity: true)
        payload.removeAll(keepingCapacity: true)
        partStartsSegment = endingSegment
        partIndex += 1
        guard endingSegment else { return }
        try segment.withUnsafeBytes { try folder.write(Self.segmentName(sequence), $0) }
        let bytes = segment.count
        segment.removeAll(keepingCapacity: true)
        for removed in playlist.closeSegment() { remove(removed) }
        completedSegment = playlist.segments.last.map { (sequence, bytes, $0.duration) }
        sequence += 1
        partIndex = 0
    }

    private func remove(_ segment: MediaPlaylist.Segment) {
        folder.remove(segment.uri)
        for part in segment.parts { folder.remove(part.uri) }
    }
}
