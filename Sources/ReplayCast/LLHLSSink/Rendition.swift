// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import HLSPackaging
import MediaKernels
import ReplayCastSupport

/// One request pad of llhlssink and the rendition it writes into its own folder. Only the
/// pad's streaming thread uses it between start and stop (its `owner` checks that in debug
/// builds); start and stop, on the state-changing thread, come when that thread is not inside.
final class Rendition: @unchecked Sendable {
    let name: String
    let isVideo: Bool
    let owner = StreamingOwner("llhlssink rendition")
    private var segment = GstSegment()
    private var format: TrackFormat?
    private var frameRate: Double?
    private var packager: TrackPackager?
    private var bitrates: SegmentBitrates?
    /// Ticks added to decode times after a flush took them back: the playlist's media
    /// timeline never goes back, the segment after the jump follows a discontinuity.
    private var offset: UInt64 = 0
    private var lastSequence: UInt64?
    /// Running time (ns) at the end of the samples added so far: where a segment completed
    /// by the next sample, or by the end, ends.
    private var samplesEnd: UInt64 = 0

    init(name: String, isVideo: Bool) {
        self.name = name
        self.isVideo = isVideo
        gst_segment_init(&segment, GST_FORMAT_TIME)
    }

    /// The state of a fresh start; the files of the run before are written over.
    func reset() {
        packager = nil
        bitrates = nil
        offset = 0
        lastSequence = nil
        samplesEnd = 0
        gst_segment_init(&segment, GST_FORMAT_TIME)
    }

    func setSegment(_ segment: GstSegment) { self.segment = segment }

    /// The format from the parser's caps: its `codec_data` and picture size or rate and
    /// channels. Nil, with the reason, when the caps do not say enough to write the header.
    func learn(_ caps: UnsafeMutablePointer<GstCaps>) -> String? {
        let structure = gst_caps_get_structure(caps, 0)!
        var record: [UInt8] = []
        if let value = gst_structure_get_value(structure, "codec_data"),
           let buffer = g_value_get_boxed(value)?.assumingMemoryBound(to: GstBuffer.self) {
            record = buffer.withReadableBytes { Array($0) } ?? []
        }
        guard !record.isEmpty else { return "no codec_data in \(isVideo ? "the H.264" : "the AAC") caps: put \(isVideo ? "h264parse" : "aacparse") before the pad" }
        var first: gint = 0, second: gint = 0
        let new: TrackFormat
        if isVideo {
            guard gst_structure_get_int(structure, "width", &first) != 0, gst_structure_get_int(structure, "height", &second) != 0 else {
                return "no width and height in the H.264 caps"
            }
            new = .h264(configuration: record, width: Int(first), height: Int(second))
            frameRate = gst_structure_get_fraction(structure, "framerate", &first, &second) != 0 && first > 0 && second > 0
                ? Double(first) / Double(second) : nil
        } else {
            guard gst_structure_get_int(structure, "rate", &first) != 0, gst_structure_get_int(structure, "channels", &second) != 0 else {
                return "no rate and channels in the AAC caps"
            }
            new = .aac(configuration: record, sampleRate: Int(first), channels: Int(second))
        }
        if let format, format != new, packager != nil {
            return "the format changed while streaming (\(Self.shown(format)) to \(Self.shown(new))): a rendition keeps one init segment"
        }
        format = new
        return nil
    }

    /// `avc1.42C01E 64x48`, `mp4a.40.2 48000 Hz 2 channels`.
    static func shown(_ format: TrackFormat) -> String {
        switch format.codec {
        case .h264(_, let width, let height), .h265(_, let width, let height): "\(format.codecsAttribute) \(width)x\(height)"
        case .aac(_, let rate, let channels): "\(format.codecsAttribute) \(rate) Hz \(channels) channels"
        }
    }

    /// A segment complete on disk, named in the rendition's folder.
    struct CompletedSegment {
        var sequence: UInt64
        var path: String
        var bytes: Int
        var duration: Double
        /// Running time (ns) at its end.
        var end: UInt64
    }

    enum Outcome {
        case nothing
        /// A part was written; `segment` when one was completed with it.
        case part(lastPart: (sequence: UInt64, index: Int), segment: CompletedSegment?)
    }

