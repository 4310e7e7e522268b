# SPDX-License-Identifier: LGPL-2.1-or-later
"""replaycast trace: `trace record` writes a trace that Python's own json module reads line
by line, whose counts `trace check` repeats; a Python gi pipeline replaying it with
`replaykitsrc trace=` delivers exactly its buffers (time and size, read by pad probes); a trace that cannot be written names the path, a bad line its file, line and field.
    trace_cli.py CLI"""
import json
import os
import re
import subprocess
import sys
import tempfile

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402
from checks import check, failures  # noqa: E402

cli = sys.argv[1]


def nanoseconds(cm_time):
    return (cm_time["value"] * 1_000_000_000 + cm_time["timescale"] // 2) // cm_time["timescale"]


folder = tempfile.mkdtemp(prefix="replaycast-trace-")
trace = os.path.join(folder, "meters.trace")
run = subprocess.run([cli, "trace", "record", "meters", "--duration", "2", "--quiet", "--output", trace],
                     capture_output=True, text=True, timeout=60)
written = re.search(r"trace: (\d+) sample buffers written to (.+)", run.stdout)
check("trace record exits 0 and says what it wrote", run.returncode == 0 and written is not None
      and written.group(2) == trace, run.stdout + run.stderr)

lines = [json.loads(line) for line in open(trace)]
samples = [line for line in lines if "sample" in line]
lifecycle = [line["lifecycle"] for line in lines if "lifecycle" in line]
counts = {kind: sum(1 for s in samples if s["sample"] == kind) for kind in ("video", "audioApp", "audioMic")}
check("every line is JSON: the header, started first, finished last",
      lines[0] == {"format": "replaycast-broadcast-trace", "version": 1} and lifecycle == ["started", "finished"]
      and lines[1].get("lifecycle") == "started" and lines[-1].get("lifecycle") == "finished", str(lifecycle))
check("the count written is the sample lines' count", written is not None and int(written.group(1)) == len(samples),
      f"{len(samples)} lines, {counts}")
# --duration ends the broadcast on a wall-clock timer, so a frame due at exactly 2 s may or may
# not be in: the frames are counted against the finish the trace itself records.
origin = nanoseconds(lines[1]["time"])
finish = nanoseconds(lines[-1]["time"]) - origin
frames = [nanoseconds(s["pts"]) - origin for s in samples if s["sample"] == "video"]
slots = finish * 30 // 1_000_000_000 + 1
check("2 s of the meters pipeline: a frame per 1/30 s up to the finish, 44.1 kHz app and 48 kHz mic in 1024-frame buffers",
      1_950_000_000 <= finish <= 2_050_000_000 and slots - 1 <= len(frames) <= slots
      and all(abs(t - i * 1_000_000_000 / 30) < 1_000_000 for i, t in enumerate(frames))
      and 85 <= counts["audioApp"] <= 87 and 93 <= counts["audioMic"] <= 95,
      f"finish {finish / 1e9:.3f} s, {slots} slots, {counts}")

summary = subprocess.run([cli, "trace", "check", trace], capture_output=True, text=True, timeout=30)
said = {kind: int(n) for kind, n in re.findall(r"^\s+(video|audioApp|audioMic)\s+(\d+)", summary.stdout, re.M)}
check("trace check repeats the counts", summary.returncode == 0 and said == counts, summary.stdout + summary.stderr)

expected = {"video": [], "audioApp": [], "audioMic": []}
for s in samples:
    if s["sample"] == "video":
        size = (s["width"] + 3) // 4 * 4 * s["height"] * 3 // 2
    else:
        size = s["numSamples"] * s["asbd"]["mChannelsPerFrame"] * 2
    expected[s["sample"]].append((nanoseconds(s["pts"]) - origin, size))
Gst.init(None)
pipeline = Gst.parse_launch(f"replaykitsrc is-live=false trace={trace} name=rk rk.video ! fakesink name=video "
                            "rk.audio_app ! fakesink name=audioApp rk.audio_mic ! fakesink name=audioMic")
seen = {"video": [], "audioApp": [], "audioMic": []}


def note(pad, info, kind):
    buffer = info.get_buffer()
    seen[kind].append((buffer.pts, buffer.get_size()))
    return Gst.PadProbeReturn.OK


for kind in seen:
    pipeline.get_by_name(kind).get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER, note, kind)
pipeline.set_state(Gst.State.PLAYING)
message = pipeline.get_bus().timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
replay_ok = message is not None and message.type == Gst.MessageType.EOS
pipeline.set_state(Gst.State.NULL)
compared = sum(len(v) for v in expected.values())
check("the replay delivers the trace's buffers: every time and size, in order", replay_ok and seen == expected,
      f"{compared} buffers compared; " + "; ".join(f"{k} {len(seen[k])} of {len(expected[k])}, first difference "
                                                   f"{next(((a, b) for a, b in zip(seen[k], expected[k]) if a != b), None)}"
                                                   for k in seen))

unwritable = os.path.join(folder, "missing", "x.trace")
run = subprocess.run([cli, "trace", "record", "meters", "--duration", "1", "--quiet", "--output", unwritable],
                     capture_output=True, text=True, timeout=60)
check("a trace that cannot be written: exit 1 naming the path and why, before broadcasting",
      run.returncode == 1 and f"cannot write the trace to {unwritable}: No such file or directory" in run.stderr
      and "status" not in run.stdout, (run.stdout + run.stderr).strip()[-300:])

bad = os.path.join(folder, "bad.trace")
text = open(trace).read().splitlines(keepends=True)
first_audio = next(i for i, line in enumerate(text) if '"numSamples"' in line)
text[first_audio] = text[first_audio].replace('"numSamples"', '"numSample"')
with open(bad, "w") as out:
    out.writelines(text)
run = subprocess.run([cli, "trace", "check", bad], capture_output=True, text=True, timeout=30)
check("a bad line: exit 1 naming file:line and the field", run.returncode == 1 and f"{bad}:{first_audio + 1}: " in run.stderr
      and "numSamples: missing" in run.stderr, run.stderr.strip())

sys.exit(1 if failures else 0)
