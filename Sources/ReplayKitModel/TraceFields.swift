// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

extension TraceReader {
    /// One trace line's object (or an object inside it), read member by member: each reader
    /// names the member it fails on, and members nobody read are refused at the end, so a
    /// misspelt field is an error rather than a silently ignored one.
    struct Fields {
        let line: Int
        private let prefix: String
        private let members: [(key: String, value: JSONValue)]
        private var used = Set<String>()

        init(parsing text: Substring, line: Int) throws(Problem) {
            let value: JSONValue
            do {
                value = try JSONValue(parsing: String(text))
            } catch {
                throw Problem(line: line, field: nil, reason: "not JSON: \(error)")
            }
            guard case .object(let members) = value else {
                throw Problem(line: line, field: nil, reason: "a line holds one JSON object, not \(value.kind)")
            }
            self.init(members: members, line: line, prefix: "")
        }

        private init(members: [(key: String, value: JSONValue)], line: Int, prefix: String) {
            self.members = members
            self.line = line
            self.prefix = prefix
        }

        func problem(_ field: String, _ reason: String) -> Problem {
            Problem(line: line, field: prefix + field, reason: reason)
        }

        func has(_ key: String) -> Bool { members.contains { $0.key == key } }

        mutating func take(_ key: String) -> JSONValue? {
            used.insert(key)
            return members.first { $0.key == key }?.value
        }

        private mutating func required(_ key: String) throws(Problem) -> JSONValue {
            guard let value = take(key) else { throw problem(key, "missing") }
            return value
        }

        mutating func string(_ key: String) throws(Problem) -> String {
            let value = try required(key)
            guard case .string(let text) = value else { throw problem(key, "must be a string, not \(value.kind)") }
            return text
        }

        mutating func number(_ key: String) throws(Problem) -> String {
            let value = try required(key)
            guard case .number(let text) = value else { throw problem(key, "must be a number, not \(value.kind)") }
            return text
        }

        mutating func integer(_ key: String, in range: ClosedRange<Int64>) throws(Problem) -> Int64 {
            let text = try number(key)
            guard let value = Int64(text) else { throw problem(key, "\(text) is not a whole number") }
            guard range.contains(value) else { throw problem(key, "\(value) is outside \(range.lowerBound)...\(range.upperBound)") }
            return value
        }

        /// An OSType: its four characters ("420f") or its number (875836518).
        mutating func fourCC(_ key: String) throws(Problem) -> UInt32 {
            let value = try required(key)
            switch value {
            case .string(let text):
                guard let code = FourCC.code(text) else { throw problem(key, "\"\(text)\" is not four characters") }
                return code
            case .number(let text):
                guard let code = UInt32(text) else { throw problem(key, "\(text) is not a four-character code") }
                return code
            default:
                throw problem(key, "must be a four-character code, not \(value.kind)")
            }
        }

        mutating func object(_ key: String) throws(Problem) -> Fields {
            let value = try required(key)
            guard case .object(let members) = value else { throw problem(key, "must be an object, not \(value.kind)") }
            return Fields(members: members, line: line, prefix: prefix + key + ".")
        }

        /// A valid CMTime in nanoseconds; absent or invalid (kCMTimeInvalid) is an error.
        mutating func time(_ key: String) throws(Problem) -> UInt64 {
            guard let time = try optionalTime(key) else { throw problem(key, "missing, or an invalid CMTime") }
            return time
        }

        /// A CMTime, `{"value":…,"timescale":…}` with `flags` and `epoch` optional, in
        /// nanoseconds; nil when absent or invalid (flags without kCMTimeFlags_Valid).
        mutating func optionalTime(_ key: String) throws(Problem) -> UInt64? {
            try cmTime(key).map { Timebase.scale(UInt64($0.value), Timebase.nanosecondsPerSecond, UInt64($0.timescale), .nearest) }
        }

        /// A CMTime as it is written; nil when absent or invalid.
        mutating func cmTime(_ key: String) throws(Problem) -> (value: Int64, timescale: Int64)? {
            guard has(key) else { return nil }
            var time = try object(key)
            if time.has("flags") {
                let flags = try time.integer("flags", in: 0...Int64(UInt32.max))
                if flags & 1 == 0 { return nil }
                guard flags & 0x1C == 0 else { throw time.problem("flags", "an infinite or indefinite CMTime") }
            }
            if time.has("epoch") { _ = try time.integer("epoch", in: 0...0) }
            let value = try time.integer("value", in: 0...Int64.max)
            let timescale = try time.integer("timescale", in: 1...Int64(Int32.max))
            try time.checkAllUsed()
            return (value, timescale)
        }

        func checkAllUsed() throws(Problem) {
            if let unknown = members.first(where: { !used.contains($0.key) }) {
                throw problem(unknown.key, "not a member of this line (misspelt?)")
            }
        }
    }
}
