# SPDX-License-Identifier: LGPL-2.1-or-later
"""rtmpreconnectsink against a real nginx-rtmp (scripts/rtmp-server), in a Python gi
application with an HLS branch in the same pipeline (issue 11's acceptance):

  reconnect  30 s live; the server stops at 8 s and starts again at 14 s. No error; the
             messages come in order (connected, disconnected, reconnecting 1..n, reconnected n);
             HLS has no gap (EXTINF sum 30 s, every segment written on time) and ends with
             EXT-X-ENDLIST; the first recording holds ~8 s, the second starts with a keyframe
             and probes as H.264 + AAC.
  give-up    no server, default settings (connect-retries=3): an error naming the URL and
             the reason within the backoff sum + 10 s, after reconnecting 1, 2, 3 with 1, 2,
             4 s delays; EOS then still finishes HLS.
  refused    the server refuses the stream (its deny application): an error saying so within
             2 s, no reconnection attempt, `connection` reads failed.

    rtmp_reconnect.py SCRATCH
Prints what it measured; exits 1 if a check fails.
"""
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

import message_reference  # noqa: E402

Gst.init(None)
SCRATCH = os.path.abspath(sys.argv[1])
failures = []


def check(ok, text):
    print(("ok   " if ok else "FAIL ") + text)
    if not ok:
        failures.append(text)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def server(command, port, folder):
    env = dict(os.environ, RTMP_SERVER_HOME=os.path.join(SCRATCH, f"nginx-{port}"))
    subprocess.run(["scripts/rtmp-server", command, str(port), folder], check=True, env=env,
                   stdout=subprocess.DEVNULL)


def pipeline(url, hls, extra=""):
    return Gst.parse_launch(
        "videotestsrc is-live=true pattern=ball ! video/x-raw,width=320,height=240,framerate=30/1 "
        "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=60 ! tee name=vt "
        "vt. ! queue ! h264parse ! hls.video "
        "vt. ! queue ! h264parse ! rtmp.video "
        "audiotestsrc is-live=true ! audio/x-raw,rate=48000,channels=2 ! avenc_aac ! tee name=at "
        "at. ! queue ! aacparse ! hls.audio "
        "at. ! queue ! aacparse ! rtmp.audio "
        f"hlssink2 name=hls target-duration=2 playlist-length=0 max-files=0 "
        f"location={hls}/segment%05d.ts playlist-location={hls}/playlist.m3u8 "
        f"rtmpreconnectsink name=rtmp location={url} {extra}")


class Run:
    """Plays a pipeline, starting `actions` (seconds -> function) on time in threads of
    their own so the bus is read on time, and collects rtmp-* messages, errors and HLS
    fragment times (seconds since start, when read)."""

    def __init__(self, pipe):
        self.pipe = pipe
        self.started = None
        self.rtmp = []
        self.errors = []
        self.fragments = []
        self.eos = None
        self.arrivals = []  # (seconds since start, PTS in seconds) of each H.264 frame reaching hlssink2
        hls = pipe.get_by_name("hls")
        if hls:
            hls.get_static_pad("video").add_probe(Gst.PadProbeType.BUFFER, self.arrived)

    def arrived(self, pad, info):
        if self.started is not None:
            self.arrivals.append((time.monotonic() - self.started, info.get_buffer().pts / Gst.SECOND))
        return Gst.PadProbeReturn.OK

    def play(self, until, actions=None, eos_on_error=False):
        actions = dict(actions or {})
        bus = self.pipe.get_bus()
        self.pipe.set_state(Gst.State.PLAYING)
        start = self.started = time.monotonic()
        eos_sent = False
        threads = []
        while True:
            now = time.monotonic() - start
            for at in sorted(a for a in actions if a <= now):
                threads.append(threading.Thread(target=actions.pop(at)))
                threads[-1].start()
            if not eos_sent and (now >= until or (eos_on_error and self.errors)):
                self.pipe.send_event(Gst.Event.new_eos())
                eos_sent = True
                self.eos_sent_at = now
            if eos_sent and now >= self.eos_sent_at + 15:
                break
            msg = bus.timed_pop(50 * Gst.MSECOND)
            if msg is None:
                continue
            now = time.monotonic() - start
            if msg.type == Gst.MessageType.EOS:
                self.eos = now
                break
            if msg.type == Gst.MessageType.ERROR:
                err, _ = msg.parse_error()
                self.errors.append((now, msg.src.get_name(), err.message))
            elif msg.type == Gst.MessageType.ELEMENT:
                s = msg.get_structure().copy()
                if s.get_name().startswith("rtmp-"):
                    self.rtmp.append((now, s.get_name(), s))
                elif s.get_name() == "splitmuxsink-fragment-closed":
                    self.fragments.append(now)
        self.pipe.set_state(Gst.State.NULL)
        for thread in threads:
            thread.join()
        return self


