#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""replaycast swarm against a real nginx-rtmp with its statistics page: 20 broadcasters, 30 s,
seed 5, the server stopped at 5 s, before the plan's pauses, and started again. The page must list every publisher
while they run; every broadcaster must reconnect, the report giving its downtime; each
recording (before and after the restart) must probe as H.264 240x520 + AAC 48 kHz stereo
and decode, the second start with a keyframe, the two hold the report's frames and bytes
less the downtime's within one keyframe interval (30 frames, 2 s of bytes), and show the
pause its plan has as a gap in its video timestamps; the same seed must draw the same plan
twice, and the report must carry it, and two shards of a 40-broadcaster swarm draw exactly
its population, and with two uplinks each draws one, its devices and schedules unchanged.
Two shards of a 4-broadcaster swarm, run side by side, merge into what the
unsharded swarm reports (broadcasters, connections and endings; frames and bytes within a
frame and 5 %), each recording holding its report's bytes.
A swarm whose server is not there must exit 1 with every broadcaster failed, naming the
URL. Bad arguments are refused before anything runs.
With --srt, 3 broadcasters over SRT, each to its own receiver (scripts/srt-receiver).
    Tests/system/swarm.py CLI SCRATCH [--srt]"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from xml.etree import ElementTree

import checks
from checks import check, failures, free_port

cli, scratch = sys.argv[1], sys.argv[2]
SEED, GOP, FPS = 5, 30, 15
# The plan's pauses fall in 30-55 % of the run; the restart comes before them.
COUNT, SECONDS, RESTART_AT = 20, 30, 5
STAT_AT = 3


