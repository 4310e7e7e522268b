// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels
import ReplayCastSupport

/// The `volumemeter` element message: level's fields and units, plus `volume` and, with
/// loudness on, the EBU R128 values.
enum VolumeMeterMessage {
    static let name = Quark.of("volumemeter")
    static let timestamp = Quark.of("timestamp")
    static let streamTime = Quark.of("stream-time")
    static let runningTime = Quark.of("running-time")
    static let duration = Quark.of("duration")
    static let endTime = Quark.of("endtime")
    static let rms = Quark.of("rms")
    static let peak = Quark.of("peak")
    static let decay = Quark.of("decay")
    static let volume = Quark.of("volume")
    static let momentary = Quark.of("momentary")
    static let shortTerm = Quark.of("short-term")
    static let integrated = Quark.of("integrated")
    static let truePeak = Quark.of("true-peak")
    static let maxMomentary = Quark.of("max-momentary")
    static let maxShortTerm = Quark.of("max-short-term")
    static let loudnessRange = Quark.of("loudness-range")
    static let maxTruePeak = Quark.of("max-true-peak")

    static func make(report: LevelReport, timestamp ts: GstClockTime, duration length: GstClockTime,
                     segment: UnsafePointer<GstSegment>) -> UnsafeMutablePointer<GstStructure> {
        // Data ahead of its segment event (a pipeline torn down after an error) has neither.
        let timed = segment.pointee.format == GST_FORMAT_TIME
        let running = timed ? gst_segment_to_running_time(segment, GST_FORMAT_TIME, ts) : .none
        let stream = timed ? gst_segment_to_stream_time(segment, GST_FORMAT_TIME, ts) : .none
        let s = gst_structure_new_id_empty(name)!
        s.set(endTime, uint64: stream.isValid ? stream &+ length : .none)
        s.set(timestamp, uint64: ts)
        s.set(streamTime, uint64: stream)
        s.set(runningTime, uint64: running)
        s.set(duration, uint64: length)
        s.set(rms, doubles: report.rms)
        s.set(peak, doubles: report.peak)
        s.set(decay, doubles: report.decay)
        s.set(volume, double: report.volume)
        if let loudness = report.loudness {
            s.set(momentary, double: loudness.momentary)
            s.set(shortTerm, double: loudness.shortTerm)
            s.set(integrated, double: loudness.integrated)
            s.set(truePeak, doubles: loudness.truePeak)
            s.set(maxMomentary, double: loudness.maxMomentary)
            s.set(maxShortTerm, double: loudness.maxShortTerm)
            s.set(loudnessRange, double: loudness.range)
            s.set(maxTruePeak, doubles: loudness.maxTruePeak)
        }
        return s
    }
}
