// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

/// rtmpreconnectsink's element messages: the connection's story, in order, for applications
/// and the CLI's status screen.
enum PublishMessages {
    static let locationField = Quark.of("location")
    static let attemptField = Quark.of("attempt")
    static let delayField = Quark.of("delay")
    static let retriesField = Quark.of("retries")
    static let reasonField = Quark.of("reason")
    static let downtimeField = Quark.of("downtime")
    static let droppedField = Quark.of("dropped")

    /// rtmp-connected: the server accepted the stream for the first time since start.
    static func connected(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, location: String, attempt: Int) {
        let s = structure("rtmp-connected", location)
        s.set(attemptField, uint64: guint64(attempt))
        DebugLog.rtmpreconnectsink.info(element, "connected to \(location) (attempt \(attempt))")
        post(element, s)
    }

    /// rtmp-disconnected: a stream the server had accepted broke.
    static func disconnected(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, location: String, reason: String) {
        let s = structure("rtmp-disconnected", location)
        s.set(reasonField, string: reason)
        DebugLog.rtmpreconnectsink.warning(element, "disconnected from \(location): \(reason)")
        post(element, s)
    }

    /// rtmp-reconnecting: attempt `attempt` starts after `delay` ns.
    static func reconnecting(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, location: String, attempt: Int,
                             delay: guint64, retries: Int?, reason: String) {
        let s = structure("rtmp-reconnecting", location)
        s.set(attemptField, uint64: guint64(attempt))
        s.set(delayField, uint64: delay)
        s.set(retriesField, int: gint(retries ?? -1))
        s.set(reasonField, string: reason)
        DebugLog.rtmpreconnectsink.info(element, "attempt \(attempt)\(retries.map { " of \($0)" } ?? "") in \(delay) ns: \(reason)")
        post(element, s)
    }

    /// rtmp-reconnected: the server accepted the stream again.
    static func reconnected(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, location: String, attempt: Int,
                            downtime: guint64, dropped: guint64) {
        let s = structure("rtmp-reconnected", location)
        s.set(attemptField, uint64: guint64(attempt))
        s.set(downtimeField, uint64: downtime)
        s.set(droppedField, uint64: dropped)
        DebugLog.rtmpreconnectsink.info(element, "reconnected to \(location) at attempt \(attempt) after \(downtime) ns, "
                                        + "\(dropped) buffers dropped meanwhile")
        post(element, s)
    }

    static let oldBitrateField = Quark.of("old-bitrate")
    static let newBitrateField = Quark.of("new-bitrate")
    static let queuedField = Quark.of("queued")
    static let sendRateField = Quark.of("send-rate")
    static let encoderField = Quark.of("encoder")

    /// rtmp-bitrate: adaptive-bitrate set the encoder's bitrate.
    static func bitrate(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, location: String, encoder: String,
                        _ decision: BitrateAdaptation.Decision) {
        let s = structure("rtmp-bitrate", location)
        s.set(oldBitrateField, int: gint(decision.old))
        s.set(newBitrateField, int: gint(decision.new))
        s.set(reasonField, string: decision.reason.rawValue)
        s.set(queuedField, uint64: guint64(decision.queued))
        s.set(sendRateField, int: gint(decision.sendRate))
        s.set(encoderField, string: encoder)
        DebugLog.rtmpreconnectsink.info(element, "\(decision.reason.rawValue): \(encoder) bitrate \(decision.old) -> \(decision.new) kbit/s "
                                        + "(\(Timebase.milliseconds(decision.queued)) ms waiting, \(decision.sendRate) kbit/s getting through)")
        post(element, s)
    }

    private static func structure(_ name: String, _ location: String) -> UnsafeMutablePointer<GstStructure> {
        let s = gst_structure_new_empty(name)!
        s.set(locationField, string: location)
        return s
    }

    private static func post(_ element: UnsafeMutablePointer<RcRtmpReconnectSink>, _ s: UnsafeMutablePointer<GstStructure>) {
        gst_element_post_message(rc_element(element), gst_message_new_element(rc_object(element), s))
    }
}
