#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""broadcast-llhls live, as viewers meet it: the pipeline file runs for DURATION seconds into
a folder served over http on 127.0.0.1 by the check's own origin (blocking reload as the
playlists announce it; see Handler), and while it runs
- a reader polls every media playlist (video_0, video_1, audio) every 100 ms and holds each
  read to RFC 8216bis's rules: no part longer than PART-TARGET, a finished segment's parts
  adding up to its EXTINF, PART-HOLD-BACK at least 3 x PART-TARGET, the preload hint naming
  the part that appears next, media sequence and part numbers never going back, parts in
  the audio rendition too; it fetches every part and segment as it is listed;
- GStreamer's hlsdemux2 (playbin3) plays the multivariant playlist, then is held by its
  max-bitrate below the 720-wide rendition: both renditions decode, and it steps down to
  the 360-wide one while the broadcast runs;
- headless Chromium (native HLS) plays a multivariant playlist of the main rendition and
  the audio (MAIN_ONLY): currentTime grows by at least 3 s before the broadcast ends.
Afterwards every fetched part is probed with its init segment (ffprobe): INDEPENDENT=YES
exactly on the parts whose first frame is a keyframe, packets adding up to the segment's,
each segment byte for byte its parts one after the other, and each segment decoding with
ffmpeg -xerror into as many frames.

  llhls_live.py CLI SCRATCH [--duration 16]

Needs Debian's /usr/bin/python3 (python3-gi, python3-selenium); prints the numbers it
checks; exits non-zero on any failure.
"""
import argparse
import concurrent.futures
import datetime
import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

from checks import check, failures  # noqa: E402
from hls_playback import Chromium, STATE_JS, send_body, watchdog  # noqa: E402

RENDITIONS = ("video_0", "video_1", "audio")
PAGE_PATH = "/__llhls_live__.html"
# Between the two renditions' BANDWIDTH (about 0.8 and 2.8 Mb/s).
HELD_BITRATE = 1_200_000
# Chromium 149's native HLS, stepping up from the 360-wide rendition within its first two
# seconds of playback, stops with DEMUXER_ERROR_COULD_NOT_PARSE right after fetching the
# 720-wide rendition's playlist and before any of its media (seen here when the link was
# held at 1.5 Mb/s for the first 1.5 s; not when held throughout, nor when freed after 6 s;
# see docs/llhlssink.md for the likely cause). Chromium is given the element's multivariant
# playlist with the 720-wide rendition alone, so that it has nothing to switch to;
# hlsdemux2 plays the ladder.
MAIN_ONLY = "/__main_only__.m3u8"
PAGE = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>llhls live</title></head>
<body><video id="v" src="{MAIN_ONLY}" muted autoplay playsinline></video></body></html>
""".encode()


class Handler(http.server.SimpleHTTPRequestHandler):
    """The check's own origin for the folder, with the blocking reload the playlists
    announce (CAN-BLOCK-RELOAD=YES; RFC 8216bis section 6.2.5.2), as players of LL-HLS
    require of a server: a playlist request with _HLS_msn (and _HLS_part) is held until the
    playlist holds that segment or part, or a later one, and refused with 400 when it asks
    for more than two segments ahead or gives _HLS_part alone; a request for a part not
    written yet (a preload hint) is held until it is. _HLS_skip is not honoured: the whole
    playlist is a valid answer. Nothing is answered from a cache: a playlist changes several
    times a second, and Last-Modified's one-second steps would give 304 to a player asking
    again within the same second."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".m3u8": "application/vnd.apple.mpegurl", ".m4s": "video/iso.segment", ".mp4": "video/mp4"}
    HOLD_SECONDS = 6.0  # three target durations

    def do_GET(self):  # noqa: N802 - http.server's name
        if self.path == PAGE_PATH:
            send_body(self, PAGE)
            return
        if self.path == MAIN_ONLY:
            self.send_main_only()
            return
        del self.headers["If-Modified-Since"]
        path, _, query = self.path.partition("?")
        directives = urllib.parse.parse_qs(query)
        file = self.translate_path(path)
        if path.endswith(".m3u8") and ("_HLS_msn" in directives or "_HLS_part" in directives):
            status = self.hold_playlist(file, directives)
            if status != 200:
                self.send_error(status)
                return
        elif path.endswith(".m4s"):
            self.hold_until(lambda: os.path.exists(file))
        super().do_GET()

    def send_main_only(self):
        """index.m3u8 without the variants other than video_0."""
        with open(self.translate_path("/index.m3u8"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        # A variant is its EXT-X-STREAM-INF line and the URI line after it.
        dropped = {index + step for index, line in enumerate(lines) for step in (0, 1)
                   if line.startswith("#EXT-X-STREAM-INF") and lines[index + 1] != "video_0/index.m3u8"}
        kept = [line for index, line in enumerate(lines) if index not in dropped]
        send_body(self, ("\n".join(kept) + "\n").encode(), "application/vnd.apple.mpegurl")

    def hold_until(self, ready):
        deadline = time.monotonic() + self.HOLD_SECONDS
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.005)
        return ready()

    def hold_playlist(self, file, directives):
        if "_HLS_msn" not in directives:
            return 400
        try:
            msn = int(directives["_HLS_msn"][0])
            part = int(directives["_HLS_part"][0]) if "_HLS_part" in directives else None
        except ValueError:
            return 400

        def newest():
            with open(file, encoding="utf-8") as f:
                playlist = parse_media(f.read())
            complete = playlist["sequence"] + len(playlist["segments"]) - 1
            return playlist, complete

        try:
            playlist, complete = newest()
        except OSError:
            return 404
        if msn > complete + 2:
            return 400

        def holds():
            playlist, complete = newest()
            if playlist["ended"] or complete >= msn:
                return True
            return complete + 1 == msn and part is not None and len(playlist["open"]) > part
        return 200 if self.hold_until(holds) else 503

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass


class QuietServer(http.server.ThreadingHTTPServer):
    """A player that drops a download midway (a rendition switch, the browser closing) is
    no error of the file server's."""
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


