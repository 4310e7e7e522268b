import CGStreamer
import CReplayCast
import MediaKernels

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
        rc_structure_set_uint64(s, endTime, stream.isValid ? stream &+ length : .none)
        rc_structure_set_uint64(s, timestamp, ts)
        rc_structure_set_uint64(s, streamTime, stream)
        rc_structure_set_uint64(s, runningTime, running)
        rc_structure_set_uint64(s, duration, length)
        setArray(s, rms, report.rms)
        setArray(s, peak, report.peak)
        setArray(s, decay, report.decay)
        rc_structure_set_double(s, volume, report.volume)
        if let loudness = report.loudness {
            rc_structure_set_double(s, momentary, loudness.momentary)
            rc_structure_set_double(s, shortTerm, loudness.shortTerm)
            rc_structure_set_double(s, integrated, loudness.integrated)
            setArray(s, truePeak, loudness.truePeak)
            rc_structure_set_double(s, maxMomentary, loudness.maxMomentary)
            rc_structure_set_double(s, maxShortTerm, loudness.maxShortTerm)
            rc_structure_set_double(s, loudnessRange, loudness.range)
            setArray(s, maxTruePeak, loudness.maxTruePeak)
        }
        return s
    }

    private static func setArray(_ s: UnsafeMutablePointer<GstStructure>, _ field: GQuark, _ values: UnsafeBufferPointer<Double>) {
        rc_structure_set_double_array(s, field, values.baseAddress, guint(values.count))
    }
}
