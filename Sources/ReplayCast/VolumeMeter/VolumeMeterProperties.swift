// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

extension VolumeMeter {
    /// level's names, blurbs and defaults where the meaning is level's.
    static let properties = PropertyTable(\RcVolumeMeter.settings, [
        .uint64(\.interval, "interval", "Interval", "Interval of time between message posts (in nanoseconds)",
                1...UInt64.max, default: Timebase.nanoseconds(.milliseconds(100)), .mutablePlaying),
        .boolean(\.post_messages, "post-messages", "Post Messages",
                 "Whether to post a 'volumemeter' element message on the bus for each passed interval",
                 default: true, .mutablePlaying),
        .uint64(\.peak_ttl, "peak-ttl", "Peak TTL", "Time To Live of decay peak before it falls back (in nanoseconds)",
                0...UInt64.max, default: Timebase.nanoseconds(.milliseconds(300)), .mutablePlaying),
        .double(\.peak_falloff, "peak-falloff", "Peak Falloff",
                "Decay rate of decay peak after TTL (in dB/sec, with level's meaning)",
                0...Double.greatestFiniteMagnitude, default: 10, .mutablePlaying),
        .boolean(\.loudness, "loudness", "Loudness",
                 "Also measure EBU R128 loudness (momentary, short-term, integrated in LUFS) and true peak (dBTP)",
                 default: false, .mutablePlaying),
        .boolean(\.audio_level_meta, "audio-level-meta", "Audio Level Meta",
                 "Give every buffer a GstAudioLevelMeta with its RFC 6464 level (-dBov, 0-127), updating one set upstream; "
                 + "buffers are then made writable", default: false, .mutablePlaying),
        // level's older name for post-messages, kept as level keeps it: the same value, deprecated.
        .boolean(\.post_messages, "message", "message",
                 "Post a 'volumemeter' message for each passed interval (deprecated: post-messages is the same switch)",
                 default: true, [.mutablePlaying, .deprecated]),
    ], didSet: { element, spec, value in
        // As level: with audio-level-meta the buffers must be writable, so the base class
        // stops passing them through untouched (it copies a shared one), and does again without it.
        if spec.name == "audio-level-meta" {
            let meta = g_value_get_boolean(value) != 0
            gst_base_transform_set_passthrough(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GstBaseTransform.self),
                                               meta ? 0 : 1)
            DebugLog.volumemeter.debug(element, meta
                ? "audio-level-meta on: buffers are made writable (a shared one is copied) to carry the meta"
                : "audio-level-meta off: buffers pass through untouched")
        }
        g_atomic_int_inc(&element.pointee.settings_writes)
    })
}

@_cdecl("rc_volumemeter_properties")
func volumemeterProperties() -> UnsafeRawPointer { VolumeMeter.properties.opaque }
