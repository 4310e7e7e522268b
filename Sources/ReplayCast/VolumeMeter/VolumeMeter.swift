// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport

extension DebugLog {
    static let volumemeter = DebugLog("volumemeter")
}

/// Streaming-side state of one volumemeter. Touched only by the streaming thread (caps,
/// buffers, serialized events) and by start/stop while streaming is halted, so it needs no
/// lock (`owner` checks that in debug builds); properties live in the C instance and are
/// copied again when a write count there has moved (one atomic read per buffer).
final class VolumeMeter: OwnedSwiftState {
    typealias Instance = RcVolumeMeter
    let owner = StreamingOwner("volumemeter")
    @exclusivity(unchecked) var format: AudioFormat?
    @exclusivity(unchecked) var meter: LevelMeter?
    /// The RFC 6464 level of each buffer, for audio-level-meta (made with the format).
    @exclusivity(unchecked) var audioLevel: AudioLevel?
    /// Timestamp of frame 0 of the meter's current run.
    @exclusivity(unchecked) var baseTime: GstClockTime = .none
    /// The `reset` signals the meter has acted on.
    @exclusivity(unchecked) var loudnessResets: guint = 0
    @exclusivity(unchecked) var postMessages = true
    @exclusivity(unchecked) var audioLevelMeta = false
    /// What the last buffer's meta write did: a change is logged, not every buffer.
    @exclusivity(unchecked) var lastMetaWrite: RcAudioLevelMetaWrite?
    /// The C instance's write count when the settings were last copied (at caps, then
    /// whenever it moved).
    @exclusivity(unchecked) var settingsCopiedAt: gint = 0

    /// The element's settings as the streaming thread uses them.
    struct Settings {
        var meter: LevelMeter.Settings
        var post: Bool
        var audioLevelMeta: Bool
        var resets: guint
    }

    func settings(_ element: UnsafeMutablePointer<RcVolumeMeter>, rate: Int) -> Settings {
        let raw = Self.properties.settings(of: element)
        let intervalFrames = Int(Timebase.count(inNanoseconds: UInt64(raw.interval), atRate: UInt64(rate), .nearest))
        return Settings(meter: LevelMeter.Settings(intervalFrames: intervalFrames, peakTTLNanoseconds: UInt64(raw.peak_ttl),
                                                   peakFalloff: raw.peak_falloff, loudness: raw.loudness != 0),
                        post: raw.post_messages != 0, audioLevelMeta: raw.audio_level_meta != 0, resets: raw.loudness_resets)
    }

    /// Takes the settings the streaming thread keeps outside the meter, logging what changes.
    private func adopt(_ settings: Settings, _ element: UnsafeMutablePointer<RcVolumeMeter>) {
        if settings.post != postMessages {
            DebugLog.volumemeter.debug(element, settings.post ? "messages on: each interval is posted"
                                       : "messages off (post-messages or message false): intervals are measured, none posted")
        }
        if settings.audioLevelMeta != audioLevelMeta {
            DebugLog.volumemeter.debug(element, settings.audioLevelMeta
                                       ? "audio-level-meta on: each buffer's RFC 6464 level goes into its GstAudioLevelMeta"
                                       : "audio-level-meta off: buffers keep the metas they come with")
            lastMetaWrite = nil
        }
        postMessages = settings.post
        audioLevelMeta = settings.audioLevelMeta
    }

    func setCaps(_ element: UnsafeMutablePointer<RcVolumeMeter>, _ caps: UnsafeMutablePointer<GstCaps>) -> Bool {
        guard let format = AudioFormat(caps: caps) else {
            rc_element_error_core_negotiation(element, "volumemeter cannot read these caps", nil)
            return false
        }
        if format == self.format { return true }
        flush(element)
        self.format = format
        settingsCopiedAt = rc_volumemeter_settings_writes(element)
        let settings = settings(element, rate: format.rate)
        let meter = LevelMeter(format: format.sampleFormat, rate: format.rate, roles: format.roles, settings: settings.meter)
        self.meter = meter
        audioLevel = AudioLevel(format: format.sampleFormat)
        loudnessResets = settings.resets
        adopt(settings, element)
        baseTime = .none
        DebugLog.volumemeter.info(element, "metering \(format.sampleFormat) \(format.rate) Hz \(format.roles.count) channels, "
                                  + "intervals of \(settings.meter.intervalFrames) frames, loudness \(settings.meter.loudness ? "on" : "off")")
        DebugLog.volumemeter.debug(element, "level kernel: \(meter.usesAVX2 ? "AVX2 + FMA" : "baseline x86-64") loops for "
                                   + "\(format.sampleFormat), \(format.channels) channels")
        if format.unpositioned > 0 {
            DebugLog.volumemeter.debug(element, "\(format.unpositioned) of \(format.channels) channels have no position: "
                                       + "each weighs 1.0 in loudness")
        }
        return true
    }

