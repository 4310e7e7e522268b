#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs a broadcast from a pipeline file with PyGObject, prints volumemeter readings and the
ReplayKit broadcast's lifecycle, and pauses, resumes and finishes it through replaykitsrc's
action signals at the given running times (seconds).

    examples/python/broadcast.py pipelines/meters.pipeline --pause-at 1 --resume-at 2 --finish-at 3.5

Needs the installed plugin (scripts/install). Ends at end of stream (Ctrl-C sends one);
exit 1 on an error, printed with the element that posted it.
"""
import argparse
import math
import os
import re
import signal
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

DEFAULT_FILE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "pipelines",
                                             "meters.pipeline"))


class Failure(Exception):
    pass


def on_sigint(callback):
    """Calls `callback` on Ctrl-C from the main loop. PyGObject 3.58 (GLib 2.86) has it as
    GLibUnix.signal_add and warns on GLib.unix_signal_add; older ones have only the latter."""
    try:
        gi.require_version("GLibUnix", "2.0")
        from gi.repository import GLibUnix
        add = getattr(GLibUnix, "signal_add", None)
    except (ValueError, ImportError):
        add = None
    return (add or GLib.unix_signal_add)(GLib.PRIORITY_DEFAULT, signal.SIGINT, callback)


def read_pipeline_file(path, variables):
    """The file's lines with `#` comments cut and `${NAME:-default}` placeholders filled: the
    format of replaycast run (docs/cli.md). Lines are kept so errors can name one."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except OSError as error:
        raise Failure(f"{path}: cannot read the file: {error.strerror}")
    return [fill(line.split("#", 1)[0], variables, f"{path}:{number}")
            for number, line in enumerate(text.split("\n"), 1)]


def fill(line, variables, where):
    def value(match):
        name, has_default, default = match[1].partition(":-")
        if not match[2]:
            raise Failure(f"{where}: unterminated ${{ placeholder")
        if name in variables:
            return variables[name]
        if has_default:
            return default
        raise Failure(f"{where}: ${{{name}}} has no value: pass --set {name}=VALUE")
    return re.sub(r"\$\{([^}]*)(\}?)", value, line)


def line_of(message, lines):
    """The line a parse error most likely points at: the first holding a name the message
    quotes (an unknown element or property), else one naming an element it could not link,
    the downstream one first."""
    names = re.findall(r'"([^"]+)"', message)
    link = re.search(r"could not link (\w+) to (\w+)", message)
    if link:
        names += [name for element in (link[2], link[1]) for name in (f"name={element}", element.rstrip("0123456789"))]
    for name in names:
        for number, line in enumerate(lines, 1):
            if name in line:
                return number
    return None


def launch(path, lines):
    try:
        return Gst.parse_launch(" ".join(lines))
    except GLib.Error as error:
        number = line_of(error.message, lines)
        text = f"{path}:{number}: {error.message}" if number else f"{path}: {error.message}"
        if Gst.Registry.get().find_plugin("replaycast") is None:
            text += " (the replaycast plugin is not installed: scripts/install)"
        raise Failure(text)


def seconds(nanoseconds):
    return "%.3f" % (nanoseconds / Gst.SECOND)


def describe(s):
    """The line printed for a meter or lifecycle message, None for other messages."""
    name = s.get_name()
    if name == "volumemeter":
        fields = ["running-time=" + seconds(s.get_value("running-time")),
                  "rms=" + ",".join("%.2f" % v for v in s.get_value("rms"))]
        fields += ["%s=%.2f" % (f, s.get_value(f)) for f in ("momentary", "short-term", "integrated") if s.has_field(f)]
    elif name == "replaykit-broadcast-started":
        fields = ["device=" + s.get_value("device"), "size=%dx%d" % (s.get_value("width"), s.get_value("height"))]
    elif name.startswith("replaykit-broadcast-"):
        fields = ["running-time=" + seconds(s.get_value("running-time")),
                  "broadcast-time=" + seconds(s.get_value("broadcast-time")), "action=" + s.get_value("action")]
    else:
        return None
    return " ".join([name] + fields)


def run(pipeline, source, actions):
    """Plays the pipeline until end of stream (returns 0) or an error (returns 1), emitting
    the actions [(seconds, signal name)] on source at those running times."""
    loop = GLib.MainLoop()
    status = 0

    def emit(action):
        source.emit(action)
        return GLib.SOURCE_REMOVE

    def start_actions():
        # Timers from now, in running time: with a live source an action signal takes
        # effect at the clock time it is emitted. Rounded up: never before the time asked for.
        now = pipeline.get_clock().get_time() - pipeline.get_base_time()
        for at, action in actions:
            GLib.timeout_add(max(0, math.ceil((at * Gst.SECOND - now) / Gst.MSECOND)), emit, action)
        actions.clear()

    def end_of_stream():
        pipeline.send_event(Gst.Event.new_eos())
        return GLib.SOURCE_CONTINUE

    def on_message(bus, message):
        nonlocal status
        if message.type == Gst.MessageType.EOS:
            print("eos")
            loop.quit()
        elif message.type in (Gst.MessageType.ERROR, Gst.MessageType.WARNING):
            error, debug = message.parse_error() if message.type == Gst.MessageType.ERROR else message.parse_warning()
            print(f"{message.src.get_name()}: {error.message}", file=sys.stderr)
            if debug:
                print(f"  {debug}", file=sys.stderr)
            if message.type == Gst.MessageType.ERROR:
                status = 1
                loop.quit()
        elif message.type == Gst.MessageType.ELEMENT:
            line = describe(message.get_structure())
            if line:
                print(line)
        elif message.type == Gst.MessageType.STATE_CHANGED and message.src == pipeline:
            if message.parse_state_changed().newstate == Gst.State.PLAYING:
                start_actions()
        return True

    bus = pipeline.get_bus()
    bus.add_watch(GLib.PRIORITY_DEFAULT, on_message)
    on_sigint(end_of_stream)
    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        status = 1  # the error message explains it
    loop.run()
    pipeline.set_state(Gst.State.NULL)
    bus.remove_watch()
    return status


def variable(text):
    name, equals, value = text.partition("=")
    if not equals or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE with a placeholder name")
    return name, value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=DEFAULT_FILE, help="pipeline file (default pipelines/meters.pipeline)")
    parser.add_argument("--set", type=variable, action="append", default=[], metavar="NAME=VALUE",
                        help="fill ${NAME} placeholders")
    for action in ("pause", "resume", "finish"):
        parser.add_argument(f"--{action}-at", type=float, metavar="SECONDS",
                            help=f"emit replaykitsrc's {action} signal at this running time")
    arguments = parser.parse_args()
    actions = sorted((at, action) for action, at in (("pause", arguments.pause_at), ("resume", arguments.resume_at),
                                                     ("finish", arguments.finish_at)) if at is not None)
    sys.stdout.reconfigure(line_buffering=True)
    Gst.init(None)
    try:
        pipeline = launch(arguments.file, read_pipeline_file(arguments.file, dict(arguments.set)))
        result, source = pipeline.iterate_all_by_element_factory_name("replaykitsrc").next()
        if actions and result != Gst.IteratorResult.OK:
            raise Failure(f"{arguments.file}: no replaykitsrc to pause, resume or finish")
    except Failure as failure:
        print(failure, file=sys.stderr)
        return 1
    return run(pipeline, source, actions)


if __name__ == "__main__":
    sys.exit(main())
