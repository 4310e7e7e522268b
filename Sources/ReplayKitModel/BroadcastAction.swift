// SPDX-License-Identifier: LGPL-2.1-or-later
/// Something that happens to a broadcast at a scheduled time.
public enum BroadcastAction: Sendable, Equatable {
    /// broadcastPaused: no samples of any kind until `resume`.
    case pause
    /// broadcastResumed.
    case resume
    /// broadcastFinished: the source ends (EOS); nothing may be scheduled after it.
    case finish
    /// A new `RPVideoSampleOrientationKey` on the following video frames.
    case orientation(VideoOrientation)
    /// The mic switches format mid-stream (AirPods 24 kHz ↔ built-in 48 kHz, as
    /// HaishinKit/HaishinKit.swift#1386 saw on iOS 17.4.1); `nil` channels keep the current count.
    case micFormat(rate: Int, channels: Int?)
    /// A phone call takes the audio session: see `BroadcastState` for what stops.
    case callStart
    case callEnd
    /// The user toggles the mic in the broadcast UI.
    case mic(MicMode)
}

/// What the mic stream does. Two kinds of "off" are modelled: no `.audioMic` samples at all
/// when the mic is not enabled (twilio/video-quickstart-ios#466), and buffers that keep
/// coming holding silence, for which we found no public report: it is kept because a
/// consumer must cope with it too (a level meter reading digital silence, a mixer fed zeros).
public enum MicMode: String, Sendable, CaseIterable {
    /// Speech-like content.
    case on
    /// No mic buffers at all.
    case off
    /// Buffers keep coming on the usual cadence, holding digital silence.
    case silence
}

extension BroadcastAction: CustomStringConvertible {
    /// The schedule syntax for this action, so parse → print → parse round-trips.
    public var description: String {
        switch self {
        case .pause: "pause"
        case .resume: "resume"
        case .finish: "finish"
        case .orientation(let orientation): "orientation=\(orientation.rawValue)"
        case .micFormat(let rate, let channels?): "mic-format=\(rate)/\(channels)"
        case .micFormat(let rate, nil): "mic-format=\(rate)"
        case .callStart: "call-start"
        case .callEnd: "call-end"
        case .mic(let mode): "mic=\(mode.rawValue)"
        }
    }
}
