// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Testing

/// scripts/test runs the real-time suites (named *Live*) after the rest with `--no-parallel`,
/// so that their clocks are not starved. That flag orders tests, not the cases of one
/// parameterized test: without `.serialized` on its suite, two cases' live pipelines run side
/// by side on two cores, and their timing is measured under each other's load.
@Suite struct RealTimeSuiteTraitsTests {
    @Test func everyRealTimeSuiteIsSerialized() throws {
        let folder = ElementCoverageTests.root.appendingPathComponent("Tests/ReplayCastTests")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        var live: [String] = [], unserialized: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("@Suite") {
                guard let name = line.firstMatch(of: /struct (\w*Live\w*)/)?.1 else { continue }
                live.append(String(name))
                if !line.contains(".serialized") { unserialized.append(String(name)) }
            }
        }
        #expect(live.count >= 10, "\(live.count) live suites found under \(folder.path)")
        #expect(unserialized.isEmpty, "live suites without .serialized: \(unserialized.sorted())")
        print("\(live.count) live suites, each serialized")
    }
}
