// SPDX-License-Identifier: LGPL-2.1-or-later
import Glibc
import CGStreamer
import CReplayCast
import CTestSupport

/// gst_init and the in-process registration of our plugin, done once per test process.
enum GStreamerSetup {
    private static let initialised: Bool = {
        gst_init(nil, nil)
        ExpectedWarnings.install()
        if getenv("RC_LEAKS_REPORT") != nil { atexit { GStreamerSetup.writeLeaksReport() } }
        return replaycast_init() != 0
    }()

    /// Under GST_TRACERS=leaks, what is still alive once every test has finished goes to
    /// the file named by RC_LEAKS_REPORT (scripts/test fails unless it says "0 alive"): the
    /// test runner's exit status ignores a failure this late.
    private static func writeLeaksReport() {
        guard let path = getenv("RC_LEAKS_REPORT"), let report = rc_leaks_report() else { return }
        defer { g_free(report) }
        if let file = fopen(path, "w") {
            fputs(report, file)
            fclose(file)
        }
    }

    static func ensure() {
        precondition(initialised, "the replaycast plugin failed to register")
    }
}
