// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport
import Synchronization

extension DebugLog {
    static let dualmixer = DebugLog("dualmixer")
}

/// dualmixer's engine. Inputs are processed on their upstream threads as they arrive
/// (`MixerInput`); the aggregator's thread mixes, pushes and posts. What the two sides share:
/// each input's timeline (locked for copies), the start time, the next output frame and the
/// flow control (`DualMixerFlow`). Properties live in the C instance and are copied per
/// output buffer. Events, seeks and state changes are in DualMixerEvents.swift.
final class DualMixer: OwnedSwiftState {
    typealias Instance = RcDualMixer
    enum OutputFormat { case s16le, f32le }

    let inputs = [MixerInput(name: "app"), MixerInput(name: "mic")]
    let flow = DualMixerFlow()
    /// The mix side (output format, mix buffers, levels) belongs to the aggregator's thread,
    /// and to start/stop/flush while that thread is held; checked in debug builds.
    let owner = StreamingOwner("dualmixer mix")
    // Dynamic exclusivity checks on the mix side came to four per output buffer.
    @exclusivity(unchecked) private var output: OutputFormat = .s16le
    /// Running time of output frame 0, fixed by the first buffer on either input (or the first
    /// aggregate, if that comes first).
    private let startTime = Locked<UInt64?>(nil)
    /// The next output frame to mix: inputs place nothing before it.
    private let nextOutputFrame = Atomic<Int64>(0)
    private var nextOutput: Int64 {
        get { nextOutputFrame.load(ordering: .acquiring) }
        set { nextOutputFrame.store(newValue, ordering: .releasing) }
    }
    @exclusivity(unchecked) private var scratch: UnsafeMutablePointer<Float>
    private let limiter = SoftLimiter()
    private let levels = DualMixerLevels()
    @exclusivity(unchecked) private var bus: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private var busFrames = 0
    private let outputBuffers = OutputBufferPool()

    /// An input this far ahead of the output waits for the mix to catch up, so a fast
    /// upstream (non-live, bursty app audio) cannot pile up unbounded audio here; its token
    /// buffer stays queued meanwhile, so the aggregator keeps seeing the pad as ready.
    static let horizonFrames = Int64(MixerInput.outputRate) // one second

    init() {
        bus = .allocate(capacity: 2)
        scratch = .allocate(capacity: 2)
    }

    deinit {
        bus.deallocate()
        scratch.deallocate()
    }

    func start() {
        reset()
    }

    /// The pool's buffers go with the run; the next one may have another output format.
    func stop() {
        reset()
        outputBuffers.drop()
    }

    private func reset() {
        startTime.withLock { $0 = nil }
        nextOutput = 0
        for input in inputs { input.reset() }
        levels.reset()
    }

    func setInputCaps(_ element: UnsafeMutablePointer<RcDualMixer>, pad: Int, caps: UnsafeMutablePointer<GstCaps>) -> Bool {
        guard let format = AudioFormat(caps: caps), [.s16le, .s16be, .f32le].contains(format.sampleFormat),
              (1...3).contains(format.channels) else {
            rc_element_error_core_negotiation(element, "dualmixer cannot read these caps on its \(inputs[pad].name) pad", nil)
            return false
        }
        inputs[pad].element = UnsafeMutableRawPointer(element)
        inputs[pad].setFormat(format)
        updateLatency(element)
        return true
    }

    func setOutputCaps(_ caps: UnsafeMutablePointer<GstCaps>) -> Bool {
        guard let format = AudioFormat(caps: caps) else { return false }
        output = format.sampleFormat == .f32le ? .f32le : .s16le
        return true
    }

    /// An output buffer can go once its end, plus the resamplers' lookahead, has arrived.
    private func updateLatency(_ element: UnsafeMutablePointer<RcDualMixer>) {
        let settings = Self.properties.settings(of: element)
        let latency = GstClockTime(settings.output_buffer_duration) + GstClockTime(inputs.map(\.lookahead).max() ?? 0)
        gst_aggregator_set_latency(rc_aggregator(element), latency, latency)
    }

