// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastKit
import ReplayCastSupport
import ReplayKitModel

public typealias BroadcastTrace = ReplayKitModel.BroadcastTrace
public typealias TraceReader = ReplayKitModel.TraceReader

/// Records what a replaykitsrc delivers as a device trace: every buffer of its three pads
/// (type, time, duration, format, frame count, orientation) and the lifecycle from its
/// messages. replaykitsrc's `trace` property replays the result; `replaycast trace record`
/// writes it for any pipeline.
///
/// Attach it before the pipeline starts and `detach` it once the pipeline has stopped (the
/// pipeline's bus holds the recorder until then); `text` is the trace so far. Buffers are
/// noted on the streaming threads (a lock, a small append; lines are written only by `text`),
/// messages on the thread that posts them.
public final class TraceRecorder: Sendable {
    private struct Entry {
        enum Item {
            case sample(BroadcastTrace.Sample)
            case lifecycle(String)
        }

        var deliveredAt: UInt64
        /// Lifecycle changes before samples delivered at the same time.
        var rank: Int
        var item: Item
    }

    private struct State {
        var entries: [Entry] = []
        var started: String?
        var formats: [BroadcastTrace.Content?] = [nil, nil, nil]
        var orientation: VideoOrientation = .up
    }

    private struct Listening: @unchecked Sendable {
        let bus: UnsafeMutablePointer<GstBus>
        let handler: gulong
    }

    private let state = Locked(State())
    /// Only compared with a message's source, never dereferenced.
    private let source: UInt
    private let listening = Locked<Listening?>(nil)

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Records `source`, a replaykitsrc inside a pipeline.
    public init(source: UnsafeMutablePointer<GstElement>) throws(Failure) {
        guard let factory = gst_element_get_factory(source), String(cString: rc_object_name(UnsafeMutableRawPointer(factory))) == "replaykitsrc"
        else { throw Failure(description: "a trace records a replaykitsrc") }
        // Elements inside a bin post to the bin's own bus, which hands every message up and
        // keeps none, so the messages are seen on the top-level pipeline's bus.
        var top = UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstObject.self)
        gst_object_ref(top)
        while let parent = gst_object_get_parent(top) {
            gst_object_unref(top)
            top = parent
        }
        defer { gst_object_unref(top) }
        guard top != UnsafeMutableRawPointer(source).assumingMemoryBound(to: GstObject.self),
              let bus = gst_element_get_bus(UnsafeMutableRawPointer(top).assumingMemoryBound(to: GstElement.self)) else {
            throw Failure(description: "the replaykitsrc to record must be inside a pipeline")
        }
        self.source = UInt(bitPattern: source)
        for type in BroadcastTrace.SampleType.allCases {
            let name = ["video", "audio_app", "audio_mic"][type.streamIndex]
            guard let pad = gst_element_get_static_pad(source, name) else { continue }
            let mask = GstPadProbeType(GST_PAD_PROBE_TYPE_BUFFER.rawValue | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
            PadProbe.add(to: pad, mask) { info, data in
                if info.pointee.type.rawValue & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0 {
                    self.note(buffer: data.assumingMemoryBound(to: GstBuffer.self), type: type)
                } else {
                    self.note(event: data.assumingMemoryBound(to: GstEvent.self), type: type)
                }
            }
            gst_object_unref(pad)
        }
        gst_bus_enable_sync_message_emission(bus)
        let id = g_signal_connect_data(bus, "sync-message::element", unsafeBitCast(noteMessage as MessageHandler, to: GCallback.self),
                                       Unmanaged.passRetained(self).toOpaque(), releaseRecorder, GConnectFlags(rawValue: 0))
        listening.withLock { $0 = Listening(bus: bus, handler: id) }
    }

