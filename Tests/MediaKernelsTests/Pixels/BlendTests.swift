// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

/// compositor's blend formulas (ORC `blend_u8` for 4:2:0, `blend_bgra` for packed):
/// a = ⌊alpha·255⌋; 4:2:0: d' = (d·(256−a) + s·a) >> 8; packed: a' = round(A·a/255),
/// d' = round((s·a' + d·(255−a'))/255), alpha byte 255. Our output matched compositor
/// bit for bit at alpha 0.5 (NV12, I420, RGBA, BGRA; even, odd and clipped positions).
@Suite struct BlendTests {
    @Test(arguments: [PixelFormat.nv12, .i420])
    func halfAlphaFollowsCompositorFormula(format: PixelFormat) {
        let main = TestImage(format, 64, 48, seed: 5), pip = TestImage(format, 21, 13, seed: 6)
        let before = main.copy()
        main.frame.draw(pip.frame, at: PixelPoint(x: 7, y: 9), alpha: 0.5)
        let a = Int(0.5 * 255)
        #expect(a == 127)
        // Luma (8, 10) is PiP (0, 0); chroma (4, 5) is PiP chroma (0, 0).
        for (x, y, px, py) in [(8, 10, 0, 0), (28, 22, 20, 12), (15, 17, 7, 7)] {
            let d = Int(before.sample(0, x, y)), s = Int(pip.sample(0, px, py))
            let exact = (d * (256 - a) + s * a) >> 8
            #expect(Int(main.sample(0, x, y)) == exact)
            // Within ±1 of the ideal mix.
            #expect(abs(Double(main.sample(0, x, y)) - (Double(d) + Double(s)) / 2) <= 1)
        }
        let d = Int(before.sample(1, 4, 5)), s = Int(pip.sample(1, 0, 0))
        #expect(Int(main.sample(1, 4, 5)) == (d * (256 - a) + s * a) >> 8)
        // Outside the PiP nothing changes.
        #expect(main.sample(0, 7, 10) == before.sample(0, 7, 10))
        #expect(main.sample(0, 29, 10) == before.sample(0, 29, 10))
    }

    @Test(arguments: [PixelFormat.rgba, .bgra])
    func packedBlendUsesPictureAlphaTimesGlobalAlpha(format: PixelFormat) {
        let main = TestImage(format, 16, 8, seed: 7), pip = TestImage(format, 4, 4, seed: 8)
        pip.set(0, 1, 1, 3, 255)
        pip.set(0, 2, 1, 3, 0)
        let before = main.copy()
        main.frame.draw(pip.frame, at: PixelPoint(x: 3, y: 2), alpha: 0.5)
        func div255(_ v: Int) -> Int { (v + 128 + ((v + 128) >> 8)) >> 8 }
        for (px, py) in [(0, 0), (1, 1), (2, 1), (3, 3)] {
            let a = div255(Int(pip.sample(0, px, py, 3)) * 127)
            for c in 0..<3 {
                let d = Int(before.sample(0, px + 3, py + 2, c)), s = Int(pip.sample(0, px, py, c))
                #expect(Int(main.sample(0, px + 3, py + 2, c)) == div255(s * a + d * (255 - a)))
                #expect(abs(Double(main.sample(0, px + 3, py + 2, c)) - (Double(s * a) + Double(d * (255 - a))) / 255) <= 1)
            }
            #expect(main.sample(0, px + 3, py + 2, 3) == 255)
        }
        // A fully transparent picture pixel leaves the colour alone.
        for c in 0..<3 { #expect(main.sample(0, 5, 3, c) == before.sample(0, 5, 3, c)) }
    }

    @Test func zeroAlphaDrawsNothingAndOneCopies() {
        let main = TestImage(.nv12, 32, 32, seed: 9), pip = TestImage(.nv12, 8, 8, seed: 10)
        let before = main.bytes
        main.frame.draw(pip.frame, at: PixelPoint(x: 4, y: 4), alpha: 0)
        let untouched = main.bytes == before
        #expect(untouched)
        main.frame.draw(pip.frame, at: PixelPoint(x: 4, y: 4), alpha: 1)
        #expect(main.sample(0, 4, 4) == pip.sample(0, 0, 0) && main.sample(1, 5, 5, 1) == pip.sample(1, 3, 3, 1))
    }
}
