// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
@testable import ReplayCast
import Testing

/// Pixel checks on real pipelines: where the PiP lands, borders, blending, chroma of odd
/// placements, letterboxing, orientation and colour conversion of the PiP.
@Suite struct PipCompositorPixelTests {
    /// Runs `description` (it names its pipcompositor `pip` and its grabbed sink `out`) and
    /// returns the frames at `out`, plus frames at other named sinks.
    static func frames(_ description: String, grab others: [String] = [],
                       plans: UnsafeMutablePointer<PlanCounts>? = nil) throws -> [String: [GrabbedFrame]] {
        let grabbers = (["out"] + others).map { ($0, FrameGrabber()) }
        let run = try PipelineRun.run(description, prepare: { pipeline in
            for (name, grabber) in grabbers { grabber.attach(to: pipeline, element: name) }
            if plans != nil { watchPlans(pipeline, "pip") }
        }, finished: { pipeline in
            if let plans { plans.pointee = planCounts(pipeline, "pip") }
        })
        #expect(run.error == nil, "\(String(describing: run.error))")
        #expect(run.reachedEOS)
        return Dictionary(uniqueKeysWithValues: grabbers.map { ($0.0, $0.1.frames) })
    }

    static let limited = ColorSpace.bt709Limited

    /// The rectangle of luma pixels equal to `value` (its bounding box) and their count.
    static func region(of value: UInt8, in frame: GrabbedFrame) -> (rect: PixelRect, count: Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1, count = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame.sample(0, x, y) == value {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                count += 1
            }
        }
        guard count > 0 else { return (PixelRect(x: 0, y: 0, width: 0, height: 0), 0) }
        return (PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1), count)
    }

    @Test(arguments: [("top-left", 10, PixelPoint(x: 10, y: 10)), ("top-right", 10, PixelPoint(x: 246, y: 10)),
                      ("bottom-left", 10, PixelPoint(x: 10, y: 182)), ("bottom-right", 10, PixelPoint(x: 246, y: 182)),
                      ("top-left", 11, PixelPoint(x: 12, y: 12)), ("bottom-right", 11, PixelPoint(x: 244, y: 180))])
    func positionPresetsKeepTheMargin(position: String, margin: Int, expected: PixelPoint) throws {
        let description = "videotestsrc pattern=black num-buffers=2 ! \(videoCaps(.nv12, 320, 240)) "
            + "! pipcompositor name=pip sink_1::position=\(position) sink_1::margin=\(margin) ! fakesink name=out "
            + "videotestsrc pattern=white num-buffers=2 ! \(videoCaps(.nv12, 64, 48)) ! pip."
        let frame = try #require(try Self.frames(description)["out"]?.last)
        let white = RGBColor.white.yuv(in: Self.limited).y
        let found = Self.region(of: white, in: frame)
        #expect(found.rect == PixelRect(origin: expected, size: PixelSize(width: 64, height: 48)), "\(position) margin \(margin)")
        #expect(found.count == 64 * 48, "a solid rectangle and nothing else")
        print("position \(position) margin \(margin): PiP at \(found.rect)")
    }

    @Test func borderHasItsColourAndWidthAndCornersAreCut() throws {
        let description = "videotestsrc pattern=black num-buffers=2 ! \(videoCaps(.nv12, 320, 240)) "
            + "! pipcompositor name=pip sink_1::xpos=40 sink_1::ypos=40 sink_1::border-width=6 "
            + "sink_1::border-color=0xffff0000 sink_1::corner-radius=12 ! fakesink name=out "
            + "videotestsrc pattern=blue num-buffers=2 ! \(videoCaps(.nv12, 80, 60)) ! pip."
        let frame = try #require(try Self.frames(description)["out"]?.last)
        let red = RGBColor(red: 255, green: 0, blue: 0).yuv(in: Self.limited)
        let blue = RGBColor(red: 0, green: 0, blue: 255).yuv(in: Self.limited)
        let black = RGBColor.black.yuv(in: Self.limited)
        // Straight parts of the border: 6 pixels wide on each side, exact colour (chroma too,
        // the border starts on a chroma boundary and is an even number of pixels wide).
        for (x, y) in [(60, 40), (60, 45), (60, 94), (60, 99), (40, 70), (45, 70), (114, 70), (119, 70)] {
            #expect(frame.yuv(x, y) == red, "border at (\(x), \(y))")
        }
        for (x, y) in [(60, 46), (60, 93), (46, 70), (113, 70), (80, 70)] {
            let inside = frame.yuv(x, y)
            #expect(abs(Int(inside.y) - Int(blue.y)) <= 1 && abs(Int(inside.u) - Int(blue.u)) <= 1, "picture at (\(x), \(y))")
        }
        #expect(frame.yuv(40, 40) == black, "the rounded corner leaves the main picture")
        #expect(frame.yuv(39, 70) == black && frame.yuv(120, 70) == black, "nothing outside the PiP rectangle")
    }

    /// alpha=0.5 with compositor's formula a = ⌊0.5·255⌋ = 127: d' = (d·129 + s·127) >> 8 in 4:2:0,
    /// d' = (s·127 + d·128) / 255 rounded in RGBA; within ±1 of ⌊(s + d) / 2⌋.
    @Test(arguments: [PixelFormat.nv12, .rgba])
    func halfAlphaBlendsWithinOne(format: PixelFormat) throws {
        let description = "videotestsrc pattern=smpte num-buffers=2 ! \(videoCaps(format, 320, 240)) ! tee name=m "
            + "m. ! queue ! pipcompositor name=pip sink_1::xpos=100 sink_1::ypos=56 sink_1::alpha=0.5 ! fakesink name=out "
            + "m. ! queue ! fakesink name=main "
            + "videotestsrc pattern=pinwheel num-buffers=2 ! \(videoCaps(format, 96, 64)) ! tee name=p "
            + "p. ! queue ! pip. p. ! queue ! fakesink name=picture"
        let grabbed = try Self.frames(description, grab: ["main", "picture"])
        let out = try #require(grabbed["out"]?.last), main = try #require(grabbed["main"]?.last)
        let picture = try #require(grabbed["picture"]?.last)
        let region = out.cropped(PixelRect(x: 100, y: 56, width: 96, height: 64))
        let under = main.cropped(PixelRect(x: 100, y: 56, width: 96, height: 64))
        var worstFloor = 0, worstExact = 0.0, samples = 0
        for plane in 0..<format.planeCount {
            for index in region.planes[plane].indices {
                if format == .rgba && index % 4 == 3 { continue }
                let s = Int(picture.planes[plane][index]), d = Int(under.planes[plane][index])
                let got = Int(region.planes[plane][index])
                worstFloor = max(worstFloor, abs(got - (s + d) / 2))
                worstExact = max(worstExact, abs(Double(got) - Double(s + d) / 2))
                samples += 1
            }
        }
        #expect(worstFloor <= 1)
        print("alpha 0.5 \(format): \(samples) samples, max |out − ⌊(s+d)/2⌋| = \(worstFloor), max |out − (s+d)/2| = \(worstExact)")
    }

    /// An NV12 PiP of odd size at an odd position: the origin rounds up to even, 61×37 luma
    /// samples and ⌈61/2⌉×⌈37/2⌉ chroma samples are written, so the last chroma column and row
    /// also colour the main picture's luma just right of and below the PiP.
    @Test func oddPlacementInNV12GivesTheDocumentedChroma() throws {
        let description = "videotestsrc pattern=black num-buffers=2 ! \(videoCaps(.nv12, 320, 240)) "
            + "! pipcompositor name=pip sink_1::xpos=101 sink_1::ypos=57 ! fakesink name=out "
            + "videotestsrc pattern=red num-buffers=2 ! \(videoCaps(.nv12, 61, 37)) ! pip."
        let frame = try #require(try Self.frames(description)["out"]?.last)
        let red = frame.yuv(130, 75) // videotestsrc's own red, well inside the PiP
        let black = RGBColor.black.yuv(in: Self.limited)
        #expect(red.y != black.y && red.v != black.v)
        let redLuma = Self.region(of: red.y, in: frame)
        #expect(redLuma.rect == PixelRect(x: 102, y: 58, width: 61, height: 37))
        #expect(redLuma.count == 61 * 37)
        // Chroma: columns 51...81, rows 29...47 are red's.
        for cy in 28...48 {
            for cx in 50...82 {
                let inside = (51...81).contains(cx) && (29...47).contains(cy)
                let expected = inside ? red : black
                #expect(frame.sample(1, cx, cy, 0) == expected.u && frame.sample(1, cx, cy, 1) == expected.v, "chroma (\(cx), \(cy))")
            }
        }
        // Luma column 163 and row 95 stay the main picture's, under the PiP's last chroma.
        #expect(frame.yuv(163, 70) == YUVColor(y: black.y, u: red.u, v: red.v))
        #expect(frame.yuv(120, 95) == YUVColor(y: black.y, u: red.u, v: red.v))
    }

    /// A portrait screen into a landscape output with sizing-policy=keep-aspect-ratio:
    /// pillarbox; a wide picture into a taller output: letterbox. Bars are the background;
    /// in 4:2:0 offsets are even, so an odd leftover goes to the right or bottom bar.
    @Test(arguments: [(PixelSize(width: 90, height: 160), PixelRect(x: 108, y: 0, width: 102, height: 180)),
                      (PixelSize(width: 320, height: 90), PixelRect(x: 0, y: 44, width: 320, height: 90))])
    func mainPictureIsFittedWithBars(main: PixelSize, expected: PixelRect) throws {
        var plans = PlanCounts()
        let description = "videotestsrc pattern=white num-buffers=2 ! \(videoCaps(.nv12, main.width, main.height)) "
            + "! pipcompositor name=pip sink_0::sizing-policy=keep-aspect-ratio ! \(videoCaps(.nv12, 320, 180)) ! fakesink name=out"
        let frame = try #require(try Self.frames(description, plans: &plans)["out"]?.last)
        let white = RGBColor.white.yuv(in: Self.limited), black = RGBColor.black.yuv(in: Self.limited)
        let picture = Self.region(of: white.y, in: frame)
        #expect(picture.rect == expected)
        #expect(picture.count == expected.width * expected.height, "a uniform picture scales to itself")
        #expect(Self.region(of: black.y, in: frame).count == 320 * 180 - expected.width * expected.height, "bars are black")
        #expect(plans.compose == 2)
        print("keep-aspect-ratio \(main.width)x\(main.height) into 320x180: picture at \(picture.rect)")
    }

    /// The bars take the background: a colour, white, or compositor's checker pattern.
    @Test(arguments: ["color background-color=0xff3366cc", "white", "checker", "transparent"])
    func barsShowTheBackground(background: String) throws {
        let description = "videotestsrc pattern=black num-buffers=1 ! \(videoCaps(.nv12, 90, 160)) "
            + "! pipcompositor name=pip background=\(background) sink_0::sizing-policy=keep-aspect-ratio "
            + "! \(videoCaps(.nv12, 320, 180)) ! fakesink name=out"
        let frame = try #require(try Self.frames(description)["out"]?.last)
        for (x, y) in [(0, 0), (9, 3), (50, 100), (300, 170)] {
            let expected: YUVColor
            switch background {
            case "white": expected = RGBColor.white.yuv(in: Self.limited)
            case "checker": expected = YUVColor(y: ((x >> 3) ^ (y >> 3)) & 1 == 0 ? 80 : 160, u: 128, v: 128)
            case "transparent": expected = RGBColor.black.yuv(in: Self.limited)
            default: expected = RGBColor(hex: 0x3366CC).yuv(in: Self.limited)
            }
            #expect(frame.yuv(x, y) == expected, "\(background) at (\(x), \(y))")
        }
        #expect(frame.yuv(160, 90) == RGBColor.black.yuv(in: Self.limited), "the main picture")
    }

    /// replaykitsrc's orientation=right sends image-orientation=rotate-90: the main picture is
    /// turned upright, as `videoflip video-direction=auto` does, from the frame after the tag,
    /// and the output renegotiates to landscape (at the start or mid-stream).
    @Test(arguments: ["0s", "0.2s"])
    func orientationTagRotatesTheMainPicture(at time: String) throws {
        let source = "replaykitsrc is-live=false width=128 height=256 num-frames=10 schedule=\(time):orientation=right"
        let description = "\(source) name=a a.video ! pipcompositor name=pip ! fakesink name=out "
            + "\(source) name=b b.video ! videoflip video-direction=auto ! fakesink name=flipped"
        var plans = PlanCounts()
        let grabbed = try Self.frames(description, grab: ["flipped"], plans: &plans)
        let ours = try #require(grabbed["out"]), reference = try #require(grabbed["flipped"])
        #expect(ours.count == reference.count && ours.count == 10)
        for (a, b) in zip(ours, reference) {
            #expect(a.size == b.size && a.planes == b.planes, "frame at \(a.pts): \(a.size) against \(b.size)")
        }
        #expect(ours.last?.size == PixelSize(width: 256, height: 128), "the output is the upright picture's size")
        let rotated = ours.filter { $0.size.width == 256 }.count
        #expect(plans.compose == rotated && plans.taken == ours.count - rotated, "\(plans)")
        print("orientation=right at \(time): \(rotated) of \(ours.count) frames rotated, identical to videoflip; plans \(plans)")
    }

    /// A pause of the broadcast sends GAP events on the screen: the background shows (as with
    /// compositor), the PiP stays.
    @Test func mainGapShowsTheBackground() throws {
        let description = "replaykitsrc is-live=false width=128 height=256 num-frames=20 schedule=\"0.2s:pause; 0.4s:resume\" "
            + "name=a a.video ! pipcompositor name=pip background=white sink_1::xpos=8 sink_1::ypos=8 ! fakesink name=out "
            + "videotestsrc pattern=black num-buffers=30 ! video/x-raw,format=NV12,width=16,height=16,framerate=30/1 ! pip."
        let frames = try #require(try Self.frames(description)["out"])
        let white = RGBColor.white.yuv(in: .bt709Full).y
        let paused = frames.filter { $0.pts >= 200_000_000 && $0.pts < 400_000_000 }
        #expect(paused.count == 6, "0.2 s of pause at 30 fps: \(paused.count) frames")
        for frame in frames {
            let background = Self.region(of: white, in: frame).count
            let inPause = frame.pts >= 200_000_000 && frame.pts < 400_000_000
            if inPause {
                #expect(background == 128 * 256 - 16 * 16, "paused at \(frame.pts): background and the PiP")
            }
        }
        print("main GAP: \(paused.count) frames show the background")
    }

    /// A PiP in other colours (BT.601, or RGB) is converted, the main picture is not: the PiP
    /// area matches the same pattern rendered in the main picture's colours (BT.709) within
    /// ±3 (the conversion's ±1 plus videotestsrc's own rounding twice) wherever the 2×2 block
    /// is one colour, and the main buffer is still the output. Where a block straddles two
    /// colours, 4:2:0 has one chroma pair for both: luma is corrected with that shared pair.
    /// (100% bars: smpte has a noise patch that differs between two videotestsrc instances.)
    @Test(arguments: [("NV12,colorimetry=bt601", "smpte100"), ("I420,colorimetry=bt601", "smpte100"),
                      ("RGBA", "smpte100"), ("BGRA", "solid-color foreground-color=0xffcc6633")])
    func otherColoursAreConvertedInThePiPOnly(pipCaps: String, pattern: String) throws {
        var plans = PlanCounts()
        let description = "videotestsrc pattern=black num-buffers=2 ! \(videoCaps(.nv12, 320, 240)) "
            + "! pipcompositor name=pip sink_1::xpos=100 sink_1::ypos=50 ! fakesink name=out "
            + "videotestsrc pattern=\(pattern) num-buffers=2 ! video/x-raw,format=\(pipCaps),width=64,height=48,framerate=30/1 ! pip. "
            + "videotestsrc pattern=\(pattern) num-buffers=2 ! \(videoCaps(.nv12, 64, 48)) ! fakesink name=reference"
        let grabbed = try Self.frames(description, grab: ["reference"], plans: &plans)
        let out = try #require(grabbed["out"]?.last), reference = try #require(grabbed["reference"]?.last)
        let region = out.cropped(PixelRect(x: 100, y: 50, width: 64, height: 48))
        var worstFlat = 0, worstEdge = 0
        for y in 0..<48 {
            for x in 0..<64 {
                let bx = x & ~1, by = y & ~1
                let block = [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)].map { reference.sample(0, $0.0, $0.1) }
                let flat = block.allSatisfy { $0 == block[0] }
                let a = region.yuv(x, y), b = reference.yuv(x, y)
                let deviation = max(abs(Int(a.y) - Int(b.y)), abs(Int(a.u) - Int(b.u)), abs(Int(a.v) - Int(b.v)))
                if flat { worstFlat = max(worstFlat, deviation) } else { worstEdge = max(worstEdge, deviation) }
            }
        }
        #expect(worstFlat <= 3, "\(pipCaps)")
        #expect(plans.taken == 2, "the main picture was not converted: \(plans)")
        print("PiP \(pipCaps) \(pattern) over NV12 BT.709: max deviation from the BT.709 rendering \(worstFlat) "
              + "(2×2 blocks of one colour), \(worstEdge) (blocks across an edge)")
    }
}
