// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer

extension BroadcastIssue {
    /// An output that never reached `target` (an RTMP server, an SRT receiver), as the issue
    /// that ends the broadcast: a resource write error, as an element's own give-up is.
    static func neverConnected(element: String, target: String, why: String) -> BroadcastIssue {
        BroadcastIssue(element: element, message: "never connected to \(target): \(why)", debug: nil,
                       domain: String(cString: g_quark_to_string(gst_resource_error_quark())),
                       code: Int(GST_RESOURCE_ERROR_WRITE.rawValue), location: target)
    }
}
