// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit
import ReplayCast

/// Takes over the playlist writing of every `hlssink2` in a pipeline through its
/// `get-playlist-stream` signal (hlssink2 keeps segmenting, naming and deleting files):
/// each playlist it renders is dated by `PlaylistDating` and written with
/// `g_file_set_contents` — a temporary file renamed over the old one — so a reader never
/// sees half a playlist and a failed write leaves the previous playlist whole. A playlist
/// that cannot be written is an error from that hlssink2 naming the path and the reason.
public enum HLSPlaylists {
    /// Attaches to every hlssink2 in `pipeline` (at any depth); returns how many it found.
    /// Call before the pipeline leaves NULL.
    @discardableResult
    public static func take(over pipeline: UnsafeMutablePointer<GstElement>) -> Int {
        let sinks = BinElements.made(by: "hlssink2", in: pipeline)
        for sink in sinks {
            let writer = Unmanaged.passRetained(PlaylistWriter(sink: sink)).toOpaque()
            g_signal_connect_data(sink, "get-playlist-stream", unsafeBitCast(playlistStream as PlaylistStreamHandler, to: GCallback.self),
                                  writer, releasePlaylistWriter, GConnectFlags(rawValue: 0))
        }
        return sinks.count
    }
}

/// One hlssink2's dating. Lives as long as its signal connection, so `sink` is valid in
/// every callback; the playlist streams run on hlssink2's streaming threads, hence the lock.
final class PlaylistWriter {
    let sink: UnsafeMutablePointer<GstElement>
    let dating = Locked(PlaylistDating())

    init(sink: UnsafeMutablePointer<GstElement>) { self.sink = sink }

    func write(_ playlist: String, to path: String) {
        let now = Double(g_get_real_time()) / 1e6
        let dated = dating.withLock { $0.date(playlist, now: now) }
        var error: UnsafeMutablePointer<GError>?
        guard g_file_set_contents(path, dated, gssize(dated.utf8.count), &error) == 0 else { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        g_clear_error(&error)
        let text = "cannot write the HLS playlist \(path): \(reason)"
        var failure: UnsafeMutablePointer<GError>? = g_error_new_literal(gst_resource_error_quark(),
                                                                         gint(GST_RESOURCE_ERROR_OPEN_WRITE.rawValue), text)
        gst_element_post_message(sink, gst_message_new_error(rc_object(sink), failure, "written by ReplayCast's HLSPlaylists"))
        g_clear_error(&failure)
    }
}

/// What one playlist stream is for: the writer and the path hlssink2 asked for.
private final class PlaylistWrite {
    let writer: PlaylistWriter
    let path: String

    init(writer: PlaylistWriter, path: String) {
        self.writer = writer
        self.path = path
    }
}

private typealias PlaylistStreamHandler = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafePointer<gchar>?, gpointer?)
    -> UnsafeMutablePointer<GOutputStream>?

private func playlistStream(_: UnsafeMutablePointer<GstElement>?, _ location: UnsafePointer<gchar>?,
                            _ context: gpointer?) -> UnsafeMutablePointer<GOutputStream>? {
    guard let location, let context else { return nil }
    let writer = Unmanaged<PlaylistWriter>.fromOpaque(context).takeUnretainedValue()
    let write = Unmanaged.passRetained(PlaylistWrite(writer: writer, path: String(cString: location))).toOpaque()
    return rc_text_stream_new(playlistClosed, write, releasePlaylistWrite)
}

private func playlistClosed(_ text: UnsafePointer<gchar>?, _ length: gsize, _ context: gpointer?) {
    guard let text, let context else { return }
    let write = Unmanaged<PlaylistWrite>.fromOpaque(context).takeUnretainedValue()
    write.writer.write(String(cString: text), to: write.path)
}

private func releasePlaylistWrite(_ context: gpointer?) {
    guard let context else { return }
    Unmanaged<PlaylistWrite>.fromOpaque(context).release()
}

private func releasePlaylistWriter(_ context: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
    guard let context else { return }
    Unmanaged<PlaylistWriter>.fromOpaque(context).release()
}
