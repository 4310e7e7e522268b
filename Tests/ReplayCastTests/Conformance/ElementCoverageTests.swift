// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Testing

/// `ElementFixture.all` holds exactly the plugin's elements; each has a hand-written case in
/// every suite that compares it with its peer, or a written reason; its bench names are
/// cases of bench/cases.py; the system checks read its process line and the log lines it
/// must show.
@Suite struct ElementCoverageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func theFixturesAreThePluginsElements() {
        GStreamerSetup.ensure()
        let features = gst_registry_get_feature_list_by_plugin(gst_registry_get(), "replaycast")
        defer { gst_plugin_feature_list_free(features) }
        var names: [String] = []
        var node = features
        while let item = node {
            names.append(String(cString: rc_object_name(item.pointee.data)))
            node = item.pointee.next
        }
        #expect(names.sorted() == ElementFixture.all.map(\.element), "the plugin's elements: \(names.sorted())")
    }

    /// Each element has cases in the suite, in its own test folder, or a reason for none in
    /// its fixture, never both; the suite's own file holds no case.
    @Test(arguments: ElementCoverage.Suite.allCases)
    func everyElementHasACaseOrAReason(_ suite: ElementCoverage.Suite) throws {
        let elements = ElementFixture.all.map(\.element)
        let cases = try ElementCoverage.cases(of: suite, in: Self.root.appendingPathComponent("Tests/ReplayCastTests"),
                                              elements: elements)
        for fixture in ElementFixture.all {
            let folders = cases[fixture.element] ?? [], reason = fixture.noPeerCase[suite]
            let problem = folders.isEmpty ? "no case and no reason" : "has a case and a reason for none: remove the reason"
            #expect(folders.isEmpty == (reason != nil), "\(fixture.element) in \(suite.rawValue): \(problem)")
            #expect(Set(folders).count <= 1, "\(fixture.element)'s \(suite.rawValue) cases are in one test folder: \(Set(folders).sorted())")
        }
        let source = try String(contentsOf: Self.root.appendingPathComponent(suite.file), encoding: .utf8)
        let inSuite = elements.filter { element in source.split(separator: "\n").contains { ElementCoverage.Suite.declaresCase($0, for: element) } }
        #expect(inSuite.isEmpty, "\(suite.file) holds cases of \(inSuite): they belong in the element's folder")
        print("\(suite.rawValue): \(cases.values.map(\.count).reduce(0, +)) cases, for \(cases.keys.sorted().joined(separator: ", "))")
    }

    /// The system checks run outside any test process, so they read the fixtures from
    /// Tests/system/fixtures.json: it must be what the fixtures say. REPLAYCAST_WRITE_FIXTURES=1
    /// writes it.
    @Test func theSystemChecksReadTheFixtures() throws {
        let file = Self.root.appendingPathComponent("Tests/system/fixtures.json")
        let entries: [[String: Any]] = ElementFixture.all.map { [
            "element": $0.element, "process": $0.process, "debugLog": $0.debugLog, "allocations": $0.allocations.value ?? [:],
        ] }
        let expected = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            + Data("\n".utf8)
        if ProcessInfo.processInfo.environment["REPLAYCAST_WRITE_FIXTURES"] == "1" { try expected.write(to: file) }
        let written = try Data(contentsOf: file)
        #expect(written == expected, "Tests/system/fixtures.json is not the fixtures' (REPLAYCAST_WRITE_FIXTURES=1 writes it)")
        for fixture in ElementFixture.all {
            #expect(fixture.process.contains(" \(fixture.element) ") || fixture.process.hasPrefix("\(fixture.element) "),
                    "\(fixture.element): its process line does not run it")
            #expect(!fixture.process.contains("\""), "\(fixture.element): its process line is split at spaces, without quoting")
            #expect(fixture.allocations.value?.isEmpty != true, "\(fixture.element): allocations covered by no line")
            for (name, line) in fixture.allocations.value ?? [:] {
                #expect(line.contains(" name=out") && !line.contains("\""), "\(name): no sink named out, or quoted words")
            }
            let levels = fixture.debugLog.compactMap { $0.split(separator: " ", maxSplits: 1).first }
            #expect(levels.contains("INFO"), "\(fixture.element): no INFO line among the decisions its log must show")
            #expect(levels.allSatisfy { ["ERROR", "WARN", "FIXME", "INFO", "DEBUG", "LOG", "TRACE"].contains($0) },
                    "\(fixture.element): a debug line starts with its level: \(fixture.debugLog)")
        }
    }

    /// Each element's bench names are cases of bench/cases.py and the element is in one of
    /// their pipelines of ours; an element opted out is in none.
    @Test func everyElementHasABenchCaseOrAReason() throws {
        let cases = try String(contentsOf: Self.root.appendingPathComponent("bench/cases.py"), encoding: .utf8)
        for fixture in ElementFixture.all {
            let measured = cases.split(separator: "\n").contains {
                $0.range(of: "\"ours\":.*[ !\"]\(fixture.element) ", options: .regularExpression) != nil
            }
            let names = fixture.bench.value ?? []
            #expect(measured == !names.isEmpty, "\(fixture.element): in a pipeline of ours \(measured), bench names \(names)")
            for name in names {
                #expect(cases.contains("\"name\": \"\(name)\","), "\(fixture.element): bench/cases.py has no case \(name)")
            }
        }
    }
}