    /// Records the one replaykitsrc of `broadcast`'s pipeline.
    public convenience init(_ broadcast: Broadcast) throws(Failure) {
        let sources = BinElements.made(by: "replaykitsrc", in: broadcast.pipeline)
        guard sources.count == 1 else {
            throw Failure(description: "a trace records one replaykitsrc; the pipeline has \(sources.count)")
        }
        try self.init(source: sources[0])
    }

    /// Stops listening to the pipeline's messages (the pads' probes go with the element).
    public func detach() {
        guard let listening = listening.withLock({ $0.take() }) else { return }
        g_signal_handler_disconnect(listening.bus, listening.handler)
        gst_bus_disable_sync_message_emission(listening.bus)
        gst_object_unref(listening.bus)
    }

    /// The trace: the header, the start, then samples and lifecycle in the order they were delivered.
    public var text: String {
        let (started, entries) = state.withLock { ($0.started, $0.entries) }
        let ordered = entries.enumerated().sorted { a, b in
            (a.element.deliveredAt, a.element.rank, a.offset) < (b.element.deliveredAt, b.element.rank, b.offset)
        }
        let lines = ordered.map { entry in
            switch entry.element.item {
            case .sample(let sample): TraceLine.sample(sample)
            case .lifecycle(let line): line
            }
        }
        return ([TraceLine.header] + (started.map { [$0] } ?? []) + lines).joined(separator: "\n") + "\n"
    }

    /// How many sample buffers the trace holds so far.
    public var sampleCount: Int {
        state.withLock { $0.entries.count { if case .sample = $0.item { true } else { false } } }
    }

    private func note(buffer: UnsafeMutablePointer<GstBuffer>, type: BroadcastTrace.SampleType) {
        let pts = UInt64(buffer.pointee.pts), duration = UInt64(buffer.pointee.duration)
        let size = Int(gst_buffer_get_size(buffer))
        state.withLock { s in
            guard var content = s.formats[type.streamIndex] else { return }
            switch content {
            case .video(let width, let height, _):
                content = .video(width: width, height: height, orientation: s.orientation)
            case .audio(let format, _):
                content = .audio(format, frames: size / (format.channels * format.format.bytesPerSample))
            }
            let sample = BroadcastTrace.Sample(type: type, time: pts, duration: duration == UInt64.max ? nil : duration,
                                               content: content)
            s.entries.append(Entry(deliveredAt: sample.audioEnd ?? pts, rank: 1, item: .sample(sample)))
        }
    }

    private func note(event: UnsafeMutablePointer<GstEvent>, type: BroadcastTrace.SampleType) {
        switch rc_event_type(event) {
        case GST_EVENT_CAPS:
            var caps: UnsafeMutablePointer<GstCaps>?
            gst_event_parse_caps(event, &caps)
            guard let caps, let content = Self.content(caps) else { return }
            state.withLock { $0.formats[type.streamIndex] = content }
        case GST_EVENT_TAG:
            var tags: UnsafeMutablePointer<GstTagList>?
            gst_event_parse_tag(event, &tags)
            var text: UnsafeMutablePointer<gchar>?
            guard let tags, gst_tag_list_get_string(tags, GST_TAG_IMAGE_ORIENTATION, &text) != 0, let text else { return }
            defer { g_free(text) }
            let tag = String(cString: text)
            if let orientation = VideoOrientation.allCases.first(where: { $0.orientation.rawValue == tag }) {
                state.withLock { $0.orientation = orientation }
            }
        default:
            break
        }
    }

    private static func content(_ caps: UnsafeMutablePointer<GstCaps>) -> BroadcastTrace.Content? {
        guard let s = gst_caps_get_structure(caps, 0) else { return nil }
        var a: gint = 0, b: gint = 0
        if String(cString: gst_structure_get_name(s)) == "video/x-raw" {
            guard gst_structure_get_int(s, "width", &a) != 0, gst_structure_get_int(s, "height", &b) != 0 else { return nil }
            return .video(width: Int(a), height: Int(b), orientation: .up)
        }
        guard gst_structure_get_int(s, "rate", &a) != 0, gst_structure_get_int(s, "channels", &b) != 0,
              let format = gst_structure_get_string(s, "format") else { return nil }
        let sampleFormat: MediaKernels.SampleFormat = String(cString: format) == "S16BE" ? .s16be : .s16le
        return .audio(.init(rate: Int(a), channels: Int(b), format: sampleFormat), frames: 0)
    }

