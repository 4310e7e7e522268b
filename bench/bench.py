# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs each case's pipelines (ours, the C peer, the baseline) interleaved, several times,
and prints median wall times and the own-cost ratio (peer - baseline) / (ours - baseline):
above 1 means ours costs less than the peer. Wall time is noisy on shared cores, so the same
ratio is also computed from callgrind instruction counts, which are deterministic. Those use
the marginal count between an N-buffer and a 2N-buffer run, which leaves out start-up costs
(loading a plugin, building the pipeline) that a long stream does not pay again."""
import argparse
import collections
import contextlib
import glob
import os
import platform
import re
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from cases import CASES  # noqa: E402


# What a case's pipelines may name besides {n}: {url}, the RTMP server of a case with
# "server": "rtmp", or the SRT receiver's of one with "server": "srt"; {out}, a folder of
# its own for a case with "folder": True; {media}, a recording its "media" pipeline made.
FIELDS = {}


# A case's "media" pipeline, and the recordings of n buffers it made (on first use) for
# its pipelines to read ({media}).
MEDIA = {"pipeline": None, "made": {}}


def text(pipeline, n):
    """A case's pipeline for n buffers: a format string with {n}, or a function of n."""
    if callable(pipeline):
        return pipeline(n)
    fields = dict(FIELDS)
    if "{media}" in pipeline:
        fields["media"] = recording(n)
    return pipeline.format(n=n, **fields)


def recording(n):
    made = MEDIA["made"]
    if n not in made:
        path = os.path.join(FIELDS["out"], f"recording-{n}.mkv")
        subprocess.run(["gst-launch-1.0", "-q"] + shlex.split(MEDIA["pipeline"].format(n=n, file=path)), check=True,
                       stdout=subprocess.DEVNULL)
        made[n] = path
    return made[n]


@contextlib.contextmanager
def server(kind):
    """A real nginx-rtmp (scripts/rtmp-server) or SRT receiver (scripts/srt-receiver) on
    127.0.0.1 for the case, recording into a folder of its own, while the case runs; nothing
    for a case without a server."""
    if kind is None:
        yield
        return
    assert kind in ("rtmp", "srt"), kind
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts",
                          {"rtmp": "rtmp-server", "srt": "srt-receiver"}[kind])
    port = 21935
    with tempfile.TemporaryDirectory(prefix=f"bench-{kind}-") as recordings:
        subprocess.run([script, "start", str(port), recordings], check=True, stdout=subprocess.DEVNULL)
        FIELDS["url"] = f"rtmp://127.0.0.1:{port}/live" if kind == "rtmp" else f"srt://127.0.0.1:{port}"
        try:
            yield recordings
        finally:
            del FIELDS["url"]
            subprocess.run([script, "stop", str(port)], check=True, stdout=subprocess.DEVNULL)


@contextlib.contextmanager
def folder(case):
    """A folder for what a case's pipelines write ({out}) and the recordings they read,
    removed after the case."""
    if not case.get("folder"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="bench-out-") as out:
        FIELDS["out"] = out
        MEDIA["pipeline"] = case.get("media")
        try:
            yield
        finally:
            del FIELDS["out"]
            MEDIA["pipeline"] = None
            MEDIA["made"].clear()


def recorded_frames(recordings, name):
    """Video frames in the server's recording of stream `name` (its last run): a publisher
    that sent less would look cheaper than it is. The SRT receiver records each connection
    to the next file, and each round runs ours, then the peer: theirs are the last two
    that hold anything."""
    path = os.path.join(recordings, f"{name}.flv")
    if not os.path.exists(path):
        # The receiver opens the next file as it listens again: an empty file is not a run's.
        files = sorted((f for f in glob.glob(os.path.join(recordings, "recording-*.ts")) if os.path.getsize(f) > 0),
                       key=lambda f: int(re.findall(r"\d+", f)[-1]))
        path = files[-2 if name == "ours" else -1] if len(files) >= 2 else path
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames", "-of", "csv=p=0", path], capture_output=True, text=True)
    # MPEG-TS lists the stream under its program as well.
    return (probe.stdout.split() or [probe.stderr.strip()])[0].strip(",")


