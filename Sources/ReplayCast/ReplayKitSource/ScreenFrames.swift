// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import MediaKernels
import ReplayCastSupport
import ReplayKitModel

/// The decoded pictures of a screen-location file, between the decoding pipeline's streaming
/// thread (`accept`, which blocks while `capacity` pictures wait) and the video stream
/// (`next`, `take`). A picture identical to the one before it never enters: on a device
/// the screen would not have changed. Pictures not in ReplayKit's colours (BT.709 full
/// range) are converted here, off the video stream's deadline: GstVideoConverter leaves
/// the samples as they are when only the range differs (GStreamer 1.22 to 1.28), so
/// limited-range video, what most files hold, would pass unconverted and look washed out.
final class ScreenFrames: @unchecked Sendable {
    /// One decoded picture (NV12, `info`'s size and layout); the reference to `buffer` is
    /// the holder's.
    struct Frame {
        /// Broadcast time from which the file shows it: its running time in the decoding
        /// pipeline plus the length of the loops before.
        let time: UInt64
        /// Counts pictures from 1 across loops; the same serial is the same picture.
        let serial: UInt64
        let buffer: UnsafeMutablePointer<GstBuffer>
        var info: GstVideoInfo
    }

    /// What the video stream can show next.
    enum Next: Equatable {
        case frame(time: UInt64)
        /// The decoder has not caught up yet.
        case waiting
        /// The file ended (file-end=finish) or failed; nothing more comes.
        case ended
    }

    private struct State {
        var frames: [Frame] = []
        var stopping = false
        /// The element's pads are deactivating: the video stream must not wait for a picture.
        var interrupted = false
        var ended = false
        var offset: UInt64 = 0
        /// The end of the latest picture of the current pass, in the pass's running time.
        var passEnd: UInt64 = 0
        var serial: UInt64 = 0
        var orientation: VideoOrientation?
        var counts = Counts()

        /// The video stream has no reason to wait on: a picture, the end, or a stop.
        var videoMayGoOn: Bool { !frames.isEmpty || ended || stopping || interrupted }
    }

    /// What happened to the file's pictures, for the log.
    struct Counts {
        var decoded = 0, repeated = 0, shown = 0, superseded = 0, late = 0
        var worstLateness: UInt64 = 0
    }

    /// A picture's time counts as up to this much earlier: container times are rounded (to
    /// 1/1000 s in many files; an edit list's start and a frame's time are each floored to
    /// the nanosecond), and 1/30 s is never a whole number of either.
    static let timeTolerance: UInt64 = 1_000_000

    let capacity: Int
    private let state: WaitableMutex<State>
    // The decoding thread's own: caps, segment, the colour conversion, the last picture
    // decoded, and buffers for converted pictures.
    private var info = GstVideoInfo()
    private var segment = GstSegment()
    private var transform: ColorTransform?
    private var previous: UnsafeMutablePointer<GstBuffer>?
    private let converted: OutputBufferPool

    init(capacity: Int) {
        self.capacity = capacity
        // All that can be out at once, allocated up front: the queue full, the picture on
        // screen and the one taken to replace it (the decoder waits for room before it converts).
        converted = OutputBufferPool(minimumBuffers: capacity + 2)
        var initial = State()
        initial.frames.reserveCapacity(capacity)
        state = WaitableMutex(initial)
        gst_segment_init(&segment, GST_FORMAT_TIME)
    }

    deinit {
        state.withLock { s in for frame in s.frames { gst_buffer_unref(frame.buffer) } }
        if let previous { gst_buffer_unref(previous) }
    }

    // MARK: The decoding thread

