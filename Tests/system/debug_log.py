#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every element has a debug category named after its factory and logs its decisions: each
fixture's process line (Tests/system/fixtures.json; rtmpreconnectsink's publishes to a real
nginx-rtmp) run by gst-launch-1.0 under GST_DEBUG=<element>:6 must show each of the
fixture's debugLog lines, and two runs more show what no fixture line provokes: dualmixer
ending a pad nothing is linked to, rtmpreconnectsink refused by a port nobody listens on.
Needs the plugin installed or on GST_PLUGIN_PATH.
    Tests/system/debug_log.py"""
import os
import re
import subprocess
import sys
import tempfile

import plugin_elements
from checks import check, failures, free_port, server


def log_of(element, words):
    environment = dict(os.environ, GST_DEBUG=f"{element}:6", GST_DEBUG_NO_COLOR="1")
    try:
        run = subprocess.run(["gst-launch-1.0", "-q", *words], env=environment, capture_output=True, text=True,
                             timeout=60)
        return run.returncode, run.stdout + run.stderr
    except subprocess.TimeoutExpired as timeout:
        return "a timeout after 60 s", (timeout.stderr or b"").decode(errors="replace")


def expect(element, log, expected):
    """`expected`: "LEVEL regex"; a debug line of `element` at LEVEL whose message matches."""
    level, pattern = expected.split(" ", 1)
    heading = re.compile(rf" {level} +{element} .*?:<[^>]*> (.*)")
    found = next((m.group(1) for m in map(heading.search, log.splitlines()) if m and re.search(pattern, m.group(1))), None)
    check(f"{element} {level}: {pattern}", found is not None, found or "no such line")


scratch = tempfile.mkdtemp(prefix="replaycast-debug-log-")
port = free_port()
home = os.path.join(scratch, "nginx")
server("start", port, os.path.join(scratch, "recordings"), home)
lines = 0
try:
    for fixture in plugin_elements.fixtures(f"rtmp://127.0.0.1:{port}/live"):
        status, log = log_of(fixture["element"], fixture["words"])
        lines += log.count("\n")
        check(f"{fixture['element']}: its fixture line runs to the end", status == 0,
              f"{log.count(chr(10))} log lines" if status == 0 else f"exit {status}: {log[-300:]}")
        for expected in fixture["debugLog"]:
            expect(fixture["element"], log, expected)
finally:
    server("stop", port, os.path.join(scratch, "recordings"), home, check=False)

status, log = log_of("dualmixer", "audiotestsrc num-buffers=5 ! mix.app dualmixer name=mix ! fakesink".split())
lines += log.count("\n")
expect("dualmixer", log, "DEBUG mic: not linked: ended")
# Its end (EOS before the retry, or the give-up error) does not matter here, only the log.
status, log = log_of("rtmpreconnectsink", "videotestsrc num-buffers=30 ! x264enc ! h264parse ! r.video rtmpreconnectsink "
                     "name=r location=rtmp://127.0.0.1:9/live/x connect-retries=1 retry-delay=100000000".split())
lines += log.count("\n")
expect("rtmpreconnectsink", log, "INFO attempt 1 of 1 in 100000000 ns: Connection refused")
expect("rtmpreconnectsink", log, "LOG video buffer held or dropped")
print(f"{lines} log lines read")
sys.exit(1 if failures else 0)