    func transform(_ element: UnsafeMutablePointer<RcVolumeMeter>, _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        guard let meter, let format else { return GST_FLOW_NOT_NEGOTIATED }
        let writes = rc_volumemeter_settings_writes(element)
        if writes != settingsCopiedAt {
            settingsCopiedAt = writes
            let settings = self.settings(element, rate: format.rate)
            if settings.meter != meter.settings { meter.settings = settings.meter }
            adopt(settings, element)
            if settings.resets != loudnessResets {
                loudnessResets = settings.resets
                meter.resetLoudness()
                DebugLog.volumemeter.info(element, "reset: integrated loudness, loudness range and maxima start again at \(buffer.presentationTime) ns")
            }
        }
        let postMessages = postMessages

        let pts = buffer.presentationTime
        if pts.isValid {
            if !baseTime.isValid {
                baseTime = pts
                meter.restart()
                DebugLog.volumemeter.debug(element, "intervals start at \(pts) ns")
            } else if buffer.isDiscont && !isContinuous(pts, meter) {
                meter.flush { if postMessages { post($0, element) } }
                DebugLog.volumemeter.debug(element, "discontinuity: intervals restart at \(pts) ns, \(expectedTime(meter)) ns expected")
                baseTime = pts
                meter.restart()
            }
        } else if !baseTime.isValid {
            baseTime = 0
        }

        let audioLevel = audioLevelMeta ? audioLevel : nil
        // The buffer's RFC 6464 level when audio-level-meta is on (a GAP buffer is silent).
        var level: UInt8?
        let measured = buffer.withReadableBytes { bytes -> Bool in
            guard bytes.count % format.bytesPerFrame == 0 else { return false }
            let frames = bytes.count / format.bytesPerFrame
            if buffer.isGap || frames == 0 {
                meter.processSilence(frames: frames) { if postMessages { post($0, element) } }
                if audioLevel != nil { level = AudioLevel.silence }
            } else {
                meter.process(bytes.baseAddress!, frames: frames) { if postMessages { post($0, element) } }
                level = audioLevel?.measure(bytes.baseAddress!, count: frames * format.channels)
            }
            return true
        }
        if measured != true {
            rc_element_error_stream_format(element, "volumemeter received a buffer it cannot read",
                                           "buffer size is not a whole number of \(format.bytesPerFrame)-byte frames, or mapping failed")
            return GST_FLOW_ERROR
        }
        if let level { writeAudioLevel(level, buffer, element) }
        return GST_FLOW_OK
    }

    /// level's rule for the meta: a new one says "no voice" (a detector downstream may say
    /// otherwise), one set upstream keeps its voice activity and gets the level.
    private func writeAudioLevel(_ level: UInt8, _ buffer: UnsafeMutablePointer<GstBuffer>,
                                 _ element: UnsafeMutablePointer<RcVolumeMeter>) {
        let write = rc_volumemeter_write_audio_level(buffer, level)
        if write != lastMetaWrite {
            lastMetaWrite = write
            switch write {
            case RC_AUDIO_LEVEL_META_ADDED:
                DebugLog.volumemeter.debug(element, "audio-level-meta: buffers without one get a new meta, voice activity false")
            case RC_AUDIO_LEVEL_META_UPDATED:
                DebugLog.volumemeter.debug(element, "audio-level-meta: buffers come with one: its level is replaced, its voice activity kept")
            default:
                DebugLog.volumemeter.debug(element, "audio-level-meta: a shared buffer (the property was turned on while it "
                                           + "was under way) is left without the meta")
            }
        }
        DebugLog.volumemeter.log(element, "buffer at \(buffer.presentationTime) ns: audio level \(level) -dBov")
    }

