// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Testing

/// Which conformance suite has a case for which element, and why an element has none.
///
/// A suite's cases are found in its source by their shape (a test named after the element,
/// a `Case` naming it, a key of a case table), so adding an element without cases, or a case
/// without removing its opt-out, fails `ElementCoverageTests`.
enum ElementCoverage {
    enum Suite: String, CaseIterable, CustomTestStringConvertible {
        case stateMatrix = "Tests/ReplayCastTests/Conformance/StateMatrixTests.swift"
        case stateMatrixLive = "Tests/ReplayCastTests/Conformance/StateMatrixLiveTests.swift"
        case flushingSeek = "Tests/ReplayCastTests/Conformance/FlushingSeekTests.swift"
        case flushBurst = "Tests/ReplayCastTests/Conformance/FlushBurstTests.swift"
        case capsChange = "Tests/ReplayCastTests/Conformance/CapsChangeTests.swift"
        case hostileInput = "Tests/ReplayCastTests/Conformance/HostileInputTests.swift"
        case propertyThrash = "Tests/ReplayCastTests/Conformance/PropertyThrashTests.swift"
        case inheritedProperties = "Tests/ReplayCastTests/Conformance/InheritedPropertyParityTests.swift"
        case allocations = "Tests/system/allocations.py"
        case leaks = "Tests/system/leaks"
        case debugLog = "Tests/system/debug_log"
        case bench = "bench/cases.py"

        var testDescription: String { rawValue }

        /// Lines of the suite's source that hold a case for `element`.
        func casePattern(_ element: String) -> String {
            switch self {
            case .stateMatrix, .stateMatrixLive, .flushingSeek, .flushBurst, .capsChange, .hostileInput, .propertyThrash,
                 .inheritedProperties:
                "func \(element)[A-Z]|element: \"\(element)\""
            case .allocations: "^ *\"\(element)\":"
            case .leaks: "^[^#]*(^|[ !])\(element)( |$)"
            case .debugLog: "^expect \(element) "
            case .bench: "\"ours\":.*[ !\"]\(element) "
            }
        }
    }

    /// The plugin's elements, as `gst-inspect-1.0 replaycast` lists them.
    static let elements = ["dualmixer", "pipcompositor", "replaykitsrc", "rtmpreconnectsink", "volumemeter"]

    /// Suites an element has no case in, with the reason.
    static let optedOut: [String: [Suite: String]] = [
        "replaykitsrc": [
            .inheritedProperties: "a GstElement: it inherits no property but GstObject's name and parent",
            .flushBurst: "a source: nothing upstream pushes into it or flushes it (its refusal of seeks is FlushingSeek's)",
            .capsChange: "a source whose caps are fixed for a broadcast (profile, width, height); a rotation is a tag "
                + "(ReplayKitLifecycleTests.orientationChangeIsTagged), not new caps",
        ],
        "dualmixer": [
            .capsChange: "its input format switch in the middle of a stream is DualMixerScenarioTests.micFormatSwitchKeepsTheOutputWhole",
        ],
        "rtmpreconnectsink": [
            .inheritedProperties: "a GstElement: it inherits no property but GstObject's name and parent",
            .flushingSeek: "a live publisher has no stream position to seek back to; the flushes a seek sends reach it in "
                + "FlushBurst (rtmpreconnectsinkKeepsTakingAndEnds)",
        ],
    ]
}
