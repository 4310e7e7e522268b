// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import ReplayKitModel

/// App or mic audio: buffers on the profile's cadence (22,596-frame bursts, 1024-frame
/// callbacks with the occasional 955 + 69 split), timed by `AudioRun` from sample counts.
/// A run restarts where the mic format changes; content is addressed by broadcast time, so
/// it continues across the change. With a trace, buffers come at the trace's times, sizes
/// and formats instead, their content addressed by time.
final class AudioProducer: StreamProducer, @unchecked Sendable {
    private let program: ProgramAudio.Content
    private var stream: AudioStreamProfile
    private var content: ProgramAudio
    /// The uninterrupted stretch of samples in progress, restarted by a format change.
    private var run: AudioRun
    private var bufferIndex = 0
    private let buffers = OutputBufferPool()
    /// The trace's samples of this stream, the next one to replay, and where the last ended.
    private let replayed: [BroadcastTrace.Sample]?
    private var replayIndex = 0
    private var replayedUpTo: UInt64 = 0

    override init(kind: RcStreamKind, element: UnsafeMutablePointer<RcReplayKitSrc>, timeline: BroadcastTimeline,
                  configuration: BroadcastConfiguration, groupID: guint) {
        let isMic = kind == RC_STREAM_MIC
        program = isMic ? .speech : .music
        stream = isMic ? configuration.mic : configuration.app
        content = Self.content(program, stream, configuration, mic: isMic)
        run = AudioRun(rate: stream.rate, cadence: stream.cadence, startTime: 0)
        replayed = configuration.trace?.samples(of: isMic ? .audioMic : .audioApp)
        super.init(kind: kind, element: element, timeline: timeline, configuration: configuration, groupID: groupID)
    }

    private var isMic: Bool { kind == RC_STREAM_MIC }

    /// The stream's file (app-location, mic-location) at its format, else its programme.
    private static func content(_ program: ProgramAudio.Content, _ stream: AudioStreamProfile,
                                _ configuration: BroadcastConfiguration, mic: Bool) -> ProgramAudio {
        if let clip = configuration.clip(mic: mic, rate: stream.rate, channels: stream.channels) {
            return ProgramAudio(clip: clip, syncMarks: configuration.syncMarks)
        }
        return ProgramAudio(program, rate: stream.rate, syncMarks: configuration.syncMarks)
    }

    override func initialCaps() -> UnsafeMutablePointer<GstCaps> { caps() }

    private func caps() -> UnsafeMutablePointer<GstCaps> {
        let format = stream.format == .s16be ? "S16BE" : "S16LE"
        var text = "audio/x-raw, format=\(format), layout=interleaved, rate=\(stream.rate), channels=\(stream.channels)"
        if stream.channels == 2 { text += ", channel-mask=(bitmask)0x3" }
        if stream.channels > 2 { text += ", channel-mask=(bitmask)0x0" }
        return gst_caps_from_string(text)
    }

    override func produce() -> Bool {
        if let replayed { return replay(replayed) }
        var buffer = run.buffer(bufferIndex)
        let start = buffer.presentationTime
        let finish = timeline.finishTime
        if let finish, start >= finish { return endWhenDue(finish) }
        let state = timeline.state(at: start)
        if isMic, state.micRate != stream.rate || state.micChannels != stream.channels {
            // The mic format changed (AirPods connected): new caps, a new run of samples.
            stream.rate = state.micRate
            stream.channels = state.micChannels
            content = Self.content(program, stream, configuration, mic: isMic)
            run = AudioRun(rate: stream.rate, cadence: stream.cadence, startTime: start)
            bufferIndex = 0
            DebugLog.replaykitsrc.info(element, "mic format changes to \(stream.rate) Hz, \(stream.channels) channels at \(start) ns")
            pushCaps(caps())
            return true
        }
        if let finish, buffer.deliveryTime > finish {
            // The last buffer ends at the sample nearest the finish, so sample counts are exact.
            let finishFrame = Int64(Timebase.count(inNanoseconds: finish, atRate: UInt64(stream.rate), .nearest))
            buffer.frames = max(1, Int(finishFrame - buffer.firstFrame))
            buffer.duration = run.time(ofFrame: buffer.firstFrame + Int64(buffer.frames)) - start
        }
        switch wait(until: buffer.deliveryTime) {
        case .stopped: return false
        case .woken: return true
        case .due: break
        }
        bufferIndex += 1
        let delivery: BroadcastState.MicDelivery = isMic ? state.mic : (state.deliversAppAudio ? .speech : .none)
        guard delivery != .none else {
            gap(time: start, duration: buffer.duration)
            return true
        }
        guard let data = makeBuffer(firstSample: buffer.firstFrame, frames: buffer.frames, silent: delivery == .silence) else {
            return false
        }
        return push(data, time: start, duration: buffer.duration)
    }

    /// The trace's next buffer, once its end has come. Time between buffers was time without
    /// audio (pause, call, mic off): a gap, and the next buffer is a discontinuity.
    private func replay(_ samples: [BroadcastTrace.Sample]) -> Bool {
        let finish = timeline.finishTime ?? replayedUpTo
        guard replayIndex < samples.count, case .audio(let format, let frames) = samples[replayIndex].content,
              let end = samples[replayIndex].audioEnd else { return endWhenDue(finish) }
        let start = samples[replayIndex].time
        if start >= finish { return endWhenDue(finish) }
        if format.rate != stream.rate || format.channels != stream.channels || format.format != stream.format {
            (stream.rate, stream.channels, stream.format) = (format.rate, format.channels, format.format)
            content = Self.content(program, stream, configuration, mic: isMic)
            DebugLog.replaykitsrc.info(element, "\(isMic ? "mic" : "app") format changes to \(stream.rate) Hz, "
                                       + "\(stream.channels) channels at \(start) ns (trace)")
            pushCaps(caps())
            return true
        }
        switch wait(until: end) {
        case .stopped: return false
        case .woken: return true
        case .due: break
        }
        replayIndex += 1
        if start > replayedUpTo { gap(time: replayedUpTo, duration: start - replayedUpTo) }
        replayedUpTo = end
        guard timeline.state(at: start).deliversVideo else {
            gap(time: start, duration: end - start)
            return true
        }
        let firstSample = Int64(Timebase.count(inNanoseconds: start, atRate: UInt64(stream.rate), .nearest))
        guard let data = makeBuffer(firstSample: firstSample, frames: frames, silent: false) else { return false }
        return push(data, time: start, duration: end - start)
    }

    private func makeBuffer(firstSample: Int64, frames: Int, silent: Bool) -> UnsafeMutablePointer<GstBuffer>? {
        let size = frames * stream.channels * stream.format.bytesPerSample
        guard let buffer = outputBuffer(from: buffers, size: size, what: "an audio") else { return nil }
        buffer.withWritableBytes { data in
            if silent {
                data.initialize(repeating: 0, count: size)
            } else {
                content.render(from: firstSample, count: frames, channels: stream.channels, format: stream.format, into: data)
            }
        }
        return buffer
    }
}
