// SPDX-License-Identifier: LGPL-2.1-or-later
import MediaKernels

/// One audio stream as a device delivers it: format, rate, channels and buffer cadence.
public struct AudioStreamProfile: Sendable, Equatable {
    public var rate: Int
    public var channels: Int
    public var format: SampleFormat
    public var cadence: BufferCadence

    public init(rate: Int, channels: Int, format: SampleFormat, cadence: BufferCadence) {
        self.rate = rate
        self.channels = channels
        self.format = format
        self.cadence = cadence
    }
}

/// What one kind of device hands a broadcast upload extension, with where each number comes
/// from. Screen sizes are portrait native pixels: ReplayKit keeps the buffer in the panel's
/// native orientation and reports rotation separately (see `VideoOrientation`).
public struct DeviceProfile: Sendable, Equatable {
    /// The numbers a profile cites a source for.
    public enum Fact: String, Sendable, CaseIterable {
        case screenSize, maxFramesPerSecond
        case appRate, appChannels, appFormat, appCadence
        case micRate, micChannels, micFormat, micCadence
    }

    /// Stable identifier, also the GStreamer enum nick.
    public let name: String
    public let device: String
    public let system: String
    public let screenWidth: Int
    public let screenHeight: Int
    public let maxFramesPerSecond: Int
    public let app: AudioStreamProfile
    public let mic: AudioStreamProfile
    let sources: [Fact: String]

    public func source(of fact: Fact) -> String { sources[fact] ?? "" }

    /// One line for a GStreamer enum description or a log.
    public var summary: String {
        "\(device), \(system): \(screenWidth)x\(screenHeight) ≤\(maxFramesPerSecond) fps; "
            + "app \(Self.describe(app)); mic \(Self.describe(mic))"
    }

    public static let all: [DeviceProfile] = [
        iPhoneXiOS12, iPhone11iOS17, iPadiOS17, rtc32kMic, airPodsMic, multicamMic,
    ]

    public static var names: [String] { all.map(\.name) }

    /// The profile with this name, if there is one (exact, lowercase match).
    public init?(named name: String) {
        guard let profile = Self.all.first(where: { $0.name == name }) else { return nil }
        self = profile
    }

    init(name: String, device: String, system: String, screenWidth: Int, screenHeight: Int,
         maxFramesPerSecond: Int, app: AudioStreamProfile, mic: AudioStreamProfile, sources: [Fact: String]) {
        self.name = name
        self.device = device
        self.system = system
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        self.maxFramesPerSecond = maxFramesPerSecond
        self.app = app
        self.mic = mic
        self.sources = sources
    }

    /// The same device with another mic: the variants below differ from their base only there.
    func variant(name: String, device: String, mic: AudioStreamProfile, micRate: String, micChannels: String) -> DeviceProfile {
        var sources = self.sources
        sources[.micRate] = micRate
        sources[.micChannels] = micChannels
        return DeviceProfile(name: name, device: device, system: system, screenWidth: screenWidth,
                             screenHeight: screenHeight, maxFramesPerSecond: maxFramesPerSecond,
                             app: app, mic: mic, sources: sources)
    }

    private static func describe(_ stream: AudioStreamProfile) -> String {
        let layout = stream.channels == 1 ? "mono" : stream.channels == 2 ? "stereo" : "\(stream.channels) ch"
        let format = stream.format == .s16be ? "S16BE" : stream.format == .s16le ? "S16LE" : "\(stream.format)"
        var text = "\(stream.rate) Hz \(layout) \(format), \(stream.cadence.framesPerBuffer)-frame buffers"
        if let split = stream.cadence.split {
            text += " (1 in \(split.every) split \(split.first)+\(stream.cadence.framesPerBuffer - split.first))"
        }
        return text
    }
}

// MARK: - The profiles

