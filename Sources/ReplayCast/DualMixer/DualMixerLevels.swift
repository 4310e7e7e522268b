// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

/// The `dualmixer-levels` message: per level interval, rms and peak of each input as it
/// arrives (before volume and mute) and of the mix, and whether each input was active,
/// silent (digital silence) or absent (no data: unlinked, ended, late, a gap).
final class DualMixerLevels {
    struct Report {
        var startFrame: Int64
        var frames: Int
        var rms: [[Double]]
        var peak: [[Double]]
        var states: [String]
    }

    /// app, mic, mix
    private let kernels = (0..<3).map { _ in ChannelLevelKernel(format: .f32le, channels: 2) }
    /// Counted for every output buffer on the aggregator's thread, without dynamic
    /// exclusivity checks (two a buffer otherwise).
    @exclusivity(unchecked) private var presentFrames = [0, 0]
    private var frames = 0
    private var startFrame: Int64 = 0
    private var sums = [Double](repeating: 0, count: 2)
    private var peaks = [Double](repeating: 0, count: 2)

    func reset() {
        for kernel in kernels { drain(kernel) }
        presentFrames = [0, 0]
        frames = 0
        startFrame = 0
    }

    private func drain(_ kernel: ChannelLevelKernel) {
        sums = [0, 0]
        peaks = [0, 0]
        sums.withUnsafeMutableBufferPointer { s in
            peaks.withUnsafeMutableBufferPointer { p in kernel.drain(sumsOfSquares: s.baseAddress!, peaks: p.baseAddress!) }
        }
    }

    func measure(input: Int, samples: UnsafePointer<Float>, frames: Int) {
        kernels[input].add(samples, frames: frames)
    }

    func account(input: Int, present: Int) {
        presentFrames[input] += present
    }

    func measureMix(_ samples: UnsafePointer<Float>, frames count: Int) {
        kernels[2].add(samples, frames: count)
        frames += count
    }

    /// Reports once at least `intervalFrames` have been mixed (intervals end on output buffers).
    func advance(intervalFrames: Int, report: (Report) -> Void) {
        guard frames > 0, frames >= intervalFrames else { return }
        var rms: [[Double]] = [], peak: [[Double]] = [], states: [String] = []
        for (index, kernel) in kernels.enumerated() {
            drain(kernel)
            rms.append(sums.map { Decibels.fromPower($0 / Double(frames)) })
            peak.append(peaks.map(Decibels.fromAmplitude))
            if index < 2 {
                states.append(presentFrames[index] == 0 ? "absent" : (peaks.max() == 0 ? "silent" : "active"))
            }
        }
        report(Report(startFrame: startFrame, frames: frames, rms: rms, peak: peak, states: states))
        startFrame += Int64(frames)
        frames = 0
        presentFrames = [0, 0]
    }

    static let names = ["app", "mic", "mix"].map { ($0, Quark.of(dynamic: "\($0)-rms"), Quark.of(dynamic: "\($0)-peak")) }
    static let stateFields = [Quark.of("app-state"), Quark.of("mic-state")]

    static func post(_ report: Report, element: UnsafeMutablePointer<RcDualMixer>, t0: UInt64) {
        let start = MixerInput.time(ofOutputFrame: report.startFrame, t0: t0)
        let end = MixerInput.time(ofOutputFrame: report.startFrame + Int64(report.frames), t0: t0)
        let s = gst_structure_new_empty("dualmixer-levels")!
        s.set(VolumeMeterMessage.timestamp, uint64: GstClockTime(start))
        s.set(VolumeMeterMessage.runningTime, uint64: GstClockTime(start))
        s.set(VolumeMeterMessage.duration, uint64: GstClockTime(end - start))
        for (index, field) in names.enumerated() {
            report.rms[index].withUnsafeBufferPointer { s.set(field.1, doubles: $0) }
            report.peak[index].withUnsafeBufferPointer { s.set(field.2, doubles: $0) }
        }
        for (index, field) in stateFields.enumerated() { s.set(field, string: report.states[index]) }
        MessagePoster.post(gst_message_new_element(rc_object(element), s))
    }
}
