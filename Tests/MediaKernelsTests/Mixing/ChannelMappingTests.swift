// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels
import Testing

@Suite struct ChannelMappingTests {
    static let frames = 21  // two 8-frame vectors and a tail

    static func input(channels: Int) -> [Float] {
        (0..<(frames * channels)).map { Float($0 % 7) * 0.13 - 0.4 + Float($0) * 1e-3 }
    }

    static func mapped(_ channels: Int, gain: Float, onto base: [Float]? = nil) -> [Float] {
        let mapping = ChannelMapping(inputChannels: channels)
        let source = input(channels: channels)
        var out = base ?? [Float](repeating: .nan, count: frames * 2)
        source.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                if base == nil {
                    mapping.map(s.baseAddress!, frames: frames, gain: gain, into: o.baseAddress!)
                } else {
                    mapping.mix(s.baseAddress!, frames: frames, gain: gain, into: o.baseAddress!)
                }
            }
        }
        return out
    }

    @Test func monoIsCopiedToBothSidesAtZeroDecibels() {
        let source = Self.input(channels: 1)
        let out = Self.mapped(1, gain: 1)
        for f in 0..<Self.frames {
            #expect(out[2 * f].bitPattern == source[f].bitPattern && out[2 * f + 1].bitPattern == source[f].bitPattern)
        }
        let half = Self.mapped(1, gain: 0.5)
        #expect((0..<Self.frames).allSatisfy { half[2 * $0] == source[$0] * 0.5 && half[2 * $0 + 1] == source[$0] * 0.5 })
    }

    @Test func stereoPassesThroughBitExactly() {
        let source = Self.input(channels: 2)
        #expect(sameBits(Self.mapped(2, gain: 1), source) == Self.frames * 2)
        #expect(Self.mapped(2, gain: 0.25) == source.map { $0 * 0.25 })
    }

    @Test func threeChannelsDownmixWithoutExceedingFullScale() {
        #expect(abs(ChannelMapping.sideGain + ChannelMapping.centreGain - 1) < 1e-7)
        #expect(abs(Double(ChannelMapping.centreGain / ChannelMapping.sideGain) - 0.5.squareRoot()) < 1e-6)
        let source = Self.input(channels: 3)
        let out = Self.mapped(3, gain: 2)
        for f in 0..<Self.frames {
            let c = source[3 * f + 2] * ChannelMapping.centreGain * 2
            #expect(abs(out[2 * f] - (source[3 * f] * ChannelMapping.sideGain * 2 + c)) < 1e-6)
            #expect(abs(out[2 * f + 1] - (source[3 * f + 1] * ChannelMapping.sideGain * 2 + c)) < 1e-6)
        }
        // In-phase full scale on all three channels stays within full scale.
        let mapping = ChannelMapping(inputChannels: 3)
        var full: [Float] = [1, 1, 1, -1, -1, -1]
        var result = [Float](repeating: 0, count: 4)
        full.withUnsafeMutableBufferPointer { s in
            result.withUnsafeMutableBufferPointer { mapping.map(s.baseAddress!, frames: 2, gain: 1, into: $0.baseAddress!) }
        }
        #expect(result.allSatisfy { abs($0) <= 1 && abs($0) > 0.99999 })
    }

    @Test(arguments: 1...3)
    func mixAddsToWhatIsThere(channels: Int) {
        let base = (0..<(Self.frames * 2)).map { Float($0) * 0.01 }
        let mixed = Self.mapped(channels, gain: 0.7, onto: base)
        let alone = Self.mapped(channels, gain: 0.7)
        #expect(mixed.count == base.count && zip(mixed, zip(base, alone)).filter { $0 == $1.0 + $1.1 }.count == Self.frames * 2)
    }

    /// The first input of a mix is written without zeroing the bus first: the bits must be
    /// those of mixing into zeros, −0 (which 0 + x turns into +0) and the tail included.
    @Test(arguments: 1...3)
    func mixIntoSilenceEqualsMixIntoZeros(channels: Int) {
        let mapping = ChannelMapping(inputChannels: channels)
        var source = Self.input(channels: channels)
        for c in 0..<channels {
            source[c] = -0.0
            source[source.count - 1 - c] = -0.0
        }
        var zeroed = [Float](repeating: 0, count: Self.frames * 2)
        var direct = [Float](repeating: .nan, count: Self.frames * 2)
        source.withUnsafeBufferPointer { s in
            zeroed.withUnsafeMutableBufferPointer { mapping.mix(s.baseAddress!, frames: Self.frames, gain: 1, into: $0.baseAddress!) }
            direct.withUnsafeMutableBufferPointer {
                mapping.mixIntoSilence(s.baseAddress!, frames: Self.frames, gain: 1, into: $0.baseAddress!)
            }
        }
        #expect(sameBits(direct, zeroed) == Self.frames * 2)
        #expect(direct.contains { $0 == 0 } && !direct.contains { $0 == 0 && $0.sign == .minus })
    }
}
