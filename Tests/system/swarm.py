#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""replaycast swarm against a real nginx-rtmp with its statistics page: 8 broadcasters, 12 s,
seed 5. The page must list 8 publishers while they run; each recording must probe as
H.264 240x520 + AAC 48 kHz stereo and decode, hold the report's frame count within one
keyframe interval (30 frames), and show the pause its plan has as a gap in its video
timestamps; the same seed must draw the same plan twice, and the report must carry it.
A swarm whose server is not there must exit 1 with every broadcaster failed, naming the
URL. Bad arguments are refused before anything runs.
    Tests/system/swarm.py CLI SCRATCH"""
import json
import os
import re
import socket
import subprocess
import sys
import time
from xml.etree import ElementTree

cli, scratch = sys.argv[1], sys.argv[2]
COUNT, SECONDS, SEED, GOP = 8, 12, 5, 30
failures = []


def check(what, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}")
    if not ok:
        failures.append(what)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def plan():
    text = subprocess.run([cli, "swarm", "--count", str(COUNT), "--duration", str(SECONDS), "--seed", str(SEED), "--plan"],
                          capture_output=True, text=True, timeout=30, check=True).stdout
    rows = [re.match(r"\s*(\d+) (\S+)\s+([\d.]+) s  (.*)$", line).groups() for line in text.splitlines()]
    return {int(n): (device, schedule) for n, device, _, schedule in rows}


drawn = plan()
check("the same seed draws the same plan twice", drawn == plan() and len(drawn) == COUNT, f"{len(drawn)} broadcasters")
pausing = {n: schedule for n, (_, schedule) in drawn.items() if "pause" in schedule}
check("the plan has a broadcaster that pauses", bool(pausing), str(pausing))

port, stat_port = free_port(), free_port()
folder = os.path.join(scratch, "swarm")
recordings = os.path.join(folder, "recordings")
env = dict(os.environ, RTMP_SERVER_HOME=os.path.join(folder, "nginx"), RTMP_STAT_PORT=str(stat_port))
subprocess.run(["scripts/rtmp-server", "start", str(port), recordings], env=env, check=True, stdout=subprocess.DEVNULL)
report_path = os.path.join(folder, "report.json")
try:
    swarm = subprocess.Popen([cli, "swarm", "--count", str(COUNT), "--duration", str(SECONDS), "--seed", str(SEED),
                              "--url", f"rtmp://127.0.0.1:{port}/live/dev{{n}}", "--report", report_path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(SECONDS / 2)
    stat = subprocess.run(["curl", "-s", f"http://127.0.0.1:{stat_port}/stat"], capture_output=True, text=True).stdout
    out, err = swarm.communicate(timeout=SECONDS + 60)
finally:
    subprocess.run(["scripts/rtmp-server", "stop", str(port)], env=env, stdout=subprocess.DEVNULL)
print(err.strip())
print(out.strip())
try:
    streams = ElementTree.fromstring(stat).findall(".//application[name='live']/live/stream")
except ElementTree.ParseError:
    streams = []
publishing = sorted(s.findtext("name") for s in streams
                    if any(c.find("publishing") is not None for c in s.findall("client")))
check(f"the statistics page lists {COUNT} publishers at {SECONDS / 2:.0f} s",
      publishing == sorted(f"dev{n}" for n in drawn), f"streams with a publisher: {publishing}")
check("the swarm exits 0", swarm.returncode == 0, str(swarm.returncode))
report = json.load(open(report_path)) if os.path.exists(report_path) else {"broadcasters": []}
members = {m["number"]: m for m in report["broadcasters"]}
check("the report has every broadcaster, with the plan's device and schedule",
      sorted(members) == sorted(drawn) and all((m["device"], m["schedule"] or "-") == drawn[n] for n, m in members.items()))
check("every broadcaster connected once and ended with end-of-stream",
      all(m["connections"] == 1 and m["ending"] == "end-of-stream" and not m["errors"] for m in members.values()),
      str([(n, m["connections"], m["ending"]) for n, m in members.items()]))


def probe(path):
    text = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height,sample_rate,channels",
                           "-of", "compact=p=0:nk=1", path], capture_output=True, text=True).stdout
    return sorted(text.split())


def video_times(path):
    text = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                           "-of", "csv=p=0", path], capture_output=True, text=True).stdout
    return [float(v) for v in text.split()]


compared = 0
for number, member in sorted(members.items()):
    path = os.path.join(recordings, f"dev{number}.flv")
    if not os.path.exists(path):
        check(f"dev{number}: recorded", False, path)
        continue
    streams = probe(path)
    # A pause leaves the video's later frames off the first ones' 15 fps grid: in ffmpeg's
    # default output time base (1/15 s) two of them can round to one tick, which it reports.
    decoded = subprocess.run(["ffmpeg", "-v", "error", "-xerror", "-i", path, "-fps_mode", "passthrough",
                              "-enc_time_base", "1:1000", "-f", "null", "-"],
                             capture_output=True, text=True)
    times = video_times(path)
    ok = (streams == sorted(["h264|240|520", "aac|48000|2"]) and decoded.returncode == 0 and not decoded.stderr
          and abs(len(times) - member["frames"]) <= GOP)
    compared += ok
    if not ok:
        check(f"dev{number}: H.264 240x520 + AAC 48 kHz stereo, decodes, frames as reported",
              False, f"{streams}, ffmpeg {decoded.returncode} {decoded.stderr[-200:]}, {len(times)} frames, "
              f"report {member['frames']}")
    if number in pausing:
        start, end = [int(v) / 1000 for v in re.findall(r"(\d+)ms:(?:pause|resume)", pausing[number])]
        gaps = [(a, b) for a, b in zip(times, times[1:]) if b - a > 0.5]
        check(f"dev{number}: the pause from {start:.2f} to {end:.2f} s is a gap in the video timestamps",
              any(abs(b - a - (end - start)) < 0.6 for a, b in gaps), f"gaps {gaps}")
check(f"each recording: H.264 240x520 + AAC 48 kHz stereo, decodes, frames as reported within {GOP}",
      compared == COUNT, f"{compared} of {COUNT}")

dead = free_port()
nobody = subprocess.run([cli, "swarm", "--count", "2", "--duration", "10", "--url", f"rtmp://127.0.0.1:{dead}/live/dev{{n}}"],
                        capture_output=True, text=True, timeout=60)
lines = [line for line in nobody.stdout.splitlines() if "FAILED" in line]
check("no server: exit 1, every broadcaster FAILED naming the URL and the reason",
      nobody.returncode == 1 and len(lines) == 2 and all(f"127.0.0.1:{dead}" in line and "refused" in line.lower() for line in lines),
      nobody.stdout[-600:])
for arguments, expected in [(["--count", "3", "--url", "rtmp://127.0.0.1/live/same"], "--url needs {n}"),
                            (["--arrival", "soon"], "--arrival must be together or ramp:TIME"),
                            (["--size", "240"], "--size must be WIDTHxHEIGHT")]:
    refused = subprocess.run([cli, "swarm", "--plan"] + arguments, capture_output=True, text=True, timeout=30)
    check(f"refused: {expected}", refused.returncode != 0 and expected in refused.stderr, refused.stderr.strip().splitlines()[0])
sys.exit(1 if failures else 0)
