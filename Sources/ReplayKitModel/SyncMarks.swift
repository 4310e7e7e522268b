// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import MediaKernels

/// Audio–video sync marks of the emulated broadcast: at every whole second of capture time
/// from 1 s on (mark k at k · 10⁹ ns, the start of video slot 30k), the screen flashes white
/// and the audio streams carry a click, both drawn from the same capture timeline as the
/// rest of the content. A decoder that finds the flash's first frame and the click's first
/// sample anywhere downstream measures how far the pipeline moved audio against video.
///
/// - video: frames in `[k s, k s + 100 ms)` are white below the barcode strip (Y 255,
///   neutral chroma); the strip is kept, so frames still identify themselves.
/// - audio: `[k s − 100 ms, k s)` is silent, then a 1 kHz tone burst at −6 dBFS for 10 ms
///   starts exactly at sample k · rate (phase 0, so its first loud sample is within ¼ ms of
///   the mark), then the programme continues. The silence makes the onset unmistakable
///   after mixing and lossy coding; every channel carries the same mark.
public enum SyncMarks {
    public static let period = Timebase.nanosecondsPerSecond
    public static let flashDuration: UInt64 = 100_000_000
    public static let quietSeconds = 0.1
    public static let clickSeconds = 0.01
    public static let clickFrequency = 1000.0
    public static let clickAmplitude: Float = 0.5

    /// Mark index k ≥ 1 whose flash covers `time` (ns), or nil.
    public static func flash(at time: UInt64) -> UInt64? {
        let k = time / period
        return k >= 1 && time - k * period < flashDuration ? k : nil
    }

    /// The next time after `time` at which the flash starts or ends: the screen changes
    /// there, so a frame is due even when the emulated screen is otherwise still.
    public static func nextEdge(after time: UInt64) -> UInt64 {
        let k = time / period
        let flashEnd = k * period + flashDuration
        if k >= 1, time < flashEnd { return flashEnd }
        return (k + 1) * period
    }

    /// Paints the flash into an NV12 frame, leaving the top `keepRows` rows (the barcode).
    public static func drawFlash(yPlane: UnsafeMutablePointer<UInt8>, yStride: Int,
                                 uvPlane: UnsafeMutablePointer<UInt8>, uvStride: Int,
                                 width: Int, height: Int, keepRows: Int) {
        let top = min(keepRows, height)
        for row in top ..< height { (yPlane + row * yStride).update(repeating: 255, count: width) }
        let chromaWidth = (width + 1) / 2 * 2
        for row in (top + 1) / 2 ..< (height + 1) / 2 { (uvPlane + row * uvStride).update(repeating: 128, count: chromaWidth) }
    }

    /// Overlays the marks on `frames` frames of float planes starting at programme frame
    /// `first` (frame n is captured at n / rate s). Touches only blocks near a mark.
    static func overlay(planes: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, channels: Int,
                        from first: Int64, frames: Int, rate: Int) {
        let rate64 = Int64(rate)
        let quiet = Int64((quietSeconds * Double(rate)).rounded())
        let click = Int64((clickSeconds * Double(rate)).rounded())
        let end = first + Int64(frames)
        // The mark whose window [m - quiet, m + click) may overlap the block: the nearest one
        // at or after the block's first frame minus the click length.
        var k = max(1, (first - click + rate64 - 1) / rate64)
        while k * rate64 - quiet < end {
            let mark = k * rate64
            let lower = max(first, mark - quiet), upper = min(end, mark + click)
            if lower < upper {
                let step = 2 * Double.pi * clickFrequency / Double(rate)
                for frame in lower ..< upper {
                    let value = frame < mark ? 0 : clickAmplitude * Float(sin(step * Double(frame - mark)))
                    for channel in 0 ..< channels { planes[channel][Int(frame - first)] = value }
                }
            }
            k += 1
        }
    }
}
