// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import ReplayKitModel
import Synchronization

/// What `SyncCheck` reads from its decoder while it runs: every frame and audio buffer goes
/// to a `SyncMarkDetector`, every frame's `FrameBarcode` number to a `FramePacing`. Video is
/// converted to grey at full size, where the barcode is read from the strip's rows, then
/// scaled to 64x64 (the flash covers the frame, so the mean of a thumbnail is enough); audio
/// is mixed to mono F32. The streaming threads write; `findings` is read after the end.
final class SyncReading: Sendable {
    static let thumbnail = 64
    static let audioRate = 48000
    /// A file may hold seconds of one stream before the other (a pause, a muxer's
    /// interleaving): bounded queues would fill while the other sink waits for its first
    /// buffer, and the decoder would stall. The sinks do not preroll (async=false) either.
    static let unbounded = "max-size-time=0 max-size-buffers=0 max-size-bytes=0"

    private let detector = Locked(SyncMarkDetector())
    private let pacing = Locked(FramePacing())
    private let videoFrames = Atomic<Int>(0)
    private let audioSamples = Atomic<Int>(0)

    /// videoconvert turns the decoded frames to GRAY8 at full size for videoscale (which
    /// does not convert): the strip is read there, by the identity's handoff, in the
    /// streaming thread that hands the thumbnail of the same frame to the sink next.
    static func decoder(uri: String) -> String {
        """
        uridecodebin uri="\(uri)" name=decoder \
        decoder. ! video/x-raw ! queue name=video-in \(unbounded) ! videoconvert \
          ! identity name=strip signal-handoffs=true ! videoscale add-borders=false \
          ! video/x-raw,format=GRAY8,width=\(thumbnail),height=\(thumbnail) \
          ! fakesink name=video sync=false async=false signal-handoffs=true \
        decoder. ! audio/x-raw ! queue name=audio-in \(unbounded) ! audioconvert ! audioresample \
          ! audio/x-raw,format=F32LE,layout=interleaved,channels=1,rate=\(audioRate) \
          ! fakesink name=audio sync=false async=false signal-handoffs=true
        """
    }

    /// Connects to the elements of `decoder(uri:)`'s pipeline; each connection keeps `self`.
    init(pipeline: UnsafeMutablePointer<GstElement>) {
        connect(pipeline, "strip", "handoff", unsafeBitCast(onStrip as StripHandoff, to: GCallback.self))
        connect(pipeline, "video", "handoff", unsafeBitCast(onVideo as Handoff, to: GCallback.self))
        connect(pipeline, "audio", "handoff", unsafeBitCast(onAudio as Handoff, to: GCallback.self))
        let decoder = gst_bin_get_by_name(rc_bin(pipeline), "decoder")!
        defer { gst_object_unref(decoder) }
        g_signal_connect_data(decoder, "no-more-pads", unsafeBitCast(checkStreams as StreamsFound, to: GCallback.self),
                              pipeline, nil, GConnectFlags(rawValue: 0))
    }

    var findings: SyncCheck.Findings {
        SyncCheck.Findings(marks: detector.withLock { $0.report() }, pacing: pacing.withLock { $0 },
                           videoFrames: videoFrames.load(ordering: .relaxed),
                           audioSeconds: Double(audioSamples.load(ordering: .relaxed)) / Double(Self.audioRate))
    }

    private func connect(_ pipeline: UnsafeMutablePointer<GstElement>, _ name: String, _ signal: String, _ handler: GCallback) {
        let element = gst_bin_get_by_name(rc_bin(pipeline), name)!
        defer { gst_object_unref(element) }
        g_signal_connect_data(element, signal, handler, Unmanaged.passRetained(self).toOpaque(), releaseReading,
                              GConnectFlags(rawValue: 0))
    }

    fileprivate func addFrame(time: Double, duration: Double?, number: UInt32?) {
        pacing.withLock { $0.add(time: time, duration: duration, frameNumber: number) }
    }