def udp_free(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def plan():
    text = subprocess.run([cli, "swarm", "--count", str(COUNT), "--duration", str(SECONDS), "--seed", str(SEED), "--plan"],
                          capture_output=True, text=True, timeout=30, check=True).stdout
    rows = [re.match(r"\s*(\d+) (\S+)\s+([\d.]+) s  (.*)$", line).groups() for line in text.splitlines()]
    return {int(n): (device, schedule) for n, device, _, schedule in rows}


drawn = plan()
check("the same seed draws the same plan twice", drawn == plan() and len(drawn) == COUNT, f"{len(drawn)} broadcasters")
forty = subprocess.run([cli, "swarm", "--count", "40", "--seed", str(SEED), "--arrival", "ramp:10s", "--plan"],
                       capture_output=True, text=True, timeout=30).stdout.splitlines()
halves = [subprocess.run([cli, "swarm", "--count", "40", "--seed", str(SEED), "--arrival", "ramp:10s", "--plan",
                          "--shard", f"{i}/2"], capture_output=True, text=True, timeout=30).stdout.splitlines() for i in (1, 2)]
check("two shards of a 40-broadcaster swarm draw exactly its population (devices, starts, schedules)",
      len(forty) == 40 and sorted(halves[0] + halves[1], key=lambda line: int(line.split()[0])) == forty,
      f"{len(halves[0])} + {len(halves[1])} lines against {len(forty)}")
linked = subprocess.run([cli, "swarm", "--count", "40", "--seed", str(SEED), "--arrival", "ramp:10s", "--plan",
                         "--uplink", "wifi=0s:rate=10mbit", "--uplink", "lte=0s:rate=2mbit; 5s:down; 6s:up"],
                        capture_output=True, text=True, timeout=30).stdout.splitlines()
names = [line.rsplit("  uplink ", 1)[-1] for line in linked]
check("--uplink: each of 40 broadcasters draws one of two uplinks, devices, starts and schedules as without",
      len(linked) == 40 and sorted(set(names)) == ["lte", "wifi"]
      and [line.rsplit("  uplink ", 1)[0] for line in linked] == forty,
      f"{names.count('wifi')} wifi, {names.count('lte')} lte")
pausing = {n: schedule for n, (_, schedule) in drawn.items() if "pause" in schedule}
check("the plan has a broadcaster that pauses", bool(pausing), str(pausing))

port, stat_port = free_port(), free_port()
folder = os.path.join(scratch, "swarm")
shutil.rmtree(folder, ignore_errors=True)
recordings = os.path.join(folder, "recordings")


def server(command):
    checks.server(command, port, recordings, os.path.join(folder, "nginx"), RTMP_STAT_PORT=str(stat_port))


server("start")
report_path = os.path.join(folder, "report.json")
try:
    started = time.monotonic()
    swarm = subprocess.Popen([cli, "swarm", "--count", str(COUNT), "--duration", str(SECONDS), "--seed", str(SEED),
                              "--url", f"rtmp://127.0.0.1:{port}/live/dev{{n}}", "--report", report_path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(STAT_AT)
    stat = subprocess.run(["curl", "-s", f"http://127.0.0.1:{stat_port}/stat"], capture_output=True, text=True).stdout
    time.sleep(RESTART_AT - (time.monotonic() - started))
    # stop waits until nginx has closed the recordings; the restarted server writes new ones.
    server("stop")
    stopped = time.monotonic() - started
    os.rename(recordings, recordings + "-1")
    server("start")
    out, err = swarm.communicate(timeout=SECONDS + 60)
finally:
    server("stop")
print(err.strip())
print(out.strip())
try:
    streams = ElementTree.fromstring(stat).findall(".//application[name='live']/live/stream")
except ElementTree.ParseError:
    streams = []
publishing = sorted(s.findtext("name") for s in streams
                    if any(c.find("publishing") is not None for c in s.findall("client")))
check(f"the statistics page lists {COUNT} publishers at {STAT_AT} s",
      publishing == sorted(f"dev{n}" for n in drawn), f"streams with a publisher: {publishing}")
check("the swarm exits 0", swarm.returncode == 0, str(swarm.returncode))
report = json.load(open(report_path)) if os.path.exists(report_path) else {"broadcasters": []}
members = {m["number"]: m for m in report["broadcasters"]}
check("the report has every broadcaster, with the plan's device and schedule",
      sorted(members) == sorted(drawn) and all((m["device"], m["schedule"] or "-") == drawn[n] for n, m in members.items()))
losses = {n: m["disconnections"] for n, m in members.items()}
check(f"every broadcaster lost the server at {RESTART_AT}-{stopped:.1f} s, reconnected, and ended with end-of-stream",
      all(m["connections"] == 2 and m["ending"] == "end-of-stream" and not m["errors"] and len(losses[n]) == 1
          and RESTART_AT - 0.5 <= losses[n][0]["at"] <= stopped + 0.5 for n, m in members.items()),
      str([(n, m["connections"], m["ending"], [round(d["at"], 2) for d in losses[n]]) for n, m in members.items()]))
downtimes = [d.get("downtime") for n in losses for d in losses[n]]
check("the report gives each one's downtime: from the loss to the reconnection, under 10 s",
      len(downtimes) == COUNT and all(d is not None and 0 < d < 10 for d in downtimes), str(downtimes))


def probe(path):
    text = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height,sample_rate,channels",
                           "-of", "compact=p=0:nk=1", path], capture_output=True, text=True).stdout
    return sorted(text.split())


def video_times(path):
    text = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time",
                           "-of", "csv=p=0", path], capture_output=True, text=True).stdout
    # MPEG-TS packets end their line with a comma (a field of the program's).
    return [float(v.strip(",")) for v in text.split()]


def payload_bytes(path):
    """What the encoders made that the recording holds: its packets' sizes, audio and video."""
    text = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "packet=size", "-of", "csv=p=0", path],
                          capture_output=True, text=True).stdout
    return sum(int(v.strip(",")) for v in text.split())


def gop_bytes(member, seconds):
    """One keyframe interval's bytes at the broadcaster's mean rate over its `seconds`."""
    return member["bytes"] / max(seconds - member["start"], 1) * GOP / FPS