# ---------------------------------------------------------------------------------------
# The media playlists, read independently of HLSPackaging

def attributes(text):
    return {k: v.strip('"') for k, v in re.findall(r'([A-Z0-9-]+)=("[^"]*"|[^,]*)', text)}


def parse_media(text):
    """What a read of a media playlist says: its tags, its segments (msn, EXTINF, parts) and
    the parts of the segment still open."""
    playlist = {"sequence": None, "segments": [], "open": [], "hint": None, "ended": False}
    parts, date = [], None
    for line in text.splitlines():
        if line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
            date = datetime.datetime.fromisoformat(line[25:].replace("Z", "+00:00")).timestamp()
        if line.startswith("#EXT-X-PART-INF:"):
            playlist["part_target"] = float(attributes(line[16:])["PART-TARGET"])
        elif line.startswith("#EXT-X-SERVER-CONTROL:"):
            playlist["hold_back"] = float(attributes(line[22:]).get("PART-HOLD-BACK", "nan"))
        elif line.startswith("#EXT-X-MEDIA-SEQUENCE:"):
            playlist["sequence"] = int(line[22:])
        elif line.startswith("#EXT-X-PART:"):
            a = attributes(line[12:])
            parts.append({"uri": a["URI"], "duration": float(a["DURATION"]), "independent": a.get("INDEPENDENT") == "YES"})
        elif line.startswith("#EXT-X-PRELOAD-HINT:"):
            playlist["hint"] = attributes(line[20:])["URI"]
        elif line.startswith("#EXTINF:"):
            duration = float(line[8:].split(",")[0])
        elif line == "#EXT-X-ENDLIST":
            playlist["ended"] = True
        elif line and not line.startswith("#"):
            msn = playlist["sequence"] + len(playlist["segments"])
            playlist["segments"].append({"msn": msn, "duration": duration, "uri": line, "parts": parts, "date": date})
            parts = []
    playlist["open"], playlist["open_date"] = parts, date
    return playlist


