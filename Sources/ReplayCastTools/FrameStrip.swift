// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import ReplayKitModel

/// Reads the barcode from the luma of a frame at full size; nil when the strip does not read
/// (or the frame is in none of `lumaFirstFormats`, which the decoders rule out). `element` is
/// the one whose sink pad has the frame's caps.
func stripReading(_ buffer: UnsafeMutablePointer<GstBuffer>, at element: UnsafeMutablePointer<GstElement>) -> BarcodeReader.Reading? {
    guard let pad = gst_element_get_static_pad(element, "sink") else { return nil }
    defer { gst_object_unref(pad) }
    guard let caps = gst_pad_get_current_caps(pad) else { return nil }
    defer { gst_caps_unref(caps) }
    var info = GstVideoInfo()
    guard gst_video_info_from_caps(&info, caps) != 0, let format = info.finfo?.pointee.format,
          lumaFirstFormats.contains(format) else { return nil }
    var frame = GstVideoFrame()
    guard gst_video_frame_map(&frame, &info, buffer, GST_MAP_READ) != 0 else { return nil }
    defer { gst_video_frame_unmap(&frame) }
    guard let luma = frame.data.0?.assumingMemoryBound(to: UInt8.self) else { return nil }
    return BarcodeReader.read(yPlane: luma, stride: Int(frame.info.stride.0), width: Int(info.width),
                              height: Int(info.height))
}

/// Formats whose first plane is the picture's 8-bit luma at full size, all the strip needs: a
/// decoder's I420 or NV12 is read as it comes, without converting each frame to GRAY8.
let lumaFirstFormats: [GstVideoFormat] = [GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_YV12,
                                          GST_VIDEO_FORMAT_NV12, GST_VIDEO_FORMAT_NV21]
