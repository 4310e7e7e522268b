// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc

/// dB conversions with one finite floor, so silence never reports -inf or NaN.
public enum Decibels {
    /// Everything quieter than this (including digital silence) reports exactly this value.
    /// It sits below the quantisation floor of every supported format (S32: about -192 dBFS).
    public static let floor = -200.0

    /// 10·log10(power), floored.
    @inlinable public static func fromPower(_ power: Double) -> Double {
        power > 0 ? Swift.max(10 * log10(power), floor) : floor
    }

    /// 20·log10(amplitude), floored.
    @inlinable public static func fromAmplitude(_ amplitude: Double) -> Double {
        amplitude > 0 ? Swift.max(20 * log10(amplitude), floor) : floor
    }

    /// Gain factor for a level change in dB (amplitude domain).
    @inlinable public static func amplitude(_ dB: Double) -> Double { pow(10, dB / 20) }
}