def playlist(path):
    text = open(path).read() if os.path.exists(path) else ""
    durations = [float(line.split(":")[1].rstrip(",")) for line in text.splitlines() if line.startswith("#EXTINF:")]
    return durations, "#EXT-X-ENDLIST" in text


def probe(path, entries, *extra):
    out = subprocess.run(["ffprobe", "-v", "error", *extra, "-show_entries", entries, "-of", "csv=p=0", path],
                         capture_output=True, text=True, timeout=60)
    return [line for line in out.stdout.splitlines() if line.strip()]


def reconnect():
    port, folder, hls = free_port(), os.path.join(SCRATCH, "rec"), os.path.join(SCRATCH, "hls-reconnect")
    os.makedirs(hls)
    server("start", port, folder)
    recording = os.path.join(folder, "r.flv")
    first = os.path.join(SCRATCH, "first.flv")
    run = Run(pipeline(f"rtmp://127.0.0.1:{port}/live/r", hls))
    try:
        run.play(30, {8: lambda: server("stop", port, folder),
                      11: lambda: shutil.copyfile(recording, first),
                      14: lambda: server("start", port, folder)})
    finally:
        server("stop", port, folder)
    names = [name for _, name, _ in run.rtmp]
    print("reconnect: messages " + ", ".join(
        f"{name}@{t:.1f}s" + (f"(attempt {s.get_value('attempt')})" if s.has_field("attempt") else "")
        for t, name, s in run.rtmp))
    check(not run.errors, f"reconnect: no error (got {run.errors})")
    check(run.eos is not None, "reconnect: the pipeline reached EOS")
    reconnecting = [s.get_value("attempt") for _, n, s in run.rtmp if n == "rtmp-reconnecting"]
    expected = (["rtmp-connected", "rtmp-disconnected"] + ["rtmp-reconnecting"] * len(reconnecting)
                + ["rtmp-reconnected"])
    check(names == expected and len(reconnecting) >= 2, f"reconnect: messages in order ({len(names)} messages)")
    check(reconnecting == list(range(1, len(reconnecting) + 1)), f"reconnect: attempts count up {reconnecting}")
    mismatches = [p for _, _, s in run.rtmp for p in message_reference.problems(s)]
    check(not mismatches and len(set(names)) == 4,
          f"reconnect: {len(run.rtmp)} messages of {len(set(names))} kinds match docs/embedding.md's reference {mismatches}")
    reconnected = [s for _, n, s in run.rtmp if n == "rtmp-reconnected"]
    check(bool(reconnected) and reconnected[0].get_value("attempt") == len(reconnecting),
          "reconnect: rtmp-reconnected names the attempt that succeeded")
    lost = [t for t, n, _ in run.rtmp if n == "rtmp-disconnected"]
    check(bool(lost) and 8 <= lost[0] <= 9.5, f"reconnect: the loss is seen within 1.5 s of the server stopping ({lost})")
    back = [t for t, n, _ in run.rtmp if n == "rtmp-reconnected"]
    check(bool(back) and 14 <= back[0] <= 14 + 8 + 1, f"reconnect: back within one backoff step of the restart ({back})")

    durations, ended = playlist(os.path.join(hls, "playlist.m3u8"))
    total = sum(durations)
    # A stall would hold frames back: their lateness (arrival minus PTS) would jump.
    late = [wall - pts for wall, pts in run.arrivals if wall > 2]
    spread = max(late) - min(late) if late else float("inf")
    pts = [p for _, p in run.arrivals]
    step = max(b - a for a, b in zip(pts, pts[1:])) if len(pts) > 1 else float("inf")
    print(f"reconnect: HLS {len(durations)} segments, {total:.2f} s; {len(pts)} frames reached hlssink2, "
          f"largest PTS step {step * 1000:.1f} ms, lateness spread {spread * 1000:.0f} ms after 2 s")
    check(ended, "reconnect: HLS ends with EXT-X-ENDLIST")
    check(abs(total - 30) <= 1.0, f"reconnect: HLS holds 30 ± 1 s ({total:.2f})")
    check(all(abs(d - 2) <= 0.05 for d in durations[:-1]), "reconnect: every HLS segment but the last is 2 s")
    check(len(pts) >= 29 * 30 and step <= 0.034, "reconnect: no frame missing from the HLS branch")
    check(spread <= 0.25, "reconnect: the HLS branch never stalls (frames arrive within 250 ms of their pace)")

    first_streams = probe(first, "stream=codec_name")
    first_duration = float((probe(first, "format=duration") or ["0"])[0])
    print(f"reconnect: first recording {sorted(first_streams)}, {first_duration:.2f} s")
    check(sorted(first_streams) == ["aac", "h264"] and 7 <= first_duration <= 8.6,
          "reconnect: the first recording is H.264 + AAC, about 8 s")
    streams = probe(recording, "stream=codec_name")
    frames = probe(recording, "frame=key_frame", "-select_streams", "v", "-read_intervals", "%+#1")
    duration = float((probe(recording, "format=duration") or ["0"])[0])
    print(f"reconnect: second recording {sorted(streams)}, {duration:.2f} s, first frame key_frame={frames[:1]}")
    check(sorted(streams) == ["aac", "h264"], "reconnect: the second recording probes as H.264 + AAC")
    check(frames[:1] == ["1"], "reconnect: the second recording starts with a keyframe")
    check(30 - back[0] - 1.5 <= duration <= 30 - 14 + 0.5 if back else False,
          f"reconnect: the second recording runs from the reconnection to the end ({duration:.2f} s)")


