// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import Foundation
import Testing

/// Every element of the plugin has a case in every conformance suite, or a written reason in
/// `ElementCoverage.optedOut`; the registry lists exactly the plugin's elements.
@Suite struct ElementCoverageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func theRegistryListsThePluginsElements() {
        GStreamerSetup.ensure()
        let features = gst_registry_get_feature_list_by_plugin(gst_registry_get(), "replaycast")
        defer { gst_plugin_feature_list_free(features) }
        var names: [String] = []
        var node = features
        while let item = node {
            names.append(String(cString: rc_object_name(item.pointee.data)))
            node = item.pointee.next
        }
        #expect(names.sorted() == ElementCoverage.elements, "the plugin's elements: \(names.sorted())")
    }

    @Test(arguments: ElementCoverage.Suite.allCases)
    func everyElementHasACaseOrAReason(_ suite: ElementCoverage.Suite) throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent(suite.rawValue), encoding: .utf8)
        var covered: [String] = []
        for element in ElementCoverage.elements {
            let hasCase = source.split(separator: "\n").contains { $0.range(of: suite.casePattern(element), options: .regularExpression) != nil }
            let reason = ElementCoverage.optedOut[element]?[suite]
            let problem = hasCase ? "has a case and an opt-out reason: remove the reason" : "no case and no reason"
            #expect(hasCase != (reason != nil), "\(element) in \(suite.rawValue): \(problem)")
            if hasCase { covered.append(element) }
        }
        print("\(suite.rawValue): cases for \(covered.joined(separator: ", "))")
    }
}
