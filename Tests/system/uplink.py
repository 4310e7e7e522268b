#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""replaycast uplink: a TCP sender inside the private network (uplink_probe.py) must see
the schedule's rates second by second (4 Mb/s, then 800 kb/s, nothing while down, 800 kb/s
again after up; down lets only what its queue held leave), traffic to another port none of it, and the command's exit status must be
uplink's. Through --relay (uplink_relay_probe.py), TCP and UDP must arrive the schedule's
delay late, nothing during a stall, everything after it (TCP in order). Bad schedules and
missing arguments are refused before anything runs.
    Tests/system/uplink.py CLI"""
import os
import re
import subprocess
import sys

from checks import check, failures

cli = sys.argv[1]
probe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "uplink_probe.py")


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

relay_probe = os.path.join(os.path.dirname(probe), "uplink_relay_probe.py")
relayed = subprocess.run([cli, "uplink", "--relay", "47011:47012", "--schedule",
                          "0s:delay=200ms; 2s:delay=0ms; 3s:stall; 5s:resume",
                          "--", "/usr/bin/python3", relay_probe, "47011", "47012", "7"],
                         capture_output=True, text=True, timeout=60)
print(relayed.stderr.strip())
check("relay: uplink exits with the command's status", relayed.returncode == 0, str(relayed.returncode))
sent = int(re.search(r"^sent (\d+)$", relayed.stdout, re.M).group(1)) if "sent" in relayed.stdout else 0
check("relay: the relay names what it passed", "1 TCP connection and 1 UDP peer" in relayed.stderr)
for kind in ("tcp", "udp"):
    rows = [(int(n), float(s), float(a)) for k, n, s, a in
            (line.split() for line in relayed.stdout.splitlines() if line.startswith(kind + " "))]

    def late(first, last):
        return [round((a - s) * 1000) for n, s, a in rows if first <= s < last]
    delayed = sorted(late(0.3, 1.9))
    print(f"{kind}: {len(rows)} of {sent} arrived; ms late, sent 0.3-1.9 s: min {min(delayed, default=None)}, "
          f"median {delayed[len(delayed) // 2] if delayed else None}, max {max(delayed, default=None)}, "
          f"2.3-2.9 s max {max(late(2.3, 2.9), default=None)}, 5.2-7 s max {max(late(5.2, 7), default=None)}")
    # The relay sends in the order it read; datagrams of a burst (at the resume, or when the
    # delay shrinks) have still reached the probe out of order here, so UDP is checked as a set.
    numbers = [n for n, _, _ in rows]
    check(f"relay, {kind}: every message arrived once{', in order' if kind == 'tcp' else ''}",
          sent > 300 and (numbers if kind == "tcp" else sorted(numbers)) == list(range(sent)), f"{len(rows)} of {sent}")
    # Never early; the probe's own threads, on a machine busy with other checks, have put a
    # message or two past 215 ms, so that bound is for 95 % of them.
    check(f"relay, {kind}: delay=200ms: none under 200 ms late, 95 % within 215 ms",
          len(delayed) > 50 and delayed[0] >= 200 and delayed[len(delayed) * 95 // 100] <= 215,
          f"{len(delayed)} messages")
    check(f"relay, {kind}: delay=0ms: under 20 ms late", bool(late(2.3, 2.9)) and max(late(2.3, 2.9)) < 20)
    # The probe's clock starts when Python has started, up to 150 ms after uplink's.
    during = [a for n, s, a in rows if 3.1 <= a < 4.85]
    check(f"relay, {kind}: nothing arrives during the stall (3-5 s)", not during, f"{len(during)} arrived")
    held = [a for n, s, a in rows if 3.1 <= s < 4.85]
    check(f"relay, {kind}: what the stall held arrives at the resume, within 20 ms",
          bool(held) and min(held) >= 4.85 and max(held) - min(held) < 0.02,
          f"{len(held)} messages, {min(held, default=0):.3f}-{max(held, default=0):.3f} s")
    check(f"relay, {kind}: after the stall, under 20 ms late again", bool(late(5.2, 7)) and max(late(5.2, 7)) < 20)

status = subprocess.run([cli, "uplink", "--port", "47001", "--schedule", "0s:rate=1mbit", "--", "sh", "-c", "exit 3"],
                        capture_output=True, text=True, timeout=30)
check("the command's failure is uplink's (exit 3)", status.returncode == 3, str(status.returncode))
for arguments, expected in [
        (["--port", "1", "--schedule", "0s:rate=4mbit; 5s:up", "--", "true"], 'item 2 "5s:up": the link is not down'),
        (["--port", "1", "--schedule", "0s:rate=fast", "--", "true"], 'bad rate "fast"'),
        (["--port", "1", "--schedule", "5s:down; 2s:up", "--", "true"], "times must not go backwards"),
        (["--schedule", "0s:down", "--", "true"], "give at least one --port"),
        (["--port", "1", "--schedule", "0s:rate=1mbit"], "give the command to run after --"),
        (["--port", "1", "--schedule", "0s:delay=100ms", "--", "true"], "delay, stall and resume need --relay"),
        (["--relay", "1935", "--schedule", "0s:stall", "--", "true"], "--relay expects PORT:SERVER_PORT")]:
    refused = subprocess.run([cli, "uplink"] + arguments, capture_output=True, text=True, timeout=30)
    check(f"refused: {expected}", refused.returncode != 0 and expected in refused.stderr,
          "" if expected in refused.stderr else refused.stderr.strip()[-300:])
sys.exit(1 if failures else 0)