class Reader:
    """Polls one rendition's playlist, checks each read and what follows from the one
    before, and fetches every part and segment once listed."""

    def __init__(self, base, name):
        self.base, self.name = f"{base}/{name}", name
        self.reads, self.problems, self.files, self.parts = 0, [], {}, {}
        self.last = None  # (msn, part index) of the newest part seen
        self.hint, self.sequence, self.hints_followed, self.ended = None, -1, 0, False
        self.segments, self.segment_parts = {}, {}
        # Seconds from a part's end, by the playlist's dates, to the read that first listed it.
        self.listing_delays = []

    def problem(self, text):
        if len(self.problems) < 10:
            self.problems.append(text)

    def fetch(self, uri):
        if uri not in self.files:
            try:
                self.files[uri] = urllib.request.urlopen(f"{self.base}/{uri}", timeout=5).read()
            except (urllib.error.URLError, OSError) as error:
                self.problem(f"{uri}: {error}")

    def poll(self):
        try:
            text = urllib.request.urlopen(f"{self.base}/index.m3u8", timeout=5).read().decode()
        except (urllib.error.URLError, OSError):
            return False
        playlist = parse_media(text)
        self.reads += 1
        target, hold = playlist.get("part_target"), playlist.get("hold_back")
        if target is None or hold is None or hold < 3 * target - 1e-9:
            self.problem(f"read {self.reads}: PART-TARGET {target}, PART-HOLD-BACK {hold}")
            return playlist["ended"]
        if playlist["sequence"] < self.sequence:
            self.problem(f"read {self.reads}: media sequence {playlist['sequence']} after {self.sequence}")
        self.sequence = playlist["sequence"]
        listed = []
        for segment in playlist["segments"]:
            self.segments[segment["msn"]] = segment
            if segment["parts"]:
                self.segment_parts[segment["msn"]] = [p["uri"] for p in segment["parts"]]
            if segment["parts"] and abs(sum(p["duration"] for p in segment["parts"]) - segment["duration"]) > 0.002:
                self.problem(f"segment {segment['msn']}: parts {[p['duration'] for p in segment['parts']]} != EXTINF {segment['duration']}")
            listed += [(segment["msn"], i, p) for i, p in enumerate(segment["parts"])]
        open_msn = playlist["sequence"] + len(playlist["segments"])
        listed += [(open_msn, i, p) for i, p in enumerate(playlist["open"])]
        read_at = time.time()
        if playlist["open_date"] is not None and playlist["open"]:
            for index, part in enumerate(playlist["open"]):
                if (open_msn, index) not in self.parts and self.last is not None:
                    end = playlist["open_date"] + sum(p["duration"] for p in playlist["open"][:index + 1])
                    self.listing_delays.append(read_at - end)
        for msn, index, part in listed:
            if part["duration"] > target + 1e-9:
                self.problem(f"part {msn}.{index}: {part['duration']} s > PART-TARGET {target}")
            self.parts[(msn, index)] = part
        if listed:
            newest = listed[-1][:2]
            if self.last is not None and newest < self.last:
                self.problem(f"read {self.reads}: newest part {newest} after {self.last}")
            # The part right after the newest of the read before is the one that read hinted.
            following = [p for m, i, p in listed if self.last is not None and (m, i) > self.last]
            if following and self.hint is not None:
                if following[0]["uri"] == self.hint:
                    self.hints_followed += 1
                else:
                    self.problem(f"read {self.reads}: hint was {self.hint}, next part is {following[0]['uri']}")
            self.last = max(newest, self.last or newest)
        if not playlist["ended"] and playlist["hint"] is None:
            self.problem(f"read {self.reads}: no preload hint")
        self.hint, self.ended = playlist["hint"], playlist["ended"]
        for _, _, part in listed:
            self.fetch(part["uri"])
        for segment in playlist["segments"]:
            self.fetch(segment["uri"])
        return playlist["ended"]


def read_live(readers, stop):
    ended = set()
    while not stop.is_set() and len(ended) < len(readers):
        for reader in readers:
            if reader.name not in ended and reader.poll():
                ended.add(reader.name)
        time.sleep(0.1)


# ---------------------------------------------------------------------------------------
# hlsdemux2 through playbin3

