// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// One `volumemeter` (or `level`) message as plain numbers: levels in dBFS, loudness in LUFS,
/// true peak in dBTP, per channel where there is one value per channel.
public struct MeterReading: Sendable, Equatable {
    /// The element that measured (its name in the pipeline).
    public var element = ""
    /// Running time of the interval's first sample.
    public var runningTime: Duration = .zero
    /// Length of the interval.
    public var duration: Duration = .zero
    public var rms: [Double] = []
    public var peak: [Double] = []
    /// level's decaying peak: the "peak hold" a meter shows.
    public var decay: [Double] = []
    /// volumemeter's app-style volume (10·log10 of the mean square in 16-bit units).
    public var volume: Double?
    /// EBU R128 momentary (400 ms), short-term (3 s) and gated integrated loudness; nil
    /// unless the meter has `loudness=true`.
    public var momentary: Double?
    public var shortTerm: Double?
    public var integrated: Double?
    /// Since the start or the last `resetLoudness()`: highest momentary and short-term
    /// loudness (LUFS), loudness range (EBU Tech 3342, LU), highest true peak per channel.
    public var maxMomentary: Double?
    public var maxShortTerm: Double?
    public var loudnessRange: Double?
    public var truePeak: [Double] = []
    public var maxTruePeak: [Double] = []

    public init?(_ s: UnsafePointer<GstStructure>) {
        let name = String(cString: gst_structure_get_name(s))
        guard name == REPLAYCAST_MESSAGE_VOLUMEMETER || name == "level" else { return nil }
        rms = StructureFields.doubles(s, REPLAYCAST_FIELD_RMS)
        peak = StructureFields.doubles(s, REPLAYCAST_FIELD_PEAK)
        decay = StructureFields.doubles(s, REPLAYCAST_FIELD_DECAY)
        truePeak = StructureFields.doubles(s, REPLAYCAST_FIELD_TRUE_PEAK)
        maxTruePeak = StructureFields.doubles(s, REPLAYCAST_FIELD_MAX_TRUE_PEAK)
        runningTime = StructureFields.time(s, REPLAYCAST_FIELD_RUNNING_TIME) ?? .zero
        duration = StructureFields.time(s, REPLAYCAST_FIELD_DURATION) ?? .zero
        volume = StructureFields.double(s, REPLAYCAST_FIELD_VOLUME)
        momentary = StructureFields.double(s, REPLAYCAST_FIELD_MOMENTARY)
        shortTerm = StructureFields.double(s, REPLAYCAST_FIELD_SHORT_TERM)
        integrated = StructureFields.double(s, REPLAYCAST_FIELD_INTEGRATED)
        maxMomentary = StructureFields.double(s, REPLAYCAST_FIELD_MAX_MOMENTARY)
        maxShortTerm = StructureFields.double(s, REPLAYCAST_FIELD_MAX_SHORT_TERM)
        loudnessRange = StructureFields.double(s, REPLAYCAST_FIELD_LOUDNESS_RANGE)
    }
}

extension Duration {
    /// The duration in seconds, for printing and arithmetic with Double.
    public var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
