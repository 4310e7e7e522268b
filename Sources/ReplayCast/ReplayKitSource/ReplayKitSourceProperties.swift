// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import MediaKernels

extension ReplayKitSource {
    /// Same nicks as DeviceProfile.all (a test checks); profiles are looked up by nick.
    static let device = EnumType("GstReplayKitDevice", [
        .init(0, "iPhone X, iOS 12: 1125x2436, app 44.1 kHz mono S16BE in 22596-frame bursts, mic 44.1 kHz mono",
              "iphone-x-ios12"),
        .init(1, "iPhone 11 Pro Max, iOS 17: 1242x2688, app 44.1 kHz stereo S16BE, mic 48 kHz mono", "iphone-11-ios17"),
        .init(2, "iPad Pro 12.9-inch, iPadOS 17: 2048x2732, app 44.1 kHz stereo S16BE, mic 48 kHz mono", "ipad-ios17"),
        .init(3, "iPhone 11 Pro Max with a 32 kHz mic (RTC vendor report)", "rtc-32k-mic"),
        .init(4, "iPhone 11 Pro Max with AirPods: 24 kHz mic", "airpods-mic"),
        .init(5, "iPhone 11 Pro Max recording multicam: 48 kHz 3-channel mic", "multicam-mic"),
    ])

    static let mic = EnumType("GstReplayKitMic", [
        .init(RC_MIC_ON, "Microphone on: speech-like audio", "on"),
        .init(RC_MIC_OFF, "Microphone off: no mic buffers at all", "off"),
        .init(RC_MIC_SILENCE, "Microphone muted: continuous digital silence", "silence"),
    ])

    static let endianness = EnumType("GstReplayKitEndianness", [
        .init(RC_ENDIANNESS_PROFILE, "As the device profile delivers it", "profile"),
        .init(RC_ENDIANNESS_LITTLE, "Little-endian S16LE", "little"),
        .init(RC_ENDIANNESS_BIG, "Big-endian S16BE", "big"),
    ])

    static let barcodeTime = EnumType("GstReplayKitBarcodeTime", [
        .init(RC_BARCODE_TIME_BROADCAST,
              "Broadcast time: ns since the broadcast started, as the buffer's timestamp counts it", "broadcast"),
        .init(RC_BARCODE_TIME_UTC, "UTC: ns since 1970 on this machine's real-time clock when the frame was captured "
              + "(replaycast check-latency)", "utc"),
    ])

    static let fileEnd = EnumType("GstReplayKitFileEnd", [
        .init(RC_FILE_END_LOOP, "Start the file again", "loop"),
        .init(RC_FILE_END_FINISH, "Finish the broadcast when the first file ends", "finish"),
    ])

