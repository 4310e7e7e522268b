// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation

/// A pipeline description file: gst-launch syntax over several lines, `#` comments, and
/// `${NAME:-default}` placeholders. Keeps where each line came from, so errors can name it.
public struct PipelineFile: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        /// `path` or `path:line`.
        public let location: String
        public let reason: String
        /// The placeholder that had no value, when that was the problem.
        public let variable: String?

        public var description: String { "\(location): \(reason)" }
    }

    public let path: String
    /// The file's lines with comments removed and placeholders filled in.
    public let lines: [String]
    /// The whole pipeline in gst-launch syntax.
    public let description: String

    public init(path: String, variables: [String: String] = [:]) throws(Failure) {
        self.path = path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(location: path, reason: "cannot read the file", variable: nil)
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
    public var shellCommand: String {
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

    private static func substitute(_ line: String, _ variables: [String: String], at location: String) throws(Failure) -> String {
        var out = ""
        var rest = line[...]
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw Failure(location: location, reason: "unterminated ${ placeholder", variable: nil)
            }
            let body = rest[start.upperBound..<end]
            let parts = body.components(separatedBy: ":-")
            let name = parts[0]
            if let value = variables[name] {
                out += value
            } else if parts.count > 1 {
                out += parts.dropFirst().joined(separator: ":-")
            } else {
                throw Failure(location: location, reason: "${\(name)} has no value", variable: name)
            }
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    /// The line a parse error most likely points at: the first line holding a name quoted in
    /// the message (an unknown element or property), else the line of a linking failure.
    public func line(for message: String) -> Int? {
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