compared = 0
for number, member in sorted(members.items()):
    parts = [os.path.join(recordings + "-1", f"dev{number}.flv"), os.path.join(recordings, f"dev{number}.flv")]
    if not all(os.path.exists(path) for path in parts):
        check(f"dev{number}: recorded before and after the restart", False, str(parts))
        continue
    problems, frames, recorded_bytes, times = [], 0, 0, []
    for path in parts:
        streams = probe(path)
        decoded = subprocess.run(["ffmpeg", "-v", "error", "-xerror", "-i", path, "-fps_mode", "passthrough",
                                  "-enc_time_base", "1:1000", "-f", "null", "-"], capture_output=True, text=True)
        times.append(video_times(path))
        frames += len(times[-1])
        recorded_bytes += payload_bytes(path)
        if streams != sorted(["h264|240|520", "aac|48000|2"]) or decoded.returncode != 0 or decoded.stderr:
            problems.append(f"{path}: {streams}, ffmpeg {decoded.returncode} {decoded.stderr[-200:]}")
    first_flags = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-show_entries", "packet=flags",
                                  "-of", "csv=p=0", parts[1]], capture_output=True, text=True).stdout.split()
    if not first_flags or not first_flags[0].startswith("K"):
        problems.append(f"{parts[1]} starts with {first_flags[:1]}, not a keyframe")
    downtime = (member["disconnections"] or [{}])[0].get("downtime", 0)
    expected = member["frames"] - FPS * downtime
    if abs(frames - expected) > GOP:
        problems.append(f"{frames} frames recorded, {expected:.0f} expected (report {member['frames']} less the downtime)")
    rate = gop_bytes(member, SECONDS) * FPS / GOP
    expected_bytes = member["bytes"] - rate * downtime
    if abs(recorded_bytes - expected_bytes) > gop_bytes(member, SECONDS):
        problems.append(f"{recorded_bytes} bytes recorded, {expected_bytes:.0f} expected (report {member['bytes']} less "
                        f"{downtime:.2f} s at {rate:.0f} B/s)")
    print(f"dev{number}: {frames} frames and {recorded_bytes} bytes recorded; report {member['frames']} and "
          f"{member['bytes']}, {downtime:.2f} s down")
    compared += not problems
    if problems:
        check(f"dev{number}: both recordings H.264 240x520 + AAC 48 kHz stereo, decode, frames and bytes as reported", False,
              "; ".join(problems))
    if number in pausing:
        start, end = [int(v) / 1000 for v in re.findall(r"(\d+)ms:(?:pause|resume)", pausing[number])]
        gaps = [(a, b) for part in times for a, b in zip(part, part[1:]) if b - a > 0.5]
        check(f"dev{number}: the pause from {start:.2f} to {end:.2f} s is a gap in the video timestamps",
              any(abs(b - a - (end - start)) < 0.6 for a, b in gaps), f"gaps {gaps}")
check(f"each broadcaster's two recordings: H.264 240x520 + AAC 48 kHz stereo, decode, the second from a keyframe, "
      f"the report's frames and bytes less the downtime's within {GOP} frames", compared == COUNT, f"{compared} of {COUNT}")