    /// Adds a buffer; its times are its running times, in the track's timescale.
    func add(_ buffer: UnsafeMutablePointer<GstBuffer>, folder: OutputFolder, settings: TrackPackager.Settings,
             wallClockAtZero: Double) throws -> Outcome {
        guard let format else { throw Refusal.notNegotiated("\(name): a buffer before caps") }
        if packager == nil {
            packager = try TrackPackager(format: format, settings: settings, folder: OutputFolder(making: "\(folder.path)/\(name)"))
            bitrates = SegmentBitrates(targetDuration: settings.targetDuration)
        }
        let pts = UInt64(buffer.pointee.pts)
        let dts = buffer.pointee.dts == GstClockTime.none ? pts : UInt64(buffer.pointee.dts)
        guard dts != UInt64.max else { throw Refusal.stream("\(name): a buffer without a timestamp") }
        let timescale = UInt64(format.timescale)
        func ticks(_ time: UInt64) -> UInt64? {
            let running = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, guint64(time))
            return running == GstClockTime.none ? nil : Timebase.scale(UInt64(running), timescale, Timebase.nanosecondsPerSecond, .nearest)
        }
        guard var decode = ticks(dts) else { return .nothing }
        let fallback = isVideo ? Timebase.scale(timescale, 1, UInt64(frameRate ?? 30), .nearest) : 1024
        let length = UInt64(buffer.pointee.duration)
        let duration = buffer.pointee.duration == GstClockTime.none ? fallback : (ticks(dts + length) ?? decode + fallback) - decode
        let presentation = pts == UInt64.max ? decode : ticks(pts) ?? decode
        let composition = Int32(clamping: Int64(presentation) - Int64(decode))
        decode += offset
        if packager!.end > 0, decode < packager!.end {
            if packager!.end - decode <= duration / 2 {
                // Timestamps rounded to the millisecond (Matroska's, FLV's) start a sample
                // before the last one's exact end: it follows on from there.
                decode = packager!.end
            } else {
                // A flushing seek took the times back: the rendition goes on a second past
                // what it wrote, after a gap that ends the segment.
                let jump = packager!.end + timescale - decode
                offset += jump
                decode += jump
            }
        }
        let running = UInt64(gst_segment_to_running_time(&segment, GST_FORMAT_TIME, guint64(dts)))
        let isSync = buffer.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue == 0
        let added: Result<Bool, any Error>? = buffer.withReadableBytes { bytes in
            Result {
                try packager!.add(decodeTime: decode, duration: max(duration, 1), compositionOffset: composition, isSync: isSync,
                                  bytes: bytes, wallClock: wallClockAtZero + Timebase.seconds(running))
            }
        }
        guard let added else { throw Refusal.stream("\(name): a buffer that cannot be mapped") }
        let wrote = try added.get()
        let outcome = wrote ? written() : .nothing
        samplesEnd = running + Timebase.scale(duration, Timebase.nanosecondsPerSecond, timescale, .nearest)
        return outcome
    }

    /// Ends the rendition: its last part and segment, and the playlist's end.
    func finish() throws -> Outcome {
        guard packager != nil else { return .nothing }
        try packager!.finish()
        return written()
    }

    func writePlaylist(reports: [MediaPlaylist.RenditionReport]) throws {
        try packager?.writePlaylist(reports: reports)
    }

    /// Format, frame rate and bit rates for the multivariant playlist.
    var ladderEntry: (format: TrackFormat?, frameRate: Double?, peak: Int, average: Int) {
        (format, frameRate, bitrates?.peak ?? 0, bitrates?.average ?? 0)
    }

    private func written() -> Outcome {
        guard let packager, let last = packager.playlist.lastPart else { return .nothing }
        var completed: CompletedSegment?
        if let segment = packager.completedSegment, segment.sequence != lastSequence {
            lastSequence = segment.sequence
            bitrates?.add(bytes: segment.bytes, duration: segment.duration)
            completed = CompletedSegment(sequence: segment.sequence,
                                         path: "\(packager.folder.path)/\(TrackPackager.segmentName(segment.sequence))",
                                         bytes: segment.bytes, duration: segment.duration, end: samplesEnd)
        }
        return .part(lastPart: last, segment: completed)
    }

    enum Refusal: Error {
        case notNegotiated(String)
        case stream(String)
    }
}
