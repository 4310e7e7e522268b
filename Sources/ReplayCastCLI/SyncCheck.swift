// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCast
import ReplayCastKit
import ReplayKitModel
import Synchronization

/// Decodes an output (HLS playlist, FLV, MP4, a URL) as fast as it can and feeds every
/// frame and audio buffer to a `SyncMarkDetector`, and every frame's `FrameBarcode` number to
/// a `FramePacing`. Video is converted to grey at full size, where the barcode is read from
/// the strip's rows, then scaled to 64x64 (the flash covers the frame, so the mean of a
/// thumbnail is enough); audio is mixed to mono F32.
struct SyncCheck {
    static let thumbnail = 64
    static let audioRate = 48000
    /// A file may hold seconds of one stream before the other (a pause, a muxer's
    /// interleaving): bounded queues would fill while the other sink waits for its first
    /// buffer, and the decoder would stall. The sinks do not preroll (async=false) either.
    static let unbounded = "max-size-time=0 max-size-buffers=0 max-size-bytes=0"

    let input: String
    let timeout: Double

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Findings {
        var marks: SyncMarkDetector.Report
        var pacing: FramePacing
        var videoFrames: Int
        var audioSeconds: Double
    }

    /// Per-run state the streaming threads write to; read after the pipeline stopped.
    final class Collector: Sendable {
        let detector = Locked(SyncMarkDetector())
        let pacing = Locked(FramePacing())
        let videoFrames = Atomic<Int>(0)
        let audioSamples = Atomic<Int>(0)
    }

    var uri: String {
        if input.contains("://") { return input }
        guard let converted = gst_filename_to_uri(input, nil) else { return input }
        defer { g_free(converted) }
        return String(cString: converted)
    }

    func run() throws -> Findings {
        gst_init(nil, nil)
        if !input.contains("://"), !FileManager.default.fileExists(atPath: input) {
            throw Failure(description: "\(input): no such file")
        }
        // videoconvert turns the decoded frames to GRAY8 at full size for videoscale (which
        // does not convert): the strip is read there, by the identity's handoff, in the
        // streaming thread that hands the thumbnail of the same frame to the sink next.
        let description = """
            uridecodebin uri="\(uri)" name=decoder \
            decoder. ! video/x-raw ! queue name=video-in \(Self.unbounded) ! videoconvert \
              ! identity name=strip signal-handoffs=true ! videoscale add-borders=false \
              ! video/x-raw,format=GRAY8,width=\(Self.thumbnail),height=\(Self.thumbnail) \
              ! fakesink name=video sync=false async=false signal-handoffs=true \
            decoder. ! audio/x-raw ! queue name=audio-in \(Self.unbounded) ! audioconvert ! audioresample \
              ! audio/x-raw,format=F32LE,layout=interleaved,channels=1,rate=\(Self.audioRate) \
              ! fakesink name=audio sync=false async=false signal-handoffs=true
            """
        var error: UnsafeMutablePointer<GError>?
        guard let pipeline = gst_parse_launch(description, &error), error == nil else {
            let text = error.map { String(cString: $0.pointee.message) } ?? "cannot build the decoder"
            g_clear_error(&error)
            throw Failure(description: text)
        }
        defer { gst_object_unref(pipeline) }
        let collector = Collector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        connect(pipeline, "strip", context.toOpaque(), unsafeBitCast(onStrip as StripHandoff, to: GCallback.self))
        connect(pipeline, "video", context.toOpaque(), unsafeBitCast(onVideo as Handoff, to: GCallback.self))
        connect(pipeline, "audio", context.toOpaque(), unsafeBitCast(onAudio as Handoff, to: GCallback.self))
        let decoder = gst_bin_get_by_name(rc_bin(pipeline), "decoder")!
        g_signal_connect_data(decoder, "no-more-pads", unsafeBitCast(checkStreams as StreamsFound, to: GCallback.self),
                              pipeline, nil, GConnectFlags(rawValue: 0))
        gst_object_unref(decoder)

        let outcome = PipelineRunner.runToEnd(pipeline, timeout: timeout)
        PipelineEnding.stop(pipeline)
        if let failure = outcome { throw Failure(description: "\(input): \(failure)") }
        return Findings(marks: collector.detector.withLock { $0.report() }, pacing: collector.pacing.withLock { $0 },
                        videoFrames: collector.videoFrames.load(ordering: .relaxed),
                        audioSeconds: Double(collector.audioSamples.load(ordering: .relaxed)) / Double(Self.audioRate))
    }

