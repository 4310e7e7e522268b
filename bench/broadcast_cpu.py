# SPDX-License-Identifier: LGPL-2.1-or-later
"""The whole main job: CPU per broadcast second of pipelines/broadcast-hls.pipeline, and the
share of our elements (libgstreplaycast.so) in it. Target: our elements < 10 % of the
pipeline's CPU.

1. Non-live, as fast as possible (gst-launch-1.0, the file's graph with replaykitsrc
   is-live=false duration=...): wall and CPU time of the process -> CPU seconds per
   broadcast second and how many times faster than real time it runs.
2. Live, with the CLI as a user runs it (`replaycast run FILE --duration 10`): wall and CPU
   time -> CPU seconds per broadcast second, share of the machine, and whether the output
   kept up (the playlist's EXTINF sum against the broadcast time).
3. Instructions (valgrind --tool=callgrind, deterministic), non-live, marginal between S and
   2S seconds of broadcast (start-up left out): instructions per broadcast second by object
   (libgstreplaycast vs libx264, libavcodec, GStreamer core, glib, libc, ...). Our share is
   given twice: the instructions executed in our plugin, and those plus what our code calls
   in other libraries (memcpy, buffer pools, bus posts), leaving out the calls that hand
   data downstream (gst_pad_push*, gst_aggregator_finish_buffer*), which belong to the
   elements after ours.

Run by bench/run (stripped plugin copy on GST_PLUGIN_PATH: valgrind 3.19 cannot read the
DWARF 5 debug info Swift emits). Alone:
  GST_PLUGIN_PATH=DIR python3 bench/broadcast_cpu.py [--cli PATH] [--seconds S] [--no-callgrind]
It takes the same arguments as bench.py and runs when no case or the case `broadcast` is named.
"""
import argparse
import collections
import math
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OURS = "libgstreplaycast"
# Calls from our code that hand buffers and events to the next element: their cost is the
# downstream elements', not ours.
DOWNSTREAM = re.compile(r"^(gst_pad_push|gst_aggregator_finish_buffer|gst_pad_send_event|gst_element_send_event"
                        r"|gst_proxy_pad_chain|gst_pad_forward)")
# Object groups, first match wins.
GROUPS = [("ours (libgstreplaycast)", r"libgstreplaycast"), ("x264 (libx264)", r"libx264"),
          ("AAC (libavcodec, libavutil, libswresample)", r"libavcodec|libavutil|libswresample|libgstlibav"),
          ("videoscale, videoconvert (liborc, libgstvideo*)", r"liborc|libgstvideoscale|libgstvideoconvert|libgstvideo-"),
          ("audioconvert (libgstaudio*)", r"libgstaudio"),
          ("x264enc, h264parse, hlssink2, mpegtsmux, aacparse (their plugins)",
           r"libgstx264|libgstvideoparsersbad|libgstaudioparsers|libgsthls|libgstmpegtsmux|libgstcodecparsers"
           r"|libgstmpegts|libgstpbutils|libgstcoreelements|libgsttag|libgstmultifile|libgstbadaudio"),
          ("GStreamer core (libgstreamer, libgstbase)", r"libgstreamer-|libgstbase-"),
          ("GLib, GObject", r"libglib|libgobject|libgmodule|libgio"),
          ("libc, libm, ld.so", r"libc\.so|libc-|libm\.so|ld-linux|libpthread"),
          ("run-time generated code (orc), valgrind, other", r".")]


def pipeline_tokens(path, values, seconds):
    """The pipeline file as gst-launch-1.0 arguments for a non-live run of `seconds`:
    comments dropped, ${NAME:-default} filled, empty properties dropped (gst-launch would
    take the next word as the value), replaykitsrc non-live and finite, test sources
    (the PiP camera) non-live and as long."""
    with open(path, encoding="utf-8") as f:
        text = "\n".join(line for line in f.read().splitlines() if not line.lstrip().startswith("#"))
    text = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}",
                  lambda m: values.get(m.group(1), m.group(2) or ""), text)
    tokens = [t for t in shlex.split(text) if not re.fullmatch(r"[\w:-]+=", t)]
    result = []
    for i, token in enumerate(tokens):
        if token in ("is-live=true", "is-live=1"):
            token = "is-live=false"
        result.append(token)
        if token == "replaykitsrc":
            result += ["is-live=false", f"duration={int(seconds * 1e9)}"]
        elif token in ("videotestsrc", "audiotestsrc"):
            chain = tokens[i + 1:i + 12]
            if not any(t.startswith("num-buffers=") for t in chain):
                if token == "videotestsrc":
                    rate = next((re.search(r"framerate=(?:\(fraction\))?(\d+)/(\d+)", t) for t in chain
                                 if "framerate=" in t), None)
                    fps = int(rate.group(1)) / int(rate.group(2)) if rate else 30
                    result.append(f"num-buffers={math.ceil(seconds * fps)}")
                else:
                    result.append(f"num-buffers={math.ceil(seconds * 100)}")  # 10 ms buffers
    return result


