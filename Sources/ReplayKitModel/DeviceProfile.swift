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

extension DeviceProfile {
    private enum Cite {
        static let fps = "GUIDE.md §2: video up to 30 fps, frames only while the screen changes"
        static let appFormat = "GUIDE.md §2: app audio is S16 big-endian (format flags 14 = signed|big-endian|packed, vs 12 for the mic)"
        static let micFormat = "GUIDE.md §2: mic audio is S16 little-endian (format flags 12)"
        static let micCadence = "GUIDE.md §2: mic 1024 frames per callback, sometimes split 955 + 69; how often is not "
            + "reported: every 50th callback (about once a second at 48 kHz) is this emulator's choice"
        static let iOS17AppCadence = "ReplayCast brief: 1024-frame app buffers outside iOS 12 (GUIDE.md §2 reports "
            + "bursts only for iOS 12)"
        static let nativeSize = "ReplayKit delivers the native panel size in most reports; one HaishinKit report "
            + "(issue #624) saw 886x1918 on an unnamed iPhone, i.e. some devices scale down"
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
            .appRate: "GUIDE.md §2: iPhone X, iOS 12 app audio 44.1 kHz",
            .appChannels: "GUIDE.md §2: iPhone X, iOS 12 app audio mono",
            .appFormat: Cite.appFormat,
            .appCadence: "GUIDE.md §2: iOS 12 app audio arrives in bursts of ~22,596 frames (~512 ms)",
            .micRate: "GUIDE.md §2: mic 44.1 kHz on iOS 12",
            .micChannels: "GUIDE.md §2: mic mono",
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
                + "(the device GUIDE.md §2 observed on iOS 17). " + Cite.nativeSize,
            .maxFramesPerSecond: Cite.fps,
            .appRate: "GUIDE.md §2: iPhone 11 Pro Max, iOS 17 app audio 44.1 kHz",
            .appChannels: "GUIDE.md §2: iPhone 11 Pro Max, iOS 17 app audio stereo",
            .appFormat: Cite.appFormat,
            .appCadence: Cite.iOS17AppCadence,
            .micRate: "GUIDE.md §2: built-in mic 48 kHz on iOS 17",
            .micChannels: "GUIDE.md §2: mic mono",
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
            .appRate: "assumed as on iPhone, iOS 17 (GUIDE.md §2: 44.1 kHz); no iPad observation",
            .appChannels: "assumed as on iPhone, iOS 17 (GUIDE.md §2: stereo); no iPad observation",
            .appFormat: Cite.appFormat,
            .appCadence: Cite.iOS17AppCadence,
            .micRate: "assumed as the iPhone built-in mic on iOS 17 (GUIDE.md §2: 48 kHz); no iPad observation",
            .micChannels: "GUIDE.md §2: mic mono",
            .micFormat: Cite.micFormat,
            .micCadence: Cite.micCadence,
        ])

    public static let rtc32kMic = iPhone11iOS17.variant(
        name: "rtc-32k-mic", device: "iPhone 11 Pro Max (32 kHz mic)",
        mic: .init(rate: 32000, channels: 1, format: .s16le, cadence: micSplit),
        micRate: "GUIDE.md §2: 32 kHz mic reported by an RTC vendor (device not named; the rest is iphone-11-ios17)",
        micChannels: "GUIDE.md §2: mic mono")

    public static let airPodsMic = iPhone11iOS17.variant(
        name: "airpods-mic", device: "iPhone 11 Pro Max with AirPods",
        mic: .init(rate: 24000, channels: 1, format: .s16le, cadence: micSplit),
        micRate: "GUIDE.md §2: 24 kHz mic with AirPods",
        micChannels: "GUIDE.md §2: mic mono")

    public static let multicamMic = iPhone11iOS17.variant(
        name: "multicam-mic", device: "iPhone 11 Pro Max (multicam mic)",
        mic: .init(rate: 48000, channels: 3, format: .s16le, cadence: micSplit),
        micRate: "assumed 48 kHz, the iOS 17 built-in mic rate (GUIDE.md §2 gives no rate for multicam)",
        micChannels: "GUIDE.md §2: 3 mic channels with multicam")
}
