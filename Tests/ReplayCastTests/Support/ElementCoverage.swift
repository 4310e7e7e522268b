// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Testing

/// The suites whose cases are written for each element by hand (those that compare it with
/// its own upstream peer: level, audiomixer, compositor, rtmp2sink), and where a case is
/// found: in an `extension <Suite>` in the element's own test folder, never in the suite's
/// file, so a new element adds its cases without editing a suite. The generic suites take
/// `ElementFixture.all` as their arguments instead, and the system checks (leaks, debug_log,
/// allocations) read the fixtures' lines: they need no entry here.
enum ElementCoverage {
    enum Suite: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case flushingSeek = "FlushingSeekTests"
        case capsChange = "CapsChangeTests"
        case hostileInput = "HostileInputTests"
        case propertyThrash = "PropertyThrashTests"
        case inheritedProperties = "InheritedPropertyParityTests"

        var testDescription: String { rawValue }

        /// The suite's own file, which holds what its cases share and no case.
        var file: String { "Tests/ReplayCastTests/Conformance/\(rawValue).swift" }

        /// Whether `line` declares a case for `element`: a test named after it.
        static func declaresCase(_ line: Substring, for element: String) -> Bool {
            line.range(of: "func \(element)[A-Z]", options: .regularExpression) != nil
        }
    }

    /// The test functions of each extension of `suite` in the Swift files of `folder`, by the
    /// element whose name they start with: the lines of a top-level `extension <Suite>` block
    /// up to its closing brace in the first column.
    static func cases(of suite: Suite, in folder: URL, elements: [String]) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            var inside = false
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("extension \(suite.rawValue) ") { inside = true; continue }
                if line == "}" { inside = false }
                guard inside else { continue }
                for element in elements where Suite.declaresCase(line, for: element) {
                    found[element, default: []].append(file.deletingLastPathComponent().lastPathComponent)
                }
            }
        }
        return found
    }
}