def timed(command, timeout, tries=3):
    """Wall and CPU (user + system) seconds of a child process. A run that outlives its
    timeout is reported and run again (the non-live graph has hung in some runs)."""
    for attempt in range(tries):
        try:
            return timed_once(command, timeout)
        except subprocess.TimeoutExpired:
            print(f"   HUNG: no end after {timeout:.0f} s (run {attempt + 1} of at most {tries}), killed", flush=True)
    print(f"   HUNG {tries} times: {shlex.join(command)}", flush=True)
    return None


def timed_once(command, timeout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {shlex.join(command)}\n{result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss


def extinf_sum(folder):
    with open(os.path.join(folder, "playlist.m3u8"), encoding="utf-8") as f:
        text = f.read()
    return sum(float(d) for d in re.findall(r"^#EXTINF:([0-9.]+)", text, re.M)), "#EXT-X-ENDLIST" in text


def fresh(folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def non_live(args, scratch):
    seconds = args.wall_seconds
    print(f"\n   non-live (gst-launch-1.0, as fast as possible), {seconds:g} s of broadcast, {args.runs} runs:")
    runs = []
    for _ in range(args.runs):
        out = fresh(os.path.join(scratch, "nonlive"))
        tokens = pipeline_tokens(args.pipeline, {**args.values, "OUT": out}, seconds)
        measured = timed(["gst-launch-1.0", "-q"] + tokens, timeout=30 + 4 * seconds)
        if measured:
            runs.append(measured[:2])
    if not runs:
        print("   -> no run ended: no non-live figure")
        return None
    wall = statistics.median(w for w, _ in runs)
    cpu = statistics.median(c for _, c in runs)
    content, _ = extinf_sum(out)
    print(f"   wall {wall:.2f} s (min {min(w for w, _ in runs):.2f}, max {max(w for w, _ in runs):.2f}), "
          f"CPU {cpu:.2f} s, output {content:.2f} s")
    print(f"   -> {cpu / seconds:.3f} CPU s per broadcast second; {seconds / wall:.2f}x real time")
    return cpu / seconds


def live(args, scratch):
    seconds = args.live_seconds
    runs = max(1, min(args.runs, 3))
    print(f"\n   live ({os.path.basename(args.cli)} run {os.path.relpath(args.pipeline, ROOT)} --duration {seconds:g}), "
          f"{runs} run(s):")
    results = []
    for _ in range(runs):
        out = fresh(os.path.join(scratch, "live"))
        command = [args.cli, "run", args.pipeline, "--duration", f"{seconds:g}", "--set", f"OUT={out}"]
        for name, value in args.values.items():
            command += ["--set", f"{name}={value}"]
        measured = timed(command, timeout=60 + 3 * seconds)
        if not measured:
            continue
        wall, cpu, _ = measured
        content, ended = extinf_sum(out)
        results.append((wall, cpu, content, ended))
        print(f"   wall {wall:.2f} s, CPU {cpu:.2f} s = {cpu / seconds:.3f} CPU s per broadcast second "
              f"({100 * cpu / wall:.0f} % of one core, {100 * cpu / wall / os.cpu_count():.0f} % of {os.cpu_count()}), "
              f"output {content:.2f} s{'' if ended else ' (no ENDLIST)'}")
    if not results:
        return None
    wall, cpu, content, _ = (statistics.median(r[i] for r in results) for i in range(4))
    kept_up = abs(content - seconds) <= 0.5
    print(f"   -> median {cpu / seconds:.3f} CPU s per broadcast second, real-time factor (wall / broadcast time) "
          f"{wall / seconds:.3f}, output {content:.2f} s of {seconds:g}: {'kept up' if kept_up else 'DID NOT keep up'}")
    return cpu / seconds


def parse_callgrind(path):
    """Exclusive instructions per object, and per function of our object: its own
    instructions and the inclusive instructions of its calls into other objects, split
    into downstream hand-overs and the rest."""
    names = {"ob": {}, "fn": {}}
    exclusive = collections.Counter()
    own_fn = collections.Counter()
    callee_cost = collections.Counter()   # (our function, callee) -> inclusive Ir, callee not ours
    total = None
    ob = fn = None
    call_ob = call_fn = None
    in_call = False

    def name(kind, value):
        match = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not match:
            return value
        if match.group(2) is not None:
            names[kind][match.group(1)] = match.group(2)
        return names[kind].get(match.group(1), value)

    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                parts = line.split()
                cost = int(parts[1]) if len(parts) > 1 else 0
                if in_call:
                    if OURS in (ob or "") and OURS not in call_ob:
                        callee_cost[(fn, call_fn)] += cost
                    in_call = False
                    call_ob = call_fn = None
                else:
                    exclusive[ob] += cost
                    if OURS in (ob or ""):
                        own_fn[fn] += cost
                continue
            key, _, value = line.partition("=")
            if key == "ob":
                ob = name("ob", value)
            elif key == "fn":
                fn = name("fn", value)
            elif key == "cob":
                call_ob = name("ob", value)
            elif key == "cfn":
                call_fn = name("fn", value)
            elif key == "calls":
                in_call = True
                call_ob = call_ob or ob
            elif line.startswith("totals:") or line.startswith("summary:"):
                total = int(line.split()[1])
    return exclusive, own_fn, callee_cost, total


def callgrind(args, scratch, seconds):
    out = fresh(os.path.join(scratch, f"cg{seconds:g}"))
    tokens = pipeline_tokens(args.pipeline, {**args.values, "OUT": out}, seconds)
    data = os.path.join(scratch, f"callgrind.{seconds:g}.out")
    start = time.perf_counter()
    command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={data}", "gst-launch-1.0", "-q"] + tokens
    if not timed(command, timeout=300 + 100 * seconds):
        sys.exit("callgrind: the pipeline did not end")
    parsed = parse_callgrind(data)
    print(f"   callgrind, {seconds:g} s of broadcast: {parsed[3]:,} Ir ({time.perf_counter() - start:.0f} s under valgrind)")
    return parsed


def group_of(obj):
    return next(label for label, pattern in GROUPS if re.search(pattern, obj or ""))


def instructions(args, scratch):
    s = args.seconds
    print(f"\n   instructions (callgrind, non-live), marginal between {s:g} and {2 * s:g} s of broadcast:")
    small, large = callgrind(args, scratch, s), callgrind(args, scratch, 2 * s)
    total = (large[3] - small[3]) / s
    groups = collections.Counter()
    for obj, cost in large[0].items():
        groups[group_of(obj)] += cost
    for obj, cost in small[0].items():
        groups[group_of(obj)] -= cost
    print(f"   {'object group':66} {'M Ir / broadcast s':>18} {'share':>7}")
    for label, cost in groups.most_common():
        print(f"   {label:66} {cost / s / 1e6:18.1f} {100 * cost / s / total:6.1f} %")
    print(f"   {'all':66} {total / 1e6:18.1f}")
    own = (sum(large[1].values()) - sum(small[1].values())) / s

    def calls(parsed, downstream):
        return sum(c for (_, callee), c in parsed[2].items() if bool(DOWNSTREAM.match(callee or "")) == downstream)

    called = (calls(large, False) - calls(small, False)) / s
    handed = (calls(large, True) - calls(small, True)) / s
    functions = collections.Counter(large[1])
    functions.subtract(small[1])
    top = collections.Counter()
    for (function, callee), cost in large[2].items():
        top[callee] += cost
    print("   our plugin's calls into other objects, largest (inclusive Ir, longer run): "
          + ", ".join(f"{callee} {cost / 1e6:.1f} M" for callee, cost in top.most_common(8)))
    share_own, share_with = 100 * own / total, 100 * (own + called) / total
    print(f"   ours: {own / 1e6:.1f} M Ir per broadcast second in the plugin = {share_own:.1f} %; "
          f"with what it calls in other libraries {(own + called) / 1e6:.1f} M = {share_with:.1f} % "
          f"(hand-overs downstream left out: {handed / 1e6:.1f} M)")
    print("   our plugin's own functions, largest (Ir per broadcast second, share of all):")
    for function, cost in functions.most_common(6):
        print(f"     {cost / s / 1e6:8.1f} M {100 * cost / s / total:5.1f} %  {function}")
    verdict = "meets" if share_with < 10 else "MISSES"
    print(f"   target: our elements < 10 % of the pipeline's instructions: {verdict} ({share_with:.1f} %)")
    return share_with


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="*", help="bench.py's case names: runs when none or `broadcast` is given")
    parser.add_argument("--runs", type=int, default=5, help="non-live wall-time runs (live: at most 3)")
    parser.add_argument("--no-callgrind", action="store_true")
    parser.add_argument("--pipeline", default=os.path.join(ROOT, "pipelines", "broadcast-hls.pipeline"))
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="pipeline placeholder")
    parser.add_argument("--cli", default=os.environ.get("REPLAYCAST", os.path.join(ROOT, ".build", "release", "replaycast")))
    parser.add_argument("--seconds", type=float, default=2, help="callgrind: S and 2S seconds of broadcast (default 2)")
    parser.add_argument("--wall-seconds", type=float, default=10, help="non-live broadcast seconds (default 10)")
    parser.add_argument("--live-seconds", type=float, default=10, help="live broadcast seconds (default 10)")
    args = parser.parse_args()
    if args.cases and "broadcast" not in args.cases:
        return
    args.values = dict(v.split("=", 1) for v in args.set)
    print(f"\n## broadcast: the main job's whole pipeline ({os.path.relpath(args.pipeline, ROOT)}): "
          "CPU per broadcast second, our elements' share")
    print(f"   plugin from GST_PLUGIN_PATH={os.environ.get('GST_PLUGIN_PATH', '')}")
    with tempfile.TemporaryDirectory(prefix="broadcast-cpu-") as scratch:
        non_live(args, scratch)
        live(args, scratch)
        if not args.no_callgrind:
            instructions(args, scratch)


if __name__ == "__main__":
    main()
