// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// Reads a trace (`BroadcastTrace`) and checks every line: a hand-written trace fails at the
/// first line that is not one a device could have logged, naming the line, the field and why.
public enum TraceReader {
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// 1-based.
        public let line: Int
        /// The member at fault, dotted into nested objects ("asbd.mSampleRate"); nil for the line.
        public let field: String?
        public let reason: String

        public var description: String { "line \(line): " + fieldAndReason }

        /// As editors and compilers name a place: `FILE:LINE: field: reason`.
        public func located(in file: String) -> String { "\(file):\(line): " + fieldAndReason }

        private var fieldAndReason: String { (field.map { "\($0): " } ?? "") + reason }
    }

    /// kAudioFormatFlagIsFloat, IsBigEndian, IsSignedInteger, IsNonInterleaved (CoreAudioBaseTypes.h).
    static let floatFlag = 0x1, bigEndianFlag = 0x2, signedIntegerFlag = 0x4, nonInterleavedFlag = 0x20
    /// kCVPixelFormatType_420YpCbCr8BiPlanarFullRange, '420f'.
    static let fullRangeNV12: UInt32 = 0x3432_3066
    /// kAudioFormatLinearPCM, 'lpcm'.
    static let linearPCM: UInt32 = 0x6C70_636D

    public static func read(_ text: String) throws(Problem) -> BroadcastTrace {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        guard let first = lines.first else { throw Problem(line: 1, field: nil, reason: "the trace is empty: its first line names the format") }
        try header(first)
        var state = ReadState()
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            var fields = try Fields(parsing: line, line: number)
            if fields.has("sample") {
                try state.add(sample: &fields)
            } else if fields.has("lifecycle") {
                try state.add(lifecycle: &fields)
            } else {
                throw Problem(line: number, field: nil, reason: "a line is a \"sample\" or a \"lifecycle\" object")
            }
            try fields.checkAllUsed()
        }
        return try state.trace()
    }

    private static func header(_ line: Substring) throws(Problem) {
        var fields = try Fields(parsing: line, line: 1)
        let format = try fields.string("format")
        guard format == BroadcastTrace.format else {
            throw fields.problem("format", "\"\(format)\" is not a trace of this kind: the first line is "
                                 + "{\"format\":\"\(BroadcastTrace.format)\",\"version\":\(BroadcastTrace.version)}")
        }
        let version = try fields.integer("version", in: 1...Int64(Int32.max))
        guard version <= BroadcastTrace.version else {
            throw fields.problem("version", "version \(version) is newer than this replaycast reads (\(BroadcastTrace.version))")
        }
        try fields.checkAllUsed()
    }

    /// Times as read (nanoseconds on the trace's clock), rebased once the origin is known.
    private struct ReadState {
        var samples: [BroadcastTrace.Sample] = []
        var events: [(time: UInt64, action: BroadcastAction, line: Int)] = []
        var started: (time: UInt64?, line: Int)?
        var setupInfo: [(key: String, value: JSONValue)] = []
        var paused = false
        var finished = false
        var lastTime: [BroadcastTrace.SampleType: (time: UInt64, end: UInt64?, line: Int)] = [:]

        mutating func add(lifecycle fields: inout Fields) throws(Problem) {
            let kind = try fields.string("lifecycle")
            let line = fields.line
            guard !finished else { throw fields.problem("lifecycle", "nothing may follow \"finished\"") }
            switch kind {
            case "started":
                guard started == nil, events.isEmpty, samples.isEmpty else {
                    throw fields.problem("lifecycle", "\"started\" comes once, before every sample and other lifecycle line")
                }
                started = (try fields.optionalTime("time"), line)
                if case .object(let members)? = fields.take("setupInfo") {
                    setupInfo = members
                } else if fields.has("setupInfo") {
                    throw fields.problem("setupInfo", "must be an object (broadcastStarted's setupInfo dictionary)")
                }
                return
            case "paused":
                guard !paused else { throw fields.problem("lifecycle", "\"paused\" while already paused") }
                paused = true
                events.append((try fields.time("time"), .pause, line))
            case "resumed":
                guard paused else { throw fields.problem("lifecycle", "\"resumed\" without a \"paused\" before it") }
                paused = false
                events.append((try fields.time("time"), .resume, line))
            case "finished":
                finished = true
                events.append((try fields.time("time"), .finish, line))
            default:
                throw fields.problem("lifecycle", "\"\(kind)\" is not one of started, paused, resumed, finished")
            }
            if events.count > 1, events[events.count - 1].time < events[events.count - 2].time {
                throw fields.problem("time", "before the previous lifecycle line's (line \(events[events.count - 2].line))")
            }
        }

        mutating func add(sample fields: inout Fields) throws(Problem) {
            let name = try fields.string("sample")
            guard !finished else { throw fields.problem("sample", "nothing may follow \"finished\"") }
            guard let type = BroadcastTrace.SampleType(rawValue: name) else {
                throw fields.problem("sample", "\"\(name)\" is not one of video, audioApp, audioMic (RPSampleBufferType)")
            }
            guard let pts = try fields.cmTime("pts") else { throw fields.problem("pts", "missing, or an invalid CMTime") }
            let time = Timebase.scale(UInt64(pts.value), Timebase.nanosecondsPerSecond, UInt64(pts.timescale), .nearest)
            var duration = try fields.optionalTime("duration")
            let content: BroadcastTrace.Content = type == .video ? try video(&fields) : try audio(&fields, mic: type == .audioMic)
            if duration == nil, case .audio(let format, let frames) = content {
                duration = Self.audioEnd(pts: pts, frames: frames, rate: format.rate) - time
            }
            let sample = BroadcastTrace.Sample(type: type, time: time, duration: duration, content: content, line: fields.line)
            if let last = lastTime[type] {
                guard time > last.time else {
                    throw fields.problem("pts", "not after the previous \(name) sample's (line \(last.line)): a stream's times increase")
                }
                if let end = last.end, time < end {
                    throw fields.problem("pts", "inside the previous \(name) sample (line \(last.line)), which lasts until \(end) ns")
                }
            }
            lastTime[type] = (time, sample.audioEnd, fields.line)
            samples.append(sample)
        }

        /// Where a buffer without a duration ends: on the CMTime's own timescale when the
        /// frames fit it exactly (audio times usually count samples), so the next buffer's time,
        /// rounded the same way, meets it to the nanosecond.
        private static func audioEnd(pts: (value: Int64, timescale: Int64), frames: Int, rate: Int) -> UInt64 {
            let (ticks, remainder) = (Int64(frames) * pts.timescale).quotientAndRemainder(dividingBy: Int64(rate))
            let start = UInt64(pts.value)
            guard remainder == 0 else {
                let time = Timebase.scale(start, Timebase.nanosecondsPerSecond, UInt64(pts.timescale), .nearest)
                return time + Timebase.nanoseconds(UInt64(frames), atRate: UInt64(rate), .nearest)
            }
            return Timebase.scale(start + UInt64(ticks), Timebase.nanosecondsPerSecond, UInt64(pts.timescale), .nearest)
        }

        private func video(_ fields: inout Fields) throws(Problem) -> BroadcastTrace.Content {
            let width = Int(try fields.integer("width", in: 16...4096))
            let height = Int(try fields.integer("height", in: 16...4096))
            do {
                _ = try ScreenRenderer(width: width, height: height)
            } catch {
                throw fields.problem("width", "\(error)")
            }
            let pixelFormat = try fields.fourCC("pixelFormat")
            guard pixelFormat == TraceReader.fullRangeNV12 else {
                throw fields.problem("pixelFormat", "\(FourCC.text(pixelFormat)) is not 420f "
                                     + "(kCVPixelFormatType_420YpCbCr8BiPlanarFullRange), the format ReplayKit delivers")
            }
            var orientation = VideoOrientation.up
            if fields.has("orientation") {
                let value = try fields.integer("orientation", in: 1...8)
                guard let known = VideoOrientation.allCases.first(where: { $0.cgImagePropertyOrientation == value }) else {
                    throw fields.problem("orientation", "\(value) is a mirrored CGImagePropertyOrientation; ReplayKit attaches 1, 3, 6 or 8")
                }
                orientation = known
            }
            return .video(width: width, height: height, orientation: orientation)
        }

        private func audio(_ fields: inout Fields, mic: Bool) throws(Problem) -> BroadcastTrace.Content {
            let frames = Int(try fields.integer("numSamples", in: 1...Int64(1 << 20)))
            var asbd = try fields.object("asbd")
            let rateText = try asbd.number("mSampleRate")
            guard let rate = Int(rateText.hasSuffix(".0") ? String(rateText.dropLast(2)) : rateText), (8000...96000).contains(rate) else {
                throw asbd.problem("mSampleRate", "\(rateText) is not a whole number of Hz from 8000 to 96000")
            }
            if asbd.has("mFormatID") {
                let id = try asbd.fourCC("mFormatID")
                guard id == TraceReader.linearPCM else { throw asbd.problem("mFormatID", "\(FourCC.text(id)) is not lpcm (kAudioFormatLinearPCM)") }
            }
            let flags = Int(try asbd.integer("mFormatFlags", in: 0...Int64(UInt32.max)))
            let channels = Int(try asbd.integer("mChannelsPerFrame", in: 1...(mic ? 3 : 2)))
            let bits = try asbd.integer("mBitsPerChannel", in: 1...64)
            guard bits == 16, flags & TraceReader.signedIntegerFlag != 0, flags & TraceReader.floatFlag == 0 else {
                throw asbd.problem(bits == 16 ? "mFormatFlags" : "mBitsPerChannel",
                                   "replaykitsrc delivers 16-bit signed integer PCM (mBitsPerChannel 16, kAudioFormatFlagIsSignedInteger)")
            }
            guard flags & TraceReader.nonInterleavedFlag == 0 || channels == 1 else {
                throw asbd.problem("mFormatFlags", "non-interleaved audio (kAudioFormatFlagIsNonInterleaved) is not delivered")
            }
            let bigEndian = flags & TraceReader.bigEndianFlag != 0
            guard !(mic && bigEndian) else {
                throw asbd.problem("mFormatFlags", "big-endian mic audio: the mic is little-endian on every device replaykitsrc models")
            }
            for (field, expected) in [("mBytesPerFrame", channels * 2), ("mBytesPerPacket", channels * 2), ("mFramesPerPacket", 1)]
            where asbd.has(field) {
                let value = try asbd.integer(field, in: 0...Int64(UInt32.max))
                guard value == expected else { throw asbd.problem(field, "\(value) does not match the format (\(expected))") }
            }
            try asbd.checkAllUsed()
            return .audio(.init(rate: rate, channels: channels, format: bigEndian ? .s16be : .s16le), frames: frames)
        }

        func trace() throws(Problem) -> BroadcastTrace {
            let times = samples.map(\.time) + events.map(\.time)
            let origin = started?.time ?? times.min() ?? 0
            if let early = samples.first(where: { $0.time < origin }) {
                throw Problem(line: early.line, field: "pts", reason: "before the broadcast started (line \(started?.line ?? 0))")
            }
            if let early = events.first(where: { $0.time < origin }) {
                throw Problem(line: early.line, field: "time", reason: "before the broadcast started (line \(started?.line ?? 0))")
            }
            let pauses = stride(from: 0, to: events.count, by: 1).compactMap { i -> (UInt64, UInt64)? in
                guard events[i].action == .pause else { return nil }
                return (events[i].time, i + 1 < events.count ? events[i + 1].time : .max)
            }
            for sample in samples {
                if pauses.contains(where: { sample.time >= $0.0 && sample.time < $0.1 }) {
                    throw Problem(line: sample.line, field: "pts", reason: "inside a pause: a paused broadcast receives no samples")
                }
                if let finish = events.last, finish.action == .finish, sample.time >= finish.time {
                    throw Problem(line: sample.line, field: "pts", reason: "at or after \"finished\" (line \(finish.line))")
                }
            }
            var rebased = samples
            for i in rebased.indices { rebased[i].time -= origin }
            return BroadcastTrace(events: events.map { .init(time: $0.time - origin, action: $0.action) }, samples: rebased,
                                  setupInfo: setupInfo)
        }
    }
}

/// Four-character codes (OSType) as text and back.
enum FourCC {
    static func text(_ code: UInt32) -> String {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: code >> $0) }
        guard bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) else { return String(code) }
        return "'" + String(decoding: bytes, as: UTF8.self) + "'"
    }

    static func code(_ text: String) -> UInt32? {
        let bytes = Array(text.utf8)
        guard bytes.count == 4 else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }
}
