// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import ReplayCastSupport
import ReplayKitModel

public typealias BroadcastAction = ReplayKitModel.BroadcastAction
public typealias VideoOrientation = ReplayKitModel.VideoOrientation
public typealias MicMode = ReplayKitModel.MicMode

/// Bus messages to events. Names and fields come from replaycast.h, the C applications'
/// header, so both read the elements the same way.
struct MessageDecoding {
    /// Segments each hlssink2 (by name) has closed so far: hlssink2 numbers its files from 0.
    private var segmentCounts: [String: Int] = [:]

    /// The event a message stands for, nil for messages no event reports.
    mutating func event(_ message: UnsafeMutablePointer<GstMessage>) -> BroadcastEvent? {
        let source = message.pointee.src.map { String(cString: rc_object_name($0)) } ?? "?"
        switch message.pointee.type {
        case GST_MESSAGE_EOS: return .endOfStream
        case GST_MESSAGE_ERROR: return .error(Self.issue(message, source: source))
        case GST_MESSAGE_WARNING: return .warning(Self.issue(message, source: source))
        case GST_MESSAGE_ELEMENT:
            guard let s = gst_message_get_structure(message) else { return nil }
            if String(cString: gst_structure_get_name(s)) == "splitmuxsink-fragment-closed" {
                return segment(s, from: message.pointee.src)
            }
            return Self.element(s, source: source)
        default: return nil
        }
    }

    static func issue(_ message: UnsafeMutablePointer<GstMessage>, source: String) -> BroadcastIssue {
        var gerror: UnsafeMutablePointer<GError>?
        var debug: UnsafeMutablePointer<gchar>?
        if message.pointee.type == GST_MESSAGE_ERROR {
            gst_message_parse_error(message, &gerror, &debug)
        } else {
            gst_message_parse_warning(message, &gerror, &debug)
        }
        defer { g_clear_error(&gerror); g_free(debug) }
        return BroadcastIssue(element: source,
                              message: gerror.map { String(cString: $0.pointee.message) } ?? "",
                              debug: debug.map { String(cString: $0) },
                              domain: gerror.map { String(cString: g_quark_to_string($0.pointee.domain)) } ?? "",
                              code: Int(gerror?.pointee.code ?? 0),
                              location: location(of: message.pointee.src))
    }

    /// The `location` (or `uri`) of the element that posted an issue, so the issue names what
    /// could not be opened even when GStreamer's text does not. An element without one
    /// (giostreamsink writing hlssink2's segments) takes its nearest container's.
    private static func location(of object: UnsafeMutablePointer<GstObject>?) -> String? {
        guard let object else { return nil }
        // srtsink and other URI sinks name their destination `uri`.
        for name in ["location", "uri"] where g_object_class_find_property(rc_object_class(object), name) != nil {
            // An SRT location's passphrase is masked (rtmpreconnectsink's own messages do the same).
            if let location = ObjectProperties.string(object, name) { return PublishTransport.shown(location) }
        }
        guard let parent = gst_object_get_parent(object) else { return nil }
        defer { gst_object_unref(parent) }
        return location(of: parent)
    }

    private static func element(_ s: UnsafePointer<GstStructure>, source: String) -> BroadcastEvent? {
        let name = String(cString: gst_structure_get_name(s))
        switch name {
        // GStreamer's level posts the same fields: a meter reads either.
        case REPLAYCAST_MESSAGE_VOLUMEMETER, "level":
            guard var reading = MeterReading(s) else { return nil }
            reading.element = source
            return .meter(reading)
        case REPLAYCAST_MESSAGE_LLHLSSINK_SEGMENT:
            return .segmentWritten(HLSSegment(element: source, location: StructureFields.string(s, REPLAYCAST_FIELD_LOCATION) ?? "",
                                              index: StructureFields.count(s, REPLAYCAST_FIELD_SEQUENCE),
                                              runningTime: StructureFields.time(s, REPLAYCAST_FIELD_RUNNING_TIME) ?? .zero,
                                              rendition: StructureFields.string(s, REPLAYCAST_FIELD_RENDITION),
                                              bytes: StructureFields.count(s, REPLAYCAST_FIELD_BYTES),
                                              duration: StructureFields.time(s, REPLAYCAST_FIELD_DURATION)))
        case REPLAYCAST_MESSAGE_DUALMIXER_LEVELS:
            return .mixerLevels(mixerLevels(s, source: source))
        case REPLAYCAST_MESSAGE_BROADCAST_STARTED:
            return .started(BroadcastSetup(device: StructureFields.string(s, REPLAYCAST_FIELD_DEVICE) ?? "",
                                           width: StructureFields.int(s, REPLAYCAST_FIELD_WIDTH),
                                           height: StructureFields.int(s, REPLAYCAST_FIELD_HEIGHT),
                                           isLive: StructureFields.boolean(s, REPLAYCAST_FIELD_IS_LIVE),
                                           setupInfo: StructureFields.structureText(s, REPLAYCAST_FIELD_SETUP_INFO)))
        case REPLAYCAST_MESSAGE_BROADCAST_PAUSED: return .paused(moment(s))
        case REPLAYCAST_MESSAGE_BROADCAST_RESUMED: return .resumed(moment(s))
        case REPLAYCAST_MESSAGE_BROADCAST_FINISHED: return .finished(moment(s))
        case REPLAYCAST_MESSAGE_BROADCAST_EVENT:
            guard let text = StructureFields.string(s, REPLAYCAST_FIELD_ACTION),
                  case .success(let action) = BroadcastSchedule.action(text[...]) else { return nil }
            switch action {
            case .orientation(let orientation): return .orientationChanged(orientation, moment(s))
            case .micFormat(let rate, let channels): return .micFormatChanged(rate: rate, channels: channels, moment(s))
            default: return .changed(action, moment(s))
            }
        case REPLAYCAST_MESSAGE_RTMP_CONNECTED, REPLAYCAST_MESSAGE_RTMP_DISCONNECTED,
             REPLAYCAST_MESSAGE_RTMP_RECONNECTING, REPLAYCAST_MESSAGE_RTMP_RECONNECTED, REPLAYCAST_MESSAGE_RTMP_BITRATE:
            return .rtmp(RTMPEvent(element: source, location: StructureFields.string(s, REPLAYCAST_FIELD_LOCATION) ?? "",
                                   change: rtmpChange(name, s)))
        default:
            return nil
        }
    }

