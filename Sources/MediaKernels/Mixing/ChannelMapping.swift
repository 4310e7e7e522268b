// SPDX-License-Identifier: LGPL-2.1-or-later
/// Maps 1, 2 or 3 interleaved input channels to interleaved stereo, with the input's gain
/// applied in the same pass, either storing the result or adding it to a mix.
///
/// - Mono: copied to both sides at 0 dB, as `audioconvert` does. A centred source then plays
///   3 dB louder in total than it would through a −3 dB pan law; we keep 0 dB so a mono
///   mic sounds as loud as the same voice recorded in stereo and gain 1 stays bit-exact.
/// - Stereo: passed through (bit-exact at gain 1).
/// - Three channels (multicam mics): 0 → left, 1 → right, 2 treated as a centre sent to both
///   sides at −3 dB (×√½). The matrix is then scaled by 1/(1 + √½) so a row's gains sum to
///   1: in-phase full-scale inputs give exactly full scale, never more. That is the matrix
///   `audioconvert` builds for front-left/right/centre: left = 0.5858·c0 + 0.4142·c2.
///
/// Mapping is linear and per frame, so it commutes with resampling: resample mono before
/// mapping (half the filter work), and downmix three channels before resampling.
public struct ChannelMapping: Sendable {
    public let inputChannels: Int

    /// Gains of the three-channel downmix (see above).
    public static let sideGain = Float(1 / (1 + 0.5.squareRoot()))
    public static let centreGain = Float(0.5.squareRoot() / (1 + 0.5.squareRoot()))

    public init(inputChannels: Int) {
        precondition((1...3).contains(inputChannels), "ChannelMapping takes 1 to 3 channels")
        self.inputChannels = inputChannels
    }

    /// Writes `frames` stereo frames (2·frames Floats) to `output`.
    public func map(_ input: UnsafePointer<Float>, frames: Int, gain: Float, into output: UnsafeMutablePointer<Float>) {
        apply(input, frames, gain, output, .store)
    }

    /// Adds `frames` mapped stereo frames to the mix already in `output`.
    public func mix(_ input: UnsafePointer<Float>, frames: Int, gain: Float, into output: UnsafeMutablePointer<Float>) {
        apply(input, frames, gain, output, .add)
    }

    /// What `mix` leaves in a zeroed `output`, bit for bit (0 + x makes −0 +0), written in one
    /// pass instead of zeroing first: the first input of a mix.
    public func mixIntoSilence(_ input: UnsafePointer<Float>, frames: Int, gain: Float,
                               into output: UnsafeMutablePointer<Float>) {
        apply(input, frames, gain, output, .addToSilence)
    }

    private enum Destination { case store, add, addToSilence }

    @inline(__always)
    private func apply(
        _ input: UnsafePointer<Float>, _ frames: Int, _ gain: Float, _ output: UnsafeMutablePointer<Float>,
        _ destination: Destination
    ) {
        switch inputChannels {
        case 1: Self.mono(input, frames, gain, output, destination)
        case 2: Self.stereo(input, frames, gain, output, destination)
        default: Self.threeChannels(input, frames, gain, output, destination)
        }
    }

    @inline(__always)
    private static func store(_ value: SIMD16<Float>, _ output: UnsafeMutableRawPointer, _ byteOffset: Int,
                              _ destination: Destination) {
        var value = value
        switch destination {
        case .store: break
        case .add: value += output.loadUnaligned(fromByteOffset: byteOffset, as: SIMD16<Float>.self)
        case .addToSilence: value += SIMD16(repeating: 0)
        }
        output.storeBytes(of: value, toByteOffset: byteOffset, as: SIMD16<Float>.self)
    }

    @inline(__always)
    private static func store(_ value: Float, _ output: UnsafeMutablePointer<Float>, _ index: Int, _ destination: Destination) {
        switch destination {
        case .store: output[index] = value
        case .add: output[index] += value
        case .addToSilence: output[index] = 0 + value
        }
    }

    private static func mono(
        _ input: UnsafePointer<Float>, _ frames: Int, _ gain: Float, _ output: UnsafeMutablePointer<Float>,
        _ destination: Destination
    ) {
        let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
        let vectors = frames / 8
        for v in 0..<vectors {
            let m = src.loadUnaligned(fromByteOffset: v &* 32, as: SIMD8<Float>.self) * gain
            var pair = SIMD16<Float>()
            pair.evenHalf = m
            pair.oddHalf = m
            store(pair, dst, v &* 64, destination)
        }
        for f in (vectors * 8)..<frames {
            let m = input[f] * gain
            store(m, output, 2 * f, destination)
            store(m, output, 2 * f + 1, destination)
        }
    }

    private static func stereo(
        _ input: UnsafePointer<Float>, _ frames: Int, _ gain: Float, _ output: UnsafeMutablePointer<Float>,
        _ destination: Destination
    ) {
        let src = UnsafeRawPointer(input), dst = UnsafeMutableRawPointer(output)
        let samples = frames * 2
        let vectors = samples / 16
        for v in 0..<vectors {
            store(src.loadUnaligned(fromByteOffset: v &* 64, as: SIMD16<Float>.self) * gain, dst, v &* 64, destination)
        }
        for i in (vectors * 16)..<samples {
            store(input[i] * gain, output, i, destination)
        }
    }

    /// Three interleaved channels do not fit vector lanes evenly and only multicam mics send
    /// them, so this stays a plain loop.
    private static func threeChannels(
        _ input: UnsafePointer<Float>, _ frames: Int, _ gain: Float, _ output: UnsafeMutablePointer<Float>,
        _ destination: Destination
    ) {
        let side = sideGain * gain, centre = centreGain * gain
        for f in 0..<frames {
            let c = input[3 * f + 2] * centre
            let l = input[3 * f] * side + c
            let r = input[3 * f + 1] * side + c
            store(l, output, 2 * f, destination)
            store(r, output, 2 * f + 1, destination)
        }
    }
}
