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

    /// With a latency long enough that the first buffer comes before the peer's deadline: a
    /// live GstAggregator that times out before any buffer set its start takes its segment's
    /// start (0) as the next output time, whatever the selection (GstAudioAggregator's and
    /// GstVideoAggregator's next time, gstaudioaggregator.c, gstvideoaggregator.c).
    /// audiomixer 1.22 then starts at 0 under `set`, as a run here did when the source's
    /// first buffer was held 50 ms; with 300 ms it starts at start-time after a 250 ms hold.
    static let selections: [(String, UInt64?)] = [
        ("start-time-selection=zero latency=300000000", 0), ("start-time-selection=first latency=300000000", nil),
        ("start-time-selection=set start-time=200000000 latency=300000000", 200_000_000),
    ]
}
