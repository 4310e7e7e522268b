#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run inside `replaycast uplink` by adaptive_bitrate.py: starts nginx-rtmp on 127.0.0.1:1935
(scripts/rtmp-server, recording to DIR), plays broadcast-rtmp (as `replaycast print` gives
it, VIDEO_BITRATE=3000, ADAPTIVE as given) for SECONDS with Python gi while `replaycast
check-latency` plays the stream back from the server, and prints one JSON object:
rtmpreconnectsink's messages with their time since the start, any error, and the latency
at the player second by second (the middle of each second, median and largest in ms).
    adaptive_bitrate_run.py CLI DIR true|false SECONDS [--latency]"""
import json
import os
import re
import shlex
import subprocess
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

cli, folder, adaptive, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
measure_latency = "--latency" in sys.argv[5:]
environment = dict(os.environ, RTMP_SERVER_HOME=os.path.join(folder, "nginx"))
subprocess.run(["scripts/rtmp-server", "start", "1935", folder], env=environment, check=True, stdout=subprocess.DEVNULL)
try:
    command = subprocess.run([cli, "print", "broadcast-rtmp", "--set", f"ADAPTIVE={adaptive}", "--set", "VIDEO_BITRATE=3000",
                              "--set", "URL=rtmp://127.0.0.1:1935/live/broadcast"],
                             capture_output=True, text=True, check=True).stdout
    Gst.init(None)
    pipeline = Gst.parse_launchv(shlex.split(command)[1:])
    bus = pipeline.get_bus()
    # The player asks the server for the stream as the broadcast starts; it waits for it there.
    reader = subprocess.Popen([cli, "check-latency", "rtmp://127.0.0.1:1935/live/broadcast", "--duration",
                               str(int(seconds) + 10)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True) if measure_latency else None
    reader_started = time.monotonic()
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
                messages.append({"time": round(time.monotonic() - started, 3), "name": structure.get_name(),
                                 "fields": fields, "types": types})
    pipeline.set_state(Gst.State.NULL)
    report = ""
    if reader:
        try:
            report = reader.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            reader.kill()
            report = reader.communicate()[0]
    latency = [[round(int(second) - 0.5 + reader_started - started, 2), float(median), float(largest)]
               for second, median, largest in re.findall(r"^ *(\d+) s .*median ([\d.]+) ms, max ([\d.]+) ms", report, re.M)]
finally:
    subprocess.run(["scripts/rtmp-server", "stop", "1935"], env=environment, stdout=subprocess.DEVNULL)
print(json.dumps({"messages": messages, "error": error, "ended": ended, "latency": latency,
                  "player": report.strip().splitlines()[-3:] if measure_latency else []}))
