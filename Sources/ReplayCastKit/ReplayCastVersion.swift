// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast

/// Which ReplayCast and which GStreamer a program runs with, e.g. for a `--version`: a
/// plugin built against a newer GStreamer than the one it runs on does not load.
public enum ReplayCastVersion {
    /// ReplayCast's version, the plugin's as gst-inspect-1.0 shows it: `0.1.0`.
    public static var replayCast: String { String(cString: replaycast_version()) }

    /// The GStreamer whose headers ReplayCast was built with: `1.22.0`.
    public static var gstreamerBuiltAgainst: String { String(cString: replaycast_gstreamer_built()) }

    /// The GStreamer library this process runs on, as it names itself: `GStreamer 1.26.2`.
    public static var gstreamerRunning: String {
        gst_version_string().map { text in
            defer { g_free(text) }
            return String(cString: text)
        } ?? "GStreamer ?"
    }
}
