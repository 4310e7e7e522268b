// SPDX-License-Identifier: LGPL-2.1-or-later
/// A 64-bit LCG (Knuth's MMIX constants): the same seed, the same sequence, so a failing
/// seeded test can be run again as it was.
struct Seeded {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }

    /// A point in [0, 1).
    mutating func unit() -> Double {
        Double(next(1 << 30)) / Double(1 << 30)
    }
}