    /// fakesink's handoff.
    private typealias Handoff = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstBuffer>?,
                                                UnsafeMutablePointer<GstPad>?, gpointer?) -> Void
    /// identity's handoff (no pad).
    private typealias StripHandoff = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstBuffer>?,
                                                     gpointer?) -> Void

    private func connect(_ pipeline: UnsafeMutablePointer<GstElement>, _ name: String, _ context: UnsafeMutableRawPointer,
                         _ handler: GCallback) {
        let element = gst_bin_get_by_name(rc_bin(pipeline), name)!
        defer { gst_object_unref(element) }
        g_signal_connect_data(element, "handoff", handler, context, nil, GConnectFlags(rawValue: 0))
    }
}

private typealias StreamsFound = @convention(c) (UnsafeMutablePointer<GstElement>?, gpointer?) -> Void

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
    return pts == GstClockTime.max ? nil : Double(pts) / 1e9
}

/// Reads the barcode of a GRAY8 frame at full size; nil when the strip does not read (or
/// the frame is not GRAY8, which the pipeline above rules out).
private func frameNumber(_ buffer: UnsafeMutablePointer<GstBuffer>, at element: UnsafeMutablePointer<GstElement>) -> UInt32? {
    guard let pad = gst_element_get_static_pad(element, "sink") else { return nil }
    defer { gst_object_unref(pad) }
    guard let caps = gst_pad_get_current_caps(pad) else { return nil }
    defer { gst_caps_unref(caps) }
    var info = GstVideoInfo()
    guard gst_video_info_from_caps(&info, caps) != 0, info.finfo?.pointee.format == GST_VIDEO_FORMAT_GRAY8 else { return nil }
    var frame = GstVideoFrame()
    guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else { return nil }
    defer { gst_video_frame_unmap(&frame) }
    guard let luma = frame.data.0?.assumingMemoryBound(to: UInt8.self) else { return nil }
    return BarcodeReader.read(yPlane: luma, stride: Int(frame.info.stride.0), width: Int(info.width),
                              height: Int(info.height))?.frameNumber
}

private func onStrip(_ identity: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?,
                     _ context: gpointer?) {
    guard let identity, let buffer, let context, let time = seconds(buffer) else { return }
    let collector = Unmanaged<SyncCheck.Collector>.fromOpaque(context).takeUnretainedValue()
    let duration = buffer.pointee.duration
    let number = frameNumber(buffer, at: identity)
    collector.pacing.withLock {
        $0.add(time: time, duration: duration == GstClockTime.max ? nil : Double(duration) / 1e9, frameNumber: number)
    }
}

private func onVideo(_: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?,
                     _: UnsafeMutablePointer<GstPad>?, _ context: gpointer?) {
    guard let buffer, let context, let time = seconds(buffer) else { return }
    let collector = Unmanaged<SyncCheck.Collector>.fromOpaque(context).takeUnretainedValue()
    let mean: Double? = buffer.withReadableBytes { bytes in
        let count = min(bytes.count, SyncCheck.thumbnail * SyncCheck.thumbnail)
        guard count > 0 else { return nil }
        var sum = 0
        for index in 0 ..< count { sum += Int(bytes[index]) }
        return Double(sum) / Double(count)
    } ?? nil
    guard let mean else { return }
    collector.videoFrames.add(1, ordering: .relaxed)
    collector.detector.withLock { $0.addVideoFrame(time: time, meanLuma: mean) }
}

private func onAudio(_: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?,
                     _: UnsafeMutablePointer<GstPad>?, _ context: gpointer?) {
    guard let buffer, let context, let time = seconds(buffer) else { return }
    let collector = Unmanaged<SyncCheck.Collector>.fromOpaque(context).takeUnretainedValue()
    buffer.withReadableBytes { bytes in
        let samples = UnsafeBufferPointer(start: bytes.baseAddress?.assumingMemoryBound(to: Float.self),
                                          count: bytes.count / MemoryLayout<Float>.size)
        collector.audioSamples.add(samples.count, ordering: .relaxed)
        collector.detector.withLock { $0.addAudio(time: time, rate: SyncCheck.audioRate, samples: samples) }
    }
}
