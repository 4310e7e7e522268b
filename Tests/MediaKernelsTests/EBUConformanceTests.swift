// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import MediaKernels
import Synchronization
import Testing

/// Every synthesizable case of EBU Tech 3341 (table 1: M, S, I, maximum M and S, true peak)
/// and Tech 3342 (table 1: loudness range), each measured from a fresh meter. The measured
/// values also make the conformance table in docs/volumemeter.md, which must match.
@Suite struct EBUConformanceTests {
    struct Case: Sendable, CustomStringConvertible {
        let document: String
        let number: Int
        let quantity: String
        let expected: Double
        /// Accepted deviation below and above `expected`.
        let below: Double
        let above: Double
        let unit: String
        /// The readings the case compares (one, or one per reading the document asks for).
        let measure: @Sendable () -> [Double]

        var description: String { "\(document) #\(number) \(quantity)" }
    }

    static let cases: [Case] = loudnessCases + maximumCases + truePeakCases + rangeCases

    /// Every case's readings, measured once (two at a time) for all the tests here.
    static let readings: [String: [Double]] = {
        let results = Mutex([String: [Double]]())
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            let measured = cases[index].measure()
            results.withLock { $0[cases[index].description] = measured }
        }
        return results.withLock { $0 }
    }()

    static func lufs(_ number: Int, _ quantity: String, _ expected: Double, _ measure: @escaping @Sendable () -> [Double]) -> Case {
        Case(document: "3341", number: number, quantity: quantity, expected: expected, below: 0.1, above: 0.1, unit: "LUFS",
             measure: measure)
    }

    static let loudnessCases: [Case] = [
        lufs(1, "M, S, I", -23) { steady(-23) },
        lufs(2, "M, S, I", -33) { steady(-33) },
        lufs(3, "I", -23) { integrated([(-36, 10), (-23, 60), (-36, 10)]) },
        lufs(4, "I", -23) { integrated([(-72, 10), (-36, 10), (-23, 60), (-36, 10), (-72, 10)]) },
        lufs(5, "I", -23) { integrated([(-26, 20), (-20, 20.1), (-26, 20)]) },
        lufs(6, "I", -23) {
            let signal = EBUSignal(roles: [.front, .front, .front, .surround, .surround])
            signal.tone([-28, -28, -24, -30, -30], seconds: 20)
            return [signal.meter.integrated]
        },
        lufs(9, "S after 3 s", -23) { alternating((-20, 1.34), (-30, 1.66), times: 5, after: 3) { $0.shortTerm } },
        lufs(12, "M after 1 s", -23) { alternating((-20, 0.18), (-30, 0.22), times: 25, after: 1) { $0.momentary } },
    ]

    /// #9 and #12: two tones repeated, read every 10 ms once `after` seconds have passed.
    static func alternating(_ first: (Double, Double), _ second: (Double, Double), times: Int, after: Double,
                            _ read: (LoudnessMeter) -> Double) -> [Double] {
        let signal = EBUSignal()
        var readings: [Double] = []
        var blocks = 0
        for _ in 0..<times {
            for (level, seconds) in [first, second] {
                signal.tone(level, seconds: seconds) {
                    blocks += 1
                    if Double(blocks) > after * 100 { readings.append(read(signal.meter)) }
                }
            }
        }
        return readings
    }

    static let maximumCases: [Case] = [
        lufs(10, "max S, 20 files", -23) { maximumPerFile(step: 0.15, tone: 3) { $0.maxShortTerm } },
        lufs(11, "max S − i, live", -38) { maximumLive(step: 0.15, tone: 3) { $0.maxShortTerm } },
        lufs(13, "max M, 20 files", -23) { maximumPerFile(step: 0.02, tone: 0.4) { $0.maxMomentary } },
        lufs(14, "max M − i, live", -38) { maximumLive(step: 0.02, tone: 0.4) { $0.maxMomentary } },
    ]

    /// #10 and #13: 20 files, each from a fresh meter: i·step of silence, the tone at
    /// −23 dBFS, 1 s of silence.
    static func maximumPerFile(step: Double, tone: Double, _ read: (LoudnessMeter) -> Double) -> [Double] {
        (0..<20).map { i in
            let signal = EBUSignal()
            signal.silence(seconds: Double(i) * step)
            signal.tone(-23, seconds: tone)
            signal.silence(seconds: 1)
            return read(signal.meter)
        }
    }

    /// #11 and #14: one stream of 20 segments, i·step of silence, the tone at −38 + i dBFS,
    /// silence to the segment's end; the maximum after each, less i (so −38 is expected).
    static func maximumLive(step: Double, tone: Double, _ read: (LoudnessMeter) -> Double) -> [Double] {
        let signal = EBUSignal()
        return (0..<20).map { i in
            signal.silence(seconds: Double(i) * step)
            signal.tone(-38 + Double(i), seconds: tone)
            signal.silence(seconds: tone - Double(i) * step)
            return read(signal.meter) - Double(i)
        }
    }

    static func truePeak(_ number: Int, _ expected: Double, _ signal: @escaping @Sendable () -> [Double]) -> Case {
        Case(document: "3341", number: number, quantity: "true peak", expected: expected, below: 0.4, above: 0.2, unit: "dBTP") {
            let meter = EBUSignal()
            meter.samples(signal())
            return [Decibels.fromAmplitude(meter.meter.maxTruePeak(channel: 0))]
        }
    }

    static let truePeakCases: [Case] = [
        truePeak(15, -6) { EBUSignal.truePeakTone(divisor: 4, amplitude: 0.5, phase: 0) },
        truePeak(16, -6) { EBUSignal.truePeakTone(divisor: 4, amplitude: 0.5, phase: 45) },
        truePeak(17, -6) { EBUSignal.truePeakTone(divisor: 6, amplitude: 0.5, phase: 60) },
        truePeak(18, -6) { EBUSignal.truePeakTone(divisor: 8, amplitude: 0.5, phase: 67.5) },
        truePeak(19, 3) { EBUSignal.truePeakTone(divisor: 4, amplitude: 1.41, phase: 45) },
    ] + (0..<4).map { offset in truePeak(20 + offset, 0) { EBUSignal.splicedSignal(offset: offset) } }

    static func range(_ number: Int, _ expected: Double, _ levels: [Double]) -> Case {
        Case(document: "3342", number: number, quantity: "LRA", expected: expected, below: 1, above: 1, unit: "LU") {
            let signal = EBUSignal()
            for level in levels { signal.tone(level, seconds: 20) }
            return [signal.meter.loudnessRange]
        }
    }

    static let rangeCases: [Case] = [
        range(1, 10, [-20, -30]), range(2, 5, [-20, -15]), range(3, 20, [-40, -20]), range(4, 15, [-50, -35, -20, -35, -50]),
    ]

    static func steady(_ level: Double) -> [Double] {
        let signal = EBUSignal()
        signal.tone(level, seconds: 20)
        return [signal.meter.momentary, signal.meter.shortTerm, signal.meter.integrated]
    }

    static func integrated(_ parts: [(Double, Double)]) -> [Double] {
        let signal = EBUSignal()
        for (level, seconds) in parts { signal.tone(level, seconds: seconds) }
        return [signal.meter.integrated]
    }

    @Test(arguments: cases)
    func caseIsWithinTolerance(_ conformance: Case) {
        let readings = Self.readings[conformance.description] ?? []
        #expect(!readings.isEmpty)
        for reading in readings {
            #expect(reading >= conformance.expected - conformance.below && reading <= conformance.expected + conformance.above,
                    "\(conformance): \(reading) \(conformance.unit)")
        }
    }

    /// The true-peak readings under-read the signals' peaks by at most 0.1 dB (the document
    /// allows 0.4): #15-19 against their amplitudes, #20-23 against the filtered signal's peak.
    @Test(arguments: 15...23)
    func truePeakUnderReadsAtMostATenth(_ number: Int) throws {
        let conformance = try #require(Self.truePeakCases.first { $0.number == number })
        let reading = try #require(Self.readings[conformance.description]?.first)
        let amplitudes: [Int: Double] = [15: 0.5, 16: 0.5, 17: 0.5, 18: 0.5, 19: 1.41]
        let truth = Decibels.fromAmplitude(amplitudes[number] ?? EBUSignal.spliced.peak)
        #expect(reading >= truth - 0.1, "#\(number): \(reading) dBTP for a peak of \(truth)")
    }

    /// docs/volumemeter.md's conformance table is this run's: regenerate it with
    /// RC_UPDATE_DOCS=1 swift test --filter EBUConformance.
    @Test func docsTableMatchesTheMeasurements() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/volumemeter.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let begin = "<!-- conformance table: generated by EBUConformanceTests -->\n", end = "<!-- end of conformance table -->"
        let start = try #require(text.range(of: begin)), stop = try #require(text.range(of: end))
        let table = Self.table()
        #expect(table.split(separator: "\n").count == Self.cases.count + 2)
        if ProcessInfo.processInfo.environment["RC_UPDATE_DOCS"] == "1" {
            try (text[..<start.upperBound] + table + text[stop.lowerBound...]).write(to: docs, atomically: true, encoding: .utf8)
        } else {
            #expect(String(text[start.upperBound..<stop.lowerBound]) == table)
        }
    }

    static func table() -> String {
        var lines = ["| document | case | quantity | expected | measured (worst of n) |", "|---|---|---|---|---|"]
        for c in cases {
            let readings = Self.readings[c.description] ?? []
            let worst = readings.max { abs($0 - c.expected) < abs($1 - c.expected) } ?? .nan
            let tolerance = c.below == c.above ? "±\(format(c.below, 1))" : "+\(format(c.above, 1))/−\(format(c.below, 1))"
            let count = readings.count > 1 ? " (n = \(readings.count))" : ""
            lines.append("| Tech \(c.document) | \(c.number) | \(c.quantity) | \(format(c.expected, 1)) \(tolerance) \(c.unit) | "
                         + "\(format(worst, 2))\(count) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func format(_ value: Double, _ digits: Int) -> String {
        String(format: "%.\(digits)f", value).replacingOccurrences(of: "-", with: "−")
    }
}
