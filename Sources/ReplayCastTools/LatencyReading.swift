// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import ReplayKitModel
import Synchronization

/// What `LatencyCheck` reads from a decoder: at every decoded frame, the real-time clock
/// less the capture time in the frame's barcode strip (replaykitsrc barcode-time=utc). The
/// frames reach the reader as soon as they are decoded (no sink waits on a clock), so a
/// latency is capture to decoded picture: what a player adds on top is its own buffering.
final class LatencyReading: Sendable {
    /// A picture decoded. Its strip read: the real-time clock less its capture time, in
    /// seconds, and that capture time (UTC nanoseconds); nil when the strip could not be read
    /// (a picture damaged by data lost on the way) or carries broadcast time.
    struct Frame: Sendable {
        var latency: Double?
        var capture: UInt64?
        /// Stream time since the picture decoded before it in this reading, in nanoseconds;
        /// nil for the first and for pictures without a time.
        var sincePrevious: UInt64?
    }

    struct Counts: Sendable {
        /// The pictures decoded since the last `take()`.
        var frames: [Frame] = []
        /// The last picture's stream time.
        var lastPicture: UInt64?
        /// Every latency read.
        var all: [Double] = []
        /// The stamp in the first readable strip.
        var firstStamp: UInt64?
        /// Frames without a readable strip.
        var unreadable = 0
        /// Frames whose strip carries broadcast time, not UTC.
        var broadcastTime = 0

        /// Adds another reading's frames (a later attempt at the same output).
        mutating func add(_ other: Counts) {
            all += other.all
            firstStamp = firstStamp ?? other.firstStamp
            unreadable += other.unreadable
            broadcastTime += other.broadcastTime
        }
    }

    private let counts = Locked(Counts())

    /// The video goes straight from the decoder to the reader, in the decoder's thread. Each
    /// other stream (audio) gets a fakesink of its own once it appears (`sinkOtherStreams`): a
    /// player joining a live RTMP stream gets audio before the next keyframe, and a demuxer
    /// with no linked stream stops, while a sink made up front would wait for an end that an
    /// output without audio never sends. The source is added by `addSource(uri:to:)`.
    /// videoconvert passes a decoder's 8-bit 4:2:0 frames through untouched (the strip reads
    /// their luma plane) and converts only other formats: converting every frame to GRAY8
    /// doubled the reader's CPU time, which a machine that also runs the broadcast lacks.
    static let decoder = """
        decodebin name=decoder \
        decoder. ! video/x-raw ! videoconvert ! video/x-raw,format={ I420, NV12, GRAY8 } \
          ! identity name=strip signal-handoffs=true ! fakesink sync=false async=false
        """

    /// The element GStreamer reads `uri` with, linked to the decoder; the reason when there is
    /// none. Not uridecodebin: from GStreamer 1.28 it puts a buffering queue2 after an rtmp://
    /// source, which a reader of live frames has no use for. (The late first frames seen with
    /// 1.28 came without it too: their cause is not known.)
    static func addSource(uri: String, to pipeline: UnsafeMutablePointer<GstElement>) -> String? {
        var error: UnsafeMutablePointer<GError>?
        guard let source = gst_element_make_from_uri(GST_URI_SRC, uri, "source", &error) else {
            defer { g_clear_error(&error) }
            return error.map { String(cString: $0.pointee.message) } ?? "no element reads \(uri)"
        }
        _ = gst_bin_add(rc_bin(pipeline), source)
        let decoder = gst_bin_get_by_name(rc_bin(pipeline), "decoder")!
        defer { gst_object_unref(decoder) }
        guard gst_element_link(source, decoder) != 0 else { return "cannot link \(uri)'s source to a decoder" }
        return nil
    }

    init(pipeline: UnsafeMutablePointer<GstElement>) {
        let strip = gst_bin_get_by_name(rc_bin(pipeline), "strip")!
        defer { gst_object_unref(strip) }
        g_signal_connect_data(strip, "handoff", unsafeBitCast(onFrame as FrameHandoff, to: GCallback.self),
                              Unmanaged.passRetained(self).toOpaque(), releaseReading, GConnectFlags(rawValue: 0))
        let decoder = gst_bin_get_by_name(rc_bin(pipeline), "decoder")!
        defer { gst_object_unref(decoder) }
        g_signal_connect_data(decoder, "pad-added", unsafeBitCast(sinkOtherStreams as PadAdded, to: GCallback.self),
                              pipeline, nil, GConnectFlags(rawValue: 0))
    }

    var snapshot: Counts { counts.withLock { $0 } }

    var firstStamp: UInt64? { counts.withLock { $0.firstStamp } }

    /// The frames read since the last call.
    func take() -> [Frame] {
        counts.withLock { counts in
            defer { counts.frames.removeAll(keepingCapacity: true) }
            return counts.frames
        }
    }

    fileprivate func add(_ reading: BarcodeReader.Reading?, at now: UInt64, time: GstClockTime) {
        counts.withLock { counts in
            var frame = Frame()
            if time != GstClockTime.max {
                if let last = counts.lastPicture, UInt64(time) > last { frame.sincePrevious = UInt64(time) - last }
                counts.lastPicture = UInt64(time)
            }
            defer { counts.frames.append(frame) }
            guard let reading else {
                counts.unreadable += 1
                return
            }
            if counts.firstStamp == nil { counts.firstStamp = reading.timestamp }
            guard UTCTime.isPlausible(reading.timestamp) else {
                counts.broadcastTime += 1
                return
            }
            let latency = Timebase.seconds(Double(now) - Double(reading.timestamp))
            (frame.latency, frame.capture) = (latency, reading.timestamp)
            counts.all.append(latency)
        }
    }
}

/// identity's handoff (no pad).
private typealias FrameHandoff = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstBuffer>?,
                                                 gpointer?) -> Void

private typealias PadAdded = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?)
    -> Void

/// A stream other than raw video (the description links that one): into a fakesink.
private func sinkOtherStreams(_: UnsafeMutablePointer<GstElement>?, _ pad: UnsafeMutablePointer<GstPad>?,
                              _ pipeline: gpointer?) {
    guard let pad, let pipeline else { return }
    let caps = gst_pad_get_current_caps(pad) ?? gst_pad_query_caps(pad, nil)!
    defer { gst_caps_unref(caps) }
    if let structure = gst_caps_get_structure(caps, 0), String(cString: gst_structure_get_name(structure)) == "video/x-raw" {
        return
    }
    guard let sink = gst_element_factory_make("fakesink", nil) else { return }
    gst_util_set_object_arg(rc_gobject(sink), "sync", "false")
    gst_util_set_object_arg(rc_gobject(sink), "async", "false")
    _ = gst_bin_add(rc_bin(pipeline), sink)
    _ = gst_element_sync_state_with_parent(sink)
    let sinkPad = gst_element_get_static_pad(sink, "sink")!
    defer { gst_object_unref(sinkPad) }
    _ = gst_pad_link(pad, sinkPad)
}

private func releaseReading(_ context: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
    guard let context else { return }
    Unmanaged<LatencyReading>.fromOpaque(context).release()
}

private func onFrame(_ identity: UnsafeMutablePointer<GstElement>?, _ buffer: UnsafeMutablePointer<GstBuffer>?,
                     _ context: gpointer?) {
    guard let identity, let buffer, let context else { return }
    let now = UTCTime.now()
    Unmanaged<LatencyReading>.fromOpaque(context).takeUnretainedValue().add(stripReading(buffer, at: identity), at: now,
                                                                          time: buffer.pointee.pts)
}
