// SPDX-License-Identifier: LGPL-2.1-or-later
import HLSPackaging
import Testing

struct PartBoundariesTests {
    /// Places `count` samples of `duration` ticks from `start`, sync every `keyframes`; returns
    /// each part's sample count and the indexes of the samples that start segments.
    static func cut(_ boundaries: inout PartBoundaries, count: Int, duration: UInt64, keyframes: Int, start: UInt64 = 0)
        -> (parts: [Int], segmentStarts: [Int]) {
        var parts = [0], segmentStarts = [0]
        for index in 0..<count {
            let time = start + UInt64(index) * duration
            switch boundaries.place(decodeTime: time, duration: duration, isSync: index % keyframes == 0) {
            case .none: break
            case .part: parts.append(0)
            case .segment:
                parts.append(0)
                segmentStarts.append(index)
            }
            parts[parts.count - 1] += 1
        }
        return (parts, segmentStarts)
    }

    /// 30 fps at 90 kHz, a keyframe every 2 s, 0.3 s parts, 2 s segments: six parts of nine
    /// frames and one of six in each segment, none longer than 0.3 s.
    @Test func videoPartsFillTheTargetAndSegmentsStartAtKeyframes() {
        var boundaries = PartBoundaries(partTarget: 27_000, segmentTarget: 180_000, segmentLimit: 224_999)
        let (parts, starts) = Self.cut(&boundaries, count: 240, duration: 3000, keyframes: 60)
        #expect(starts == [0, 60, 120, 180])
        #expect(parts == Array(repeating: [9, 9, 9, 9, 9, 9, 6], count: 4).flatMap { $0 })
        #expect(parts.allSatisfy { UInt64($0) * 3000 <= 27_000 })
    }

    /// A part target of 0.25 s is 7.5 frames: parts of seven, 93 % of the target, above the
    /// 85 % every part but a segment's last must reach (RFC 8216bis, 4.4.4.9).
    @Test func aTargetBetweenFramesCutsBeforeTheFrameThatCrossesIt() {
        var boundaries = PartBoundaries(partTarget: 22_500, segmentTarget: 90_000, segmentLimit: 134_999)
        let (parts, starts) = Self.cut(&boundaries, count: 60, duration: 3000, keyframes: 30)
        #expect(starts == [0, 30])
        #expect(parts == [7, 7, 7, 7, 2, 7, 7, 7, 7, 2])
        #expect(parts.dropLast().enumerated().filter { ($0.offset + 1) % 5 != 0 }.allSatisfy { Double($0.element * 3000) >= 0.85 * 22_500 })
    }

    /// AAC at 48 kHz: every frame is a sync sample, 1024 ticks; 0.3 s parts hold 14 frames
    /// (0.2987 s); segments end on the 2 s grid, to the nearest half frame.
    @Test func audioSegmentsEndOnTimeAsEveryFrameIsSync() {
        var boundaries = PartBoundaries(partTarget: 14_400, segmentTarget: 96_000, segmentLimit: 119_999)
        let (parts, starts) = Self.cut(&boundaries, count: 300, duration: 1024, keyframes: 1)
        // Multiples of 2 s fall at frames 93.75, 187.5 and 281.25: segments start at the frame
        // that is there or half a frame before it.
        #expect(starts == [0, 94, 187, 281])
        #expect(parts.prefix(7) == [14, 14, 14, 14, 14, 14, 10])
        #expect(parts.allSatisfy { $0 * 1024 <= 14_400 })
    }

    /// A keyframe that comes late: the segment still ends before it would round to more than
    /// the target duration, on a frame that is not a keyframe.
    @Test func aLateKeyframeCannotStretchASegmentPastTheLimit() {
        var boundaries = PartBoundaries(partTarget: 27_000, segmentTarget: 180_000, segmentLimit: 224_999)
        let (_, starts) = Self.cut(&boundaries, count: 200, duration: 3000, keyframes: 1000)
        // 2.5 s less a tick is 74.99 frames: the 75th frame would end at 225000.
        #expect(starts == [0, 74, 148])
    }

    /// A pause: decode time jumps by 3 s. The segment ends there and the next starts after a gap.
    @Test func aGapEndsTheSegment() {
        var boundaries = PartBoundaries(partTarget: 27_000, segmentTarget: 180_000, segmentLimit: 224_999)
        #expect(boundaries.place(decodeTime: 0, duration: 3000, isSync: true) == .none)
        #expect(boundaries.place(decodeTime: 3000, duration: 3000, isSync: false) == .none)
        #expect(boundaries.place(decodeTime: 6000 + 270_000, duration: 3000, isSync: false) == .segment(afterGap: true))
        #expect(boundaries.place(decodeTime: 279_000, duration: 3000, isSync: false) == .none)
    }
}
