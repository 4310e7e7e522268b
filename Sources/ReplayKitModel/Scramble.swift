// SPDX-License-Identifier: LGPL-2.1-or-later
/// Stable pseudo-random bits from an integer, for content that must be random-looking yet
/// identical on every run and at every position (the SplitMix64 finaliser).
package enum Scramble {
    @inline(__always)
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A Double in [0, 1) from the top 53 bits.
    @inline(__always)
    package static func unit(_ bits: UInt64) -> Double { Double(bits >> 11) * 0x1p-53 }
}