class GstPlayer:
    """playbin3 on the multivariant playlist with hlsdemux2 ranked first; records each
    decoded video frame's width and arrival time."""

    def __init__(self, url, low_latency):
        Gst.init(None)
        demux = Gst.Registry.get().lookup_feature("hlsdemux2")
        self.available = demux is not None
        if not self.available:
            return
        demux.set_rank(Gst.Rank.PRIMARY + 100)
        self.pipeline = Gst.ElementFactory.make("playbin3")
        self.pipeline.set_property("uri", url)
        self.video_sink = Gst.ElementFactory.make("fakesink")
        self.video_sink.set_property("sync", True)
        audio_sink = Gst.ElementFactory.make("fakesink")
        audio_sink.set_property("sync", True)
        self.pipeline.set_property("video-sink", self.video_sink)
        self.pipeline.set_property("audio-sink", audio_sink)
        self.frames, self.audio_buffers, self.errors, self.demux, self.low_latency = [], 0, [], None, None
        self.width, self.wants_low_latency = None, low_latency
        self.pipeline.connect("deep-element-added", self.element_added)
        self.video_sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER | Gst.PadProbeType.EVENT_DOWNSTREAM, self.on_video)
        audio_sink.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, self.on_audio)

    def element_added(self, _bin, _sub, element):
        factory = element.get_factory()
        if factory and factory.get_name() == "hlsdemux2":
            self.demux = element
            if element.find_property("low-latency"):
                element.set_property("low-latency", self.wants_low_latency)
                self.low_latency = self.wants_low_latency

    def on_video(self, _pad, info):
        if info.type & Gst.PadProbeType.BUFFER:
            self.frames.append((self.width, time.monotonic()))
        else:
            event = info.get_event()
            if event.type == Gst.EventType.CAPS:
                self.width = event.parse_caps().get_structure(0).get_value("width")
        return Gst.PadProbeReturn.OK

    def on_audio(self, _pad, _info):
        self.audio_buffers += 1
        return Gst.PadProbeReturn.OK

    def start(self):
        self.pipeline.set_state(Gst.State.PLAYING)
        self.bus = self.pipeline.get_bus()
        threading.Thread(target=self.watch, daemon=True).start()

    def watch(self):
        while True:
            message = self.bus.timed_pop_filtered(200 * Gst.MSECOND, Gst.MessageType.ERROR | Gst.MessageType.EOS)
            if message is None:
                continue
            if message.type == Gst.MessageType.ERROR:
                error, debug = message.parse_error()
                self.errors.append(f"{message.src.get_name()}: {error.message} ({debug})")
            return

    def hold_to(self, bitrate):
        if self.demux is not None:
            self.demux.set_property("max-bitrate", bitrate)

    def stop(self):
        self.pipeline.set_state(Gst.State.NULL)


# ---------------------------------------------------------------------------------------
# After the run: what each fetched file holds

def probe_packets(data_path):
    """(packet count, flags of the first packet) of a file ffprobe reads."""
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "packet=flags", "-of", "csv=p=0", data_path],
                         capture_output=True, text=True, timeout=30).stdout.split()
    return len(out), (out[0] if out else "")


def with_init(scratch, init, name, data):
    """A file of init + data that ffprobe and ffmpeg read as one fragmented MP4."""
    path = os.path.join(scratch, name.replace("/", "-") + ".mp4")
    with open(path, "wb") as f:
        f.write(init + data)
    return path


def decode(path):
    """(ffmpeg -xerror's status, frames it decoded, what it printed as errors)."""
    run = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-xerror", "-i", path, "-map", "0", "-f", "framemd5", "-"],
                         capture_output=True, text=True, timeout=60)
    return run.returncode, sum(1 for line in run.stdout.splitlines() if line and not line.startswith("#")), run.stderr.strip()


def check_files(reader, scratch, pool):
    reader.fetch("init.mp4")
    init = reader.files.get("init.mp4")
    if not check(f"{reader.name}: init.mp4 is served", init is not None):
        return
    fetched = [(key, part) for key, part in sorted(reader.parts.items()) if part["uri"] in reader.files]
    probes = pool.map(lambda item: probe_packets(with_init(scratch, init, f"{reader.name}-{item[1]['uri']}", reader.files[item[1]["uri"]])), fetched)
    packets, wrong_independent = {}, []
    for ((key, part), (count, flags)) in zip(fetched, probes):
        packets[key] = count
        if ("K" in flags) != part["independent"]:
            wrong_independent.append(f"{part['uri']}: first packet '{flags}', INDEPENDENT={part['independent']}")
    independent = sum(1 for p in reader.parts.values() if p["independent"])
    check(f"{reader.name}: INDEPENDENT=YES exactly on parts starting with a keyframe", not wrong_independent,
          f"{len(packets)} parts probed, {independent} independent; {wrong_independent[:3]}")
    complete = [(msn, segment, reader.segment_parts.get(msn, [])) for msn, segment in sorted(reader.segments.items())]
    complete = [(msn, segment, uris) for msn, segment, uris in complete
                if segment["uri"] in reader.files and uris and all(uri in reader.files for uri in uris)]
    whole = [f"segment {msn}" for msn, segment, uris in complete
             if b"".join(reader.files[uri] for uri in uris) != reader.files[segment["uri"]]]
    decodes = pool.map(lambda item: decode(with_init(scratch, init, f"{reader.name}-{item[1]['uri']}", reader.files[item[1]["uri"]])), complete)
    decoded = []
    for (msn, _, uris), (status, count, errors) in zip(complete, decodes):
        expected = sum(packets.get((msn, i), 0) for i in range(len(uris)))
        if status != 0 or errors or count != expected:
            decoded.append(f"segment {msn}: status {status}, {count} frames, {expected} packets in its parts, {errors[:200]}")
    check(f"{reader.name}: each segment is its parts one after the other", len(complete) >= 3 and not whole,
          f"{len(complete)} segments compared with all their parts fetched live; {whole}")
    check(f"{reader.name}: each segment decodes (ffmpeg -xerror) into as many frames as its parts' packets",
          len(complete) >= 3 and not decoded, f"{len(complete)} segments; {decoded[:2]}")