// Sources are public issue threads, cited as owner/repo#number (github.com/owner/repo/issues/N
// or .../pull/N): twilio/video-quickstart-ios#345 measured iPhone X, iOS 12.1.3; HaishinKit's
// #375, #1384, #1386 and #1444 printed the ASBDs ReplayKit handed their extensions. Where no
// public report was found, the string says what the number is (assumed, or unverified).
extension DeviceProfile {
    private enum Cite {
        static let fps = "up to 30 fps: twilio/video-quickstart-ios#503, and Agora's article \"iOS ReplayKit 与 RTC\" "
            + "counted 30 video callbacks a second; no frames while nothing is redrawn: twilio/video-quickstart-ios#313"
        static let appFormat = "app audio S16 big-endian: twilio/video-quickstart-ios#345; format flags 14 "
            + "(signed|big-endian|packed) vs 12 for the mic: HaishinKit/HaishinKit.swift#375"
        static let micFormat = "mic audio S16 little-endian, format flags 12 (signed|packed): "
            + "HaishinKit/HaishinKit.swift#375, twilio/video-quickstart-ios#345"
        static let micCadence = "mic 1024 frames per callback: twilio/video-quickstart-ios#345, "
            + "HaishinKit/HaishinKit.swift#1386; splits of 955 + 69 seen in HaishinKit/HaishinKit.swift#1289 "
            + "(capture path not stated as ReplayKit); how often is not reported: every 50th callback "
            + "(about once a second at 48 kHz) is this emulator's choice"
        static let iOS17AppCadence = "assumed: 1024-frame app buffers outside iOS 12, as the mic's (the "
            + "22,596-frame bursts of twilio/video-quickstart-ios#345 are reported for iOS 12 only)"
        static let nativeSize = "ReplayKit delivers the native panel size in most reports; "
            + "HaishinKit/HaishinKit.swift#624 saw 886x1918 on an unnamed iPhone, i.e. some devices scale down"
        static let iOS12 = "twilio/video-quickstart-ios#345 (iPhone X, iOS 12.1.3)"
        static let iOS17App = "HaishinKit/HaishinKit.swift#1384, #1386 (iPhone 11 Pro Max, iOS 17.4)"
        static let iOS17Mic = "HaishinKit/HaishinKit.swift#1386 (iPhone 11 Pro Max, iOS 17.4.1)"
    }

    static let micSplit = BufferCadence(framesPerBuffer: 1024, split: .init(every: 50, first: 955))

    public static let iPhoneXiOS12 = DeviceProfile(
        name: "iphone-x-ios12", device: "iPhone X", system: "iOS 12",
        screenWidth: 1125, screenHeight: 2436, maxFramesPerSecond: 30,
        app: .init(rate: 44100, channels: 1, format: .s16be, cadence: .init(framesPerBuffer: 22596)),
        mic: .init(rate: 44100, channels: 1, format: .s16le, cadence: micSplit),
        sources: [
            .screenSize: "Apple iPhone X technical specifications: 2436x1125 pixels at 458 ppi. " + Cite.nativeSize,
            .maxFramesPerSecond: Cite.fps,
            .appRate: "app audio 44.1 kHz: " + Cite.iOS12,
            .appChannels: "app audio mono: " + Cite.iOS12,
            .appFormat: Cite.appFormat,
            .appCadence: "app audio in bursts of 22,596 frames (512.3 ms): " + Cite.iOS12,
            .micRate: "mic 44.1 kHz: " + Cite.iOS12,
            .micChannels: "mic mono: " + Cite.iOS12,
            .micFormat: Cite.micFormat,
            .micCadence: Cite.micCadence,
        ])

