// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
@testable import ReplayCast
import ReplayCastSupport
import Testing

/// The Swift property tables against what GObject sees: every row installed under its id,
/// every field of a new instance at its param spec's default, copies and status writes.
@Suite struct PropertyTableTests {
    /// Each element's and pad's table, and an object of that type.
    static func objects() -> [(name: String, table: AnyPropertyTable, object: UnsafeMutablePointer<GstElement>, pad: String?)] {
        GStreamerSetup.ensure()
        func make(_ factory: String) -> UnsafeMutablePointer<GstElement> {
            gst_object_ref_sink(gst_element_factory_make(factory, nil)).assumingMemoryBound(to: GstElement.self)
        }
        return [
            ("volumemeter", VolumeMeter.properties, make("volumemeter"), nil),
            ("replaykitsrc", ReplayKitSource.properties, make("replaykitsrc"), nil),
            ("dualmixer", DualMixer.properties, make("dualmixer"), nil),
            ("dualmixer", DualMixer.padProperties, make("dualmixer"), "app"),
            ("pipcompositor", PipCompositor.properties, make("pipcompositor"), nil),
            ("pipcompositor", PipCompositor.padProperties, make("pipcompositor"), "sink_%u"),
            ("rtmpreconnectsink", RtmpReconnectSink.properties, make("rtmpreconnectsink"), nil),
        ]
    }

    @Test func everyRowIsInstalledUnderItsIdAtItsDefault() {
        var compared = 0
        for (name, table, element, padName) in Self.objects() {
            defer { gst_object_unref(element) }
            var pad: UnsafeMutablePointer<GstPad>?
            if let padName {
                pad = padName.contains("%") ? gst_element_request_pad_simple(element, padName)
                                            : gst_element_get_static_pad(element, padName)
            }
            defer { if let pad { gst_object_unref(pad) } }
            let object = pad.map { rc_gobject($0) } ?? rc_gobject(element)
            for (index, spec) in table.specs.enumerated() {
                guard let installed = g_object_class_find_property(rc_object_class(object), spec.name) else {
                    Issue.record("\(name)\(padName.map { " pad \($0)" } ?? ""): \(spec.name) is not installed")
                    continue
                }
                #expect(installed.pointee.param_id == guint(index + 1), "\(name): \(spec.name) id")
                var now = GValue(), initial = GValue()
                g_value_init(&now, installed.pointee.value_type)
                g_value_init(&initial, installed.pointee.value_type)
                g_object_get_property(object, spec.name, &now)
                g_param_value_set_default(installed, &initial)
                #expect(g_param_values_cmp(installed, &now, &initial) == 0,
                        "\(name): \(spec.name) starts at \(String(cString: g_strdup_value_contents(&now)))")
                g_value_unset(&now)
                g_value_unset(&initial)
                compared += 1
            }
        }
        // 7 + 26 + 4 + 2 + 5 + 12 + 13 rows (rtmpreconnectsink's stats is null until it starts).
        #expect(compared == 69)
    }

    @Test func aCopyOwnsItsStringsAndTheInstanceKeepsItsOwn() {
        GStreamerSetup.ensure()
        let element = gst_object_ref_sink(gst_element_factory_make("replaykitsrc", nil))!
        defer { gst_object_unref(element) }
        ObjectProperties.set(element, "activity", string: "static")
        let source = element.assumingMemoryBound(to: RcReplayKitSrc.self)
        let copied = ReplayKitSource.properties.withSettings(of: source) { settings in
            (String(cString: settings.activity), settings.activity != source.pointee.settings.activity)
        }
        #expect(copied.0 == "static")
        #expect(copied.1, "the copy has a string of its own")
        #expect(ObjectProperties.string(element, "activity") == "static")
    }

    @Test func aStatusWriteNotifiesOnlyWhenTheValueChanges() {
        GStreamerSetup.ensure()
        let element = gst_object_ref_sink(gst_element_factory_make("rtmpreconnectsink", nil))!
        defer { gst_object_unref(element) }
        let notified = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        defer { notified.deallocate() }
        notified.pointee = 0
        let count: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
            _, _, data in data!.assumingMemoryBound(to: Int.self).pointee += 1
        }
        g_signal_connect_data(element, "notify::connection", unsafeBitCast(count, to: GCallback.self), notified, nil,
                              GConnectFlags(rawValue: 0))
        let sink = element.assumingMemoryBound(to: RcRtmpReconnectSink.self)
        RtmpReconnectSink.publish(sink, RC_PUBLISH_CONNECTING, 0)
        RtmpReconnectSink.publish(sink, RC_PUBLISH_CONNECTING, 2)
        RtmpReconnectSink.publish(sink, RC_PUBLISH_CONNECTED, 2)
        #expect(notified.pointee == 2)
        #expect(ObjectProperties.enumValue(element, "connection", type: RtmpReconnectSink.connection.type)
                == gint(RC_PUBLISH_CONNECTED.rawValue))
        #expect(ObjectProperties.uint(element, "reconnections") == 2)
    }

    @Test func audioLevelMetaTurnsPassthroughOffAndCountsTheWrite() {
        GStreamerSetup.ensure()
        let element = gst_object_ref_sink(gst_element_factory_make("volumemeter", nil))!
        defer { gst_object_unref(element) }
        let meter = element.assumingMemoryBound(to: RcVolumeMeter.self)
        let transform = element.assumingMemoryBound(to: GstBaseTransform.self)
        let writes = rc_volumemeter_settings_writes(meter)
        #expect(gst_base_transform_is_passthrough(transform) != 0)
        ObjectProperties.set(element, "audio-level-meta", bool: true)
        #expect(gst_base_transform_is_passthrough(transform) == 0)
        ObjectProperties.set(element, "audio-level-meta", bool: false)
        #expect(gst_base_transform_is_passthrough(transform) != 0)
        #expect(rc_volumemeter_settings_writes(meter) == writes + 2)
    }
}
