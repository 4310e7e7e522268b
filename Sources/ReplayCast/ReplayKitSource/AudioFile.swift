// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayKitModel

/// app-location and mic-location: a file decoded by GStreamer (decodebin, audioconvert,
/// audioresample) into a stream's rate and channels when the broadcast starts, before any
/// stream runs, so no decoding ever happens on a streaming thread's deadline.
enum AudioFile {
    static let longestSeconds = 600

    private final class Collected: @unchecked Sendable {
        let samples = Locked<[Float]>([])
        let limit: Int

        init(limit: Int) { self.limit = limit }
    }

    static func decode(_ path: String, property: String, rate: Int, channels: Int,
                       loops: Bool) throws(BroadcastConfiguration.Failure) -> AudioClip {
        let fail = { (reason: String) in BroadcastConfiguration.Failure(description: "\(property) \(path): \(reason)") }
        let format = "audio/x-raw,format=F32LE,layout=interleaved,rate=\(rate),channels=\(channels)"
        guard let pipeline = gst_parse_launch(
            "filesrc name=file ! decodebin ! audioconvert ! audioresample ! \(format) ! fakesink name=sink sync=false", nil)
        else { throw fail("could not build a decoding pipeline") }
        defer {
            gst_element_set_state(pipeline, GST_STATE_NULL)
            gst_object_unref(pipeline)
        }
        let file = gst_bin_get_by_name(rc_bin(pipeline), "file")!, sink = gst_bin_get_by_name(rc_bin(pipeline), "sink")!
        defer {
            gst_object_unref(file)
            gst_object_unref(sink)
        }
        var location = GValue()
        g_value_init(&location, rc_type_string())
        g_value_set_string(&location, path)
        g_object_set_property(rc_gobject(file), "location", &location)
        g_value_unset(&location)

        let collected = Collected(limit: longestSeconds * rate * channels)
        let pad = gst_element_get_static_pad(sink, "sink")!
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, { _, info, context in
            let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
            let buffer = info!.pointee.data.assumingMemoryBound(to: GstBuffer.self)
            var map = GstMapInfo()
            guard gst_buffer_map(buffer, &map, GST_MAP_READ) != 0 else { return GST_PAD_PROBE_OK }
            defer { gst_buffer_unmap(buffer, &map) }
            let count = Int(map.size) / MemoryLayout<Float>.size
            collected.samples.withLock { samples in
                guard samples.count < collected.limit + 1 else { return }
                samples.append(contentsOf: UnsafeBufferPointer(start: UnsafeRawPointer(map.data).assumingMemoryBound(to: Float.self), count: count))
            }
            return GST_PAD_PROBE_OK
        }, Unmanaged.passRetained(collected).toOpaque(), { Unmanaged<Collected>.fromOpaque($0!).release() })
        gst_object_unref(pad)

        gst_element_set_state(pipeline, GST_STATE_PLAYING)
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        let ending = GstMessageType(rawValue: GST_MESSAGE_EOS.rawValue | GST_MESSAGE_ERROR.rawValue)
        guard let message = gst_bus_timed_pop_filtered(bus, 300_000_000_000, ending) else {
            throw fail("not decoded within 300 s")
        }
        defer { gst_message_unref(message) }
        if message.pointee.type == GST_MESSAGE_ERROR {
            var error: UnsafeMutablePointer<GError>?
            gst_message_parse_error(message, &error, nil)
            defer { g_clear_error(&error) }
            throw fail(error.map { String(cString: $0.pointee.message) } ?? "could not be decoded")
        }
        let samples = collected.samples.withLock { $0 }
        guard samples.count >= channels else { throw fail("holds no audio GStreamer can decode") }
        guard samples.count <= collected.limit else { throw fail("is longer than \(longestSeconds / 60) minutes") }
        return AudioClip(interleaved: samples, channels: channels, rate: rate, loops: loops)
    }
}
