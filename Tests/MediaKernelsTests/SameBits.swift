// SPDX-License-Identifier: LGPL-2.1-or-later
/// How many positions of two sample sequences hold the same bits, or nil when their lengths
/// differ. Tests compare it with the count they expect, so a short or empty result fails
/// instead of passing with nothing compared.
func sameBits<A: Collection<Float>, B: Collection<Float>>(_ a: A, _ b: B) -> Int? {
    guard a.count == b.count else { return nil }
    return zip(a, b).filter { $0.bitPattern == $1.bitPattern }.count
}
