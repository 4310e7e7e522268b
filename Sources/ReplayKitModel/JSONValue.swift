// SPDX-License-Identifier: LGPL-2.1-or-later
/// A JSON value (RFC 8259) as a trace line holds it. The element does not link Foundation,
/// so trace lines are read by this small reader. Numbers keep their text: a CMTime's value
/// is a 64-bit integer that a Double would round.
public enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.array(let x), .array(let y)): x == y
        case (.string(let x), .string(let y)), (.number(let x), .number(let y)): x == y
        case (.bool(let x), .bool(let y)): x == y
        case (.null, .null): true
        default: false
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        /// 1-based character column.
        public let column: Int
        public let reason: String
        public var description: String { "column \(column): \(reason)" }
    }

    /// One complete value, nothing but white space around it.
    public init(parsing text: String) throws(ParseError) {
        var reader = Reader(Array(text.utf8))
        self = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.atEnd else { throw reader.failure("unexpected text after the value") }
    }

    /// The member named `key` of an object; nil when absent or not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// What a value is, for messages: "a string", "an object", ...
    public var kind: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        func failure(_ reason: String, at position: Int? = nil) -> ParseError {
            let end = min(position ?? index, bytes.count)
            return ParseError(column: String(decoding: bytes[..<end], as: UTF8.self).count + 1, reason: reason)
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONValue {
            guard depth < 64 else { throw failure("nested more than 64 deep") }
            skipSpace()
            guard index < bytes.count else { throw failure("a value was expected, the line ended") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw failure("a value was expected, found '\(Character(Unicode.Scalar(bytes[index])))'")
            }
        }

        private mutating func expect(_ byte: UInt8, _ what: String) throws(ParseError) {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { throw failure("\(what) was expected") }
            index += 1
        }

        private mutating func next(is byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func object(depth: Int) throws(ParseError) -> JSONValue {
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            if next(is: UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a member name in quotes was expected") }
                let key = try string()
                guard !members.contains(where: { $0.key == key }) else { throw failure("member \"\(key)\" appears twice") }
                try expect(UInt8(ascii: ":"), "':' after the member name")
                members.append((key, try value(depth: depth + 1)))
            } while next(is: UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"), "',' or '}'")
            return .object(members)
        }

        private mutating func array(depth: Int) throws(ParseError) -> JSONValue {
            index += 1
            var items: [JSONValue] = []
            if next(is: UInt8(ascii: "]")) { return .array(items) }
            repeat { items.append(try value(depth: depth + 1)) } while next(is: UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"), "',' or ']'")
            return .array(items)
        }

        private mutating func literal(_ word: String) throws(ParseError) {
            let expected = Array(word.utf8)
            guard bytes.count - index >= expected.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw failure("\(word) was expected")
            }
            index += expected.count
        }

        private mutating func number() throws(ParseError) -> String {
            let start = index
            func digits() -> Int {
                let from = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                return index - from
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0 else { throw failure("a digit was expected") }
            guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw failure("a number may not start with 0", at: start) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { throw failure("a digit was expected after '.'") }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { throw failure("a digit was expected in the exponent") }
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        private mutating func string() throws(ParseError) -> String {
            index += 1
            var scalars = String.UnicodeScalarView()
            var run = index
            func flush() { scalars.append(contentsOf: String(decoding: bytes[run..<index], as: UTF8.self).unicodeScalars) }
            while true {
                guard index < bytes.count else { throw failure("the string does not end") }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    flush()
                    index += 1
                    return String(scalars)
                }
                guard byte >= 0x20 else { throw failure("a control character inside a string must be escaped") }
                guard byte == UInt8(ascii: "\\") else {
                    index += 1
                    continue
                }
                flush()
                index += 1
                guard index < bytes.count else { throw failure("the string does not end") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escaped))
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
                default: throw failure("unknown escape \\\(Character(Unicode.Scalar(escaped)))")
                }
                run = index
            }
        }

        private mutating func hex4() throws(ParseError) -> UInt32 {
            guard bytes.count - index >= 4, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
            else { throw failure("\\u needs four hex digits") }
            index += 4
            return value
        }

        private mutating func unicodeEscape() throws(ParseError) -> Unicode.Scalar {
            let high = try hex4()
            var code = high
            if (0xD800..<0xDC00).contains(high) {
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("a high surrogate must be followed by a low one")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a high surrogate must be followed by a low one") }
                code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw failure("\\u\(String(code, radix: 16)) is not a character") }
            return scalar
        }
    }
}

extension JSONValue {
    /// The value as JSON text on one line, members in their order.
    public var text: String {
        switch self {
        case .object(let members):
            "{" + members.map { Self.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        case .array(let items): "[" + items.map(\.text).joined(separator: ",") + "]"
        case .string(let value): Self.quoted(value)
        case .number(let value): value
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
