# SPDX-License-Identifier: LGPL-2.1-or-later
"""Broadcasters per core: `replaycast swarm` (swarm-member.pipeline, 240x520 at 15 fps)
against a real nginx-rtmp for SECONDS at each count, measuring the process's CPU time and
peak resident memory, and whether it kept real time: the broadcasters whose schedule has no
event (no pause, call or finish) must each have encoded at least 98 % of fps x seconds, and
their recordings at the ingest must hold what they encoded. Then, with --breakdown, what a
broadcaster's cost is made of: 10 broadcasters of the member pipeline with parts cut off
(no video encoding, no audio encoding, neither), each part's share the difference.

  python3 bench/swarm_cost.py [--cli PATH] [--counts 1,10,25] [--seconds 20] [--breakdown]

Release build only (scripts/build prints the folder of the CLI it builds)."""
import argparse
import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FPS = 15


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def frames_in(path):
    text = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v", "-count_packets", "-show_entries",
                           "stream=nb_read_packets", "-of", "csv=p=0", path], capture_output=True, text=True).stdout
    return int(text.strip() or 0)


def run(cli, count, seconds, pipeline, folder):
    port = free_port()
    recordings = os.path.join(folder, f"recordings-{count}-{os.path.basename(pipeline)}")
    env = dict(os.environ, RTMP_SERVER_HOME=os.path.join(folder, f"nginx-{port}"))
    subprocess.run([os.path.join(ROOT, "scripts/rtmp-server"), "start", str(port), recordings], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    report = os.path.join(folder, f"report-{count}.json")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        started = time.monotonic()
        swarm = subprocess.Popen([cli, "swarm", "--count", str(count), "--duration", str(seconds), "--seed", "1",
                                  "--pipeline", pipeline, "--url", f"rtmp://127.0.0.1:{port}/live/dev{{n}}",
                                  "--report", report], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peak = 0
        while swarm.poll() is None:
            try:
                status = open(f"/proc/{swarm.pid}/status").read()
                peak = max(peak, int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) * 1024)
            except (OSError, AttributeError):
                pass
            time.sleep(0.2)
        wall = time.monotonic() - started
    finally:
        subprocess.run([os.path.join(ROOT, "scripts/rtmp-server"), "stop", str(port)], env=env, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    members = json.load(open(report))["broadcasters"] if os.path.exists(report) else []
    plain = [m for m in members if not m["schedule"]]
    kept = all(m["frames"] >= 0.98 * FPS * seconds for m in plain)
    delivered = all(abs(frames_in(os.path.join(recordings, f"dev{m['number']}.flv")) - m["frames"]) <= 2 for m in plain)
    return {"count": count, "wall": wall, "cpu": cpu, "peak": peak, "plain": len(plain),
            "least": min((m["frames"] for m in plain), default=0), "kept": kept and delivered,
            "failed": sum(1 for m in members if m["ending"] != "end-of-stream" or m["connections"] == 0)}


def variant(folder, name, cut):
    """The member pipeline with a part replaced by fakesink."""
    text = open(os.path.join(ROOT, "pipelines/swarm-member.pipeline")).read()
    if "video" in cut:
        text = re.sub(r"! x264enc [^\n]*\n  ! h264parse ! rtmp\.video", "! fakesink", text)
    if "audio" in cut:
        text = re.sub(r"! audioconvert\n  ! avenc_aac [^\n]*\n  ! aacparse\n  ! rtmp\.audio", "! fakesink", text)
    if "video" in cut and "audio" in cut:
        text = re.sub(r"rtmpreconnectsink [^\n]*\n[^\n]*\n", "", text)
    path = os.path.join(folder, f"member-{name}.pipeline")
    open(path, "w").write(text)
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", default=os.path.join(ROOT, ".build/x86_64-unknown-linux-gnu/release/replaycast"))
    parser.add_argument("--counts", default="1,10,25")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--breakdown", action="store_true")
    args = parser.parse_args()
    cores = os.cpu_count()
    member = os.path.join(ROOT, "pipelines/swarm-member.pipeline")
    with tempfile.TemporaryDirectory() as folder:
        print(f"replaycast swarm, 240x520 at {FPS} fps, {args.seconds} s per count, {cores} cores")
        print(f"{'count':>5} {'cores used':>10} {'per bcaster':>11} {'MB peak':>8} {'MB each':>8}  real time")
        for count in [int(c) for c in args.counts.split(",")]:
            r = run(args.cli, count, args.seconds, member, folder)
            used = r["cpu"] / args.seconds
            print(f"{count:>5} {used:>10.2f} {used / count:>11.3f} {r['peak'] / 1e6:>8.0f} {r['peak'] / 1e6 / count:>8.1f}  "
                  f"{'yes' if r['kept'] and not r['failed'] else 'NO'} (least {r['least']} of {FPS * args.seconds} frames "
                  f"among {r['plain']} without events; {r['failed']} failed); "
                  f"{cores / (used / count):.0f} would fill {cores} cores")
        if args.breakdown:
            print("\nWhat 10 broadcasters cost, by part (cores used):")
            whole = run(args.cli, 10, args.seconds, member, folder)["cpu"] / args.seconds
            costs = {"whole member": whole}
            for name, cut in [("no video encoding", {"video"}), ("no audio encoding", {"audio"}),
                              ("capture and mixing only", {"video", "audio"})]:
                costs[name] = run(args.cli, 10, args.seconds, variant(folder, name.replace(" ", "-"), cut),
                                  folder)["cpu"] / args.seconds
            for name, value in costs.items():
                print(f"  {name:<26} {value:5.2f}")
            print(f"  => H.264 encoding and sending {whole - costs['no video encoding']:.2f}, "
                  f"AAC encoding and sending {whole - costs['no audio encoding']:.2f}, "
                  f"capture, rendering, videorate and mixing {costs['capture and mixing only']:.2f}")


if __name__ == "__main__":
    sys.exit(main())
