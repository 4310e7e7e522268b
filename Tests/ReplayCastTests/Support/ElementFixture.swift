// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing

/// What the conformance suites need of one element: the suites take
/// `ElementFixture.all` as their arguments, so an element with a fixture is in every one of
/// them, and a suite it cannot take part in is a written reason, never a missing case.
struct ElementFixture: Sendable, CustomTestStringConvertible {
    /// A suite's part for this element, or why it has none.
    enum Part<Value: Sendable>: Sendable {
        case covered(Value)
        case optedOut(String)

        var value: Value? {
            if case .covered(let value) = self { value } else { nil }
        }
    }

    /// A small pipeline around the element that ends in EOS, the sinks named in `observed`
    /// recorded: `buffers` at least on each, element messages posted or not.
    struct StateMatrixCase: Sendable {
        let description: String
        let observed: [String]
        let buffers: Int
        let messages: Bool
    }

    /// The element in a GstHarness on one sink pad, and what it must do again after
    /// flushes: bursts are of buffers of `size` bytes, `duration` apart.
    struct HarnessCase: Sendable {
        let make: @Sendable () throws -> Harness
        let size: Int
        let duration: UInt64
        /// How many buffers a burst pushes (flushes land at 2 ms intervals, so a cheap
        /// buffer needs more of them to be in the middle).
        let burst: Int
        /// An aggregator restarts only after a flushing seek it forwarded upstream.
        let aggregator: Bool
        /// Asserts that the element measures, mixes, draws or sends as a fresh one does.
        let worksAgain: @Sendable (Harness, String) -> Void
    }

    /// A live pipeline whose aggregator, written MIXER in `line`, is paused mid-run beside
    /// the same pipeline with `peer` in its place: the input lasts `input` ns, one output
    /// buffer `outputBuffer` ns. A latency of 100 ms in `line` puts the peer's first timeout in
    /// the pause well after anything already on its way when the pause began.
    struct LivePauseCase: Sendable {
        let peer: String
        let line: String
        let input: UInt64
        let outputBuffer: UInt64
    }

    let element: String
    let stateMatrix: Part<StateMatrixCase>
    let liveStateMatrix: Part<StateMatrixCase>
    let flushBurst: Part<HarnessCase>
    let livePause: Part<LivePauseCase>
    /// A launch line gst-launch-1.0 runs to EOS with the installed plugin, for the system
    /// checks that watch a whole process (`leaks`, `debug-log`); `{rtmp}` stands for the URL of a live
    /// nginx-rtmp's application. Words split at spaces, no quoting. Tests/system/fixtures.json
    /// holds these lines (`ElementCoverageTests.theSystemChecksReadTheFixtures`).
    let process: String
    /// What `GST_DEBUG=<element>:6` on `process` must show, a line each: the level, a space,
    /// then an extended regular expression the message matches. The element's decisions as
    /// a user chasing a problem looks for them: formats and plans at INFO, realignment and
    /// restarts at DEBUG, per-buffer plans at LOG (Tests/system/debug_log.py).
    let debugLog: [String]
    /// Launch lines, by case name, that run until stopped with a sink named `out` on the
    /// element's output: Tests/system/allocations.py counts the heap allocations from our
    /// library while 100 buffers pass `out` after 2 s of content, and fails on any. `{rtmp}`
    /// is as in `process`; `{screen}` is an 8 s H.264 MOV of a moving ball.
    let allocations: Part<[String: String]>
    /// Names of the element's cases in bench/cases.py.
    let bench: Part<[String]>
    /// Why the element has no case in a suite whose cases are written by hand
    /// (`ElementCoverage.Suite`).
    let noPeerCase: [ElementCoverage.Suite: String]

    var testDescription: String { element }

    /// Every element of the plugin, one fixture each.
    static let all: [ElementFixture] = [.dualmixer, .llhlssink, .pipcompositor, .replaykitsrc, .rtmpreconnectsink, .volumemeter]

    /// The fixtures that take part in a suite.
    static func taking<Value>(_ part: KeyPath<ElementFixture, Part<Value>>) -> [ElementFixture] {
        all.filter { $0[keyPath: part].value != nil }
    }
}