    fileprivate func note(message: UnsafeMutablePointer<GstMessage>) {
        guard UInt(bitPattern: message.pointee.src) == source, let s = gst_message_get_structure(message) else { return }
        var running: guint64 = 0
        guard gst_structure_get_uint64(s, REPLAYCAST_FIELD_RUNNING_TIME, &running) != 0 else { return }
        let time = UInt64(running)
        let name = String(cString: gst_structure_get_name(s))
        let kinds: [String: TraceLine.Lifecycle] = [
            REPLAYCAST_MESSAGE_BROADCAST_PAUSED: .paused, REPLAYCAST_MESSAGE_BROADCAST_RESUMED: .resumed,
            REPLAYCAST_MESSAGE_BROADCAST_FINISHED: .finished,
        ]
        if name == REPLAYCAST_MESSAGE_BROADCAST_STARTED {
            let line = TraceLine.lifecycle(.started, time: time, setupInfo: Self.setupInfo(s))
            state.withLock { $0.started = line }
        } else if let kind = kinds[name] {
            // The last buffer, cut at the sample nearest the finish, may end a little after it:
            // the finish is the last line all the same, as broadcastFinished is the last callback.
            let line = TraceLine.lifecycle(kind, time: time)
            state.withLock { $0.entries.append(Entry(deliveredAt: kind == .finished ? .max : time, rank: 0, item: .lifecycle(line))) }
        }
    }

    /// The setup-info structure's fields as JSON: strings, numbers and booleans as such, any
    /// other value as its GStreamer serialisation.
    private static func setupInfo(_ message: UnsafePointer<GstStructure>) -> [(key: String, value: JSONValue)] {
        var value: UnsafePointer<GValue>? = gst_structure_get_value(message, REPLAYCAST_FIELD_SETUP_INFO)
        guard let info = value.flatMap({ gst_value_get_structure($0) }) else { return [] }
        var members: [(key: String, value: JSONValue)] = []
        for index in 0..<gst_structure_n_fields(info) {
            let name = gst_structure_nth_field_name(info, guint(index))!
            value = gst_structure_get_value(info, name)
            guard let field = value else { continue }
            let type = field.pointee.g_type
            let json: JSONValue
            switch type {
            case rc_type_string(): json = .string(g_value_get_string(field).map { String(cString: $0) } ?? "")
            case rc_type_boolean(): json = .bool(g_value_get_boolean(field) != 0)
            case rc_type_int(): json = .number(String(g_value_get_int(field)))
            case rc_type_double(): json = .number(String(g_value_get_double(field)))
            default:
                let text = gst_value_serialize(field)
                defer { g_free(text) }
                json = .string(text.map { String(cString: $0) } ?? "")
            }
            members.append((String(cString: name), json))
        }
        return members
    }
}

private typealias MessageHandler = @convention(c) (UnsafeMutablePointer<GstBus>?, UnsafeMutablePointer<GstMessage>?, gpointer?) -> Void

private func noteMessage(_: UnsafeMutablePointer<GstBus>?, _ message: UnsafeMutablePointer<GstMessage>?, _ recorder: gpointer?) {
    guard let message, let recorder else { return }
    Unmanaged<TraceRecorder>.fromOpaque(recorder).takeUnretainedValue().note(message: message)
}

private func releaseRecorder(_ recorder: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
    guard let recorder else { return }
    Unmanaged<TraceRecorder>.fromOpaque(recorder).release()
}
