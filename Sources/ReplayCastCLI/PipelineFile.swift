import Foundation

/// A pipeline description file: gst-launch syntax over several lines, `#` comments, and
/// `${NAME:-default}` placeholders. Keeps where each line came from, so errors can name it.
struct PipelineFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let path: String
    let lines: [String]
    let description: String

    init(path: String, variables: [String: String]) throws {
        self.path = path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(description: "\(path): cannot read the file")
        }
        var lines: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = raw.firstIndex(of: "#").map { raw[..<$0] } ?? raw[...]
            lines.append(try Self.substitute(String(code), variables, at: "\(path):\(index + 1)"))
        }
        self.lines = lines
        description = lines.joined(separator: " ")
    }

    /// The description as a shell command running gst-launch-1.0: one argument per token
    /// (split at blanks outside double quotes), each single-quoted when the shell would
    /// otherwise change it, so `schedule=""` reaches gst-launch's parser with its quotes.
    var shellCommand: String {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in description {
            if character == "\"" { quoted.toggle() }
            if character.isWhitespace && !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!.,:=/_+-%@")
        let arguments = tokens.map { token in
            token.allSatisfy(plain.contains) ? token : "'" + token.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return (["gst-launch-1.0"] + arguments).joined(separator: " ")
    }

    private static func substitute(_ line: String, _ variables: [String: String], at location: String) throws -> String {
        var out = ""
        var rest = line[...]
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw Failure(description: "\(location): unterminated ${ placeholder")
            }
            let body = rest[start.upperBound..<end]
            let parts = body.components(separatedBy: ":-")
            let name = parts[0]
            if let value = variables[name] {
                out += value
            } else if parts.count > 1 {
                out += parts.dropFirst().joined(separator: ":-")
            } else {
                throw Failure(description: "\(location): ${\(name)} has no value: pass --set \(name)=VALUE")
            }
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    /// The line a parse error most likely points at: the first line holding a name quoted in
    /// the message (an unknown element or property), else the line of a linking failure.
    func line(for message: String) -> Int? {
        let quoted = message.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        for token in quoted where !token.isEmpty {
            if let index = lines.firstIndex(where: { $0.contains(token) }) { return index + 1 }
        }
        if let range = message.range(of: "could not link ") {
            let names = message[range.upperBound...].components(separatedBy: " to ")
            for name in names.reversed() {
                let element = name.split(separator: ",").first.map(String.init) ?? name
                let factory = element.trimmingCharacters(in: .decimalDigits)
                if let index = lines.firstIndex(where: { $0.contains("name=\(element)") || $0.contains(factory) }) {
                    return index + 1
                }
            }
        }
        return nil
    }
}