    /// A serialized event on the decoding pipeline's sink pad.
    func accept(event: UnsafeMutablePointer<GstEvent>) {
        switch event.pointee.type {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            guard let caps, gst_video_info_from_caps(&info, caps) != 0 else { return }
            // Caps the kernels cannot name were converted to BT.709 by GStreamer (ScreenFile).
            let space = ColorSpace(info.colorimetry) ?? .bt709Limited
            transform = space == .screenCapture ? nil : ColorTransform(from: space, to: .screenCapture)
        case GST_EVENT_SEGMENT:
            var copied: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &copied)
            if let copied { segment = copied.pointee }
        case GST_EVENT_TAG:
            var tags: UnsafeMutablePointer<GstTagList>?
            gst_event_parse_tag(event, &tags)
            var text: UnsafeMutablePointer<gchar>?
            guard let tags, gst_tag_list_get_string(tags, GST_TAG_IMAGE_ORIENTATION, &text) != 0, let text else { return }
            let orientation = VideoOrientation(tag: String(cString: text))
            g_free(text)
            if let orientation { state.withLock { $0.orientation = orientation } }
        default:
            break
        }
    }

    /// A decoded picture: queued unless it repeats the one before; blocks while the queue is full.
    func accept(buffer: UnsafeMutablePointer<GstBuffer>) {
        let pts = buffer.pointee.pts
        guard pts != GstClockTime.none else { return }
        let runningTime = gst_segment_to_running_time(&segment, GST_FORMAT_TIME, pts)
        guard runningTime != GstClockTime.none else { return }
        let duration = buffer.pointee.duration
        let end = UInt64(runningTime) + (duration == GstClockTime.none ? 0 : UInt64(duration))
        if let previous, samePicture(previous, buffer) {
            state.withLock { s in
                s.passEnd = max(s.passEnd, end)
                s.counts.decoded += 1
                s.counts.repeated += 1
            }
            return
        }
        if let previous { gst_buffer_unref(previous) }
        previous = gst_buffer_ref(buffer)
        let room = state.wait(until: { $0.frames.count < self.capacity || $0.stopping }, then: { !$0.stopping })
        guard room, let picture = inScreenColours(buffer) else { return }
        let info = info
        state.update { s in
            s.passEnd = max(s.passEnd, end)
            s.counts.decoded += 1
            s.serial += 1
            s.frames.append(Frame(time: s.offset + UInt64(runningTime), serial: s.serial, buffer: picture, info: info))
        }
    }

    /// A reference to `buffer`, or to a converted copy of it when its colours are not the screen's.
    private func inScreenColours(_ buffer: UnsafeMutablePointer<GstBuffer>) -> UnsafeMutablePointer<GstBuffer>? {
        guard let transform else { return gst_buffer_ref(buffer) }
        guard let copy = converted.acquire(size: Int(info.size)) else { return nil }
        let done = withMappedFrame(buffer, info: &info, write: false) { _, source -> Bool in
            withMappedFrame(copy, info: &info, write: true) { _, target -> Bool in
                transform.apply(source, into: target)
                return true
            } ?? false
        }
        guard done == true else {
            gst_buffer_unref(copy)
            return nil
        }
        return copy
    }

    private func samePicture(_ a: UnsafeMutablePointer<GstBuffer>, _ b: UnsafeMutablePointer<GstBuffer>) -> Bool {
        let same = withMappedFrame(a, info: &info, write: false) { _, first in
            withMappedFrame(b, info: &info, write: false) { _, second in first.hasSamePixels(as: second) }
        }
        return same == true
    }

    // MARK: The control thread

    /// The pass ended: with `loop`, the next pass's pictures come `length` (or, unknown, the
    /// pass's last picture's end) later; false when nothing more comes.
    func passEnded(loop: Bool, length: UInt64?) -> Bool {
        state.update { s in
            let passLength = length ?? s.passEnd
            guard loop, !s.stopping, passLength > 0 else {
                s.ended = true
                return false
            }
            s.offset += passLength
            s.passEnd = 0
            return true
        }
    }

    func end() { state.update { $0.ended = true } }

    /// Releases a decoding thread waiting for room; nothing is queued after this.
    func stop() { state.update { $0.stopping = true } }

    /// Pads deactivating (true) or activating: a video stream waiting for a picture returns.
    func setInterrupted(_ interrupted: Bool) { state.update { $0.interrupted = interrupted } }

    // MARK: The video stream

    var orientation: VideoOrientation? { state.withLock { $0.orientation } }

    var counts: Counts { state.withLock { $0.counts } }

    func next() -> Next {
        state.withLock { s in
            if let first = s.frames.first { return .frame(time: first.time) }
            return s.ended || s.stopping ? .ended : .waiting
        }
    }

    /// Waits up to `microseconds` for a picture or the end.
    func waitForFrame(microseconds: Int) {
        state.wait(until: { $0.videoMayGoOn },
                   deadline: Int(g_get_monotonic_time()) + microseconds, then: { _ in })
    }

    /// The picture on screen at `time`: the latest queued at or before it, or nil when none
    /// is. With `complete`, first waits until a later picture is queued or the file ended, so
    /// no picture due by `time` is still being decoded (non-live: exact, never late). Pictures
    /// it passes over were on screen for less than a slot.
    func take(through time: UInt64, complete: Bool) -> Frame? {
        var latest: Frame?
        while true {
            let (done, popped) = state.wait(until: { !complete || $0.videoMayGoOn },
                                            then: { s -> (Bool, Bool) in
                var popped = false
                while let first = s.frames.first, first.time <= time + Self.timeTolerance {
                    if let latest {
                        gst_buffer_unref(latest.buffer)
                        s.counts.superseded += 1
                    }
                    latest = s.frames.removeFirst()
                    popped = true
                }
                return (!complete || s.videoMayGoOn, popped)
            })
            if popped { state.update { _ in } }
            if done { break }
        }
        if latest != nil { state.withLock { $0.counts.shown += 1 } }
        return latest
    }

    /// A picture shown `lateness` ns after its slot, because it was decoded too late.
    func noteLate(by lateness: UInt64) {
        state.withLock { s in
            s.counts.late += 1
            s.counts.worstLateness = max(s.counts.worstLateness, lateness)
        }
    }
}