    /// The base class flushes the mixer once every pad is done flushing for a seek: the
    /// inputs' new data may come in.
    func flush() {
        reset()
        flow.setRestarting(false)
    }

    /// Output frame 0's running time: per the aggregator's start-time-selection, the first
    /// input buffer's running time (`first`), `start-time` (`set`) or 0 (`zero`).
    private func t0(_ element: UnsafeMutablePointer<RcDualMixer>, firstBuffer: UInt64?) -> UInt64 {
        startTime.withLock { t0 in
            if let t0 { return t0 }
            let configured = AggregatorOutput.startTime(element)
            let value: UInt64
            switch configured.selection {
            case GST_AGGREGATOR_START_TIME_SELECTION_FIRST: value = firstBuffer ?? 0
            case GST_AGGREGATOR_START_TIME_SELECTION_SET: value = configured.time == GstClockTime.none ? 0 : UInt64(configured.time)
            default: value = 0
            }
            t0 = value
            return value
        }
    }

    /// Data this far beyond what an input has given (or the mix has reached) has broken
    /// timestamps, not a pause: placing it would put that much silence in memory at once.
    static let largestJump: UInt64 = 600 * Timebase.nanosecondsPerSecond

    /// False, with an element error naming the input, when [running, running + duration)
    /// lies beyond `largestJump`.
    private func placeable(_ element: UnsafeMutablePointer<RcDualMixer>, _ input: MixerInput, running: UInt64,
                           duration: UInt64, t0: UInt64) -> Bool {
        let placed = MixerInput.time(ofOutputFrame: max(input.end, nextOutput), t0: t0)
        let beyond = running > placed ? running - placed : 0
        guard beyond > Self.largestJump || duration > Self.largestJump else { return true }
        func seconds(_ ns: UInt64) -> String { "\((Double(ns) / 1e6).rounded() / 1000) s" }
        let text = "dualmixer: \(input.name) data at running time \(seconds(running)) lasting \(seconds(duration)) lies "
            + "\(seconds(beyond)) beyond the input's previous data: timestamps that jump more than "
            + "\(Self.largestJump / Timebase.nanosecondsPerSecond) s are not placed"
        rc_element_error_stream_format(element, text, nil)
        return false
    }

    /// Upstream thread of pad `index`: a buffer to convert, resample and place.
    private func inputBuffer(_ element: UnsafeMutablePointer<RcDualMixer>, pad index: Int, _ buffer: UnsafeMutablePointer<GstBuffer>) {
        let input = inputs[index]
        guard let format = input.format, !buffer.isGap, let running = runningTime(element, pad: index, buffer.pointee.pts)
        else { return }
        let t0 = self.t0(element, firstBuffer: running)
        guard placeable(element, input, running: running, duration: 0, t0: t0) else { return }
        _ = buffer.withReadableBytes { bytes in
            input.ingest(bytes.baseAddress, frames: bytes.count / format.bytesPerFrame, runningTime: running, t0: t0,
                         firstNeeded: nextOutput)
        }
    }

    /// A buffer on an input, on its upstream thread (the pad's chain, the one crossing from C
    /// per buffer): placed on the input's timeline in parallel with the other input; the
    /// aggregator's queue gets the buffer as a token only when none is queued, so the
    /// aggregator wakes once per batch of mixable audio; an input too far ahead waits here.
    func chain(_ element: UnsafeMutablePointer<RcDualMixer>, _ pad: UnsafeMutablePointer<RcDualMixerPad>,
               _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        defer { gst_buffer_unref(buffer) }
        let index = Int(pad.pointee.index)
        guard flow.waitUntilRestarted(pad: index) else { return GST_FLOW_FLUSHING }
        inputBuffer(element, pad: index, buffer)
        let queued = queueToken(pad, buffer)
        guard queued == GST_FLOW_OK else { return queued }
        return waitForRoom(pad, token: buffer) ? GST_FLOW_OK : GST_FLOW_FLUSHING
    }

