// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// Writes trace lines (`BroadcastTrace`): what `TraceReader` reads back. Times are written
/// as CMTimes in nanoseconds (timescale 1,000,000,000), so they come back exactly.
public enum TraceLine {
    public static var header: String {
        JSONValue.object([("format", .string(BroadcastTrace.format)), ("version", .number(String(BroadcastTrace.version)))]).text
    }

    public enum Lifecycle: String, Sendable {
        case started, paused, resumed, finished
    }

    public static func lifecycle(_ kind: Lifecycle, time: UInt64, setupInfo: [(key: String, value: JSONValue)] = []) -> String {
        var members: [(key: String, value: JSONValue)] = [("lifecycle", .string(kind.rawValue)), ("time", cmTime(time))]
        if kind == .started, !setupInfo.isEmpty { members.append(("setupInfo", .object(setupInfo))) }
        return JSONValue.object(members).text
    }

    public static func sample(_ sample: BroadcastTrace.Sample) -> String {
        var members: [(key: String, value: JSONValue)] = [("sample", .string(sample.type.rawValue)), ("pts", cmTime(sample.time))]
        if let duration = sample.duration { members.append(("duration", cmTime(duration))) }
        switch sample.content {
        case .video(let width, let height, let orientation):
            members += [("width", integer(width)), ("height", integer(height)), ("pixelFormat", .string("420f")),
                        ("orientation", integer(orientation.cgImagePropertyOrientation))]
        case .audio(let format, let frames):
            let bigEndian = format.format == .s16be
            let flags = TraceReader.signedIntegerFlag | 0x8 /* kAudioFormatFlagIsPacked */ | (bigEndian ? TraceReader.bigEndianFlag : 0)
            let bytesPerFrame = integer(format.channels * 2)
            members += [("numSamples", integer(frames)),
                        ("asbd", .object([("mSampleRate", integer(format.rate)), ("mFormatID", .string("lpcm")),
                                          ("mFormatFlags", integer(flags)), ("mBytesPerPacket", bytesPerFrame),
                                          ("mFramesPerPacket", integer(1)), ("mBytesPerFrame", bytesPerFrame),
                                          ("mChannelsPerFrame", integer(format.channels)), ("mBitsPerChannel", integer(16))]))]
        }
        return JSONValue.object(members).text
    }

    private static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    private static func cmTime(_ nanoseconds: UInt64) -> JSONValue {
        .object([("value", .number(String(nanoseconds))), ("timescale", integer(Int(Timebase.nanosecondsPerSecond)))])
    }
}
