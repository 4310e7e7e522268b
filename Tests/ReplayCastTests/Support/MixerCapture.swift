// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import MediaKernels

/// Runs a pipeline whose `dualmixer name=m` output goes, as F32LE stereo, to a file, and
/// returns the samples with the run.
struct MixerCapture {
    let run: PipelineRun
    let samples: [Float]
    let output: PadRecorder

    var frames: Int { samples.count / 2 }

    /// `inputs` is the gst-launch text feeding m.app / m.mic; `mixer` the dualmixer properties.
    static func capture(_ inputs: String, mixer: String = "", timeout: Double = 60, live: Bool = false,
                        format: String = "F32LE",
                        whilePlaying: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil) throws -> MixerCapture {
        let directory = try temporaryDirectory("mixer")
        let file = directory.appendingPathComponent("out.raw")
        let description = "dualmixer name=m \(mixer) ! audio/x-raw,format=\(format) ! identity name=out "
            + "! filesink location=\(file.path) sync=\(live) \(inputs)"
        let recorder = PadRecorder()
        let run = try PipelineRun.run(description, timeout: timeout, prepare: { recorder.attach(to: $0, element: "out", pad: "src") },
                                      whilePlaying: whilePlaying)
        let data = (try? Data(contentsOf: file)) ?? Data()
        try? FileManager.default.removeItem(at: directory)
        let samples: [Float]
        if format == "F32LE" {
            samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        } else {
            samples = data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float($0) / 32768 } }
        }
        return MixerCapture(run: run, samples: samples, output: recorder)
    }

    /// Amplitude (peak, linear) of `frequency` in channel `channel` over output frames `range`.
    func amplitude(of frequency: Double, channel: Int = 0, in range: Range<Int>) -> Double {
        samples.withUnsafeBufferPointer { all in
            Goertzel.amplitude(of: frequency, in: all.baseAddress! + 2 * range.lowerBound, frames: range.count,
                               channel: channel, channels: 2, sampleRate: 48000)
        }
    }
}
