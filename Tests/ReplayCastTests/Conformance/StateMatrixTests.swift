// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import Foundation
import Testing

/// Each element in a small non-live pipeline that plays in real time (sinks sync to the
/// clock, so state changes land in the middle of runs): after every sequence of
/// `StateMatrix.sequences`, and after 100 NULL ↔ PLAYING cycles, a run to EOS gives exactly
/// what the pipeline's first run gave: the same buffers (timestamps, durations, sizes,
/// flags) on every observed pad and the same number of element messages.
@Suite struct StateMatrixTests {
    typealias Case = ElementFixture.StateMatrixCase

    /// The first run, which later runs are compared with: `margin` fewer buffers than the
    /// case's are allowed (a live run's count depends on the clock).
    static func baseline(_ matrix: StateMatrix, _ element: String, _ c: Case, margin: Int = 0) -> StateMatrix.Outcome? {
        let first = matrix.run()
        #expect(first.error == nil, "\(element): first run: \(first.error ?? "")")
        #expect(c.observed.allSatisfy { (first.buffers[$0]?.count ?? 0) >= c.buffers - margin },
                "\(element): first run, at least \(c.buffers - margin) buffers on each pad: \(first)")
        #expect((first.messages > 0) == c.messages, "\(element): first run: \(first)")
        return first.error == nil ? first : nil
    }

    static func everyStateSequence(_ element: String, _ c: Case) throws {
        let matrix = try StateMatrix(c.description, observed: c.observed)
        guard let first = Self.baseline(matrix, element, c) else { return }
        for sequence in StateMatrix.sequences {
            let outcome = matrix.run(after: sequence)
            #expect(outcome == first, "\(element) after \(StateMatrix.name(sequence)): \(outcome), first run: \(first)")
        }
        print("\(element): \(StateMatrix.sequences.count) state sequences, each run as the first: \(first)")
    }

    /// `settle`: seconds to wait between the cycles and the run.
    static func aHundredFastCycles(_ element: String, _ c: Case, settle: Double = 0) throws {
        let matrix = try StateMatrix(c.description, observed: c.observed)
        guard let first = Self.baseline(matrix, element, c) else { return }
        matrix.cycle(100)
        Thread.sleep(forTimeInterval: settle)
        let outcome = matrix.run()
        #expect(outcome == first, "\(element) after 100 NULL ↔ PLAYING cycles: \(outcome), first run: \(first)")
    }

    @Test(arguments: ElementFixture.taking(\.stateMatrix))
    func everyStateSequenceThenARunGivesTheFirstRunsOutput(_ fixture: ElementFixture) throws {
        try Self.everyStateSequence(fixture.element, try #require(fixture.stateMatrix.value))
    }

    @Test(arguments: ElementFixture.taking(\.stateMatrix))
    func aHundredFastCyclesThenARunGivesTheFirstRunsOutput(_ fixture: ElementFixture) throws {
        try Self.aHundredFastCycles(fixture.element, try #require(fixture.stateMatrix.value))
    }

    /// Over SRT, to a real receiver (scripts/srt-receiver), which listens again as each
    /// caller goes: every run connects (one rtmp-connected message) and ends once the
    /// receiver has played out what it holds. A cycle's stop comes in the middle of its
    /// connect. The receiver takes one caller at a time, and the last cycle's may be one it
    /// accepted whose caller never learnt it was connected, so sent it no goodbye: the
    /// receiver answers no one until libsrt's peer idle timeout (5 s) ends that connection.
    /// Run at once, the next attempt waited out libsrt's 3 s connect timeout in 3 runs of 7,
    /// ending after the stream did (no message); so the run comes 6 s after the cycles.
    @Test func overSrtEveryStateSequenceAndAHundredFastCyclesThenARunGivesTheFirstRunsOutput() throws {
        let receiver = try SrtReceiver()
        defer { receiver.stop() }
        let c = ElementFixture.publisher(location: receiver.url)
        try Self.everyStateSequence("rtmpreconnectsink over SRT", c)
        try Self.aHundredFastCycles("rtmpreconnectsink over SRT", c, settle: 6)
    }
}
