# SPDX-License-Identifier: LGPL-2.1-or-later
"""A GStreamer application written the way level applications are, reading volumemeter."""
import math
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

Gst.init(None)
pipeline = Gst.parse_launch(
    "audiotestsrc num-buffers=50 freq=1000 volume=0.1 ! audio/x-raw,format=S16LE,rate=48000,channels=2 "
    "! volumemeter name=m loudness=true ! fakesink")
bus = pipeline.get_bus()
pipeline.set_state(Gst.State.PLAYING)
messages = []
while True:
    message = bus.timed_pop_filtered(5 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR)
    if message is None or message.type != Gst.MessageType.ELEMENT:
        break
    s = message.get_structure()
    if s.get_name() == "volumemeter":
        messages.append(s)
pipeline.set_state(Gst.State.NULL)

# 50 buffers of 1024 frames at 48 kHz = 1.0667 s: ten full intervals and a 66.7 ms rest.
assert len(messages) == 11, len(messages)
last = messages[-1]
rms = last.get_value("rms")
assert len(rms) == 2 and all(abs(v - -23.0103) < 0.01 for v in rms), rms
assert abs(last.get_value("integrated") - -20.0) < 0.1, last.get_value("integrated")
assert last.get_value("duration") == 66_666_667, last.get_value("duration")
assert all(math.isfinite(v) for v in last.get_value("true-peak"))
print("python gi: %d messages, rms %s, integrated %.2f LUFS" % (len(messages), [round(v, 3) for v in rms], last.get_value("integrated")))
sys.exit(0)