# Two shards of one 4-broadcaster swarm, side by side, their reports on standard output.
server("start")
try:
    shards = [subprocess.Popen([cli, "swarm", "--count", "4", "--duration", "5", "--seed", str(SEED), "--shard", f"{i}/2",
                                "--url", f"rtmp://127.0.0.1:{port}/live/shard{{n}}", "--report", "-"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in (1, 2)]
    outputs = [shard.communicate(timeout=60) for shard in shards]
    unsharded = subprocess.run([cli, "swarm", "--count", "4", "--duration", "5", "--seed", str(SEED),
                                "--url", f"rtmp://127.0.0.1:{port}/live/whole{{n}}", "--report", "-"],
                               capture_output=True, text=True, timeout=60)
    # Ctrl-C at 3 s ends every running broadcaster cleanly.
    interrupted = subprocess.Popen([cli, "swarm", "--count", "2", "--duration", "60",
                                    "--url", f"rtmp://127.0.0.1:{port}/live/ctrlc{{n}}", "--report", "-"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    interrupted.send_signal(signal.SIGINT)
    sent = time.monotonic()
    stopped_out, stopped_err = interrupted.communicate(timeout=30)
    took = time.monotonic() - sent
finally:
    server("stop")
endings = [(m["ending"], m["connections"]) for m in json.loads(stopped_out)["broadcasters"]] if stopped_out.startswith("{") else []
check("Ctrl-C ends both broadcasters of a 60 s swarm cleanly, within 5 s",
      interrupted.returncode == 0 and took < 5 and endings == [("end-of-stream", 1)] * 2,
      f"exit {interrupted.returncode} after {took:.1f} s, {endings}, {stopped_err[-200:]}")
paths = []
for i, (out, err) in enumerate(outputs, 1):
    paths.append(os.path.join(folder, f"shard-{i}.json"))
    with open(paths[-1], "w") as f:
        f.write(out)
    numbers = [m["number"] for m in json.loads(out)["broadcasters"]] if out.startswith("{") else []
    check(f"shard {i}/2 runs broadcasters {[i, i + 2]} and reports them on standard output",
          shards[i - 1].returncode == 0 and numbers == [i, i + 2], f"{shards[i - 1].returncode}, {numbers}, {err[-300:]}")
merged_path = os.path.join(folder, "merged.json")
merged = subprocess.run([cli, "swarm", "merge"] + paths + ["--output", merged_path], capture_output=True, text=True, timeout=30)
whole = subprocess.run([cli, "swarm", "--count", "4", "--seed", str(SEED), "--duration", "5", "--plan"],
                       capture_output=True, text=True, timeout=30).stdout.split("\n")
merged_report = json.load(open(merged_path)) if os.path.exists(merged_path) else {"broadcasters": []}
check("merge: the shards' reports are the whole swarm's, in order, as its plan drew it",
      merged.returncode == 0 and [m["number"] for m in merged_report["broadcasters"]] == [1, 2, 3, 4]
      and all(re.match(rf"\s*{m['number']} {m['device']} ", line) for m, line in zip(merged_report["broadcasters"], whole))
      and "4 of 4 broadcasters ok" in merged.stdout, merged.stdout[-300:] + merged.stderr[-300:])
whole_report = json.loads(unsharded.stdout) if unsharded.stdout.startswith("{") else {"broadcasters": []}


def totals(report):
    members = report["broadcasters"]
    return {"broadcasters": [(m["number"], m["device"], m["schedule"]) for m in members],
            "connections": sum(m["connections"] for m in members), "endings": [m["ending"] for m in members],
            "disconnections": sum(len(m["disconnections"]) for m in members),
            "frames": sum(m["frames"] for m in members), "bytes": sum(m["bytes"] for m in members)}


mine, theirs = totals(merged_report), totals(whole_report)
check("merge: the merged report has the unsharded run's broadcasters, connections, endings and disconnections; "
      "frames within one per broadcaster, bytes within 5 %",
      unsharded.returncode == 0 and len(theirs["broadcasters"]) == 4
      and all(mine[k] == theirs[k] for k in ("broadcasters", "connections", "endings", "disconnections"))
      and abs(mine["frames"] - theirs["frames"]) <= 4 and abs(mine["bytes"] - theirs["bytes"]) <= 0.05 * theirs["bytes"],
      f"merged {mine}, unsharded {theirs}")
held = []
for m in merged_report["broadcasters"]:
    path = os.path.join(recordings, f"shard{m['number']}.flv")
    got = payload_bytes(path) if os.path.exists(path) else 0
    held.append((m["number"], got, m["bytes"]))
check("each shard broadcaster's recording holds the bytes its report gives, within one keyframe interval's",
      len(held) == 4 and all(abs(got - reported) <= gop_bytes(m, 5) for (_, got, reported), m
                             in zip(held, merged_report["broadcasters"])), str(held))
for arguments, expected in [([paths[0]], "shard 2/2 missing"), ([paths[0], paths[0]], "shard 1/2 twice")]:
    refused = subprocess.run([cli, "swarm", "merge"] + arguments, capture_output=True, text=True, timeout=30)
    check(f"merge refused: {expected}", refused.returncode != 0 and expected in refused.stderr, refused.stderr.strip()[-200:])

def srt_swarm():
    # SRT: each broadcaster calls its own receiver (srt-live-transmit takes one caller per port;
    # an SRT ingest would tell them apart by streamid on one port), {n} the port's last digit.
    base = next(b for b in range(2000 + os.getpid() % 3000, 6500) if all(udp_free(b * 10 + n) for n in (1, 2, 3)))
    srt_recordings = {n: os.path.join(folder, f"srt-{n}") for n in (1, 2, 3)}
    for n, where in srt_recordings.items():
        checks.server("start", base * 10 + n, where, os.path.join(folder, f"srt-home-{n}"), "srt")
    try:
        swarm_run = subprocess.run([cli, "swarm", "--count", "3", "--duration", "8", "--seed", str(SEED), "--url",
                                    f"srt://127.0.0.1:{base}{{n}}", "--report", "-"], capture_output=True, text=True, timeout=60)
    finally:
        time.sleep(1)  # each receiver writes out what it holds once its caller is gone
        for n, where in srt_recordings.items():
            checks.server("stop", base * 10 + n, where, os.path.join(folder, f"srt-home-{n}"), "srt", check=False)
    srt_report = ({m["number"]: m for m in json.loads(swarm_run.stdout)["broadcasters"]}
                  if swarm_run.stdout.startswith("{") else {})
    srt_ok = []
    for n in (1, 2, 3):
        path = os.path.join(srt_recordings[n], "recording-1.ts")
        frames = len(video_times(path)) if os.path.exists(path) else 0
        member = srt_report.get(n, {})
        decoded = subprocess.run(["ffmpeg", "-v", "error", "-xerror", "-i", path, "-f", "null", "-"], capture_output=True,
                                 text=True) if os.path.exists(path) else None
        # MPEG-TS lists each stream twice, under its program as well.
        if (os.path.exists(path) and sorted(set(probe(path))) == sorted(["h264|240|520", "aac|48000|2"])
                and decoded.returncode == 0 and not decoded.stderr and member.get("connections") == 1
                and not member.get("errors") and abs(frames - member.get("frames", -100)) <= GOP):
            srt_ok.append(n)
        print(f"srt dev{n}: {frames} frames recorded, report {member.get('frames')} frames, "
              f"{member.get('connections')} connection(s), errors {member.get('errors')}")
    check("SRT: 3 broadcasters, each to its receiver: exit 0, one connection each, recordings of H.264 240x520 + AAC that decode, "
          f"holding the report's frames within {GOP}", swarm_run.returncode == 0 and srt_ok == [1, 2, 3],
          f"exit {swarm_run.returncode}, whole: {srt_ok}; {swarm_run.stderr.strip()[-300:]}")


if "--srt" in sys.argv[3:]:
    srt_swarm()

dead = free_port()
nobody = subprocess.run([cli, "swarm", "--count", "2", "--duration", "10", "--url", f"rtmp://127.0.0.1:{dead}/live/dev{{n}}"],
                        capture_output=True, text=True, timeout=60)
lines = [line for line in nobody.stdout.splitlines() if "FAILED" in line]
check("no server: exit 1, every broadcaster FAILED naming the URL and the reason",
      nobody.returncode == 1 and len(lines) == 2 and all(f"127.0.0.1:{dead}" in line and "refused" in line.lower() for line in lines),
      nobody.stdout[-600:])
for arguments, expected in [(["--count", "3", "--url", "rtmp://127.0.0.1/live/same"], "--url needs {n}"),
                            (["--arrival", "soon"], "--arrival must be together or ramp:TIME"),
                            (["--size", "240"], "--size must be WIDTHxHEIGHT"),
                            (["--uplink", "x=3s:bogus"], "--uplink: uplink schedule item 1 \"3s:bogus\": unknown action")]:
    refused = subprocess.run([cli, "swarm", "--plan"] + arguments, capture_output=True, text=True, timeout=30)
    check(f"refused: {expected}", refused.returncode != 0 and expected in refused.stderr, refused.stderr.strip().splitlines()[0])
sys.exit(1 if failures else 0)
