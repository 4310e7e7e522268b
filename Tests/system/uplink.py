#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""replaycast uplink: a TCP sender inside the private network (uplink_probe.py) must see
the schedule's rates second by second (4 Mb/s, then 800 kb/s, nothing while down, 800 kb/s
again after up; down lets only what its queue held leave), traffic to another port none of it, and the command's exit status must be
uplink's. Bad schedules and missing arguments are refused before anything runs.
    Tests/system/uplink.py CLI"""
import os
import re
import subprocess
import sys

cli = sys.argv[1]
probe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "uplink_probe.py")
failures = []


def check(what, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}")
    if not ok:
        failures.append(what)


result = subprocess.run([cli, "uplink", "--port", "47001", "--schedule", "0s:rate=4mbit; 3s:rate=800kbit; 6s:down; 8s:up",
                         "--", "/usr/bin/python3", probe, "47001", "47002", "12"],
                        capture_output=True, text=True, timeout=60)
print(result.stderr.strip())
shaped = [int(v) for v in re.search(r"^shaped (.*)$", result.stdout, re.M).group(1).split()] if "shaped" in result.stdout else []
free = [int(v) for v in re.search(r"^free (.*)$", result.stdout, re.M).group(1).split()] if "free" in result.stdout else []
print("shaped, kb/s per second:", [round(v / 1000) for v in shaped], "free:", [round(v / 1e6) for v in free], "Mb/s")
check("uplink exits with the command's status", result.returncode == 0, str(result.returncode))
if len(shaped) == 12:
    # What arrives is TCP payload: about 96 % of the link's rate at a 1500-byte MTU.
    def within(seconds, rate):
        return all(0.85 * rate <= shaped[s] <= 1.02 * rate for s in seconds)
    check("0-2 s at 4 Mb/s", within([0, 1], 4_000_000))
    check("3-6 s at 800 kb/s", within([3, 4, 5], 800_000))
    # Packets already in the link's queue (250 ms at its rate) still leave.
    check("6-8 s down: at most the queue drains, then nothing arrives", shaped[6] <= 0.25 * 800_000 and shaped[7] < 2_000)
    check("9-12 s up: 800 kb/s again", within([9, 10, 11], 800_000))
else:
    check("the probe reported 12 seconds", False, result.stdout[-400:])
check("another port is not shaped (> 100 Mb/s)", bool(free) and free[0] > 100_000_000)

status = subprocess.run([cli, "uplink", "--port", "47001", "--schedule", "0s:rate=1mbit", "--", "sh", "-c", "exit 3"],
                        capture_output=True, text=True, timeout=30)
check("the command's failure is uplink's (exit 3)", status.returncode == 3, str(status.returncode))
for arguments, expected in [
        (["--port", "1", "--schedule", "0s:rate=4mbit; 5s:up", "--", "true"], 'item 2 "5s:up": the link is not down'),
        (["--port", "1", "--schedule", "0s:rate=fast", "--", "true"], 'bad rate "fast"'),
        (["--port", "1", "--schedule", "5s:down; 2s:up", "--", "true"], "times must not go backwards"),
        (["--schedule", "0s:down", "--", "true"], "give at least one --port"),
        (["--port", "1", "--schedule", "0s:rate=1mbit"], "give the command to run after --")]:
    refused = subprocess.run([cli, "uplink"] + arguments, capture_output=True, text=True, timeout=30)
    check(f"refused: {expected}", refused.returncode != 0 and expected in refused.stderr,
          "" if expected in refused.stderr else refused.stderr.strip()[-300:])
sys.exit(1 if failures else 0)
