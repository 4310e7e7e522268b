#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""`replaycast run` on a terminal (a real pty, from script(1)) redraws one status block in
place; piped, it prints plain status lines. Checks the numbers the block shows.

    status_screen.py CLI SCRATCH
"""
import os
import re
import subprocess
import sys

from checks import check, failures

cli, scratch = sys.argv[1], sys.argv[2]
out = os.path.join(scratch, "status_hls")
os.makedirs(out, exist_ok=True)
typescript = os.path.join(scratch, "status.typescript")
command = f"{cli} run pipelines/broadcast-hls.pipeline --duration 5 --set OUT={out}"
subprocess.run(["timeout", "-k", "5", "40", "script", "-qfec", command, typescript],
               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
text = open(typescript, encoding="utf-8", errors="replace").read()

redraws = re.split(r"\x1b\[(\d+)A", text)
check("redrawn in place at least 10 times in 5 s", len(redraws) // 2 >= 10, f"{len(redraws) // 2} redraws")
block = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", redraws[-1])
video = re.search(r"video +in (\d+) +out (\d+) +dropped (\d+) +output ([\d.]+) (Mb|kb)/s", block)
check("video frames in and out, about 30 per second", bool(video) and 120 <= int(video.group(1)) <= 170
      and 120 <= int(video.group(2)) <= 170, video.group(0) if video else block)
bitrate = float(video.group(4)) * (1000 if video and video.group(5) == "Mb" else 1) if video else 0
check("output bitrate near the encoders' 2.5 + 0.128 Mb/s", 1000 <= bitrate <= 4000, f"{bitrate:.0f} kb/s")
memory = re.search(r"memory (\d+) MB", block)
check("process memory shown", bool(memory) and 10 <= int(memory.group(1)) <= 1000, memory.group(0) if memory else block)
bars = re.findall(r"^.* ([LR]) ([#.|]{30}) +(-?[\d.]+) dB +peak +(-?[\d.]+)$", block, re.M)
check("one bar per channel with a peak hold", [b[0] for b in bars] == ["L", "R"] and all("|" in b[1] for b in bars)
      and all(-40 <= float(b[2]) <= 0 and float(b[2]) <= float(b[3]) <= 0 for b in bars), str(bars))
loudness = re.search(r"loudness +M +(-?[\d.]+) +S +(-?[\d.]+) +I +(-?[\d.]+) LUFS +true peak (-?[\d.]+) dBTP", block)
check("M/S/I LUFS and true peak", bool(loudness) and all(-40 <= float(v) <= 0 for v in loudness.groups()),
      loudness.group(0) if loudness else block)
segments = re.search(r"segments +(\d+) written", block)
check("segments counted", bool(segments) and int(segments.group(1)) >= 1, segments.group(0) if segments else block)
check("the summary follows the block", "finished after" in block, block.splitlines()[-1] if block else "")

piped = subprocess.run([cli, "run", "pipelines/broadcast-hls.pipeline", "--duration", "3", "--set", f"OUT={out}"],
                       capture_output=True, text=True, timeout=40)
status_lines = [l for l in piped.stdout.splitlines() if l.startswith("status ")]
check("piped: a plain status summary and meter lines, no escape codes", piped.returncode == 0 and len(status_lines) >= 1
      and "finished after" in piped.stdout and " meter " in piped.stdout and "\x1b" not in piped.stdout,
      status_lines[-1] if status_lines else piped.stdout[-300:])
sys.exit(1 if failures else 0)
