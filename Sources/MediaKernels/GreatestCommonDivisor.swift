// SPDX-License-Identifier: LGPL-2.1-or-later
/// Euclid's greatest common divisor of two non-negative integers (rate ratios, lane periods).
func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
