// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CTestSupport
import Foundation

/// Writes legal values (each param spec's minimum, maximum, default and points between,
/// seeded) into every writable property of some objects, from the calling thread, while
/// a pipeline plays on its own threads. String properties take values from `strings`.
struct PropertyThrash {
    let targets: [UnsafeMutablePointer<GObject>]
    let strings: [String: [String]]
    var random: Seeded

    init(_ targets: [UnsafeMutablePointer<GObject>], strings: [String: [String]] = [:], seed: UInt64) {
        self.targets = targets
        self.strings = strings
        random = Seeded(state: seed)
    }

    /// Every writable property of the targets, by name: the ones this can write, and the
    /// ones it cannot (no range: a string without choices, an object, a boxed value).
    func properties() -> (writable: [[UnsafeMutablePointer<GParamSpec>]], skipped: Set<String>) {
        var skipped: Set<String> = []
        let writable = targets.map { object -> [UnsafeMutablePointer<GParamSpec>] in
            var n: guint = 0
            guard let list = rc_writable_properties(object, &n) else { return [] }
            defer { g_free(list) }
            return (0..<Int(n)).compactMap { list[$0] }.filter { spec in
                let name = String(cString: spec.pointee.name)
                var probe = GValue()
                defer { if probe.g_type != 0 { g_value_unset(&probe) } }
                let ok = spec.pointee.value_type == rc_type_string() ? strings[name] != nil
                    : rc_property_pick(spec, 2, 0, &probe) != 0
                if !ok { skipped.insert(name) }
                return ok
            }
        }
        return (writable, skipped)
    }

    /// Makes `count` writes, pausing `pause` seconds after each ten; returns the names of
    /// the properties written, with how often.
    mutating func run(count: Int, pause: Double) -> [String: Int] {
        var written: [String: Int] = [:]
        let specs = properties().writable
        let targetsWithProperties = specs.indices.filter { !specs[$0].isEmpty }
        for write in 0..<count {
            let which = targetsWithProperties[random.next(targetsWithProperties.count)]
            let spec = specs[which][random.next(specs[which].count)]
            let name = String(cString: spec.pointee.name)
            set(targets[which], spec, name)
            written[name, default: 0] += 1
            if write % 10 == 9 { Thread.sleep(forTimeInterval: pause) }
        }
        return written
    }

    /// GstAggregator's latency specs allow G_MAXUINT64, but its latency setter rejects it
    /// and its latency query then sets an invalid minimum, each with a critical (GStreamer
    /// 1.22, audiomixer and compositor too): the base class's, not ours.
    static let maximumRefused: Set<String> = ["latency", "min-upstream-latency"]

    /// GStreamer 1.28's start-time-selection=now deadlocks GstAggregator at its first buffer
    /// (gst_aggregator_pad_chain_internal asks gst_element_get_current_running_time, which
    /// takes the object lock the chain already holds): audiomixer hangs as dualmixer does.
    static let valuesThatDeadlock: [String: String] = ["start-time-selection": "now"]

    private mutating func set(_ object: UnsafeMutablePointer<GObject>, _ spec: UnsafeMutablePointer<GParamSpec>,
                              _ name: String) {
        var value = GValue()
        defer { if value.g_type != 0 { g_value_unset(&value) } }
        if spec.pointee.value_type == rc_type_string() {
            let choices = strings[name]!
            g_value_init(&value, rc_type_string())
            g_value_set_string(&value, choices[random.next(choices.count)])
        } else {
            var pick = guint(random.next(4))
            if pick == 1 && Self.maximumRefused.contains(name) { pick = 3 }
            _ = rc_property_pick(spec, pick, random.unit(), &value)
            if let nick = Self.valuesThatDeadlock[name], Self.enumNick(value) == nick {
                g_value_unset(&value)
                _ = rc_property_pick(spec, 0, 0, &value)
            }
        }
        g_object_set_property(object, name, &value)
    }

    private static func enumNick(_ value: GValue) -> String? {
        var value = value
        guard g_type_is_a(value.g_type, g_type_from_name("GEnum")) != 0,
              let enumClass = g_type_class_peek(value.g_type)?.assumingMemoryBound(to: GEnumClass.self),
              let entry = g_enum_get_value(enumClass, g_value_get_enum(&value)) else { return nil }
        return String(cString: entry.pointee.value_nick)
    }
}