    static let properties = PropertyTable(\RcReplayKitSrc.settings, [
        .enumeration(\.device, "device", "Device",
                     "Device profile: screen size and audio formats as that device delivers them", device,
                     default: 1 /* iphone-11-ios17 */, .mutableReady),
        .int(\.width, "width", "Width", "Screen width in pixels, 128 or more (0 = the profile's)", 0...4096, default: 0,
             .mutableReady),
        .int(\.height, "height", "Height", "Screen height in pixels (0 = the profile's)", 0...4096, default: 0, .mutableReady),
        .string(\.activity, "activity", "Activity",
                "When the screen changes (frames flow only then): animated, static, or a repeating pattern like "
                + "busy:2s,idle:3s", default: "animated", .mutableReady),
        .enumeration(\.mic, "mic", "Mic", "Microphone state at the start", mic, default: RC_MIC_ON, .mutableReady),
        .string(\.setup_info, "setup-info", "Setup info",
                "Setup info handed to broadcastStarted, as a GstStructure string (e.g. setup,broadcastName=example)",
                default: "", .mutableReady),
        .string(\.schedule, "schedule", "Schedule",
                "Timed broadcast events, e.g. \"5s:pause; 8s:resume; 10s:orientation=right; 12s:mic-format=24000; "
                + "15s:call-start; 18s:call-end; 20s:finish\"", default: "", .mutableReady),
        .boolean(\.is_live, "is-live", "Is live",
                 "Deliver in real time on the pipeline clock; false runs as fast as possible with the same timestamps",
                 default: true, .mutableReady),
        .int(\.num_frames, "num-frames", "Number of frames",
             "Finish the broadcast after this many video frames (-1 = unbounded)", -1...Int32.max, default: -1,
             .mutableReady),
        .uint64(\.duration, "duration", "Duration",
                "Finish the broadcast after this much broadcast time in nanoseconds (18446744073709551615 = unbounded)",
                0...UInt64.max, default: UInt64.max, .mutableReady),
        .int(\.app_rate, "app-rate", "App rate", "App audio sample rate in Hz (0 = the profile's)", 0...96000, default: 0,
             .mutableReady),
        .int(\.app_channels, "app-channels", "App channels", "App audio channels (0 = the profile's)", 0...2, default: 0,
             .mutableReady),
        .enumeration(\.app_endianness, "app-endianness", "App endianness", "Byte order of the app audio samples",
                     endianness, default: RC_ENDIANNESS_PROFILE, .mutableReady),
        .int(\.app_frames_per_buffer, "app-frames-per-buffer", "App frames per buffer",
             "App audio frames per buffer (0 = the profile's: 22596 on iOS 12, 1024 elsewhere)", 0...(1 << 20),
             default: 0, .mutableReady),
        .int(\.mic_rate, "mic-rate", "Mic rate", "Mic sample rate in Hz (0 = the profile's)", 0...96000, default: 0,
             .mutableReady),
        .int(\.mic_channels, "mic-channels", "Mic channels", "Mic channels (0 = the profile's)", 0...3, default: 0,
             .mutableReady),
        .boolean(\.gap_events, "gap-events", "Gap events",
                 "Announce time without buffers (pause, call, mic off) with GAP events so downstream mixers never wait; "
                 + "false sends nothing at all, like a device", default: true, .mutableReady),
        .boolean(\.audio_after_call, "audio-after-call", "Audio after call",
                 "Audio returns when a phone call ends (false: only video flows after a call, as seen on devices)",
                 default: false, .mutableReady),
        .boolean(\.sync_marks, "sync-marks", "Sync marks",
                 "At every whole second of capture time from 1 s: a 100 ms white flash in the video and, in the app and "
                 + "mic audio, 100 ms of silence then a 10 ms 1 kHz click starting exactly at the mark, to measure A/V "
                 + "sync downstream (replaycast check-sync)", default: false, .mutableReady),
        .uint64(\.memory_limit, "memory-limit", "Memory limit",
                "End the broadcast with an error, as ReplayKit kills an upload extension over its memory limit (about "
                + "50 MB), when this process holds more private memory than this many bytes (0 = no limit)",
                0...UInt64.max, default: 0, .mutableReady),
        .enumeration(\.barcode_time, "barcode-time", "Barcode time",
                     "The time each frame's barcode strip carries: broadcast time, or the UTC capture time a receiver "
                     + "on a clock synchronised with this one compares with its own to measure latency", barcodeTime,
                     default: RC_BARCODE_TIME_BROADCAST, .mutableReady),
        .string(\.trace, "trace", "Trace",
                "Replay a device trace (a file, one JSON object per line): the same sample buffers at the same times "
                + "in the same formats, with the same lifecycle; the content is replaykitsrc's or the files' "
                + "(screen-location, app-location, mic-location) (docs/replaykitsrc.md). "
                + "Empty: the device profile and schedule decide", default: "", .mutableReady),
        .string(\.screen_location, "screen-location", "Screen video file",
                "Show this video file (any format GStreamer decodes) as the screen instead of the emulated one: NV12 "
                + "at the screen size, aspect kept, a frame only when the picture changes, its rotation as the "
                + "orientation; decoded while the broadcast runs, a few frames ahead. Empty: the emulated screen",
                default: "", .mutableReady),
        .string(\.app_location, "app-location", "App audio file",
                "Play this audio file (any format GStreamer decodes) as the app audio instead of the music, converted "
                + "to the stream's format; decoded when the broadcast starts, up to 10 minutes. Empty: the music",
                default: "", .mutableReady),
        .string(\.mic_location, "mic-location", "Mic audio file",
                "Play this audio file as the mic audio instead of the speech, converted to the mic's format (each "
                + "format the mic switches to); decoded when the broadcast starts, up to 10 minutes. Empty: the speech",
                default: "", .mutableReady),
        .enumeration(\.file_end, "file-end", "File end",
                     "What happens when a screen-location, app-location or mic-location file ends", fileEnd,
                     default: RC_FILE_END_LOOP, .mutableReady),
    ], accept: { element, spec, value in
        // A string's grammar is checked as it is set: a refused value is not stored, a
        // warning says why, and opening fails while it stands.
        guard case .string = spec.value else { return true }
        return ReplayKitSource.of(element).accept(g_value_get_string(value).map { String(cString: $0) } ?? "", for: spec.name)
    })
}

@_cdecl("rc_replaykitsrc_properties")
func replayKitSourceProperties() -> UnsafeRawPointer { ReplayKitSource.properties.opaque }
