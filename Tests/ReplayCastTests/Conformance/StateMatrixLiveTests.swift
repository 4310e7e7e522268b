// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Testing

/// The state matrix of `StateMatrixTests` with live sources: after every sequence and after
/// 100 NULL ↔ PLAYING cycles, a run ends and gives as many buffers on every pad and messages
/// as the first run (± 2), in increasing timestamps, without error. A live source loses the
/// buffer it was waiting to send when paused (GstBaseSrc drops it), so each pause in the
/// middle of a run allows 2 more: one per source.
@Suite(.serialized) struct StateMatrixLiveTests {
    @Test(arguments: ElementFixture.taking(\.liveStateMatrix))
    func everyStateSequenceThenARunResemblesTheFirst(_ fixture: ElementFixture) throws {
        let c = try #require(fixture.liveStateMatrix.value), element = fixture.element
        let matrix = try StateMatrix(c.description, observed: c.observed)
        guard let first = StateMatrixTests.baseline(matrix, element, c, margin: 2) else { return }
        for sequence in StateMatrix.sequences {
            let outcome = matrix.run(after: sequence)
            let pauses = zip(sequence, sequence.dropFirst()).filter { $0 == GST_STATE_PLAYING && $1 == GST_STATE_PAUSED }.count
            #expect(outcome.resembles(first, tolerance: 2 + 2 * pauses), "\(element) after \(StateMatrix.name(sequence)): \(outcome), first run: \(first)")
        }
        print("live \(element): \(StateMatrix.sequences.count) state sequences, each run like the first: \(first)")
    }

    @Test(arguments: ElementFixture.taking(\.liveStateMatrix))
    func aHundredFastCyclesThenARunResemblesTheFirst(_ fixture: ElementFixture) throws {
        let c = try #require(fixture.liveStateMatrix.value), element = fixture.element
        let matrix = try StateMatrix(c.description, observed: c.observed)
        guard let first = StateMatrixTests.baseline(matrix, element, c, margin: 2) else { return }
        matrix.cycle(100)
        let outcome = matrix.run()
        #expect(outcome.resembles(first, tolerance: 2), "live \(element) after 100 NULL ↔ PLAYING cycles: \(outcome), first run: \(first)")
    }

    /// A run that does not end says what the aggregators' inputs were doing, so a rare stall
    /// seen once in CI can be told from a lost EOS.
    @Test func aRunThatDoesNotEndDescribesTheAggregatorInputs() throws {
        let matrix = try StateMatrix("videotestsrc is-live=true ! video/x-raw,format=NV12,width=64,height=48,framerate=30/1 ! pip.sink_0 "
                                     + "pipcompositor name=pip ! fakesink name=out", observed: ["out"])
        let outcome = matrix.run(timeout: 0.5)
        // Whether a frame is queued at that moment is a race: only the rest is fixed.
        let error = try #require(outcome.error)
        #expect(error.hasPrefix("no EOS after 0.5 s (pip.sink_0: eos false, inactive false, queued "), "\(error)")
    }
}
