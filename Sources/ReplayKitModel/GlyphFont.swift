// SPDX-License-Identifier: LGPL-2.1-or-later
/// A 5x7 pixel font with just the characters the screen scene writes: digits, a few
/// punctuation marks and the capitals of its labels.
enum GlyphFont {
    static let columns = 5
    static let rows = 7
    /// Glyph width plus one column of spacing.
    static let advance = columns + 1

    static let characters: [Character] = Array("0123456789:.#-/ ACEFILMPRSTVY")

    /// Row bitmaps, `rows` per glyph in `characters` order; bit 4 is the leftmost column.
    static let bitmaps: [UInt8] = {
        let art = [
            ".###. #...# #..## #.#.# ##..# #...# .###.", // 0
            "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.", // 1
            ".###. #...# ....# ...#. ..#.. .#... #####", // 2
            "####. ....# ....# .###. ....# ....# ####.", // 3
            "...#. ..##. .#.#. #..#. ##### ...#. ...#.", // 4
            "##### #.... ####. ....# ....# #...# .###.", // 5
            ".###. #.... #.... ####. #...# #...# .###.", // 6
            "##### ....# ...#. ..#.. .#... .#... .#...", // 7
            ".###. #...# #...# .###. #...# #...# .###.", // 8
            ".###. #...# #...# .#### ....# ....# .###.", // 9
            "..... ..#.. ..#.. ..... ..#.. ..#.. .....", // :
            "..... ..... ..... ..... ..... .##.. .##..", // .
            ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.", // #
            "..... ..... ..... .###. ..... ..... .....", // -
            "....# ...#. ...#. ..#.. .#... .#... #....", // /
            "..... ..... ..... ..... ..... ..... .....", // space
            ".###. #...# #...# ##### #...# #...# #...#", // A
            ".###. #...# #.... #.... #.... #...# .###.", // C
            "##### #.... #.... ####. #.... #.... #####", // E
            "##### #.... #.... ####. #.... #.... #....", // F
            ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.", // I
            "#.... #.... #.... #.... #.... #.... #####", // L
            "#...# ##.## #.#.# #.#.# #...# #...# #...#", // M
            "####. #...# #...# ####. #.... #.... #....", // P
            "####. #...# #...# ####. #.#.. #..#. #...#", // R
            ".#### #.... #.... .###. ....# ....# ####.", // S
            "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..", // T
            "#...# #...# #...# #...# #...# .#.#. ..#..", // V
            "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..", // Y
        ]
        return art.flatMap { glyph in
            glyph.split(separator: " ").map { row in
                row.reduce(UInt8(0)) { bits, pixel in bits << 1 | (pixel == "#" ? 1 : 0) }
            }
        }
    }()

    static let colon: UInt8 = 10
    static let period: UInt8 = 11
    static let space: UInt8 = 15

    static func code(_ character: Character) -> UInt8 {
        guard let index = characters.firstIndex(of: character) else { return space }
        return UInt8(index)
    }

    @inline(__always)
    static func bits(_ code: UInt8, row: Int) -> UInt8 { bitmaps[Int(code) * rows + row] }

    @inline(__always)
    static func isSet(_ bits: UInt8, column: Int) -> Bool { bits & (0x10 >> column) != 0 }
}

/// Up to 16 glyph codes, stored inline so per-frame text (clock, frame number) never
/// allocates.
struct GlyphRun: Sendable {
    private var codes = SIMD16<UInt8>()
    private(set) var count = 0

    init() {}

    /// For fixed labels, built once.
    init(_ text: String) {
        for character in text.prefix(16) { append(GlyphFont.code(character)) }
    }

    subscript(index: Int) -> UInt8 { codes[index] }

    mutating func append(_ code: UInt8) {
        guard count < 16 else { return }
        codes[count] = code
        count += 1
    }

    /// `value` in decimal, zero-padded to at least `digits` digits.
    mutating func append(_ value: UInt64, digits: Int) {
        var length = 1, scale: UInt64 = 1
        while value / scale >= 10 { scale *= 10; length += 1 }
        for _ in length ..< max(length, digits) { append(0) }
        while scale > 0 {
            append(UInt8((value / scale) % 10))
            scale /= 10
        }
    }

    /// Width in pixels at `scale`, without the trailing spacing column.
    func width(scale: Int) -> Int { count == 0 ? 0 : (count * GlyphFont.advance - 1) * scale }
}
