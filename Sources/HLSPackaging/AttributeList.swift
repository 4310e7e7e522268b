// SPDX-License-Identifier: LGPL-2.1-or-later

/// A tag's attribute list (RFC 8216bis, 4.2): `NAME=value` pairs split by commas, where a
/// quoted string may hold commas and `=`. Values keep their quotes off; a name given twice
/// or a quote left open is malformed.
struct AttributeList {
    let values: [Substring: Substring]

    init?(_ text: Substring) {
        var values: [Substring: Substring] = [:]
        var rest = text[...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let name = rest[..<equals]
            guard !name.isEmpty, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "-" }) else { return nil }
            rest = rest[rest.index(after: equals)...]
            let value: Substring
            if rest.first == "\"" {
                let opened = rest.index(after: rest.startIndex)
                guard let closed = rest[opened...].firstIndex(of: "\"") else { return nil }
                value = rest[opened..<closed]
                rest = rest[rest.index(after: closed)...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            guard values.updateValue(value, forKey: name) == nil else { return nil }
            if rest.first == "," { rest = rest.dropFirst() } else if !rest.isEmpty { return nil }
        }
        self.values = values
    }

    subscript(_ name: Substring) -> Substring? { values[name] }

    func decimal(_ name: Substring) -> Double? { values[name].flatMap { Double($0) } }

    func integer(_ name: Substring) -> UInt64? { values[name].flatMap { UInt64($0) } }
}