    fileprivate func addThumbnail(time: Double, meanLuma: Double) {
        videoFrames.add(1, ordering: .relaxed)
        detector.withLock { $0.addVideoFrame(time: time, meanLuma: meanLuma) }
    }

    fileprivate func addAudio(time: Double, samples: UnsafeBufferPointer<Float>) {
        audioSamples.add(samples.count, ordering: .relaxed)
        detector.withLock { $0.addAudio(time: time, rate: Self.audioRate, samples: samples) }
    }
}

/// fakesink's handoff.
private typealias Handoff = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstBuffer>?,
                                            UnsafeMutablePointer<GstPad>?, gpointer?) -> Void
/// identity's handoff (no pad).
private typealias StripHandoff = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstBuffer>?,
                                                 gpointer?) -> Void
private typealias StreamsFound = @convention(c) (UnsafeMutablePointer<GstElement>?, gpointer?) -> Void

private func releaseReading(_ context: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
    guard let context else { return }
    Unmanaged<SyncReading>.fromOpaque(context).release()
}

private func reading(_ context: gpointer) -> SyncReading {
    Unmanaged<SyncReading>.fromOpaque(context).takeUnretainedValue()
}

/// Every stream of the output is known: without a video or an audio stream one sink would
/// never get data or an end, and the decoding would wait for it until the time-out.
private func checkStreams(_ decoder: UnsafeMutablePointer<GstElement>?, _ pipeline: gpointer?) {
    guard let decoder, let pipeline else { return }
    for (queue, kind) in [("video-in", "video"), ("audio-in", "audio")] {
        guard let element = gst_bin_get_by_name(rc_bin(pipeline), queue) else { continue }
        defer { gst_object_unref(element) }
        let pad = gst_element_get_static_pad(element, "sink")!
        defer { gst_object_unref(pad) }
        guard gst_pad_is_linked(pad) == 0 else { continue }
        let error = g_error_new_literal(gst_stream_error_quark(), gint(GST_STREAM_ERROR_DEMUX.rawValue),
                                        "the output has no \(kind) stream")
        _ = gst_element_post_message(decoder, gst_message_new_error(rc_object(decoder), error, nil))
        g_error_free(error)
        return
    }
}

private func seconds(_ buffer: UnsafeMutablePointer<GstBuffer>) -> Double? {
    let pts = buffer.pointee.pts
    return pts == GstClockTime.max ? nil : Timebase.seconds(pts)
}

private func onStrip(_ identity: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?,
                     _ context: gpointer?) {
    guard let identity, let buffer, let context, let time = seconds(buffer) else { return }
    let duration = buffer.pointee.duration
    reading(context).addFrame(time: time, duration: duration == GstClockTime.max ? nil : Timebase.seconds(duration),
                              number: stripReading(buffer, at: identity)?.frameNumber)
}

private func onVideo(_: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?,
                     _: UnsafeMutablePointer<GstPad>?, _ context: gpointer?) {
    guard let buffer, let context, let time = seconds(buffer) else { return }
    let mean: Double? = buffer.withReadableBytes { bytes in
        let count = min(bytes.count, SyncReading.thumbnail * SyncReading.thumbnail)
        guard count > 0 else { return nil }
        var sum = 0
        for index in 0 ..< count { sum += Int(bytes[index]) }
        return Double(sum) / Double(count)
    } ?? nil
    guard let mean else { return }
    reading(context).addThumbnail(time: time, meanLuma: mean)
}

private func onAudio(_: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?,
                     _: UnsafeMutablePointer<GstPad>?, _ context: gpointer?) {
    guard let buffer, let context, let time = seconds(buffer) else { return }
    buffer.withReadableBytes { bytes in
        let samples = UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: Float.self),
                                          count: bytes.count / MemoryLayout<Float>.size)
        reading(context).addAudio(time: time, samples: samples)
    }
}
