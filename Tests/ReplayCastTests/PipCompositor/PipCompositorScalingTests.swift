// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import MediaKernels
@testable import ReplayCast
import Testing

/// Scaled PiPs against `videoscale` on the same picture: the PiP area of the output is
/// compared with videoscale's output, PSNR over all bytes of all planes.
///
/// Up to a 2x reduction our scaler is bilinear with videoscale's sample positions, so it is
/// held to ≥ 40 dB against `method=bilinear`. Beyond 2x it averages areas (anti-aliased),
/// while videoscale's bilinear stays 2-tap and corner-aligned, so it aliases on sharp content
/// and no anti-aliased filter can match it; there the reference is the better videoscale
/// method our area filter is closer to. Both numbers are printed.
@Suite struct PipCompositorScalingTests {
    static func psnrs(pattern: String, source: PixelSize, target: PixelSize, methods: [String],
                      format: PixelFormat = .nv12) throws -> [String: Double] {
        var description = "videotestsrc pattern=black num-buffers=1 ! \(videoCaps(format, 640, 480)) "
            + "! pipcompositor name=pip sink_1::xpos=0 sink_1::ypos=0 sink_1::width=\(target.width) "
            + "sink_1::height=\(target.height) ! fakesink name=out "
            + "videotestsrc \(pattern) num-buffers=1 ! \(videoCaps(format, source.width, source.height)) ! tee name=t "
            + "t. ! queue ! pip. "
        for method in methods {
            description += "t. ! queue ! videoscale method=\(method) ! \(videoCaps(format, target.width, target.height)) "
                + "! fakesink name=\(method.replacingOccurrences(of: "-", with: "_")) "
        }
        let grabbed = try PipCompositorPixelTests.frames(description, grab: methods.map { $0.replacingOccurrences(of: "-", with: "_") })
        let out = try #require(grabbed["out"]?.first)
        let ours = out.cropped(PixelRect(x: 0, y: 0, width: target.width, height: target.height))
        var result: [String: Double] = [:]
        for method in methods {
            let reference = try #require(grabbed[method.replacingOccurrences(of: "-", with: "_")]?.first)
            result[method] = psnr(ours, reference)
        }
        return result
    }

    static let patterns = ["pattern=smpte100", "pattern=pinwheel", "pattern=ball", "pattern=checkers-8"]

    static func report(_ pattern: String, _ source: PixelSize, _ target: PixelSize, _ db: [String: Double]) {
        let numbers = db.sorted { $0.key < $1.key }.map { String(format: "%@ %.1f dB", $0.key, $0.value) }
        print("scaled PiP \(pattern) \(source.width)x\(source.height) → \(target.width)x\(target.height): "
              + numbers.joined(separator: ", "))
    }

    @Test(arguments: patterns)
    func reductionsUpToTwoMatchBilinear(pattern: String) throws {
        for (source, target) in [(PixelSize(width: 640, height: 360), PixelSize(width: 320, height: 180)),
                                 (PixelSize(width: 640, height: 360), PixelSize(width: 480, height: 270))] {
            let db = try Self.psnrs(pattern: pattern, source: source, target: target, methods: ["bilinear"])
            Self.report(pattern, source, target, db)
            #expect(db["bilinear"]! >= 40, "\(pattern) \(source.width)x\(source.height) → \(target.width)x\(target.height)")
        }
    }

    /// Enlarging is not what a PiP does, and videoscale's bilinear takes corner-aligned luma
    /// columns there too: printed, and held to 35 dB.
    @Test(arguments: patterns)
    func enlargingStaysClose(pattern: String) throws {
        let source = PixelSize(width: 320, height: 180), target = PixelSize(width: 480, height: 270)
        let db = try Self.psnrs(pattern: pattern, source: source, target: target, methods: ["bilinear"])
        Self.report(pattern, source, target, db)
        #expect(db["bilinear"]! >= 35)
    }

    /// Beyond 2x the reference is lanczos, which our area filter is closer to than 4-tap
    /// (and than bilinear, which aliases). An 8-pixel checkerboard is printed but not held:
    /// at 4x bilinear happens to hit the centre of every square (identical), lanczos rings on
    /// it, and at 2.67x every filter disagrees on a pattern at the new Nyquist frequency.
    @Test(arguments: patterns)
    func strongerReductionsMatchLanczos(pattern: String) throws {
        for (source, target) in [(PixelSize(width: 1280, height: 720), PixelSize(width: 480, height: 270)),
                                 (PixelSize(width: 1280, height: 720), PixelSize(width: 320, height: 180))] {
            let db = try Self.psnrs(pattern: pattern, source: source, target: target, methods: ["bilinear", "4-tap", "lanczos"])
            Self.report(pattern, source, target, db)
            if pattern != "pattern=checkers-8" {
                #expect(db["lanczos"]! >= 40, "\(pattern) \(source.width)x\(source.height) → \(target.width)x\(target.height)")
                #expect(db["lanczos"]! >= db["4-tap"]!, "lanczos is the closer reference")
            }
        }
    }
}
