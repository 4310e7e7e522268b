// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import Testing

/// The suites whose cases are written for each element by hand (those that compare it with
/// its own upstream peer: level, audiomixer, compositor, rtmp2sink),
/// and how a case is found in their sources. The generic suites take `ElementFixture.all`
/// as their arguments instead, and the system checks (leaks, debug_log, allocations) read
/// the fixtures' lines: they need no entry here.
enum ElementCoverage {
    enum Suite: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case flushingSeek = "Tests/ReplayCastTests/Conformance/FlushingSeekTests.swift"
        case capsChange = "Tests/ReplayCastTests/Conformance/CapsChangeTests.swift"
        case hostileInput = "Tests/ReplayCastTests/Conformance/HostileInputTests.swift"
        case propertyThrash = "Tests/ReplayCastTests/Conformance/PropertyThrashTests.swift"
        case inheritedProperties = "Tests/ReplayCastTests/Conformance/InheritedPropertyParityTests.swift"

        var testDescription: String { rawValue }

        /// Lines of the suite's source that hold a case for `element`: a test named after
        /// it, or a case naming it.
        func casePattern(_ element: String) -> String {
            "func \(element)[A-Z]|element: \"\(element)\""
        }
    }
}
