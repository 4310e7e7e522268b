// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import HLSPackaging
import ReplayCastSupport

/// The folders every `hlssink2` writes to, made where missing (as ffmpeg's HLS muxer makes
/// its own) and checked before the pipeline starts. hlssink2 opens a segment file only when
/// the segment begins, with the stream already flowing: a folder that cannot take it fails
/// inside splitmuxsink, after its mpegtsmux has been given data without a segment (a
/// GStreamer-WARNING and a GStreamer-CRITICAL on 1.22, beside the error). Made and checked
/// first, the failure is one error from that hlssink2 naming the folder.
enum HLSFolders {
    /// Makes each hlssink2's segment and playlist folders and their missing parents. Posts an
    /// error from the first hlssink2 whose folder cannot be made or written, and returns
    /// false; true when every one can be written.
    static func prepared(in pipeline: UnsafeMutablePointer<GstElement>) -> Bool {
        for sink in BinElements.made(by: "hlssink2", in: pipeline) {
            for (property, what) in [("location", "segments"), ("playlist-location", "playlist")] {
                guard let path = ObjectProperties.string(sink, property), !path.isEmpty else { continue }
                let parent = (path as NSString).deletingLastPathComponent
                do {
                    _ = try OutputFolder(making: parent.isEmpty ? "." : parent)
                } catch let failure as OutputFolder.Failure {
                    postWriteError(from: sink, "cannot write the HLS \(what) \(path): the folder \(failure.path): \(failure.reason)",
                                   debug: "checked by ReplayCast's HLSFolders before the start")
                    return false
                } catch {
                    preconditionFailure("OutputFolder throws its Failure only")
                }
            }
        }
        return true
    }

    /// An OPEN_WRITE resource error from `sink`, as hlssink2's own failures are.
    static func postWriteError(from sink: UnsafeMutablePointer<GstElement>, _ text: String, debug: String) {
        var failure: UnsafeMutablePointer<GError>? = g_error_new_literal(gst_resource_error_quark(),
                                                                         gint(GST_RESOURCE_ERROR_OPEN_WRITE.rawValue), text)
        gst_element_post_message(sink, gst_message_new_error(rc_object(sink), failure, debug))
        g_clear_error(&failure)
    }
}
