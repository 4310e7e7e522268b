// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayKitModel

/// Element messages for the broadcast lifecycle, as the upload extension's callbacks see it.
enum BroadcastMessages {
    static let deviceField = Quark.of("device")
    static let widthField = Quark.of("width")
    static let heightField = Quark.of("height")
    static let setupInfoField = Quark.of("setup-info")
    static let liveField = Quark.of("is-live")
    static let broadcastTimeField = Quark.of("broadcast-time")
    static let runningTimeField = Quark.of("running-time")
    static let actionField = Quark.of("action")

    /// replaykit-broadcast-started: broadcastStarted(withSetupInfo:).
    static func started(_ element: UnsafeMutablePointer<RcReplayKitSrc>, configuration c: BroadcastConfiguration,
                        runningTime: GstClockTime) {
        let s = gst_structure_new_empty("replaykit-broadcast-started")!
        s.set(runningTimeField, uint64: runningTime)
        s.set(deviceField, string: c.profile.name)
        s.set(widthField, int: gint(c.width))
        s.set(heightField, int: gint(c.height))
        s.set(liveField, bool: c.live)
        if let info = SetupInfo.structure(c.setupInfo) { s.set(setupInfoField, taking: info) }
        DebugLog.replaykitsrc.info(element, "broadcast started: \(c.profile.name) \(c.width)x\(c.height), "
                                   + "\(c.live ? "live" : "non-live"), \(c.schedule.events.count) scheduled events")
        post(element, s)
    }

    /// replaykit-broadcast-paused / -resumed / -finished, and replaykit-broadcast-event for
    /// the other scheduled changes (orientation, mic, calls).
    static func lifecycle(_ element: UnsafeMutablePointer<RcReplayKitSrc>, event: BroadcastSchedule.Event,
                          runningTime: GstClockTime) {
        let name: String
        switch event.action {
        case .pause: name = "replaykit-broadcast-paused"
        case .resume: name = "replaykit-broadcast-resumed"
        case .finish: name = "replaykit-broadcast-finished"
        default: name = "replaykit-broadcast-event"
        }
        let s = gst_structure_new_empty(name)!
        s.set(broadcastTimeField, uint64: guint64(event.time))
        s.set(runningTimeField, uint64: runningTime)
        s.set(actionField, string: "\(event.action)")
        DebugLog.replaykitsrc.info(element, "\(event.action) at broadcast time \(event.time) ns (running time \(runningTime) ns)")
        post(element, s)
    }

    private static func post(_ element: UnsafeMutablePointer<RcReplayKitSrc>, _ s: UnsafeMutablePointer<GstStructure>) {
        gst_element_post_message(rc_element(element), gst_message_new_element(rc_object(element), s))
    }
}
