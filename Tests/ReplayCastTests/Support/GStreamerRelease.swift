// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer

/// The GStreamer this test process runs on, for the few checks where GStreamer's own
/// elements changed between releases (the peer we compare with), never our elements.
enum GStreamerRelease {
    static let minor: Int = {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return Int(minor)
    }()

    /// `compositor` blends RGBA and BGRA pictures with alpha below 1 one step darker in R, G
    /// and B since 1.24 (1.22 rounds as pipcompositor does; measured on 1.26.2 and 1.28.8).
    static var compositorDarkensBlendedRGB: Bool { minor >= 24 }

    /// GstAggregator goes on waiting on the clock for its live timeout in PAUSED, and times out
    /// there (audiomixer and compositor then push output for time that never ran): measured on
    /// 1.22.0. 1.26.2 and 1.28 wait for PLAYING instead; 1.24 was not measured.
    static var aggregatorTimesOutWhilePaused: Bool { minor < 26 }
}