    /// hlssink2 1.22 posts nothing of its own per segment; its splitmuxsink does, without the
    /// file's name (hlssink2 opens the files itself): that comes from hlssink2's `location`
    /// pattern and the segment's number.
    private mutating func segment(_ s: UnsafePointer<GstStructure>,
                                  from splitmux: UnsafeMutablePointer<GstObject>?) -> BroadcastEvent? {
        guard let splitmux, let sink = gst_object_get_parent(splitmux) else { return nil }
        defer { gst_object_unref(sink) }
        let name = String(cString: rc_object_name(sink))
        let index = segmentCounts[name, default: 0]
        segmentCounts[name] = index + 1
        var location = StructureFields.string(s, REPLAYCAST_FIELD_LOCATION)
        if location == nil, g_object_class_find_property(rc_object_class(sink), "location") != nil {
            location = ObjectProperties.string(sink, "location").map { String(format: $0, Int32(truncatingIfNeeded: index)) }
        }
        return .segmentWritten(HLSSegment(element: name, location: location ?? "", index: index,
                                          runningTime: StructureFields.time(s, REPLAYCAST_FIELD_RUNNING_TIME) ?? .zero))
    }

    private static func rtmpChange(_ name: String, _ s: UnsafePointer<GstStructure>) -> RTMPEvent.Change {
        let attempt = StructureFields.count(s, REPLAYCAST_FIELD_ATTEMPT)
        let reason = StructureFields.string(s, REPLAYCAST_FIELD_REASON) ?? ""
        switch name {
        case REPLAYCAST_MESSAGE_RTMP_CONNECTED:
            return .connected(attempt: attempt)
        case REPLAYCAST_MESSAGE_RTMP_DISCONNECTED:
            return .disconnected(reason: reason)
        case REPLAYCAST_MESSAGE_RTMP_RECONNECTING:
            let retries = StructureFields.int(s, REPLAYCAST_FIELD_RETRIES)
            return .reconnecting(attempt: attempt, delay: StructureFields.time(s, REPLAYCAST_FIELD_DELAY) ?? .zero,
                                 retries: retries < 0 ? nil : retries, reason: reason)
        case REPLAYCAST_MESSAGE_RTMP_BITRATE:
            return .bitrateChanged(BitrateChange(
                old: StructureFields.int(s, REPLAYCAST_FIELD_OLD_BITRATE), new: StructureFields.int(s, REPLAYCAST_FIELD_NEW_BITRATE),
                congested: reason == "congested", queued: StructureFields.time(s, REPLAYCAST_FIELD_QUEUED) ?? .zero,
                sendRate: StructureFields.int(s, REPLAYCAST_FIELD_SEND_RATE),
                encoder: StructureFields.string(s, REPLAYCAST_FIELD_ENCODER) ?? ""))
        default:
            return .reconnected(attempt: attempt, downtime: StructureFields.time(s, REPLAYCAST_FIELD_DOWNTIME) ?? .zero,
                                dropped: StructureFields.count(s, REPLAYCAST_FIELD_DROPPED))
        }
    }

    private static func mixerLevels(_ s: UnsafePointer<GstStructure>, source: String) -> MixerLevels {
        func state(_ field: String) -> MixerLevels.InputState? {
            StructureFields.string(s, field).flatMap(MixerLevels.InputState.init(rawValue:))
        }
        func levels(_ rms: String, _ peak: String) -> MixerLevels.Levels {
            .init(rms: StructureFields.doubles(s, rms), peak: StructureFields.doubles(s, peak))
        }
        return MixerLevels(element: source,
                           runningTime: StructureFields.time(s, REPLAYCAST_FIELD_RUNNING_TIME) ?? .zero,
                           duration: StructureFields.time(s, REPLAYCAST_FIELD_DURATION) ?? .zero,
                           app: levels(REPLAYCAST_FIELD_APP_RMS, REPLAYCAST_FIELD_APP_PEAK),
                           mic: levels(REPLAYCAST_FIELD_MIC_RMS, REPLAYCAST_FIELD_MIC_PEAK),
                           mix: levels(REPLAYCAST_FIELD_MIX_RMS, REPLAYCAST_FIELD_MIX_PEAK),
                           appState: state(REPLAYCAST_FIELD_APP_STATE), micState: state(REPLAYCAST_FIELD_MIC_STATE))
    }

    private static func moment(_ s: UnsafePointer<GstStructure>) -> BroadcastMoment {
        BroadcastMoment(broadcastTime: StructureFields.time(s, REPLAYCAST_FIELD_BROADCAST_TIME) ?? .zero,
                        runningTime: StructureFields.time(s, REPLAYCAST_FIELD_RUNNING_TIME) ?? .zero)
    }
}
