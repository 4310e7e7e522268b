#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""rtmpreconnectsink's adaptive-bitrate through a shaped uplink: two 50 s broadcast-rtmp runs
(x264enc at 3 Mb/s) one after the other, each in its own `replaycast uplink` with its own nginx-rtmp,
the link 4 Mb/s, then 800 kb/s from 15 s, then 4 Mb/s from 35 s. With adaptive-bitrate:
no disconnection, the encoder below the link within 5 s of the drop, raised again after the
link recovered, the recording whole (no gap over 1 s, at most 1 % of frames missing),
rtmp-bitrate's fields as docs/embedding.md gives them, and the latency at a player pulling
from the server (replaycast check-latency) back under 1 s within 10 s of each step. Without
(the control): over 100 frames lost. The runs take turns: side by side, the player's decoder
took the CPU both broadcasts need on a 2-core machine (the encoders fell behind, and the
adaptive run saw congestion on the 4 Mb/s link before the drop).

With --srt, the same two runs of broadcast-srt (SRT's default 125 ms latency) to
`replaycast check-latency` as the SRT receiver: with adaptive-bitrate no disconnection, the
encoder below the link within 5 s of the drop, raised again after the link recovered, all
but at most 200 of the 1,500 frames decoded with at most 3 s short of pictures, no stretch
over 1 s without any picture decoded (damaged ones included) and every gap under 2 s between
the capture times of the pictures whose strips were read (check-latency's longest gap), the
latency back under 1 s within 10 s of each step; the control loses over two thirds of the
frames sent while the link is slow (SRT drops what comes too late for its latency rather
than queueing it as TCP does).

The control runs (adaptive-bitrate off) only with --control: what a GStreamer release can
change is the adaptation; the control shows what the link does without it, on any release.
    Tests/system/adaptive_bitrate.py CLI SCRATCH [--srt] [--control]"""
import json
import os
import subprocess
import sys

from checks import check, failures

cli, scratch = sys.argv[1], os.path.join(sys.argv[2], "adaptive_bitrate")
here = os.path.dirname(os.path.abspath(__file__))
# The link drops at DROP, recovers at RISE; the run ends at SECONDS. Each phase is long
# enough for what is checked in it: 15 s at 4 Mb/s (the kernel's send buffer grows to
# megabytes), then 5 s to adapt and 10 s for what was in flight to drain, 10 s more in which
# the latency must hold, and after the rise 15 s to climb back and hold.
DROP, RISE, SECONDS = 15, 35, 50
SCHEDULE = f"0s:rate=4mbit; {DROP}s:rate=800kbit; {RISE}s:rate=4mbit"
FRAMES = SECONDS * 30


def start(kind, adaptive):
    folder = os.path.join(scratch, kind, adaptive)
    os.makedirs(folder, exist_ok=True)
    return subprocess.Popen([cli, "uplink", "--port", "1935", "--schedule", SCHEDULE, "--duration", "120", "--",
                             "/usr/bin/python3", os.path.join(here, "adaptive_bitrate_run.py"), cli, folder, kind,
                             adaptive, str(SECONDS)] + (["--latency"] if adaptive == "true" else []),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


NAMES = ("true", "false") if "--control" in sys.argv[3:] else ("true",)


def run(kind):
    results = {}
    for name in NAMES:
        process = start(kind, name)
        out, err = process.communicate(timeout=180)
        print(f"--- {kind} adaptive-bitrate={name}: exit {process.returncode}\n{err.strip()}")
        try:
            results[name] = json.loads(out.strip().splitlines()[-1])
        except (ValueError, IndexError):
            results[name] = {"messages": [], "error": f"no report: {out[-300:]} {err[-300:]}", "ended": False,
                             "latency": [], "decoded": [], "gap": None, "picture_gap": None}
    return results


def frames(recording):
    out = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time", "-of",
                          "csv=p=0", recording], capture_output=True, text=True).stdout
    times = sorted(float(line) for line in out.split() if line)
    gaps = [b - a for a, b in zip(times, times[1:])]
    return times, max(gaps, default=0)


def changes_of(result, queued):
    """The run's rtmp-bitrate messages, printed a line each; `queued` says what that field measured."""
    changes = [m for m in result["messages"] if m["name"] == "rtmp-bitrate"]
    for m in changes:
        f = m["fields"]
        print(f"  {m['time']:5.1f} s  {f['reason']:9}  {f['old-bitrate']} -> {f['new-bitrate']} kbit/s, "
              f"{f['queued'] / 1e6:.0f} ms {queued}, {f['send-rate']} kbit/s through")
    return changes


def ran_whole(label, result):
    check(f"{label}: the broadcast ran to its end without an error", result["ended"] and result["error"] is None,
          str(result["error"]))
    check(f"{label}: no disconnection", not any(m["name"] == "rtmp-disconnected" for m in result["messages"]))


results = run("rtmp")
for name, result in results.items():
    times, gap = frames(os.path.join(scratch, "rtmp", name, "broadcast.flv"))
    result["frames"], result["gap"] = len(times), gap
    print(f"adaptive-bitrate={name}: {len(times)} frames, longest gap {gap:.2f} s, error {result['error']}")

STEPS = (DROP, RISE)


def latency_after_steps(name, latency):
    """Per step: the highest per-second median latency in the 10 s after it, and from 10 s after
    it to the next step (each second's largest is printed too: one late frame, not the latency)."""
    found = []
    for index, step in enumerate(STEPS):
        end = STEPS[index + 1] if index + 1 < len(STEPS) else SECONDS
        early = [(median, largest) for t, median, largest in latency if step <= t < step + 10]
        late = [(median, largest) for t, median, largest in latency if step + 10 <= t < end]
        found.append((step, max((m for m, _ in early), default=None), max((m for m, _ in late), default=None)))
        print(f"adaptive-bitrate={name}: latency at the player after the step at {step} s: "
              f"up to {max((m for m, _ in early), default=0):.0f} ms (median of a second; largest frame "
              f"{max((x for _, x in early), default=0):.0f} ms) within 10 s, up to "
              f"{max((m for m, _ in late), default=0):.0f} ms (largest {max((x for _, x in late), default=0):.0f} ms) "
              f"from then to {end} s")
    return found


adaptive = results["true"]
print("adaptive-bitrate=true: latency at the player per second (median ms): "
      + " ".join(f"{t:.0f}:{m:.0f}" for t, m, _ in adaptive["latency"]))
adaptive["steps"] = latency_after_steps("true", adaptive["latency"])

changes = changes_of(adaptive, "waiting")
ran_whole("adaptive", adaptive)
down = next((m for m in changes if m["fields"]["reason"] == "congested"), None)
check("adaptive: the encoder below the 800 kb/s link within 5 s of the drop",
      down is not None and DROP <= down["time"] <= DROP + 5
      and min(m["fields"]["new-bitrate"] for m in changes if m["time"] <= DROP + 5) < 800,
      f"first at {down['time']} s" if down else "no congested change")
up = [m for m in changes if m["time"] > RISE and m["fields"]["reason"] == "recovered"]
check(f"adaptive: raised again after the link recovered at {RISE} s", bool(up) and up[-1]["fields"]["new-bitrate"] >= 1500,
      f"last {up[-1]['fields']['new-bitrate']} kbit/s" if up else f"no step up after {RISE} s")
expected_types = {"location": "gchararray", "old-bitrate": "gint", "new-bitrate": "gint", "reason": "gchararray",
                  "queued": "guint64", "send-rate": "gint", "encoder": "gchararray"}
check("adaptive: rtmp-bitrate carries the documented fields and types",
      bool(changes) and all(m["types"] == expected_types and m["fields"]["encoder"] == "x264enc0" for m in changes),
      str(changes[0]["types"]) if changes else "")
check(f"adaptive: the recording is whole (no gap over 1 s, at least 99 % of {FRAMES} frames)",
      adaptive["gap"] <= 1.0 and adaptive["frames"] >= FRAMES * 99 // 100, f"{adaptive['frames']} frames, gap {adaptive['gap']:.2f} s")
check(f"adaptive: a latency read at the player for at least {SECONDS - 5} of the {SECONDS} s",
      len(adaptive["latency"]) >= SECONDS - 5,
      f"{len(adaptive['latency'])} seconds; check-latency ended with {adaptive.get('player')}")
for step, early, late in adaptive["steps"]:
    check(f"adaptive: the latency at the player back under 1 s within 10 s of the step at {step} s",
          late is not None and late < 1000, f"each second's median at most {late} ms from {step + 10} s on")
control = results.get("false")
if control:
    check("control: no rtmp-bitrate without adaptive-bitrate",
          not any(m["name"] == "rtmp-bitrate" for m in control["messages"]))
    check("control: the slow link costs frames (rtmpreconnectsink drops what waits beyond 5 s): over 100",
          control["frames"] < FRAMES - 100 and control["gap"] > 0.3, f"{control['frames']} frames, gap {control['gap']:.2f} s")


def srt():
    results = run("srt")
    for name, result in results.items():
        decoded = [count for t, count in result["decoded"] if 1 <= t < SECONDS]
        short = longest = 0
        for count in decoded:
            short = short + 1 if count < 15 else 0
            longest = max(longest, short)
        result["frames"], result["short"] = sum(decoded), longest
        print(f"srt adaptive-bitrate={name}: {result['frames']} frames decoded by the receiver, at most {longest} s "
              f"in a row with under half their frames, longest gap {result['gap']} s (capture time), "
              f"{result['picture_gap']} s without any picture (stream time), error {result['error']}")
        print(f"srt adaptive-bitrate={name}: frames per second " + " ".join(f"{t:.1f}:{c}" for t, c in result["decoded"]))
    adaptive = results["true"]
    adaptive["steps"] = latency_after_steps("srt true", adaptive["latency"])
    changes = changes_of(adaptive, "of round trip over its least")
    ran_whole("srt adaptive", adaptive)
    check("srt adaptive: the encoder below the 800 kb/s link within 5 s of the drop",
          any(DROP <= m["time"] <= DROP + 5 and m["fields"]["new-bitrate"] < 800 for m in changes),
          f"changes by {DROP + 5} s: {[(m['time'], m['fields']['new-bitrate']) for m in changes if m['time'] <= DROP + 5]}")
    up = [m for m in changes if m["time"] > RISE and m["fields"]["reason"] == "recovered"]
    check(f"srt adaptive: raised again after the link recovered at {RISE} s", len(up) >= 2,
          f"{len(up)} steps up after {RISE} s")
    check(f"srt adaptive: the receiver decodes all but at most 200 of {FRAMES} frames, at most 3 s short of pictures",
          adaptive["frames"] >= FRAMES - 200 and adaptive["short"] <= 3, f"{adaptive['frames']} frames, {adaptive['short']} s")
    check("srt adaptive: no gap over 1 s in the pictures the receiver decoded (stream time, damaged ones included)",
          adaptive["picture_gap"] is not None and adaptive["picture_gap"] <= 1.0,
          f"longest without any picture {adaptive['picture_gap']} s")
    check("srt adaptive: every gap in the pictures whose strips the receiver read under 2 s (capture time)",
          adaptive["gap"] is not None and adaptive["gap"] < 2.0, f"longest gap {adaptive['gap']} s")
    for step, early, late in adaptive["steps"]:
        check(f"srt adaptive: the latency at the receiver back under 1 s within 10 s of the step at {step} s",
              late is not None and late < 1000, f"each second's median at most {late} ms from {step + 10} s on")
    control = results.get("false")
    if control:
        check("srt control: no rtmp-bitrate without adaptive-bitrate",
              not any(m["name"] == "rtmp-bitrate" for m in control["messages"]))
        slow = (RISE - DROP) * 30
        check(f"srt control: the slow link costs pictures (over two thirds of the {slow} frames sent while slow lost)",
              control["frames"] < FRAMES - slow * 2 // 3,
              f"{control['frames']} frames, {control['short']} s in a row short of pictures")


if "--srt" in sys.argv[3:]:
    srt()
sys.exit(1 if failures else 0)