    /// A DISCONT buffer whose timestamp continues the stream (within half a sample) does not
    /// cut the interval short, so messages stay the same whatever the buffering upstream.
    private func isContinuous(_ pts: GstClockTime, _ meter: LevelMeter) -> Bool {
        let expected = expectedTime(meter)
        let halfSample = GstClockTime(meter.framesToNanoseconds(1) / 2)
        return (pts > expected ? pts - expected : expected - pts) <= halfSample
    }

    /// Where the next buffer should start: after every frame measured since `baseTime`.
    private func expectedTime(_ meter: LevelMeter) -> GstClockTime {
        baseTime &+ GstClockTime(meter.framesToNanoseconds(meter.measuredFrames))
    }

    /// Reports the interval in progress (end of stream, new caps), if messages are wanted.
    func flush(_ element: UnsafeMutablePointer<RcVolumeMeter>) {
        guard let meter, let format else { return }
        let postMessages = settings(element, rate: format.rate).post
        meter.flush { if postMessages { post($0, element) } }
    }

    /// At EOS every message is on the bus before the EOS goes on downstream.
    func endOfStream(_ element: UnsafeMutablePointer<RcVolumeMeter>) {
        flush(element)
        MessagePoster.flush()
    }

    func flushStop(_ element: UnsafeMutablePointer<RcVolumeMeter>) {
        meter?.restart()
        baseTime = .none
        DebugLog.volumemeter.debug(element, "flushed: intervals restart with the next buffer")
    }

    /// Streaming begins with no format: the meter is built when caps arrive (`setCaps`).
    func start() {
        reset()
    }

    /// The streaming thread has stopped: its messages are all on the bus before the element
    /// leaves PAUSED (as level's, posted from that thread), none arrive after.
    func stop() {
        MessagePoster.flush()
        reset()
    }

    private func reset() {
        meter = nil
        format = nil
        baseTime = .none
    }

    /// Posts one report, through the message thread; called with no lock held.
    private func post(_ report: LevelReport, _ element: UnsafeMutablePointer<RcVolumeMeter>) {
        guard let meter else { return }
        let start = GstClockTime(meter.framesToNanoseconds(report.startFrame))
        let end = GstClockTime(meter.framesToNanoseconds(report.startFrame + Int64(report.frames)))
        let message = VolumeMeterMessage.make(report: report, timestamp: baseTime &+ start,
                                              duration: end - start, segment: &element.pointee.parent.segment)
        DebugLog.volumemeter.log(element, "interval at \(baseTime &+ start) ns, \(report.frames) frames: rms \(Array(report.rms)) dB")
        MessagePoster.post(gst_message_new_element(rc_object(element), message))
    }
}

extension RcVolumeMeter: SwiftStateSlot {}

@_cdecl("rc_volumemeter_state_new")
func volumemeterStateNew() -> UnsafeMutableRawPointer { VolumeMeter().retained() }

@_cdecl("rc_volumemeter_start")
func volumemeterStart(_ element: UnsafeMutablePointer<RcVolumeMeter>) -> gboolean { VolumeMeter.owning(element) { $0.start(); return 1 } }

@_cdecl("rc_volumemeter_stop")
func volumemeterStop(_ element: UnsafeMutablePointer<RcVolumeMeter>) -> gboolean { VolumeMeter.owning(element) { $0.stop(); return 1 } }

@_cdecl("rc_volumemeter_set_caps")
func volumemeterSetCaps(_ element: UnsafeMutablePointer<RcVolumeMeter>, _ caps: UnsafeMutablePointer<GstCaps>,
                        _ outcaps: UnsafeMutablePointer<GstCaps>) -> gboolean {
    VolumeMeter.owning(element) { $0.setCaps(element, caps) } ? 1 : 0
}

@_cdecl("rc_volumemeter_transform_ip")
func volumemeterTransformIP(_ element: UnsafeMutablePointer<RcVolumeMeter>, _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
    VolumeMeter.owning(element) { $0.transform(element, buffer) }
}

@_cdecl("rc_volumemeter_sink_event")
func volumemeterSinkEvent(_ element: UnsafeMutablePointer<RcVolumeMeter>, _ event: UnsafeMutablePointer<GstEvent>) {
    switch rc_event_type(event) {
    case GST_EVENT_EOS: VolumeMeter.owning(element) { $0.endOfStream(element) }
    case GST_EVENT_FLUSH_STOP: VolumeMeter.owning(element) { $0.flushStop(element) }
    default: break
    }
}
