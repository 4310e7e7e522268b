# SPDX-License-Identifier: LGPL-2.1-or-later
"""Zero allocations per buffer: each case of every fixture's `allocations` (Tests/system/
fixtures.json; rtmpreconnectsink's streams to a real nginx-rtmp) runs to steady state (2 s
of content), then the malloc_count.so shim (LD_PRELOAD, see malloc_count.c) counts the heap
allocations made from libgstreplaycast.so while WINDOW buffers pass the sink named `out`.
Fails if an element allocates at all (a GstAggregatorPad queue link is the base class's:
see base_class_queue_link), and prints where each allocation comes from.

Run by Tests/system/allocations, which builds the shim and preloads it. The cases keep
messages out of the window: posting is per interval, not per buffer. GSlice goes through
malloc (G_SLICE=always-malloc), so a GstBuffer or event made per buffer is seen.
"""
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import threading

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402
import plugin_elements  # noqa: E402

WARM_UP_NS = 2 * Gst.SECOND
WINDOW = 100  # buffers on the output pad named "out"

shim = ctypes.CDLL(None)
for name, result in (("mc_init", ctypes.c_int), ("mc_disarm", ctypes.c_long), ("mc_downstream", ctypes.c_long),
                     ("mc_kept", ctypes.c_int), ("mc_kept_size", ctypes.c_size_t), ("mc_kept_seen", ctypes.c_long),
                     ("mc_kept_frame", ctypes.c_int)):
    getattr(shim, name).restype = result


def measure(description):
    """Returns (allocations from our code, allocations downstream of our pushes, buffers
    on all sinks) in the window."""
    pipeline = Gst.parse_launch(description)
    state = {"out": 0, "armed": False, "buffers": 0, "count": None}
    done = threading.Event()

    def on_out(pad, info):
        if state["armed"]:
            state["out"] += 1
            if state["out"] == WINDOW:
                state["count"] = shim.mc_disarm()
                state["armed"] = False
                done.set()
        elif state["count"] is None and info.get_buffer().pts >= WARM_UP_NS:
            state["armed"] = True
            shim.mc_arm()
        return Gst.PadProbeReturn.OK

    def on_any(pad, info):
        if state["armed"]:
            state["buffers"] += 1
        return Gst.PadProbeReturn.OK

    sinks = pipeline.iterate_sinks()
    while True:
        result, sink = sinks.next()
        if result != Gst.IteratorResult.OK:
            break
        pad = sink.get_static_pad("sink")
        if pad is None:  # rtmpreconnectsink's pads are request pads; the window is counted on out
            continue
        pad.add_probe(Gst.PadProbeType.BUFFER, on_any)
        if sink.get_name() == "out":
            pad.add_probe(Gst.PadProbeType.BUFFER, on_out)
    pipeline.set_state(Gst.State.PLAYING)
    bus = pipeline.get_bus()
    while not done.is_set():
        message = bus.timed_pop_filtered(100 * Gst.MSECOND, Gst.MessageType.ERROR | Gst.MessageType.EOS)
        if message is not None:
            pipeline.set_state(Gst.State.NULL)
            raise RuntimeError(f"{message.type.first_value_nick} before the window ended")
    pipeline.set_state(Gst.State.NULL)
    return state["count"], shim.mc_downstream(), state["buffers"]


def kept_stacks(library):
    """The stacks the shim kept: (times seen, size, [(frame name, in our library)]), the
    allocator's caller first. Frames in our library are named by addr2line (its functions
    are not exported) and demangled when the swift tool is on PATH."""
    stacks = []
    text = ctypes.create_string_buffer(1024)
    for k in range(shim.mc_kept()):
        frames = []
        for i in range(64):
            if not shim.mc_kept_frame(k, i, text, len(text)):
                break
            frames.append(text.value.decode(errors="replace").split("\t"))
        stacks.append((shim.mc_kept_seen(k), shim.mc_kept_size(k), frames))
    ours = sorted({offset for _, _, frames in stacks for path, offset, _ in frames
                   if path.endswith("libgstreplaycast.so")})
    names = {}
    if ours:
        lines = subprocess.run(["addr2line", "-f", "-e", library] + ours, capture_output=True, text=True).stdout
        functions = lines.splitlines()[0::2]
        demangled = []
        if functions and shutil.which("swift"):
            demangled = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(functions),
                                       capture_output=True, text=True).stdout.splitlines()
        names = dict(zip(ours, demangled if len(demangled) == len(functions) else functions))
    return [(seen, size, [(names.get(offset) or symbol or f"{os.path.basename(path)}+{offset}",
                           path.endswith("libgstreplaycast.so")) for path, offset, symbol in frames])
            for seen, size, frames in stacks]


def base_class_queue_link(frames):
    """GstAggregatorPad's queue link (g_queue_push_head called from libgstbase) for the
    buffer dualmixer's chain hands on as its token: the base class allocates it, now and then
    (0 to 4 times in 100 output buffers measured), and it is not counted as ours."""
    names = [name for name, _ in frames]
    return any(a == "g_queue_push_head" and b.startswith("libgstbase-1.0.so") for a, b in zip(names, names[1:]))


def main():
    Gst.init(None)
    factory = Gst.ElementFactory.find("volumemeter")
    if factory is None:
        sys.exit("the plugin is not installed")
    library = factory.get_plugin().get_filename()
    rtmp = f"rtmp://127.0.0.1:{os.environ['RTMP_PORT']}/live"
    cases = {name: line for fixture in plugin_elements.fixtures(rtmp) for name, line in fixture["allocations"].items()}
    # The plugin loads on the first pipeline: build one so the shim can find its code.
    Gst.parse_launch(f"{factory.get_name()} ! fakesink").set_state(Gst.State.NULL)
    if not shim.mc_init():
        sys.exit("malloc_count: libgstreplaycast.so not found in the process (is the shim preloaded?)")
    screen = os.path.join(tempfile.mkdtemp(prefix="replaycast-allocations-"), "screen.mov")
    maker = Gst.parse_launch("videotestsrc num-buffers=240 pattern=ball ! video/x-raw,width=320,height=180,framerate=30/1"
                             f" ! x264enc speed-preset=ultrafast ! qtmux ! filesink location={screen}")
    maker.set_state(Gst.State.PLAYING)
    maker.get_bus().timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR)
    maker.set_state(Gst.State.NULL)
    failures = 0
    print(f"allocations from libgstreplaycast.so while {WINDOW} buffers leave the element, after "
          f"{WARM_UP_NS // Gst.SECOND} s of content")
    for name, description in cases.items():
        count, downstream, buffers = measure(description.replace("{screen}", screen))
        stacks = kept_stacks(library) if count else []
        base = sum(seen for seen, _, frames in stacks if base_class_queue_link(frames))
        own = count - base
        print(f"  {name:<17} {own:>4} allocations for {buffers:>3} buffers out: {own / buffers:.2f} per buffer"
              f"  ({base} by the base class's queue, {downstream} by downstream elements during our pushes:"
              " not counted)")
        failures += own > 0
        for seen, size, frames in stacks:
            # From the allocator to three frames of our own code (past the Swift runtime,
            # linked into the plugin): what was called, and by whom.
            first = next((i for i, (frame, ours) in enumerate(frames)
                          if ours and not frame.startswith(("swift_", "specialized _", "specialized Array"))),
                         len(frames))
            label = "base class" if base_class_queue_link(frames) else "FAIL"
            print(f"    {label}: {seen:>4} x {size} bytes: " + " <- ".join(frame for frame, _ in frames[:first + 3]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