def give_up():
    port, hls = free_port(), os.path.join(SCRATCH, "hls-give-up")
    os.makedirs(hls)
    url = f"rtmp://127.0.0.1:{port}/live/g"
    run = Run(pipeline(url, hls, "")).play(40, eos_on_error=True)
    delays = [(s.get_value("attempt"), s.get_value("delay") / Gst.SECOND) for _, n, s in run.rtmp
              if n == "rtmp-reconnecting"]
    print(f"give-up: reconnecting {delays}; errors {[(round(t, 1), src, m) for t, src, m in run.errors]}")
    check(delays == [(1, 1.0), (2, 2.0), (3, 4.0)], "give-up: attempts 1, 2, 3 after 1, 2, 4 s")
    check(len(run.errors) == 1 and run.errors[0][1] == "rtmp" and url in run.errors[0][2]
          and "Connection refused" in run.errors[0][2],
          "give-up: one error, from rtmpreconnectsink, naming the URL and the reason")
    check(bool(run.errors) and run.errors[0][0] <= 7 + 10, "give-up: the error within the backoff sum (7 s) + 10 s")
    check(run.eos is not None, "give-up: EOS after the error still ends the pipeline")
    check(playlist(os.path.join(hls, "playlist.m3u8"))[1], "give-up: HLS ends with EXT-X-ENDLIST")


def refused():
    port, folder, hls = free_port(), os.path.join(SCRATCH, "rec-deny"), os.path.join(SCRATCH, "hls-refused")
    os.makedirs(hls)
    server("start", port, folder)
    url = f"rtmp://127.0.0.1:{port}/deny/x"
    pipe = pipeline(url, hls)
    try:
        run = Run(pipe).play(5, eos_on_error=False)
    finally:
        server("stop", port, folder)
    reconnecting = [n for _, n, _ in run.rtmp if n == "rtmp-reconnecting"]
    print(f"refused: errors {[(round(t, 1), src, m) for t, src, m in run.errors]}; {len(reconnecting)} reconnections")
    check(len(run.errors) == 1 and "refused" in run.errors[0][2] and url in run.errors[0][2],
          "refused: one error saying the server refused the stream, naming the URL")
    check(bool(run.errors) and run.errors[0][0] <= 2, "refused: the error within 2 s")
    check(not reconnecting, "refused: no reconnection attempt in 5 s")


os.makedirs(SCRATCH, exist_ok=True)
reconnect()
give_up()
refused()
sys.exit(1 if failures else 0)
