// SPDX-License-Identifier: LGPL-2.1-or-later
/// Where a broadcast stands after the scheduled actions so far, and so which streams flow.
/// The element applies each due `BroadcastSchedule` event and asks this before producing
/// a buffer on each pad.
public struct BroadcastState: Sendable, Equatable {
    public private(set) var paused = false
    public private(set) var finished = false
    public private(set) var inCall = false
    /// A call has taken the audio session and (unless `audioReturnsAfterCall`) kept it.
    public private(set) var audioLostToCall = false
    public private(set) var orientation: VideoOrientation = .up
    public private(set) var micRate: Int
    public private(set) var micChannels: Int
    public private(set) var micMode: MicMode = .on
    /// After a phone call only video arrives (HaishinKit/HaishinKit.swift#1386, iOS 17.4).
    /// `true` models a device where audio comes back when the call ends.
    public let audioReturnsAfterCall: Bool

    public init(profile: DeviceProfile, audioReturnsAfterCall: Bool = false) {
        micRate = profile.mic.rate
        micChannels = profile.mic.channels
        self.audioReturnsAfterCall = audioReturnsAfterCall
    }

    public mutating func apply(_ action: BroadcastAction) {
        switch action {
        case .pause: paused = true
        case .resume: paused = false
        case .finish: finished = true
        case .orientation(let value): orientation = value
        case .micFormat(let rate, let channels):
            micRate = rate
            micChannels = channels ?? micChannels
        case .callStart:
            inCall = true
            audioLostToCall = true
        case .callEnd:
            inCall = false
            if audioReturnsAfterCall { audioLostToCall = false }
        case .mic(let mode): micMode = mode
        }
    }

    /// Video frames flow (subject to `ScreenActivity`): not paused, not finished.
    public var deliversVideo: Bool { !paused && !finished }

    /// App audio flows: video flows and no call holds the audio session.
    public var deliversAppAudio: Bool { deliversVideo && !audioLostToCall }

    /// What the mic pad carries right now.
    public var mic: MicDelivery {
        guard deliversAppAudio else { return .none }
        switch micMode {
        case .on: return .speech
        case .silence: return .silence
        case .off: return .none
        }
    }

    public enum MicDelivery: Sendable, Equatable {
        case speech, silence, none
    }
}
