// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import ReplayKitModel

/// A replaykitsrc run with a recorder on each of its three pads.
struct RecordedBroadcast {
    let run: PipelineRun
    let video: PadRecorder
    let app: PadRecorder
    let mic: PadRecorder

    /// `properties` go on replaykitsrc (named rk); each pad goes to a fakesink (sync in live runs).
    /// Video buffers get a note from `inspectVideo`, or their barcode with `barcodes`.
    static func record(_ properties: String, live: Bool = false, pads: [String] = ["video", "audio_app", "audio_mic"],
                       timeout: Double = 30, barcodes: (width: Int, height: Int)? = nil,
                       prepare: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil,
                       whilePlaying: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil,
                       finished: ((UnsafeMutablePointer<GstElement>) -> Void)? = nil,
                       inspectVideo: (@Sendable (UnsafeRawBufferPointer) -> String?)? = nil) throws -> RecordedBroadcast {
        let sinks = pads.map { "rk.\($0) ! fakesink name=sink_\($0) sync=\(live)" }.joined(separator: " ")
        let description = "replaykitsrc name=rk is-live=\(live) \(properties) \(sinks)"
        let video = PadRecorder(inspect: inspectVideo ?? barcodes.map { BarcodeNote.reader(width: $0.width, height: $0.height) })
        let app = PadRecorder(), mic = PadRecorder()
        let run = try PipelineRun.run(description, timeout: timeout, prepare: { pipeline in
            for (pad, recorder) in [("video", video), ("audio_app", app), ("audio_mic", mic)] where pads.contains(pad) {
                recorder.attach(to: pipeline, element: "rk", pad: pad)
            }
            prepare?(pipeline)
        }, whilePlaying: whilePlaying, finished: finished)
        return RecordedBroadcast(run: run, video: video, app: app, mic: mic)
    }
}

/// Reads the frame barcode of NV12 buffers of `width`×`height` in GStreamer's default
/// layout (luma rows rounded up to 4 bytes) into "frameNumber timestamp".
enum BarcodeNote {
    static func reader(width: Int, height: Int) -> @Sendable (UnsafeRawBufferPointer) -> String? {
        { bytes in
            let stride = (width + 3) / 4 * 4
            guard bytes.count >= stride * height, let base = bytes.baseAddress else { return "short" }
            let luma = base.assumingMemoryBound(to: UInt8.self)
            guard let reading = BarcodeReader.read(yPlane: luma, stride: stride, width: width, height: height) else {
                return "unreadable"
            }
            return "\(reading.frameNumber) \(reading.timestamp)"
        }
    }
}