    public static let iPhone11iOS17 = DeviceProfile(
        name: "iphone-11-ios17", device: "iPhone 11 Pro Max", system: "iOS 17",
        screenWidth: 1242, screenHeight: 2688, maxFramesPerSecond: 30,
        app: .init(rate: 44100, channels: 2, format: .s16be, cadence: .init(framesPerBuffer: 1024)),
        mic: .init(rate: 48000, channels: 1, format: .s16le, cadence: micSplit),
        sources: [
            .screenSize: "Apple iPhone 11 Pro Max technical specifications: 2688x1242 pixels at 458 ppi "
                + "(the device of HaishinKit/HaishinKit.swift#1384 and #1386 on iOS 17.4). " + Cite.nativeSize,
            .maxFramesPerSecond: Cite.fps,
            .appRate: "app audio 44.1 kHz: " + Cite.iOS17App,
            .appChannels: "app audio stereo: " + Cite.iOS17App,
            .appFormat: Cite.appFormat,
            .appCadence: Cite.iOS17AppCadence,
            .micRate: "built-in mic 48 kHz: " + Cite.iOS17Mic,
            .micChannels: "built-in mic mono: " + Cite.iOS17Mic,
            .micFormat: Cite.micFormat,
            .micCadence: Cite.micCadence,
        ])

    public static let iPadiOS17 = DeviceProfile(
        name: "ipad-ios17", device: "iPad Pro 12.9-inch", system: "iPadOS 17",
        screenWidth: 2048, screenHeight: 2732, maxFramesPerSecond: 30,
        app: .init(rate: 44100, channels: 2, format: .s16be, cadence: .init(framesPerBuffer: 1024)),
        mic: .init(rate: 48000, channels: 1, format: .s16le, cadence: micSplit),
        sources: [
            .screenSize: "Apple iPad Pro 12.9-inch technical specifications: 2732x2048 pixels at 264 ppi, "
                + "the largest iPad panel, chosen to stress the renderer. " + Cite.nativeSize,
            .maxFramesPerSecond: Cite.fps,
            .appRate: "assumed as on iPhone, iOS 17 (44.1 kHz: " + Cite.iOS17App + "); no iPad observation",
            .appChannels: "assumed as on iPhone, iOS 17 (stereo: " + Cite.iOS17App + "); no iPad observation",
            .appFormat: Cite.appFormat,
            .appCadence: Cite.iOS17AppCadence,
            .micRate: "assumed as the iPhone built-in mic on iOS 17 (48 kHz: " + Cite.iOS17Mic + "); no iPad observation",
            .micChannels: "assumed as the iPhone built-in mic on iOS 17 (mono: " + Cite.iOS17Mic + "); no iPad observation",
            .micFormat: Cite.micFormat,
            .micCadence: Cite.micCadence,
        ])

    public static let rtc32kMic = iPhone11iOS17.variant(
        name: "rtc-32k-mic", device: "iPhone 11 Pro Max (32 kHz mic)",
        mic: .init(rate: 32000, channels: 1, format: .s16le, cadence: micSplit),
        micRate: "unverified: a 32 kHz mic said to be reported by an RTC vendor, no public record found; "
            + "kept as a third mic rate to convert (the rest is iphone-11-ios17)",
        micChannels: "assumed mono, as every reported mic without multicam (" + Cite.iOS12 + "; " + Cite.iOS17Mic + ")")

    public static let airPodsMic = iPhone11iOS17.variant(
        name: "airpods-mic", device: "iPhone 11 Pro Max with AirPods",
        mic: .init(rate: 24000, channels: 1, format: .s16le, cadence: micSplit),
        micRate: "24 kHz mic with AirPods Pro: " + Cite.iOS17Mic,
        micChannels: "AirPods mic mono: " + Cite.iOS17Mic)

    public static let multicamMic = iPhone11iOS17.variant(
        name: "multicam-mic", device: "iPhone 11 Pro Max (multicam mic)",
        mic: .init(rate: 48000, channels: 3, format: .s16le, cadence: micSplit),
        micRate: "48 kHz mic with a multicam session: HaishinKit/HaishinKit.swift#1444 (seen on an iPhone 15 "
            + "Pro Max; the rest is iphone-11-ios17)",
        micChannels: "3 interleaved mic channels with a multicam session: HaishinKit/HaishinKit.swift#1444")
}
