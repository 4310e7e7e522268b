// SPDX-License-Identifier: LGPL-2.1-or-later
/// How playlists write numbers and strings (RFC 8216bis, 4.2): decimal floats with a fixed
/// number of places, quoted strings.
enum PlaylistText {
    /// `value` with `places` decimal places, rounded to nearest, or up where a bound must
    /// hold for every value rounded to nearest (a `PART-TARGET` over its parts' `DURATION`s).
    static func decimal(_ value: Double, places: Int = 5, roundingUp: Bool = false) -> String {
        var unit: UInt64 = 1
        for _ in 0..<places { unit *= 10 }
        // Rounding up allows for the binary error of the product: 0.3 × 10⁵ is 30000.000000000004.
        let product = value * Double(unit)
        let scaled = UInt64(roundingUp ? (product - 1e-6).rounded(.up) : product.rounded())
        let fraction = String(scaled % unit)
        return "\(scaled / unit).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }

    /// A quoted-string attribute value: quotes, CR and LF may not appear in it (4.2).
    static func quoted(_ value: String) -> String {
        precondition(!value.contains(where: { $0 == "\"" || $0 == "\r" || $0 == "\n" }), "\(value) cannot be quoted")
        return "\"\(value)\""
    }
}
