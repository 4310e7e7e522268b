// SPDX-License-Identifier: LGPL-2.1-or-later
import Testing
@testable import ReplayKitModel

@Suite struct JSONValueTests {
    @Test func readsEveryKindOfValueAndKeepsNumbersExact() throws {
        let value = try JSONValue(parsing: #" {"a": [1, -2.5e3, true, false, null], "b": "x\"\u00e9\ud83d\ude00\n", "big": 9223372036854775807} "#)
        #expect(value["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
        #expect(value["b"] == .string("x\"é😀\n"))
        #expect(value["big"] == .number("9223372036854775807"))
        #expect(try JSONValue(parsing: value.text) == value)
    }

    @Test(arguments: [
        (#"{"a":1,}"#, 8, "a member name in quotes was expected"),
        (#"{"a":01}"#, 6, "a number may not start with 0"),
        (#"{"a":1} x"#, 9, "unexpected text after the value"),
        (#"{"a":"x"#, 8, "the string does not end"),
        (#"{"a":1,"a":2}"#, 11, "member \"a\" appears twice"),
        (#"{"a":tru}"#, 6, "true was expected"),
    ])
    func refusesWhatIsNotJSONNamingTheColumn(text: String, column: Int, reason: String) {
        #expect(throws: JSONValue.ParseError(column: column, reason: reason)) { try JSONValue(parsing: text) }
    }
}

@Suite struct BroadcastTraceTests {
    static let header = #"{"format":"replaycast-broadcast-trace","version":1}"#

    static func audioLine(_ type: String, value: Int, timescale: Int, frames: Int = 1024, rate: Int = 48000,
                          channels: Int = 1, flags: Int = 12, extra: String = "") -> String {
        #"{"sample":"\#(type)","pts":{"value":\#(value),"timescale":\#(timescale)},"numSamples":\#(frames),"#
            + #""asbd":{"mSampleRate":\#(rate),"mFormatID":"lpcm","mFormatFlags":\#(flags),"mChannelsPerFrame":\#(channels),"#
            + #""mBitsPerChannel":16\#(extra)}}"#
    }

    static func videoLine(nanoseconds: UInt64, extra: String = #","orientation":1"#) -> String {
        #"{"sample":"video","pts":{"value":\#(nanoseconds),"timescale":1000000000,"flags":1,"epoch":0},"#
            + #""duration":{"value":0,"timescale":0,"flags":0},"width":886,"height":1918,"pixelFormat":"420f"\#(extra)}"#
    }

    static func problem(_ lines: [String]) -> TraceReader.Problem? {
        do {
            _ = try TraceReader.read(([header] + lines).joined(separator: "\n"))
            return nil
        } catch {
            return error
        }
    }

    @Test func whatIsWrittenReadsBackExactly() throws {
        let samples: [BroadcastTrace.Sample] = [
            .init(type: .video, time: 0, duration: 33_333_333, content: .video(width: 128, height: 256, orientation: .up)),
            .init(type: .audioApp, time: 0, duration: 23_219_955, content: .audio(.init(rate: 44100, channels: 2, format: .s16be), frames: 1024)),
            .init(type: .audioMic, time: 0, duration: 21_333_333, content: .audio(.init(rate: 48000, channels: 1, format: .s16le), frames: 1024)),
            .init(type: .video, time: 4_033_333_333, duration: nil, content: .video(width: 128, height: 256, orientation: .right)),
            .init(type: .audioMic, time: 4_000_000_000, duration: 42_666_666, content: .audio(.init(rate: 24000, channels: 1, format: .s16le), frames: 1024)),
        ]
        let start = UInt64(5_000_000_000)
        let lines = [TraceLine.header, TraceLine.lifecycle(.started, time: start, setupInfo: [("broadcastName", .string("x")), ("n", .number("3"))])]
            + samples.prefix(3).map { var s = $0; s.time += start; return TraceLine.sample(s) }
            + [TraceLine.lifecycle(.paused, time: start + 1_000_000_000), TraceLine.lifecycle(.resumed, time: start + 4_000_000_000)]
            + samples.suffix(2).map { var s = $0; s.time += start; return TraceLine.sample(s) }
            + [TraceLine.lifecycle(.finished, time: start + 5_000_000_000)]
        let trace = try TraceReader.read(lines.joined(separator: "\n") + "\n")
        #expect(trace.samples.map { var s = $0; s.line = 0; return s } == samples)
        #expect(trace.samples.map(\.line) == [3, 4, 5, 8, 9])
        #expect(trace.events == [.init(time: 1_000_000_000, action: .pause), .init(time: 4_000_000_000, action: .resume),
                                 .init(time: 5_000_000_000, action: .finish)])
        #expect(JSONValue.object(trace.setupInfo) == .object([("broadcastName", .string("x")), ("n", .number("3"))]))
        #expect(trace.finishTime { _ in 1 } == 5_000_000_000)
        #expect(trace.screenSize! == (128, 256))
        #expect(trace.firstFormat(of: .audioMic) == .init(rate: 48000, channels: 1, format: .s16le))
    }

    /// A device's own clock: host time in one timescale, audio in its sample rate, no started time.
    @Test func deviceTimesAreRebasedOnTheEarliestAndConvertedFromTheirTimescales() throws {
        let trace = try TraceReader.read([
            Self.header,
            Self.videoLine(nanoseconds: 123_456_000_000_000),
            Self.audioLine("audioMic", value: 123_457 * 48000, timescale: 48000),
            Self.audioLine("audioApp", value: 123_456 * 44100 + 4410, timescale: 44100, rate: 44100, channels: 2, flags: 14),
        ].joined(separator: "\n"))
        #expect(trace.samples.map(\.time) == [0, 1_000_000_000, 100_000_000])
        #expect(trace.samples[0].duration == nil, "an invalid CMTime is no duration")
        #expect(trace.samples[1].audioEnd == 1_021_333_333)
        #expect(trace.firstFormat(of: .audioApp)?.format == .s16be)
        #expect(trace.finishTime { _ in 33_333_333 } == 1_021_333_333)
        #expect(trace.finishTime { _ in 2_000_000_000 } == 2_000_000_000, "a video sample without a duration lasts a frame")
    }

    @Test(arguments: [
        ([#"{"sample":"video","pts":{"value":0,"timescale":30},"width":886,"height":1918,"pixelFormat":"420f","orientaton":1}"#],
         2, "orientaton", "not a member of this line (misspelt?)"),
        ([videoLine(nanoseconds: 0, extra: "").replacing("420f", with: "420v")],
         2, "pixelFormat", "'420v' is not 420f (kCVPixelFormatType_420YpCbCr8BiPlanarFullRange), the format ReplayKit delivers"),
        ([videoLine(nanoseconds: 0, extra: #","orientation":2"#)],
         2, "orientation", "2 is a mirrored CGImagePropertyOrientation; ReplayKit attaches 1, 3, 6 or 8"),
        ([audioLine("audioApp", value: 0, timescale: 44100, flags: 9)],
         2, "asbd.mFormatFlags", "replaykitsrc delivers 16-bit signed integer PCM (mBitsPerChannel 16, kAudioFormatFlagIsSignedInteger)"),
        ([audioLine("audioMic", value: 0, timescale: 48000, flags: 14)],
         2, "asbd.mFormatFlags", "big-endian mic audio: the mic is little-endian on every device replaykitsrc models"),
        ([audioLine("audioMic", value: 0, timescale: 48000, extra: #","mBytesPerFrame":4"#)],
         2, "asbd.mBytesPerFrame", "4 does not match the format (2)"),
        ([audioLine("audioMic", value: 0, timescale: 48000, rate: 7000)],
         2, "asbd.mSampleRate", "7000 is not a whole number of Hz from 8000 to 96000"),
        ([audioLine("audioMic", value: 0, timescale: 48000), audioLine("audioMic", value: 1000, timescale: 48000)],
         3, "pts", "inside the previous audioMic sample (line 2), which lasts until 21333333 ns"),
        ([videoLine(nanoseconds: 5), videoLine(nanoseconds: 5)],
         3, "pts", "not after the previous video sample's (line 2): a stream's times increase"),
        ([#"{"lifecycle":"paused","time":{"value":1,"timescale":1}}"#, videoLine(nanoseconds: 1_500_000_000)],
         3, "pts", "inside a pause: a paused broadcast receives no samples"),
        ([#"{"lifecycle":"resumed","time":{"value":1,"timescale":1}}"#], 2, "lifecycle", "\"resumed\" without a \"paused\" before it"),
        ([#"{"lifecycle":"finished","time":{"value":1,"timescale":1}}"#, videoLine(nanoseconds: 2)],
         3, "sample", "nothing may follow \"finished\""),
        ([videoLine(nanoseconds: 0), #"{"lifecycle":"started"}"#],
         3, "lifecycle", "\"started\" comes once, before every sample and other lifecycle line"),
        ([#"{"sample":"screen"}"#], 2, "sample", "\"screen\" is not one of video, audioApp, audioMic (RPSampleBufferType)"),
        ([#"{"sample":"video","pts":{"value":0,"timescale":0}}"#], 2, "pts.timescale", "0 is outside 1...2147483647"),
        ([#"["video"]"#], 2, nil, "a line holds one JSON object, not an array"),
        ([#"{"sample":"video",}"#], 2, nil, "not JSON: column 19: a member name in quotes was expected"),
    ] as [([String], Int, String?, String)])
    func aBadLineIsNamedWithItsFieldAndWhy(lines: [String], line: Int, field: String?, reason: String) {
        #expect(Self.problem(lines) == TraceReader.Problem(line: line, field: field, reason: reason))
    }

    @Test func theFirstLineNamesTheFormatAndAReadableVersion() {
        #expect(throws: TraceReader.Problem(line: 1, field: "version", reason: "version 2 is newer than this replaycast reads (1)")) {
            try TraceReader.read(#"{"format":"replaycast-broadcast-trace","version":2}"#)
        }
        #expect(throws: TraceReader.Problem(line: 1, field: "format", reason: "missing")) {
            try TraceReader.read(Self.videoLine(nanoseconds: 0))
        }
        #expect(throws: TraceReader.Problem(line: 1, field: nil, reason: "the trace is empty: its first line names the format")) {
            try TraceReader.read("")
        }
    }
}
