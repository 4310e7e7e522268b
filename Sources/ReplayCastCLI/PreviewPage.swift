// SPDX-License-Identifier: LGPL-2.1-or-later
import Foundation
import ReplayCastKit

/// The page `--serve` shows at `/`: the live playlist in a `<video>` (the browser's own HLS
/// player) and the status, updated from `/events`. Elements carry `data-meter` names so
/// tests (and users' scripts) can read them.
enum PreviewPage {
    static func html(title: String, playlist: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>ReplayCast preview: \(escape(title))</title>
        <style>
        body { font: 14px system-ui, sans-serif; background: #101418; color: #dde; margin: 16px; display: flex; gap: 24px; }
        video { height: 80vh; background: #000; }
        table { border-collapse: collapse; } td { padding: 2px 8px; font-variant-numeric: tabular-nums; }
        .bar { width: 240px; height: 10px; background: #333; position: relative; }
        .bar div { position: absolute; height: 100%; background: #4c8; } .bar .hold { width: 2px; background: #fc4; }
        </style></head>
        <body>
        <video id="preview" muted autoplay playsinline controls></video>
        <div>
        <h2>\(escape(title))</h2>
        <table>
        <tr><td>elapsed</td><td><span data-meter="elapsed">0</span> s</td></tr>
        <tr><td>broadcast</td><td><span data-meter="broadcast">starting</span></td></tr>
        <tr><td>video frames</td><td>in <span data-meter="frames-in">0</span>, out <span data-meter="frames-out">0</span>, dropped <span data-meter="dropped">0</span></td></tr>
        <tr><td>output</td><td><span data-meter="bitrate">0</span> kb/s, <span data-meter="segments">0</span> segments</td></tr>
        <tr><td>loudness</td><td>M <span data-meter="momentary">-</span> S <span data-meter="short-term">-</span> I <span data-meter="integrated">-</span> LUFS, true peak <span data-meter="true-peak">-</span> dBTP</td></tr>
        </table>
        <div id="channels"></div>
        </div>
        <script>
        const video = document.getElementById('preview');
        const playlist = '\(escape(playlist))';
        // Start once the live playlist lists two segments (players start behind the live edge;
        // Chromium's own HLS player can fail on a one-segment live playlist), and again after
        // an error (a live player can lose its place).
        const segments = async () => {
          const response = await fetch(playlist, { cache: 'no-store' }).catch(() => null);
          return response && response.ok ? ((await response.text()).match(/#EXTINF/g) || []).length : 0;
        };
        const load = async () => {
          while ((await segments()) < 2) await new Promise((done) => setTimeout(done, 500));
          video.src = playlist + '?' + Date.now();
          video.play().catch(() => {});
        };
        video.addEventListener('error', () => setTimeout(load, 1000));
        load();
        const set = (name, value) => document.querySelectorAll('[data-meter="' + name + '"]').forEach(e => e.textContent = value);
        const fixed = (v) => v === null || v === undefined ? '-' : v.toFixed(1);
        const width = (dB) => Math.max(0, Math.min(100, (dB + 60) / 60 * 100)) + '%';
        new EventSource('events').onmessage = (event) => {
          const s = JSON.parse(event.data);
          set('elapsed', s.elapsed.toFixed(1)); set('broadcast', s.broadcast);
          set('frames-in', s.framesIn); set('frames-out', s.framesOut); set('dropped', s.dropped);
          set('bitrate', Math.round(s.bitrate / 1000)); set('segments', s.segments);
          set('momentary', fixed(s.momentary)); set('short-term', fixed(s.shortTerm));
          set('integrated', fixed(s.integrated)); set('true-peak', fixed(s.truePeak));
          const channels = document.getElementById('channels');
          (s.rms || []).forEach((rms, c) => {
            let row = document.getElementById('channel-' + c);
            if (!row) {
              row = document.createElement('div'); row.id = 'channel-' + c;
              row.innerHTML = 'ch' + c + ' <span data-meter="rms-' + c + '"></span> dB <div class="bar"><div class="level" data-meter-bar="rms-' + c + '"></div><div class="hold"></div></div>';
              channels.appendChild(row);
            }
            set('rms-' + c, rms.toFixed(1));
            row.querySelector('.level').style.width = width(rms);
            row.querySelector('.hold').style.left = width(s.decay[c]);
          });
        };
        </script>
        </body></html>
        """
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }
}

extension BroadcastStatus {
    /// One `/events` update: the status screen's numbers; dB values that are not finite are null.
    func json() -> String {
        func number(_ value: Double?) -> Any { value.flatMap { $0.isFinite ? $0 : nil } ?? NSNull() }
        let meter = meters.first?.reading
        let object: [String: Any] = [
            "elapsed": elapsed,
            "broadcast": broadcast,
            "framesIn": traffic.framesIn,
            "framesOut": traffic.framesOut,
            "dropped": traffic.droppedFrames,
            "bitrate": bitrate,
            "segments": segments,
            "rms": (meter?.rms ?? []).map(number),
            "peak": (meter?.peak ?? []).map(number),
            "decay": (meter?.decay ?? []).map(number),
            "momentary": number(meter?.momentary),
            "shortTerm": number(meter?.shortTerm),
            "integrated": number(meter?.integrated),
            "truePeak": number(meter?.truePeak.max()),
            "rtmp": rtmp.map(rtmpState),
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
