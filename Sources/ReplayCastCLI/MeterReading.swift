import CGStreamer
import CReplayCast

/// A `volumemeter` (or `level`) message as plain numbers; dB and LUFS.
struct MeterReading {
    var runningTime: Double = 0
    var rms: [Double] = []
    var peak: [Double] = []
    /// level's decaying peak: the "peak hold" a meter shows.
    var decay: [Double] = []
    var momentary: Double?
    var shortTerm: Double?
    var integrated: Double?
    var truePeak: [Double] = []

    static let maximumChannels = 8

    init?(_ s: UnsafePointer<GstStructure>) {
        let name = String(cString: gst_structure_get_name(s))
        guard name == "volumemeter" || name == "level" else { return nil }
        rms = Self.doubles(s, "rms")
        peak = Self.doubles(s, "peak")
        decay = Self.doubles(s, "decay")
        truePeak = Self.doubles(s, "true-peak")
        var time: guint64 = 0
        if gst_structure_get_uint64(s, "running-time", &time) != 0 { runningTime = Double(time) / 1e9 }
        momentary = Self.double(s, "momentary")
        shortTerm = Self.double(s, "short-term")
        integrated = Self.double(s, "integrated")
    }

    private static func doubles(_ s: UnsafePointer<GstStructure>, _ field: String) -> [Double] {
        var values = [Double](repeating: 0, count: maximumChannels)
        let count = rc_structure_get_double_array(s, field, &values, gint(maximumChannels))
        return Array(values.prefix(Int(max(0, min(count, gint(maximumChannels))))))
    }

    private static func double(_ s: UnsafePointer<GstStructure>, _ field: String) -> Double? {
        var value = 0.0
        return gst_structure_get_double(s, field, &value) != 0 ? value : nil
    }
}
