#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs a gst-launch line for SECONDS with the src pad of the element named ELEMENT
offset by OFFSET_NS (gst_pad_set_offset: that branch's running time moves, as a late
capture or a slow encoder would move it), then sends EOS and waits for the end.
Used to check that `replaycast check-sync` reads a known A/V offset.

    delayed_branch.py ELEMENT OFFSET_NS SECONDS COMMAND

COMMAND is what `replaycast print` gives: a gst-launch-1.0 command line for a shell.
"""
import shlex
import sys
import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst

element_name, offset, seconds, command = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
Gst.init(None)
pipeline = Gst.parse_launch(" ".join(shlex.split(command)[1:]))
pipeline.get_by_name(element_name).get_static_pad("src").set_offset(offset)
bus = pipeline.get_bus()
pipeline.set_state(Gst.State.PLAYING)
mask = Gst.MessageType.EOS | Gst.MessageType.ERROR
message = bus.timed_pop_filtered(int(seconds * Gst.SECOND), mask)
if message is None:
    pipeline.send_event(Gst.Event.new_eos())
    message = bus.timed_pop_filtered(30 * Gst.SECOND, mask)
pipeline.set_state(Gst.State.NULL)
if message is None or message.type == Gst.MessageType.ERROR:
    print("failed:", message.parse_error()[0].message if message else "no end of stream", file=sys.stderr)
    sys.exit(1)
