// SPDX-License-Identifier: LGPL-2.1-or-later
import CGStreamer
import CReplayCast
import CReplayCastKit
import MediaKernels
import ReplayCastSupport

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
            let playlistWriter = PlaylistWriter(sink: sink)
            playlistWriter.watchFirstFrame()
            let writer = Unmanaged.passRetained(playlistWriter).toOpaque()
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
    /// Seconds since 1970 when the first frame into the sink was captured.
    let firstFrame = Locked<Double?>(nil)

    init(sink: UnsafeMutablePointer<GstElement>) { self.sink = sink }

    /// Dates the first segment from its first frame: a probe on the video pad (or the only
    /// pad) takes the first buffer's running time back to the wall clock.
    func watchFirstFrame() {
        let pad = gst_element_get_static_pad(sink, "video") ?? gst_element_get_static_pad(sink, "audio")
        guard let pad else { return }
        defer { gst_object_unref(pad) }
        gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, noteFirstFrame, Unmanaged.passRetained(self).toOpaque(),
                          releasePlaylistWriterProbe)
    }

    /// The wall clock time `buffer`'s running time stood for: now, less how long ago on the
    /// pipeline clock that running time was. A live source stamps a frame with the running
    /// time of its capture, so this is when it was captured.
    fileprivate func noteFirst(_ buffer: UnsafeMutablePointer<GstBuffer>, on pad: UnsafeMutablePointer<GstPad>) {
        let pts = buffer.pointee.pts
        guard pts != GstClockTime.max, let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) else { return }
        defer { gst_event_unref(event) }
        var segment: UnsafePointer<GstSegment>?
        gst_event_parse_segment(event, &segment)
        guard let segment, let clock = gst_element_get_clock(sink) else { return }
        defer { gst_object_unref(clock) }
        let running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)
        guard running != GstClockTime.max else { return }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(sink)
        let wall = Double(g_get_real_time()) / 1e6
        let ago = Timebase.seconds(Double(now) - Double(base) - Double(running))
        firstFrame.withLock { $0 = wall - ago }
    }

    func write(_ playlist: String, to path: String) {
        let now = Double(g_get_real_time()) / 1e6
        let first = firstFrame.withLock { $0 }
        let dated = dating.withLock { $0.date(playlist, now: now, firstFrame: first) }
        var error: UnsafeMutablePointer<GError>?
        guard g_file_set_contents(path, dated, gssize(dated.utf8.count), &error) == 0 else { return }
        let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
        g_clear_error(&error)
        HLSFolders.postWriteError(from: sink, "cannot write the HLS playlist \(path): \(reason)",
                                  debug: "written by ReplayCast's HLSPlaylists")
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

private func noteFirstFrame(_ pad: UnsafeMutablePointer<GstPad>?, _ info: UnsafeMutablePointer<GstPadProbeInfo>?,
                            _ context: gpointer?) -> GstPadProbeReturn {
    guard let pad, let info, let context, let data = info.pointee.data else { return GST_PAD_PROBE_OK }
    let writer = Unmanaged<PlaylistWriter>.fromOpaque(context).takeUnretainedValue()
    writer.noteFirst(data.assumingMemoryBound(to: GstBuffer.self), on: pad)
    return GST_PAD_PROBE_REMOVE
}

private func releasePlaylistWriterProbe(_ context: gpointer?) {
    guard let context else { return }
    Unmanaged<PlaylistWriter>.fromOpaque(context).release()
}

private func releasePlaylistWriter(_ context: gpointer?, _: UnsafeMutablePointer<GClosure>?) {
    guard let context else { return }
    Unmanaged<PlaylistWriter>.fromOpaque(context).release()
}
