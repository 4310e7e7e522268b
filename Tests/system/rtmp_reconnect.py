# SPDX-License-Identifier: LGPL-2.1-or-later
"""rtmpreconnectsink against a real nginx-rtmp (scripts/rtmp-server) and a real SRT receiver
(scripts/srt-receiver), in a Python gi application with an HLS branch in the same pipeline
(issues 11 and 26):

  reconnect  30 s live, RTMP and SRT; the server stops at 8 s and starts again at 14 s. No
             error; the messages come in order (connected, disconnected, reconnecting 1..n,
             reconnected n); HLS has no gap (EXTINF sum 30 s, every segment written on time)
             and ends with EXT-X-ENDLIST; the first recording holds ~8 s, the second starts
             with a keyframe and probes as H.264 + AAC.
  gone       SRT, 12 s; the receiver stops at 4 s for good: no error, and EOS still ends the
             pipeline within 5 s of being sent (srtsink's own reconnection held it for ever).
  give-up    no server, default settings (connect-retries=3): an error naming the URL and
             the reason within the backoff sum + 10 s, after reconnecting 1, 2, 3 with 1, 2,
             4 s delays; EOS then still finishes HLS. (SRT without a receiver: srt_output.)
  refused    the server refuses the stream (its deny application): an error saying so within
             2 s, no reconnection attempt, `connection` reads failed.

    rtmp_reconnect.py SCRATCH [--srt]   (--srt: the reconnect case over SRT as well)
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
import checks  # noqa: E402
from checks import check, failures, free_port  # noqa: E402

Gst.init(None)
SCRATCH = os.path.abspath(sys.argv[1])


def server(command, port, folder, kind="rtmp"):
    checks.server(command, port, folder, os.path.join(SCRATCH, f"{kind}-{port}"), kind)


class Kind:
    """Where a test publishes: a URL and where its server records a connection."""

    def __init__(self, kind, case):
        self.kind = kind
        self.port = free_port(socket.SOCK_STREAM if kind == "rtmp" else socket.SOCK_DGRAM)
        self.folder = os.path.join(SCRATCH, f"rec-{case}-{kind}")
        self.url = f"rtmp://127.0.0.1:{self.port}/live/r" if kind == "rtmp" else f"srt://127.0.0.1:{self.port}"
        # scripts/srt-receiver numbers the connections of each start from 1.
        self.recording = os.path.join(self.folder, "r.flv" if kind == "rtmp" else "recording-1.ts")

    def server(self, command):
        server(command, self.port, self.folder, self.kind)


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


def reconnect(kind):
    target, hls = Kind(kind, "reconnect"), os.path.join(SCRATCH, f"hls-reconnect-{kind}")
    os.makedirs(hls)
    target.server("start")
    recording = target.recording
    first = os.path.join(SCRATCH, f"first-{kind}" + os.path.splitext(recording)[1])
    run = Run(pipeline(target.url, hls))
    try:
        run.play(30, {8: lambda: target.server("stop"),
                      11: lambda: shutil.copyfile(recording, first),
                      14: lambda: target.server("start")})
    finally:
        target.server("stop")
    names = [name for _, name, _ in run.rtmp]
    print(f"reconnect {kind}: messages " + ", ".join(
        f"{name}@{t:.1f}s" + (f"(attempt {s.get_value('attempt')})" if s.has_field("attempt") else "")
        for t, name, s in run.rtmp))
    check(f"reconnect {kind}: no error (got {run.errors})", not run.errors)
    check(f"reconnect {kind}: the pipeline reached EOS", run.eos is not None)
    reconnecting = [s.get_value("attempt") for _, n, s in run.rtmp if n == "rtmp-reconnecting"]
    expected = (["rtmp-connected", "rtmp-disconnected"] + ["rtmp-reconnecting"] * len(reconnecting)
                + ["rtmp-reconnected"])
    check(f"reconnect {kind}: messages in order ({len(names)} messages)", names == expected and len(reconnecting) >= 2)
    check(f"reconnect {kind}: attempts count up {reconnecting}", reconnecting == list(range(1, len(reconnecting) + 1)))
    mismatches = [p for _, _, s in run.rtmp for p in message_reference.problems(s)]
    check(f"reconnect {kind}: {len(run.rtmp)} messages of {len(set(names))} kinds match docs/embedding.md's reference {mismatches}",
          not mismatches and len(set(names)) == 4)
    reconnected = [s for _, n, s in run.rtmp if n == "rtmp-reconnected"]
    check(f"reconnect {kind}: rtmp-reconnected names the attempt that succeeded",
          bool(reconnected) and reconnected[0].get_value("attempt") == len(reconnecting))
    lost = [t for t, n, _ in run.rtmp if n == "rtmp-disconnected"]
    check(f"reconnect {kind}: the loss is seen within 1.5 s of the server stopping ({lost})", bool(lost) and 8 <= lost[0] <= 9.5)
    back = [t for t, n, _ in run.rtmp if n == "rtmp-reconnected"]
    check(f"reconnect {kind}: back within one backoff step of the restart ({back})", bool(back) and 14 <= back[0] <= 14 + 8 + 1)

    durations, ended = playlist(os.path.join(hls, "playlist.m3u8"))
    total = sum(durations)
    # A stall would hold frames back: their lateness (arrival minus PTS) would jump.
    late = [(wall - pts, wall) for wall, pts in run.arrivals if wall > 2]
    spread = max(late)[0] - min(late)[0] if late else float("inf")
    # Where a stall was: the latest frame's arrival, and the earliest's, tell which event held it.
    extremes = f" (latest at {max(late)[1]:.1f} s, earliest at {min(late)[1]:.1f} s)" if late else ""
    pts = [p for _, p in run.arrivals]
    step = max(b - a for a, b in zip(pts, pts[1:])) if len(pts) > 1 else float("inf")
    print(f"reconnect {kind}: HLS {len(durations)} segments, {total:.2f} s; {len(pts)} frames reached hlssink2, "
          f"largest PTS step {step * 1000:.1f} ms, lateness spread {spread * 1000:.0f} ms after 2 s{extremes}")
    check(f"reconnect {kind}: HLS ends with EXT-X-ENDLIST", ended)
    check(f"reconnect {kind}: HLS holds 30 ± 1 s ({total:.2f})", abs(total - 30) <= 1.0)
    check(f"reconnect {kind}: every HLS segment but the last is 2 s", all(abs(d - 2) <= 0.05 for d in durations[:-1]))
    check(f"reconnect {kind}: no frame missing from the HLS branch", len(pts) >= 29 * 30 and step <= 0.034)
    check(f"reconnect {kind}: the HLS branch never stalls (frames arrive within 250 ms of their pace)", spread <= 0.25)

    first_streams = probe(first, "stream=codec_name")
    first_duration = float((probe(first, "format=duration") or ["0"])[0])
    print(f"reconnect {kind}: first recording {sorted(first_streams)}, {first_duration:.2f} s")
    check(f"reconnect {kind}: the first recording is H.264 + AAC, about 8 s",
          sorted(set(first_streams)) == ["aac", "h264"] and 7 <= first_duration <= 8.6)
    streams = probe(recording, "stream=codec_name")
    frames = probe(recording, "frame=key_frame", "-select_streams", "v", "-read_intervals", "%+#1")
    duration = float((probe(recording, "format=duration") or ["0"])[0])
    print(f"reconnect {kind}: second recording {sorted(streams)}, {duration:.2f} s, first frame key_frame={frames[:1]}")
    check(f"reconnect {kind}: the second recording probes as H.264 + AAC", sorted(set(streams)) == ["aac", "h264"])
    check(f"reconnect {kind}: the second recording starts with a keyframe", frames[:1] == ["1"])
    check(f"reconnect {kind}: the second recording runs from the reconnection to the end ({duration:.2f} s)",
          30 - back[0] - 1.5 <= duration <= 30 - 14 + 0.5 if back else False)


def gone():
    target, hls = Kind("srt", "gone"), os.path.join(SCRATCH, "hls-gone")
    os.makedirs(hls)
    target.server("start")
    try:
        run = Run(pipeline(target.url, hls)).play(12, {4: lambda: target.server("stop")})
    finally:
        target.server("stop")
    ended = run.eos - run.eos_sent_at if run.eos is not None else None
    print(f"gone: errors {run.errors}; EOS {'never' if ended is None else f'{ended:.2f} s after it was sent'}")
    check("gone: no error while retrying (retries=-1)", not run.errors)
    check("gone: EOS ends the pipeline within 5 s though the receiver is gone", ended is not None and ended <= 5)
    check("gone: HLS ends with EXT-X-ENDLIST", playlist(os.path.join(hls, "playlist.m3u8"))[1])


def give_up():
    target, hls = Kind("rtmp", "give-up"), os.path.join(SCRATCH, "hls-give-up")
    os.makedirs(hls)
    run = Run(pipeline(target.url, hls, "")).play(40, eos_on_error=True)
    delays = [(s.get_value("attempt"), s.get_value("delay") / Gst.SECOND) for _, n, s in run.rtmp
              if n == "rtmp-reconnecting"]
    print(f"give-up: reconnecting {delays}; errors {[(round(t, 1), src, m) for t, src, m in run.errors]}")
    check("give-up: attempts 1, 2, 3 after 1, 2, 4 s", delays == [(1, 1.0), (2, 2.0), (3, 4.0)])
    check("give-up: one error, from rtmpreconnectsink, naming the URL and the reason",
          len(run.errors) == 1 and run.errors[0][1] == "rtmp" and target.url in run.errors[0][2]
          and "Connection refused" in run.errors[0][2])
    check("give-up: the error within the backoff sum (7 s) + 10 s", bool(run.errors) and run.errors[0][0] <= 7 + 10)
    check("give-up: EOS after the error still ends the pipeline", run.eos is not None)
    check("give-up: HLS ends with EXT-X-ENDLIST", playlist(os.path.join(hls, "playlist.m3u8"))[1])


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
    check("refused: one error saying the server refused the stream, naming the URL",
          len(run.errors) == 1 and "refused" in run.errors[0][2] and url in run.errors[0][2])
    check("refused: the error within 2 s", bool(run.errors) and run.errors[0][0] <= 2)
    check("refused: no reconnection attempt in 5 s", not reconnecting)


def side_by_side(cases):
    """Runs the cases at once, a thread each: they wait on servers, backoffs and real time,
    not on the CPU (320x240 at ultrafast), so their timings hold beside each other (91 s one
    after another, about 35 s so). An exception is a failed check of its case."""
    def guarded(name, case):
        try:
            case()
        except Exception as error:  # noqa: BLE001 - any exception fails its case, named
            check(f"{name}: ran to its end", False, repr(error))
    threads = [threading.Thread(target=guarded, args=case) for case in cases]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


os.makedirs(SCRATCH, exist_ok=True)
kinds = ("rtmp", "srt") if "--srt" in sys.argv[2:] else ("rtmp",)
side_by_side([(f"reconnect {kind}", lambda kind=kind: reconnect(kind)) for kind in kinds]
             + [("give-up", give_up), ("gone", gone), ("refused", refused)])
sys.exit(1 if failures else 0)
