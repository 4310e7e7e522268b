// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import ReplayCastSupport
import ReplayKitModel

/// Everything a broadcast run needs, resolved from the element's properties and the device
/// profile once, when the element goes from READY to PAUSED.
struct BroadcastConfiguration {
    var profile: DeviceProfile
    var width: Int
    var height: Int
    var activity: ScreenActivity
    var schedule: BroadcastSchedule
    var setupInfo: String
    var live: Bool
    var numFrames: Int?
    var duration: UInt64?
    var app: AudioStreamProfile
    var mic: AudioStreamProfile
    var initialMic: MicMode
    var gapEvents: Bool
    var audioAfterCall: Bool
    var syncMarks: Bool
    /// Bytes of private memory the process may hold (memory-limit); nil: no limit.
    var memoryLimit: UInt64?
    /// barcode-time=utc: frames carry their capture time on the real-time clock.
    var utcBarcode: Bool
    /// trace: the sample buffers to replay; the schedule then holds its lifecycle.
    var trace: BroadcastTrace?
    /// app-location and mic-location decoded, one clip per format the stream takes.
    var appClips: [AudioClip] = []
    var micClips: [AudioClip] = []
    /// screen-location, decoding; the element's stop closes it.
    var screen: ScreenFile?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ s: RcReplayKitSrcSettings, element: UnsafeMutableRawPointer) throws(Failure) {
        guard let name = ReplayKitSource.device.nick(of: s.device),
              let profile = DeviceProfile(named: name) else {
            throw Failure(description: "unknown device profile \(s.device)")
        }
        self.profile = profile
        width = s.width > 0 ? Int(s.width) : profile.screenWidth
        height = s.height > 0 ? Int(s.height) : profile.screenHeight
        do {
            activity = try ScreenActivity(parsing: Self.string(s.activity))
            schedule = try BroadcastSchedule(parsing: Self.string(s.schedule))
        } catch {
            throw Failure(description: "\(error)")
        }
        setupInfo = Self.string(s.setup_info)
        live = s.is_live != 0
        numFrames = s.num_frames >= 0 ? Int(s.num_frames) : nil
        duration = s.duration == GstClockTime.none ? nil : UInt64(s.duration)

        var app = profile.app
        if s.app_rate > 0 { app.rate = Int(s.app_rate) }
        if s.app_channels > 0 { app.channels = Int(s.app_channels) }
        if s.app_frames_per_buffer > 0 { app.cadence = BufferCadence(framesPerBuffer: Int(s.app_frames_per_buffer)) }
        switch s.app_endianness {
        case RC_ENDIANNESS_LITTLE: app.format = .s16le
        case RC_ENDIANNESS_BIG: app.format = .s16be
        default: break
        }
        guard app.rate >= 8000 else { throw Failure(description: "app-rate \(app.rate) is below 8000 Hz") }
        self.app = app

        var mic = profile.mic
        if s.mic_rate > 0 { mic.rate = Int(s.mic_rate) }
        if s.mic_channels > 0 { mic.channels = Int(s.mic_channels) }
        guard mic.rate >= 8000 else { throw Failure(description: "mic-rate \(mic.rate) is below 8000 Hz") }
        self.mic = mic

        switch s.mic {
        case RC_MIC_OFF: initialMic = .off
        case RC_MIC_SILENCE: initialMic = .silence
        default: initialMic = .on
        }
        gapEvents = s.gap_events != 0
        audioAfterCall = s.audio_after_call != 0
        syncMarks = s.sync_marks != 0
        memoryLimit = s.memory_limit > 0 ? UInt64(s.memory_limit) : nil
        utcBarcode = s.barcode_time == RC_BARCODE_TIME_UTC
        let tracePath = Self.string(s.trace)
        if !tracePath.isEmpty { try replay(TraceFile.load(tracePath)) }
        do {
            _ = try ScreenRenderer(width: width, height: height)
        } catch {
            throw Failure(description: "\(error)")
        }
        let finish = s.file_end == RC_FILE_END_FINISH
        try openScreen(Self.string(s.screen_location), loops: !finish, element: element)
        do {
            try decodeFiles(app: Self.string(s.app_location), mic: Self.string(s.mic_location), finish: finish)
        } catch {
            screen?.close()
            throw error
        }
    }

    /// The file is decoded at one size: a trace's size changes would need another decoder.
    private mutating func openScreen(_ path: String, loops: Bool, element: UnsafeMutableRawPointer) throws(Failure) {
        guard !path.isEmpty else { return }
        guard numFrames == nil else {
            throw Failure(description: "num-frames cannot be combined with screen-location: the file decides when frames come (use duration)")
        }
        if let trace, let other = trace.samples(of: .video).first(where: {
            guard case .video(let w, let h, _) = $0.content else { return false }
            return (w, h) != (width, height)
        }), case .video(let w, let h, _) = other.content {
            throw Failure(description: "screen-location cannot follow this trace: its screen changes from \(width)x\(height) to \(w)x\(h) at \(other.time) ns, and the file is decoded at one size")
        }
        screen = try ScreenFile(path: path, width: width, height: height, loops: loops, element: element)
    }

    /// A trace decides the screen size, the audio formats and the lifecycle; a schedule on top
    /// of it would contradict it. Without a `finished` line, the broadcast finishes where the
    /// trace's last sample ends.
    private mutating func replay(_ trace: BroadcastTrace) throws(Failure) {
        guard schedule.events.isEmpty else {
            throw Failure(description: "schedule and trace cannot be combined: the trace holds the broadcast's lifecycle")
        }
        if let size = trace.screenSize { (width, height) = size }
        for (type, stream) in [(BroadcastTrace.SampleType.audioApp, \Self.app), (.audioMic, \Self.mic)] {
            guard let format = trace.firstFormat(of: type) else { continue }
            self[keyPath: stream].rate = format.rate
            self[keyPath: stream].channels = format.channels
            self[keyPath: stream].format = format.format
        }
        var events = trace.events
        if !events.contains(where: { $0.action == .finish }) { events.append(.init(time: trace.finishTime(frameDuration: VideoProducer.duration(ofFrameAt:)), action: .finish)) }
        schedule = BroadcastSchedule(events: events)
        if setupInfo.isEmpty { setupInfo = TraceFile.setupInfo(trace.setupInfo) }
        self.trace = trace
    }

    /// Each file is decoded at every rate and channel count its stream can take: the
    /// profile's, the schedule's mic changes, the trace's formats. With file-end=finish the
    /// broadcast finishes when the shortest file (screen-location's included) ends.
    private mutating func decodeFiles(app appPath: String, mic micPath: String, finish: Bool) throws(Failure) {
        var micRates = [mic.rate], micChannels = [mic.channels]
        for event in schedule.events {
            guard case .micFormat(let rate, let channels) = event.action else { continue }
            micRates.append(rate)
            if let channels { micChannels.append(channels) }
        }
        var appFormats = [(app.rate, app.channels)]
        for sample in trace?.samples ?? [] {
            guard case .audio(let format, _) = sample.content else { continue }
            if sample.type == .audioApp {
                appFormats.append((format.rate, format.channels))
            } else {
                micRates.append(format.rate)
                micChannels.append(format.channels)
            }
        }
        let micFormats = Set(micRates).flatMap { rate in Set(micChannels).map { (rate, $0) } }
        for (path, property, formats) in [(appPath, "app-location", appFormats), (micPath, "mic-location", micFormats)] where !path.isEmpty {
            var seen = Set<[Int]>()
            var clips: [AudioClip] = []
            for (rate, channels) in formats where seen.insert([rate, channels]).inserted {
                clips.append(try AudioFile.decode(path, property: property, rate: rate, channels: channels, loops: !finish))
            }
            if property == "app-location" { appClips = clips } else { micClips = clips }
        }
        let ends = [appClips.first?.duration, micClips.first?.duration, screen?.duration].compactMap { $0 }
        if finish, let end = ends.min() { schedule = BroadcastSchedule(events: schedule.events + [.init(time: end, action: .finish)]) }
    }

    /// The clip a stream plays at `rate` and `channels`, if it plays a file.
    func clip(mic: Bool, rate: Int, channels: Int) -> AudioClip? {
        (mic ? micClips : appClips).first { $0.rate == rate && $0.channels == channels }
    }

    /// The next video slot after `slot` (nil: the first) that gets a frame: the screen changed,
    /// or a sync mark's flash starts or ends. Nil when the screen never changes again.
    func nextFrameTime(after slot: UInt64?) -> UInt64? {
        let fps = VideoProducer.framesPerSecond
        let screen = activity.nextFrameTime(after: slot, maxFramesPerSecond: fps)
        guard syncMarks, let slot else { return screen }
        let edge = SyncMarks.nextEdge(after: slot)
        return screen.map { min($0, edge) } ?? edge
    }

    private static func string(_ pointer: UnsafeMutablePointer<gchar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// Checks a string property when it is set; nil when valid, else the reason.
    static func problem(with text: String, property: String) -> String? {
        switch property {
        case "activity":
            do { _ = try ScreenActivity(parsing: text) } catch { return "invalid activity: \(error)" }
        case "schedule":
            do { _ = try BroadcastSchedule(parsing: text) } catch { return "invalid schedule: \(error)" }
        case "setup-info":
            return SetupInfo.problem(with: text)
        default:
            return nil
        }
        return nil
    }
}

/// setup-info: the dictionary an app hands to broadcastStarted, written as a GstStructure.
enum SetupInfo {
    static func problem(with text: String) -> String? {
        guard !text.isEmpty else { return nil }
        var end: UnsafeMutablePointer<gchar>?
        return text.withCString { start -> String? in
            guard let structure = gst_structure_from_string(start, &end) else {
                let rest = end.map { String(cString: $0) } ?? text
                return "invalid setup-info \"\(text)\": not a GstStructure (parsing stopped at \"\(rest.prefix(40))\")"
            }
            gst_structure_free(structure)
            if let end, end.pointee != 0 {
                return "invalid setup-info \"\(text)\": unexpected text after the structure: \"\(String(cString: end).prefix(40))\""
            }
            return nil
        }
    }

    /// The structure to post, or nil for an empty setup-info.
    static func structure(_ text: String) -> UnsafeMutablePointer<GstStructure>? {
        text.isEmpty ? nil : gst_structure_from_string(text, nil)
    }
}
