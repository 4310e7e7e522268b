// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport
import ReplayKitModel

/// app-location and mic-location: a file decoded by GStreamer (decodebin, audioconvert,
/// audioresample) into a stream's rate and channels when the broadcast starts, before any
/// stream runs, so no decoding ever happens on a streaming thread's deadline.
enum AudioFile {
    static let longestSeconds = 600

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
        ObjectProperties.set(file, "location", string: path)

        // One sample past the limit is enough to tell a file that is too long.
        let limit = longestSeconds * rate * channels
        let collected = Locked<[Float]>([])
        let pad = gst_element_get_static_pad(sink, "sink")!
        PadProbe.add(to: pad, GST_PAD_PROBE_TYPE_BUFFER) { _, buffer in
            _ = buffer.assumingMemoryBound(to: GstBuffer.self).withReadableBytes { bytes in
                collected.withLock { samples in
                    guard samples.count <= limit else { return }
                    samples.append(contentsOf: bytes.assumingMemoryBound(to: Float.self))
                }
            }
        }
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
        let samples = collected.withLock { $0 }
        guard samples.count >= channels else { throw fail("holds no audio GStreamer can decode") }
        guard samples.count <= limit else { throw fail("is longer than \(longestSeconds / 60) minutes") }
        return AudioClip(interleaved: samples, channels: channels, rate: rate, loops: loops)
    }
}