def check_switch(player, ended):
    """hlsdemux2 decoded both renditions, and held to HELD_BITRATE it stepped down to the
    360-wide one while the broadcast ran."""
    frames, held_at = player["frames"], player["held_at"]
    widths = {w: sum(1 for x, _ in frames if x == w) for w in (360, 720)}
    after_hold = [(w, t) for w, t in frames if held_at is not None and t >= held_at]
    down = next((t for w, t in after_hold if w == 360), None)
    mode = {None: "no low-latency property", True: "low-latency=true", False: "low-latency=false"}[player["low_latency"]]
    print(f"     hlsdemux2 ({mode}): {widths[360]} frames at 360, {widths[720]} at 720, "
          f"{player['audio_buffers']} audio buffers; first width {frames[0][0] if frames else None}; "
          f"360 from {(down - held_at) if down and held_at else None} s after the hold; errors {player['errors'][:2]}", flush=True)
    check("hlsdemux2: no error", not player["errors"], str(player["errors"][:2]))
    check("hlsdemux2 decodes both renditions", min(widths.values()) >= 30, str(widths))
    check(f"hlsdemux2 held to {HELD_BITRATE} b/s steps down to the 360-wide rendition while the broadcast runs",
          down is not None and down < ended and all(w == 360 for w, _ in after_hold[-30:]) and len(after_hold) >= 30,
          f"{len(after_hold)} frames after the hold, the last 30 of width {sorted({w for w, _ in after_hold[-30:]})}")
    check("hlsdemux2 decodes the audio", player["audio_buffers"] >= 100, f"{player['audio_buffers']} buffers")


