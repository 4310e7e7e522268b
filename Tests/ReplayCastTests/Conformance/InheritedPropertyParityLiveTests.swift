// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing

/// InheritedPropertyParityTests for what only a live pipeline shows: where the output starts
/// (start-time-selection), the latency it reports, inactive pads, a stalled input's last
/// buffer. Live runs differ by a frame or two at their ends, so counts compare within 2;
/// start times compare exactly.
/// Each element's cases extend this suite from its own test folder
/// (`<Element>/<Element>ConformanceCases.swift`).
@Suite(.serialized) struct InheritedPropertyParityLiveTests {
    static func close(_ a: Int, _ b: Int) -> Bool { abs(a - b) <= 2 }

    static let selections: [(String, UInt64?)] = [
        ("start-time-selection=zero", 0), ("start-time-selection=first", nil),
        ("start-time-selection=set start-time=200000000", 200_000_000),
    ]
}