    /// The aggregator thread waits until every input has a buffer queued, and pops a token
    /// only when that input is not ahead: an input held back for room keeps one queued
    /// (queued again if popped meanwhile), or the mix would wait for the input while the
    /// input waits for the mix.
    private func queueToken(_ pad: UnsafeMutablePointer<RcDualMixerPad>, _ token: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
        guard gst_aggregator_pad_has_buffer(rc_aggregator_pad(pad)) == 0 else { return GST_FLOW_OK }
        return rc_dualmixer_aggregator_chain(pad, gst_buffer_ref(token))
    }

    /// Upstream thread of `pad`: waits while its input is more than the horizon ahead of the
    /// mix; false if the element started flushing meanwhile.
    private func waitForRoom(_ pad: UnsafeMutablePointer<RcDualMixerPad>, token: UnsafeMutablePointer<GstBuffer>) -> Bool {
        let index = Int(pad.pointee.index)
        let input = inputs[index]
        while true {
            let seen = flow.progress
            guard input.end > nextOutput + Self.horizonFrames else { return true }
            _ = queueToken(pad, token)
            guard flow.waitForProgress(pad: index, since: seen) else { return false }
        }
    }

    /// Upstream thread of pad `index`: time without data, silence on the timeline.
    func inputGap(_ element: UnsafeMutablePointer<RcDualMixer>, pad index: Int, _ event: UnsafeMutablePointer<GstEvent>) {
        let input = inputs[index]
        var pts: GstClockTime = 0, duration: GstClockTime = 0
        gst_event_parse_gap(event, &pts, &duration)
        guard let format = input.format, duration != GstClockTime.none, let running = runningTime(element, pad: index, pts)
        else { return }
        let t0 = self.t0(element, firstBuffer: running)
        guard placeable(element, input, running: running, duration: UInt64(duration), t0: t0) else { return }
        let frames = Int(Timebase.count(inNanoseconds: UInt64(duration), atRate: UInt64(format.rate), .nearest))
        input.ingest(nil, frames: frames, runningTime: running, t0: t0, firstNeeded: nextOutput)
    }

    private func runningTime(_ element: UnsafeMutablePointer<RcDualMixer>, pad index: Int, _ pts: GstClockTime) -> UInt64? {
        // No segment yet (data ahead of its segment event, as when a pipeline is torn down
        // after an error): no running time, and no GLib critical from GStreamer.
        let input = inputs[index]
        guard pts != GstClockTime.none, input.segment.format == GST_FORMAT_TIME else { return nil }
        let running = gst_segment_to_running_time(&input.segment, GST_FORMAT_TIME, pts)
        return running == GstClockTime.none ? nil : UInt64(running)
    }

    func aggregate(_ element: UnsafeMutablePointer<RcDualMixer>, timeout: Bool) -> GstFlowReturn {
        if timeout, let paused = LivePause.timeoutOutcome(element, debug: .dualmixer) { return paused }
        let settings = Self.properties.settings(of: element)
        let t0 = self.t0(element, firstBuffer: nil)
        let bufferFrames = MixerInput.outputFrames(lasting: UInt64(settings.output_buffer_duration))
        ensureBus(bufferFrames)

        for (index, input) in inputs.enumerated() { collect(pad(element, index), input) }
        defer { flow.advance() }

        var produced = false
        while true {
            let start = nextOutput
            var end = start + Int64(bufferFrames)
            let allEnded = inputs.allSatisfy(\.ended)
            if allEnded {
                let last = inputs.map(\.end).max() ?? start
                guard last > start else { return endOfStream(element, settings: settings, t0: t0) }
                end = min(end, last)
            } else if !inputs.allSatisfy({ $0.ended || $0.end >= end }) && !(timeout && !produced) {
                break
            }
            let flow = mix(element, settings: settings, from: start, to: end, t0: t0)
            produced = true
            guard flow == GST_FLOW_OK else { return flow }
        }
        return GST_FLOW_OK
    }

    /// The last partial level interval is reported, and every message is on the bus, before EOS.
    private func endOfStream(_ element: UnsafeMutablePointer<RcDualMixer>, settings: RcDualMixerSettings,
                             t0: UInt64) -> GstFlowReturn {
        if settings.post_levels != 0 {
            levels.advance(intervalFrames: 1) { DualMixerLevels.post($0, element: element, t0: t0) }
        }
        MessagePoster.flush()
        return GST_FLOW_EOS
    }

