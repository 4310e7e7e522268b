#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run inside `replaycast uplink` by adaptive_bitrate.py. RTMP: starts nginx-rtmp on
127.0.0.1:1935 (scripts/rtmp-server, recording to DIR) and plays broadcast-rtmp, while
`replaycast check-latency` (with --latency) plays the stream back from the server. SRT:
`replaycast check-latency` is the receiver, an SRT listener on UDP 127.0.0.1:1935, and
broadcast-srt calls it. Either broadcast (as `replaycast print` gives it, VIDEO_BITRATE=3000,
ADAPTIVE as given) plays for SECONDS with Python gi; prints one JSON object:
rtmpreconnectsink's messages with their time on the uplink's schedule (from this script's
start, which the uplink makes as its schedule starts; the SRT broadcast starts a second
later), any error, the latency at
the player second by second (the middle of each second, median and largest in ms), the
frames it decoded each second, the longest gap in capture time between those whose strips
were read and the longest stretch of stream time without any picture (seconds).
    adaptive_bitrate_run.py CLI DIR rtmp|srt true|false SECONDS [--latency]"""
import time

began = time.monotonic()  # before the imports and servers, which take a while

import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

import gi  # noqa: E402

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

cli, folder, kind, adaptive, seconds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
measure_latency = "--latency" in sys.argv[6:] or kind == "srt"
environment = dict(os.environ, RTMP_SERVER_HOME=os.path.join(folder, "nginx"))
if kind == "rtmp":
    subprocess.run(["scripts/rtmp-server", "start", "1935", folder], env=environment, check=True, stdout=subprocess.DEVNULL)
url, player = {"rtmp": ("rtmp://127.0.0.1:1935/live/broadcast", "rtmp://127.0.0.1:1935/live/broadcast"),
               "srt": ("srt://127.0.0.1:1935", "srt://127.0.0.1:1935?mode=listener")}[kind]
try:
    command = subprocess.run([cli, "print", f"broadcast-{kind}", "--set", f"ADAPTIVE={adaptive}", "--set", "VIDEO_BITRATE=3000",
                              "--set", f"URL={url}"], capture_output=True, text=True, check=True).stdout
    Gst.init(None)
    pipeline = Gst.parse_launchv(shlex.split(command)[1:])
    bus = pipeline.get_bus()
    # The RTMP player asks the server for the stream as the broadcast starts and waits for it
    # there; the SRT receiver must listen before the broadcast calls.
    reader = subprocess.Popen([cli, "check-latency", player, "--duration", str(int(seconds) + 10)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) if measure_latency else None
    if kind == "srt":
        time.sleep(1)
    started = time.monotonic()
    pipeline.set_state(Gst.State.PLAYING)
    messages, error, eos_sent, ended = [], None, False, False
    while not ended and time.monotonic() - started < seconds + 15:
        if not eos_sent and time.monotonic() - started >= seconds:
            pipeline.send_event(Gst.Event.new_eos())
            eos_sent = True
        message = bus.timed_pop_filtered(100 * Gst.MSECOND, Gst.MessageType.ELEMENT | Gst.MessageType.ERROR | Gst.MessageType.EOS)
        if message is None:
            continue
        if message.type == Gst.MessageType.EOS:
            ended = True
        elif message.type == Gst.MessageType.ERROR:
            error = f"{message.src.get_name()}: {message.parse_error()[0].message}"
            break
        else:
            structure = message.get_structure()
            if structure.get_name().startswith("rtmp-"):
                fields = {structure.nth_field_name(i): structure.get_value(structure.nth_field_name(i))
                          for i in range(structure.n_fields())}
                types = {name: structure.get_field_type(name).name for name in fields}
                messages.append({"time": round(time.monotonic() - began, 3), "name": structure.get_name(),
                                 "fields": fields, "types": types})
    pipeline.set_state(Gst.State.NULL)
    report = ""
    if reader:
        try:
            report = reader.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            reader.kill()
            report = reader.communicate()[0]
    latency = [[int(second) - 0.5, float(median), float(largest)]
               for second, median, largest in re.findall(r"^ *(\d+) s .*median ([\d.]+) ms, max ([\d.]+) ms", report, re.M)]
    decoded = [[int(second) - 0.5, int(count or 0)]
               for second, count in re.findall(r"^ *(\d+) s .*?: (?:(\d+) frames|no frame)", report, re.M)]
    gap = re.search(r"latency median .*, longest gap ([\d.]+) ms \(([\d.]+) ms without any picture\)", report)
finally:
    if kind == "rtmp":
        subprocess.run(["scripts/rtmp-server", "stop", "1935"], env=environment, stdout=subprocess.DEVNULL)
print(json.dumps({"messages": messages, "error": error, "ended": ended, "latency": latency, "decoded": decoded,
                  "gap": float(gap.group(1)) / 1000 if measure_latency and gap else None,
                  "picture_gap": float(gap.group(2)) / 1000 if measure_latency and gap else None,
                  "player": report.strip().splitlines()[-3:] if measure_latency else []}))
