// SPDX-License-Identifier: LGPL-2.1-or-later
/// Interleaved PCM sample layouts the kernels read. Declared here, beside the loops compiled
/// for AVX2 that are specialised per format; MediaKernels re-exports it under the same name.
public enum SampleFormat: Sendable, Equatable, CaseIterable {
    case s8, s16le, s16be, s32le, f32le, f64le

    public var bytesPerSample: Int {
        switch self {
        case .s8: 1
        case .s16le, .s16be: 2
        case .s32le, .f32le: 4
        case .f64le: 8
        }
    }

    /// The raw sample value that counts as 0 dBFS: integer formats take the (unreachable)
    /// positive maximum + 1 as full scale, as GStreamer's `level` does.
    public var fullScale: Double {
        switch self {
        case .s8: 128
        case .s16le, .s16be: 32768
        case .s32le: 2_147_483_648
        case .f32le, .f64le: 1
        }
    }
}