def listed(path):
    """The segments a playlist lists and their seconds: a sink that wrote less would look
    cheaper than it is."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as error:
        return f"no playlist ({error.strerror})"
    durations = [float(line[8:].split(",")[0]) for line in lines if line.startswith("#EXTINF:")]
    return f"{len(durations)} segments, {sum(durations):.2f} s"


def launch(pipeline, n):
    """gst-launch-1.0 for a pipeline; a case may give any other command as {"argv": ...}."""
    if isinstance(pipeline, dict):
        return shlex.split(text(pipeline["argv"], n))
    return ["gst-launch-1.0", "-q"] + shlex.split(text(pipeline, n))


def shown(pipeline, n):
    return " ".join(launch(pipeline, n)) if isinstance(pipeline, dict) else text(pipeline, n)


# A case's "hang_after" seconds (callgrind: CALLGRIND_SLOWDOWN times as many), and the
# runs of each of its pipelines killed for outliving them: a peer that sometimes never ends
# (hlssink2 1.22, waiting at EOS) is measured on the runs that end.
HANGS = {"after": None, "killed": collections.Counter()}
CALLGRIND_SLOWDOWN = 20
ATTEMPTS = 5


def finished(argv, pipeline, n, slowdown=1, **kwargs):
    """subprocess.run of argv, again when it outlives the case's hang_after, and the wall
    time of the run that ended."""
    limit = HANGS["after"] and HANGS["after"] * slowdown
    for _ in range(ATTEMPTS):
        start = time.perf_counter()
        try:
            return subprocess.run(argv, check=True, timeout=limit, **kwargs), time.perf_counter() - start
        except subprocess.TimeoutExpired:
            HANGS["killed"][str(pipeline)] += 1
    sys.exit(f"bench: {ATTEMPTS} runs in a row outlived {limit} s: {shown(pipeline, n)}")


def wall(pipeline, n):
    return finished(launch(pipeline, n), pipeline, n, stdout=subprocess.DEVNULL)[1]


def cpu(pipeline, n):
    """The CPU time (user + system) of a run: for a case paced by a live source, whose wall
    time is the media's."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(launch(pipeline, n), check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(pipeline, n):
    result, _ = finished(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + launch(pipeline, n), pipeline, n,
                         slowdown=CALLGRIND_SLOWDOWN, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    match = re.search(r"Collected : (\d+)", result.stderr)
    return int(match.group(1))


def own_ratio(costs, peer_base):
    own = costs["ours"] - costs["baseline"]
    return (costs["peer"] - costs[peer_base]) / own if own > 0 else float("inf")


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    gst = subprocess.run(["gst-launch-1.0", "--version"], capture_output=True, text=True).stdout.split("\n")[1]
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, {gst}"


def run_case(case, runs, use_callgrind, recordings=None):
    HANGS["after"] = case.get("hang_after")
    HANGS["killed"].clear()
    # A peer outside GStreamer (ffmpeg) brings its own baseline: the same command without it.
    kinds = ("ours", "peer", "baseline") + (("peer_baseline",) if "peer_baseline" in case else ())
    peer_base = "peer_baseline" if "peer_baseline" in case else "baseline"
    n = case["buffers"]
    # The SRT receiver listens again a moment after each caller leaves.
    pause = 0.5 if case.get("server") == "srt" else 0
    cost, measured = (cpu, "CPU time") if case.get("live") else (wall, "wall time")
    for kind in kinds:  # warm-up: registry, page cache
        time.sleep(pause)
        cost(case[kind], 10)
    times = {k: [] for k in kinds}
    for _ in range(runs):
        for kind in kinds:
            time.sleep(pause)
            times[kind].append(cost(case[kind], n))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n## {case['name']}: {case['what']}")
    print(f"   {n} buffers, {runs} runs each, median {measured} (min-max):")
    for kind in kinds:
        print(f"   {kind:13} {med[kind]:8.3f} s  ({min(times[kind]):.3f}-{max(times[kind]):.3f})  {shown(case[kind], n)}")
    own_ours, own_peer = med["ours"] - med["baseline"], med["peer"] - med[peer_base]
    wall_ratio = own_peer / own_ours if own_ours > 0 else float("inf")
    print(f"   own cost: ours {own_ours * 1000:.0f} ms, peer {own_peer * 1000:.0f} ms -> own-cost ratio "
          f"({'CPU' if case.get('live') else 'wall'}) {wall_ratio:.2f}")
    print(f"   own cost per buffer: ours {own_ours / n * 1000:.3f} ms, peer {own_peer / n * 1000:.3f} ms")
    result = {"wall": wall_ratio}
    if recordings:
        print(f"   recorded video frames (last run): ours {recorded_frames(recordings, 'ours')}, "
              f"peer {recorded_frames(recordings, 'peer')}, of {n}")
    for label, path in case.get("playlists", {}).items():
        print(f"   written (last run), {label}: {listed(path.format(**FIELDS))}")
    if use_callgrind and case.get("callgrind_buffers") is None:
        print(f"   callgrind: not for this case ({case['no_callgrind']})")
    elif use_callgrind:
        m = case["callgrind_buffers"]
        counts = {k: (instructions(case[k], m), instructions(case[k], 2 * m)) for k in kinds}
        marginal = {k: (b - a) / m for k, (a, b) in counts.items()}
        full = {k: a for k, (a, b) in counts.items()}
        print(f"   callgrind, instructions per buffer (marginal between {m} and {2 * m} buffers):")
        for kind in kinds:
            print(f"   {kind:13} {marginal[kind]:10.0f} Ir/buffer   ({full[kind]:,} Ir for {m} buffers)")
        cg_ratio = own_ratio(marginal, peer_base)
        full_ratio = own_ratio(full, peer_base)
        print(f"   own-cost ratio (instructions/buffer) {cg_ratio:.2f}; including start-up at {m} buffers {full_ratio:.2f}")
        result["callgrind"] = cg_ratio
    for kind in kinds:
        if killed := HANGS["killed"][str(case[kind])]:
            print(f"   {kind}: {killed} runs outlived {HANGS['after']} s ({CALLGRIND_SLOWDOWN}x that under callgrind), "
                  "were killed and run again")
    if case.get("note"):
        sys.stdout.flush()  # the note writes to the same stdout: keep the order when piped
        subprocess.run(case["note"], check=True)
    if case["target"] is not None:
        verdict = "meets" if min(result.values()) >= case["target"] else "MISSES"
        print(f"   target own-cost ratio >= {case['target']}: {verdict} ({', '.join(f'{k} {v:.2f}' for k, v in result.items())})")
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cases", nargs="*", help="case names (default: all)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-callgrind", action="store_true")
    args = parser.parse_args()
    selected = [c for c in CASES if not args.cases or c["name"] in args.cases]
    print(f"# ReplayCast bench, {time.strftime('%Y-%m-%d %H:%M')}")
    print(f"# machine: {machine()}")
    for case in selected:
        with server(case.get("server")) as recordings, folder(case):
            run_case(case, args.runs, not args.no_callgrind, recordings)


main()
