# SPDX-License-Identifier: LGPL-2.1-or-later
"""docs/embedding.md's message reference against the code: the names replaycast.h defines,
and the messages the elements really post (names, fields, field types).

As a script: runs volumemeter, dualmixer, replaykitsrc (pause, resume, changes by schedule
and by the event signal, setup info), rtmpreconnectsink without a server and llhlssink, and
checks every message. rtmp_reconnect.py checks the messages that need a server with problems().
"""
import os
import re
import sys
import tempfile

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
HEADER = os.path.join(ROOT, "Sources", "CReplayCast", "include", "replaycast.h")
DOCS = os.path.join(ROOT, "docs", "embedding.md")
# Fields the elements post only in some configurations; the rest must be in every message.
CONDITIONAL = {("replaykit-broadcast-started", "setup-info"), ("volumemeter", "momentary"),
               ("volumemeter", "short-term"), ("volumemeter", "integrated"), ("volumemeter", "true-peak"),
               ("volumemeter", "max-momentary"), ("volumemeter", "max-short-term"), ("volumemeter", "loudness-range"),
               ("volumemeter", "max-true-peak")}


def reference():
    """{message: {field: GType name}} from the docs' table."""
    table = {}
    text = open(DOCS, encoding="utf-8").read()
    section = text.split("## Messages", 1)[1]
    for row in re.finditer(r"^\| `([a-z0-9-]+)` \| `([a-z0-9-]+)` \| (\w+) \|", section, re.M):
        table.setdefault(row.group(1), {})[row.group(2)] = row.group(3)
    return table


def header_names():
    """(message names, field names, input states) defined in replaycast.h."""
    defines = re.findall(r'#define REPLAYCAST_(MESSAGE|FIELD|INPUT)_\w+ "([^"]+)"', open(HEADER, encoding="utf-8").read())
    return ({v for k, v in defines if k == "MESSAGE"}, {v for k, v in defines if k == "FIELD"},
            {v for k, v in defines if k == "INPUT"})


def problems(structure, table=None):
    """What in this message disagrees with the reference: unknown message, missing or
    undocumented fields, a type other than the documented one."""
    table = table or reference()
    name = structure.get_name()
    if name not in table:
        return [f"{name}: not in the reference"]
    found = []
    fields = {structure.nth_field_name(i) for i in range(structure.n_fields())}
    for field in sorted(fields):
        documented = table[name].get(field)
        actual = structure.get_field_type(field).name
        if documented is None:
            found.append(f"{name}: field {field} ({actual}) is not in the reference")
        elif documented != actual:
            found.append(f"{name}: field {field} is {actual}, the reference says {documented}")
    for field in sorted(set(table[name]) - fields - {f for m, f in CONDITIONAL if m == name}):
        found.append(f"{name}: documented field {field} is missing")
    return found


def element_messages(description, seconds=10):
    pipeline = Gst.parse_launch(description)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    messages, ours = [], Gst.MessageType.ELEMENT | Gst.MessageType.EOS | Gst.MessageType.ERROR
    while True:
        message = bus.timed_pop_filtered(seconds * Gst.SECOND, ours)
        if message is None or message.type != Gst.MessageType.ELEMENT:
            break
        messages.append(message.get_structure().copy())
    pipeline.set_state(Gst.State.NULL)
    return messages


def main():
    Gst.init(None)
    failures = []
    table = reference()
    messages, fields, inputs = header_names()
    if set(table) != messages:
        failures.append(f"replaycast.h's messages {sorted(messages ^ set(table))} differ from the reference")
    documented_fields = {f for m in table.values() for f in m}
    if documented_fields != fields:
        failures.append(f"replaycast.h's fields {sorted(fields ^ documented_fields)} differ from the reference")
    docs = open(DOCS, encoding="utf-8").read()
    failures += [f"input state {s} is not in the reference" for s in sorted(inputs) if f"`{s}`" not in docs]

    posted = element_messages(
        'replaykitsrc name=rk is-live=false duration=3000000000 setup-info="setup,broadcastName=reference" '
        'schedule="500ms:pause; 1s:resume; 1500ms:orientation=left; 2s:mic=off" '
        "rk.video ! fakesink rk.audio_app ! queue ! mix.app rk.audio_mic ! queue ! mix.mic "
        "dualmixer name=mix post-levels=true ! volumemeter loudness=true ! fakesink")
    posted += element_messages(
        "audiotestsrc num-buffers=5 ! volumemeter ! fakesink")
    posted += element_messages(
        "videotestsrc num-buffers=30 ! x264enc ! h264parse ! r.video "
        "rtmpreconnectsink name=r location=rtmp://127.0.0.1:9/live/x connect-retries=1 retry-delay=100000000", seconds=5)
    with tempfile.TemporaryDirectory(prefix="message-reference-") as folder:
        posted += element_messages(
            "videotestsrc num-buffers=60 ! video/x-raw,width=64,height=48,framerate=30/1 ! x264enc key-int-max=15 "
            "! h264parse ! ll.video_0 audiotestsrc num-buffers=90 samplesperbuffer=1024 ! avenc_aac ! aacparse ! ll.audio "
            f"llhlssink name=ll location={folder} target-duration=1")
    for structure in posted:
        failures += problems(structure, table)
    names = {s.get_name() for s in posted}
    # rtmp-bitrate's fields are compared in Tests/system/adaptive_bitrate.py, which needs a slow link.
    expected = set(table) - {"rtmp-connected", "rtmp-disconnected", "rtmp-reconnected", "rtmp-bitrate"}
    if names != expected:
        failures.append(f"messages posted {sorted(names)}, expected {sorted(expected)}")
    print(f"message reference: {len(table)} messages, {len(documented_fields)} field names; "
          f"{len(posted)} posted messages of {len(names)} kinds compared")
    for failure in sorted(set(failures)):
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
