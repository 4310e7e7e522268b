# SPDX-License-Identifier: LGPL-2.1-or-later
"""screen-location live: does a slow decode make the video stream late? A screen-recording-
sized HEVC file (1170x2532, 30 fps, made by ffmpeg's x265 here) is shown live on the iPhone
11's screen (828x1792) for SECONDS, idle and beside CPU hogs, and each run prints:
- frames delivered, against the pictures the file holds in that time (every frame differs);
- push lateness: when each frame left replaykitsrc on the pipeline clock, less its
  timestamp (median, p99, worst). A queue follows each pad, as in the pipeline files:
  without one, a push waits in the syncing sink for the pipeline's latency, and the next
  frame starts that much late;
- the element's own account (GST_DEBUG=replaykitsrc:4 at the stop): pictures decoded after
  their slot and the latest by how much, pictures replaced within their slot.
The same run with the emulated screen is the reference: it draws every frame on the
streaming thread at its slot.
    bench/screen_file.py [--seconds 20] [--loads idle,cpu1,cpu2]
Needs a release build (scripts/build), ffmpeg with libx265 and stress-ng."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser()
parser.add_argument("--seconds", type=int, default=20)
parser.add_argument("--loads", default="idle,cpu1,cpu2")
options = parser.parse_args()

plugin = subprocess.run([os.path.join(ROOT, "scripts", "build")], capture_output=True, text=True, check=True).stdout.strip()
os.environ["GST_PLUGIN_PATH"] = plugin
import gi  # noqa: E402

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

folder = tempfile.mkdtemp(prefix="replaycast-screen-bench-")
video = os.path.join(folder, "recording.mov")
print(f"making a {options.seconds} s 1170x2532 HEVC file…", file=sys.stderr)
subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size=1170x2532:rate=30:duration={options.seconds}",
                "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                "-pix_fmt", "yuv420p", video], check=True)


def run(properties):
    """One live run; returns (frames, push lateness in ms, the element's stop line)."""
    Gst.init(None)
    pipeline = Gst.parse_launch(f"replaykitsrc name=rk device=iphone-11-ios17 duration={options.seconds * 1_000_000_000} {properties} "
                                "rk.video ! queue ! fakesink sync=true rk.audio_app ! queue ! fakesink sync=true"
                                " rk.audio_mic ! queue ! fakesink sync=true")
    source = pipeline.get_by_name("rk")
    lateness = []

    def probe(pad, info):
        clock = source.get_clock()
        if clock is not None:
            now = clock.get_time() - source.get_base_time()
            lateness.append((now - info.get_buffer().pts) / 1e6)
        return Gst.PadProbeReturn.OK

    source.get_static_pad("video").add_probe(Gst.PadProbeType.BUFFER, probe)
    pipeline.set_state(Gst.State.PLAYING)
    message = pipeline.get_bus().timed_pop_filtered((options.seconds + 30) * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if message is None or message.type == Gst.MessageType.ERROR:
        sys.exit(f"the run failed: {message.parse_error() if message else 'no end'}")
    pipeline.set_state(Gst.State.NULL)
    return lateness


def summary(lateness):
    ordered = sorted(lateness)
    return (f"{len(ordered)} frames, push lateness median {statistics.median(ordered):.1f} ms, "
            f"p99 {ordered[int(len(ordered) * 0.99) - 1]:.1f} ms, worst {ordered[-1]:.1f} ms")


def account(properties):
    """The element's stop line, from a run of its own under GST_DEBUG (the log costs time too)."""
    result = subprocess.run(["gst-launch-1.0", "-q", "replaykitsrc", "name=rk", f"duration={options.seconds * 1_000_000_000}",
                             *properties.split(), "rk.video", "!", "queue", "!", "fakesink", "sync=true", "rk.audio_app", "!", "fakesink",
                             "rk.audio_mic", "!", "fakesink"],
                            capture_output=True, text=True, env=dict(os.environ, GST_DEBUG="replaykitsrc:4", GST_DEBUG_NO_COLOR="1"))
    line = re.search(r"screen-location: (\d+ pictures decoded.*)", result.stderr)
    return line.group(1) if line else "no account logged"


loads = {"idle": None, "cpu1": ["stress-ng", "--cpu", "1"], "cpu2": ["stress-ng", "--cpu", "2"]}
print(f"{options.seconds} s live, iPhone 11 screen (828x1792); file: 1170x2532 HEVC, 30 fps, {options.seconds * 30} pictures")
for load in options.loads.split(","):
    hog = subprocess.Popen(loads[load], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) if loads[load] else None
    try:
        emulated = run("")
        shown = run(f"screen-location={video}")
        print(f"{load:5} emulated screen: {summary(emulated)}")
        print(f"{load:5} screen-location: {summary(shown)}")
        print(f"{load:5}   element: {account(f'screen-location={video}')}")
    finally:
        if hog:
            hog.terminate()
            hog.wait()
