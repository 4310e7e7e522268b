import CGStreamer
import CReplayCast
import Foundation

/// Turns volumemeter messages into one line per meter, at most about twice a second.
struct MeterDisplay {
    let quiet: Bool
    private var lastPrint: [String: Date] = [:]
    private var messages = 0

    init(quiet: Bool) { self.quiet = quiet }

    mutating func update(source: String, _ s: UnsafePointer<GstStructure>) {
        guard String(cString: gst_structure_get_name(s)) == "volumemeter" else { return }
        messages += 1
        let now = Date()
        if quiet || now.timeIntervalSince(lastPrint[source] ?? .distantPast) < 0.5 { return }
        lastPrint[source] = now
        var rms = [Double](repeating: 0, count: 8), peak = rms
        let channels = Int(min(rc_structure_get_double_array(s, "rms", &rms, 8), 8))
        _ = rc_structure_get_double_array(s, "peak", &peak, 8)
        var timestamp: guint64 = 0
        _ = gst_structure_get_uint64(s, "running-time", &timestamp)
        var line = String(format: "%8.2fs %@", Double(timestamp) / 1e9, source)
        for c in 0..<max(channels, 0) {
            line += String(format: "  ch%d %@ %6.1f dB (peak %6.1f)", c, Self.bar(rms[c]), rms[c], peak[c])
        }
        var momentary = 0.0
        if gst_structure_get_double(s, "momentary", &momentary) != 0 {
            line += String(format: "  M %6.1f LUFS", momentary)
        }
        print(line)
    }

    /// 20 cells from -60 dBFS to 0 dBFS.
    static func bar(_ dB: Double) -> String {
        let filled = max(0, min(20, Int(((dB + 60) / 3).rounded())))
        return String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
    }

    func interrupt(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    func finish(seconds: Double) {
        print(String(format: "finished after %.1f s, %d meter messages", seconds, messages))
    }
}