    func pad(_ element: UnsafeMutablePointer<RcDualMixer>, _ index: Int) -> UnsafeMutablePointer<RcDualMixerPad> {
        withUnsafeMutablePointer(to: &element.pointee.pads) { pads in
            pads.withMemoryRebound(to: UnsafeMutablePointer<RcDualMixerPad>.self, capacity: 2) { $0[index] }
        }
    }

    /// Releases the pad's queued buffers (they were processed on arrival: they only told the
    /// aggregator the pad has data) while the input is not too far ahead of the output, and
    /// drains an input that has ended.
    private func collect(_ pad: UnsafeMutablePointer<RcDualMixerPad>, _ input: MixerInput) {
        let aggPad = rc_aggregator_pad(pad)!
        while input.end < nextOutput + Self.horizonFrames, let buffer = gst_aggregator_pad_pop_buffer(aggPad) {
            gst_buffer_unref(buffer)
        }
        if gst_aggregator_pad_has_buffer(aggPad) == 0 && gst_aggregator_pad_is_eos(aggPad) != 0 {
            input.finish()
        }
    }

    private func ensureBus(_ frames: Int) {
        guard frames > busFrames else { return }
        bus.deallocate()
        scratch.deallocate()
        bus = .allocate(capacity: 2 * frames)
        scratch = .allocate(capacity: 2 * frames)
        busFrames = frames
    }

    /// Mixes output frames [start, end), pushes them and moves the timelines on.
    private func mix(_ element: UnsafeMutablePointer<RcDualMixer>, settings: RcDualMixerSettings,
                     from start: Int64, to end: Int64, t0: UInt64) -> GstFlowReturn {
        let frames = Int(end - start)
        // The mix is timed in running time; the output segment (a seek's, after one) says
        // which stream position that is.
        let segment = AggregatorOutput.segment(element)
        let pts = gst_segment_position_from_running_time(segment, GST_FORMAT_TIME,
                                                         GstClockTime(MixerInput.time(ofOutputFrame: start, t0: t0)))
        let stop = gst_segment_position_from_running_time(segment, GST_FORMAT_TIME,
                                                          GstClockTime(MixerInput.time(ofOutputFrame: end, t0: t0)))
        // GstAggregator's emit-signals: samples-selected before the inputs are read, so a
        // handler's property changes apply to this buffer (as in GstAudioAggregator).
        gst_aggregator_selected_samples(rc_aggregator(element), pts, GstClockTime.none, stop - pts, nil)
        // The first input heard is written into the bus as if mixed into silence, and only
        // what it does not cover is zeroed, so the bus is not cleared in a pass of its own.
        var busWritten = false
        var contributing = 0
        let copy = ChannelMapping(inputChannels: 2)
        for (index, input) in inputs.enumerated() {
            let padSettings = Self.padProperties.settings(of: pad(element, index))
            var present = 0
            if let run = input.copy(from: start, to: end, into: scratch) {
                present = run.present
                let at = Int(run.first - start)
                let samples = scratch + 2 * at
                if settings.post_levels != 0 { levels.measure(input: index, samples: samples, frames: run.frames) }
                if padSettings.mute == 0 && padSettings.volume > 0 {
                    let gain = Float(padSettings.volume)
                    if !busWritten {
                        bus.update(repeating: 0, count: 2 * at)
                        copy.mixIntoSilence(samples, frames: run.frames, gain: gain, into: bus + 2 * at)
                        (bus + 2 * (at + run.frames)).update(repeating: 0, count: 2 * (frames - at - run.frames))
                        busWritten = true
                    } else {
                        copy.mix(samples, frames: run.frames, gain: gain, into: bus + 2 * at)
                    }
                }
            }
            levels.account(input: index, present: present)
            if present > 0 && padSettings.mute == 0 { contributing += 1 }
            input.drop(before: end)
        }
        if !busWritten { bus.update(repeating: 0, count: 2 * frames) }
        switch settings.mix_mode {
        case RC_MIX_AVERAGE:
            if contributing > 1 {
                let scale = Float(1) / Float(contributing)
                for k in 0..<(2 * frames) { bus[k] *= scale }
            }
        default:
            limiter.process(bus, count: 2 * frames)
        }
        if settings.post_levels != 0 { levels.measureMix(bus, frames: frames) }

        let bytesPerSample = output == .s16le ? 2 : 4
        guard let buffer = outputBuffers.acquire(size: 2 * frames * bytesPerSample) else { return GST_FLOW_ERROR }
        buffer.withWritableBytes { data in
            if output == .s16le {
                PCMConversion.toS16LE(bus, samples: 2 * frames, into: data)
            } else {
                PCMConversion.toF32LE(bus, samples: 2 * frames, into: data)
            }
        }
        buffer.pointee.pts = pts
        buffer.pointee.duration = stop - pts
        buffer.pointee.offset = guint64(start)
        buffer.pointee.offset_end = guint64(end)
        if start == 0 { buffer.pointee.mini_object.flags |= GST_BUFFER_FLAG_DISCONT.rawValue }
        nextOutput = end
        AggregatorOutput.setPosition(element, stop)

        if settings.post_levels != 0 {
            let intervalFrames = MixerInput.outputFrames(lasting: UInt64(settings.level_interval))
            levels.advance(intervalFrames: intervalFrames) { report in
                DualMixerLevels.post(report, element: element, t0: t0)
            }
        }
        return gst_aggregator_finish_buffer(rc_aggregator(element), buffer)
    }
}

