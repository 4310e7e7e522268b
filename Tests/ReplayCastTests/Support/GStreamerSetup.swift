import CGStreamer
import CReplayCast

/// gst_init and the in-process registration of our plugin, done once per test process.
enum GStreamerSetup {
    private static let initialised: Bool = {
        gst_init(nil, nil)
        ExpectedWarnings.install()
        return rc_plugin_register_static() != 0
    }()

    static func ensure() {
        precondition(initialised, "the replaycast plugin failed to register")
    }
}
