# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs each case's pipelines (ours, the C peer, the baseline) interleaved, several times,
and prints median wall times and the own-cost ratio (peer - baseline) / (ours - baseline):
above 1 means ours costs less than the peer. Wall time is noisy on shared cores, so the same
ratio is also computed from callgrind instruction counts, which are deterministic. Those use
the marginal count between an N-buffer and a 2N-buffer run, which leaves out start-up costs
(loading a plugin, building the pipeline) that a long stream does not pay again."""
import argparse
import contextlib
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
from cases import CASES  # noqa: E402


# What a case's pipelines may name besides {n}: {url}, the RTMP server of a case with
# "server": "rtmp".
FIELDS = {}


def text(pipeline, n):
    """A case's pipeline for n buffers: a format string with {n}, or a function of n."""
    return pipeline(n) if callable(pipeline) else pipeline.format(n=n, **FIELDS)


@contextlib.contextmanager
def server(kind):
    """A real nginx-rtmp on 127.0.0.1 for the case (scripts/rtmp-server), recording into a
    folder of its own, while the case runs; nothing for a case without a server."""
    if kind is None:
        yield
        return
    assert kind == "rtmp", kind
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "rtmp-server")
    port = 21935
    with tempfile.TemporaryDirectory(prefix="bench-rtmp-") as recordings:
        subprocess.run([script, "start", str(port), recordings], check=True, stdout=subprocess.DEVNULL)
        FIELDS["url"] = f"rtmp://127.0.0.1:{port}/live"
        try:
            yield recordings
        finally:
            del FIELDS["url"]
            subprocess.run([script, "stop", str(port)], check=True, stdout=subprocess.DEVNULL)


def recorded_frames(recordings, name):
    """Video frames in the server's recording of stream `name` (its last run): a publisher
    that sent less would look cheaper than it is."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames", "-of", "csv=p=0", os.path.join(recordings, f"{name}.flv")],
                           capture_output=True, text=True)
    return probe.stdout.strip() or probe.stderr.strip()


def launch(pipeline, n):
    """gst-launch-1.0 for a pipeline; a case may give any other command as {"argv": ...}."""
    if isinstance(pipeline, dict):
        return shlex.split(text(pipeline["argv"], n))
    return ["gst-launch-1.0", "-q"] + shlex.split(text(pipeline, n))


def shown(pipeline, n):
    return " ".join(launch(pipeline, n)) if isinstance(pipeline, dict) else text(pipeline, n)


def wall(pipeline, n):
    start = time.perf_counter()
    subprocess.run(launch(pipeline, n), check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def instructions(pipeline, n):
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + launch(pipeline, n),
                            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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
    # A peer outside GStreamer (ffmpeg) brings its own baseline: the same command without it.
    kinds = ("ours", "peer", "baseline") + (("peer_baseline",) if "peer_baseline" in case else ())
    peer_base = "peer_baseline" if "peer_baseline" in case else "baseline"
    n = case["buffers"]
    for kind in kinds:  # warm-up: registry, page cache
        wall(case[kind], 10)
    times = {k: [] for k in kinds}
    for _ in range(runs):
        for kind in kinds:
            times[kind].append(wall(case[kind], n))
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n## {case['name']}: {case['what']}")
    print(f"   {n} buffers, {runs} runs each, median wall time (min-max):")
    for kind in kinds:
        print(f"   {kind:13} {med[kind]:8.3f} s  ({min(times[kind]):.3f}-{max(times[kind]):.3f})  {shown(case[kind], n)}")
    own_ours, own_peer = med["ours"] - med["baseline"], med["peer"] - med[peer_base]
    wall_ratio = own_peer / own_ours if own_ours > 0 else float("inf")
    print(f"   own cost: ours {own_ours * 1000:.0f} ms, peer {own_peer * 1000:.0f} ms -> own-cost ratio (wall) {wall_ratio:.2f}")
    print(f"   own cost per buffer: ours {own_ours / n * 1000:.3f} ms, peer {own_peer / n * 1000:.3f} ms")
    result = {"wall": wall_ratio}
    if recordings:
        print(f"   recorded video frames (last run): ours {recorded_frames(recordings, 'ours')}, "
              f"peer {recorded_frames(recordings, 'peer')}, of {n}")
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
        with server(case.get("server")) as recordings:
            run_case(case, args.runs, not args.no_callgrind, recordings)


main()