extension RcDualMixer: SwiftStateSlot {}

@_cdecl("rc_dualmixer_state_new")
func dualMixerStateNew() -> UnsafeMutableRawPointer { DualMixer().retained() }

@_cdecl("rc_dualmixer_start")
func dualMixerStart(_ element: UnsafeMutablePointer<RcDualMixer>) -> gboolean { DualMixer.owning(element) { $0.start(); return 1 } }

@_cdecl("rc_dualmixer_stop")
func dualMixerStop(_ element: UnsafeMutablePointer<RcDualMixer>) -> gboolean {
    // Every level message of the run is on the bus before the element leaves PAUSED.
    MessagePoster.flush()
    return DualMixer.owning(element) { $0.stop(); return 1 }
}

/// The output format is S16LE unless downstream takes only F32LE: the first the caps list.
@_cdecl("rc_dualmixer_fixate_src_caps")
func dualMixerFixateSrcCaps(_ element: UnsafeMutablePointer<RcDualMixer>, _ caps: UnsafeMutablePointer<GstCaps>)
    -> UnsafeMutablePointer<GstCaps> {
    gst_caps_fixate(gst_caps_truncate(rc_caps_make_writable(caps)))
}

@_cdecl("rc_dualmixer_set_output_caps")
func dualMixerSetOutputCaps(_ element: UnsafeMutablePointer<RcDualMixer>, _ caps: UnsafeMutablePointer<GstCaps>) -> gboolean {
    DualMixer.owning(element) { $0.setOutputCaps(caps) } ? 1 : 0
}

@_cdecl("rc_dualmixer_flush")
func dualMixerFlush(_ element: UnsafeMutablePointer<RcDualMixer>) -> GstFlowReturn { DualMixer.owning(element) { $0.flush(); return GST_FLOW_OK } }

@_cdecl("rc_dualmixer_chain")
func dualMixerChain(_ element: UnsafeMutablePointer<RcDualMixer>, _ pad: UnsafeMutablePointer<RcDualMixerPad>,
                    _ buffer: UnsafeMutablePointer<GstBuffer>) -> GstFlowReturn {
    DualMixer.of(element).chain(element, pad, buffer)
}

@_cdecl("rc_dualmixer_aggregate")
func dualMixerAggregate(_ element: UnsafeMutablePointer<RcDualMixer>, _ timeout: gboolean) -> GstFlowReturn {
    DualMixer.owning(element) { $0.aggregate(element, timeout: timeout != 0) }
}