def play(url, low_latency):
    """The player's own process (a player that aborts ends only itself): plays `url` until
    its standard input closes, holds itself to HELD_BITRATE after 60 frames, then prints
    what it decoded as one JSON line."""
    player = GstPlayer(url, low_latency)
    if not player.available:
        print(json.dumps({"available": False}), flush=True)
        return
    player.start()
    closed = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), closed.set()), daemon=True).start()
    held_at = None
    while not closed.wait(0.1):
        if held_at is None and len(player.frames) >= 60:
            held_at = time.monotonic()
            player.hold_to(HELD_BITRATE)
    player.stop()
    print(json.dumps({"available": True, "frames": player.frames, "audio_buffers": player.audio_buffers, "held_at": held_at,
                      "errors": player.errors, "low_latency": player.low_latency}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cli", nargs="?")
    parser.add_argument("scratch", nargs="?")
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--play", metavar="URL", help="be the hlsdemux2 player of URL (the check starts it so)")
    parser.add_argument("--low-latency", choices=("yes", "no"), default="yes",
                        help="hlsdemux2's low-latency mode, where it has one (default yes)")
    args = parser.parse_args()
    if args.play:
        return play(args.play, args.low_latency == "yes")
    if not args.scratch:
        parser.error("give CLI and SCRATCH")
    scratch = os.path.join(args.scratch, "llhls_live")
    folder = os.path.join(scratch, "out")
    os.makedirs(folder, exist_ok=True)
    holder = []
    timer = watchdog(args.duration + 150, holder)
    server = QuietServer(("127.0.0.1", 0), functools.partial(Handler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    log = open(os.path.join(scratch, "broadcast.log"), "w")
    broadcast = subprocess.Popen([args.cli, "run", "pipelines/broadcast-llhls.pipeline", "--quiet", "--duration", str(args.duration),
                                  "--set", f"OUT={folder}"], stdout=log, stderr=subprocess.STDOUT)
    started = time.monotonic()
    readers = [Reader(base, name) for name in RENDITIONS]
    stop = threading.Event()
    reading = threading.Thread(target=read_live, args=(readers, stop), daemon=True)
    reading.start()
    # Viewers arrive once the playlists hold three target durations: Chromium (149 here)
    # fails a live playlist shorter than that (DEMUXER_ERROR_COULD_NOT_PARSE), and
    # hlsdemux2 1.22 loses its place in one of a single segment.
    video_playlist = os.path.join(folder, "video_0", "index.m3u8")
    while broadcast.poll() is None and time.monotonic() - started < 20:
        if os.path.exists(os.path.join(folder, "index.m3u8")) and os.path.exists(video_playlist) \
                and open(video_playlist).read().count("#EXTINF") >= 3:
            break
        time.sleep(0.1)
    arrived = time.monotonic()
    check("three segments and the multivariant playlist are written within 20 s",
          os.path.exists(os.path.join(folder, "index.m3u8")) and arrived - started < 20, f"after {arrived - started:.1f} s")
    player = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--play", f"{base}/index.m3u8", "--low-latency", args.low_latency],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    browser, played, state = None, 0.0, None
    try:
        browser = Chromium()
        holder.append(browser)
        browser.driver.get(base + PAGE_PATH)
        previous = None
        while broadcast.poll() is None:
            state = browser.driver.execute_script(STATE_JS, "#v")
            if state and not state["error"]:
                if previous is not None and 0 < state["currentTime"] - previous <= 1.0:
                    played += state["currentTime"] - previous
                previous = state["currentTime"]
            time.sleep(0.25)
    finally:
        ended = time.monotonic()
        if browser:
            browser.quit()
    broadcast.wait(timeout=30)
    log.close()
    with open(log.name) as f:
        printed = f.read().strip().splitlines()
    last_line = printed[-1:]
    check("broadcast-llhls ends normally", broadcast.returncode == 0, f"exit {broadcast.returncode} after {ended - started:.1f} s; {last_line}")
    reading.join(timeout=10)
    stop.set()
    # The status counts llhlssink-segment messages, one per sequence number of any rendition.
    status = [line for line in printed if line.startswith("status ")][-1:]
    counted = re.search(r"(\d+) segments", status[0]) if status else None
    listed = len(set().union(*(reader.segment_parts for reader in readers)))
    check("the status counts the segments the renditions listed", counted is not None and int(counted.group(1)) == listed,
          f"status {status}, {listed} sequence numbers read in {', '.join(RENDITIONS)}")
    check("chromium plays the live main rendition (>= 3 s of currentTime while the broadcast runs)", played >= 3.0,
          f"{played:.2f} s played from {arrived - started:.1f} s on; last state {state}")
    try:
        out, err = player.communicate(input="", timeout=30)
    except subprocess.TimeoutExpired:
        player.kill()
        out, err = player.communicate()
    results = [line for line in out.splitlines() if line.startswith("{")]
    result = json.loads(results[-1]) if results else None
    if result is None:
        check("hlsdemux2 plays the live multivariant playlist", False,
              f"the player ended with status {player.returncode}: {' / '.join((out + err).strip().splitlines()[-4:])}")
    elif result["available"]:
        check_switch(result, ended)
    else:
        print("     hlsdemux2 is not in this GStreamer: not played", flush=True)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2)
    for reader in readers:
        delays = sorted(reader.listing_delays)
        if delays:
            print(f"     {reader.name}: part's end (by EXT-X-PROGRAM-DATE-TIME) to the read listing it, over {len(delays)} parts: "
                  f"median {delays[len(delays) // 2]:.3f} s, p95 {delays[int(len(delays) * 0.95)]:.3f} s (reads every 0.1 s)", flush=True)
        check(f"{reader.name}: every live read keeps LL-HLS's rules", reader.reads >= 50 and not reader.problems,
              f"{reader.reads} reads, {len(reader.parts)} parts, {len(reader.segments)} segments, "
              f"{reader.hints_followed} hints followed by their part; {reader.problems[:3]}")
        check(f"{reader.name}: the hint names the next part", reader.hints_followed >= 20, f"{reader.hints_followed} checked")
        # The last segment is what came after the last cut: for audio, the frames after video's end.
        check(f"{reader.name}: parts in every segment, and EXT-X-ENDLIST at the end",
              reader.ended and len(reader.segment_parts) >= 5
              and all(len(uris) >= 3 for _, uris in sorted(reader.segment_parts.items())[:-1]),
              f"ended {reader.ended}; parts per segment {[len(u) for _, u in sorted(reader.segment_parts.items())]}")
        check_files(reader, scratch, pool)
    server.shutdown()
    timer.cancel()
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
