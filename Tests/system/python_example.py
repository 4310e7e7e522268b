# SPDX-License-Identifier: LGPL-2.1-or-later
"""examples/python/broadcast.py against the installed plugin (issue 12's acceptance):
pipelines/meters.pipeline live, paused at 1 s, resumed at 2 s, finished at 3.5 s.

  meters     volumemeter's default 100 ms: readings every 0.100 s of running time from 0
             to the finish, 10 +- 1 per second of broadcast and of wall time as received;
             through the pause too, where replaykitsrc's GAP events make dualmixer mix
             digital silence: every interval inside the pause reads rms -200 dBFS, every
             interval outside it reads the programme (above -100 dBFS).
  lifecycle  started, paused, resumed, finished in that order, each action within 50 ms of
             the running time asked for, then EOS and exit 0.
  bad use    an unknown file, a ${NAME} without a value (file:line), an unknown element
             (file:line): a one-line error, exit 1. --set and defaults fill placeholders.

    python_example.py        (run with HOME set so the installed plugin is found)
Prints what it measured; exits 1 if a check fails.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

from checks import check, failures

EXAMPLE = [sys.executable, "examples/python/broadcast.py"]
PAUSE, RESUME, FINISH = 1.0, 2.0, 3.5
INTERVAL = 0.1


def field(line, name):
    return re.search(rf" {name}=(\S+)", line)[1]


# The broadcast, each line with the time it arrived.
process = subprocess.Popen(EXAMPLE + ["pipelines/meters.pipeline", "--pause-at", str(PAUSE), "--resume-at",
                                      str(RESUME), "--finish-at", str(FINISH)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
arrivals = [(time.monotonic(), line.rstrip("\n")) for line in process.stdout]
status = process.wait(timeout=30)
errors = process.stderr.read()
lines = [line for _, line in arrivals]
check(f"exit {status} after {len(lines)} lines, the last {lines[-1:]}, stderr {errors.strip()!r}",
      status == 0 and lines[-1:] == ["eos"] and not errors)
if status != 0:
    sys.exit(1)

events = [line.split()[0] for line in lines if line.startswith("replaykit-broadcast-")]
check(f"lifecycle in order: {[e.rsplit('-', 1)[1] for e in events]}",
      events == ["replaykit-broadcast-" + e for e in ("started", "paused", "resumed", "finished")])
asked = {"paused": PAUSE, "resumed": RESUME, "finished": FINISH}
took = {e: float(field(line, "running-time")) for line in lines
        for e in asked if line.startswith("replaykit-broadcast-" + e)}
check("actions took effect at running time " + ", ".join(f"{e} {t:.3f} s" for e, t in took.items()),
      len(took) == 3 and all(abs(took[e] - asked[e]) <= 0.05 for e in asked))

meters = [(float(field(line, "running-time")), [float(v) for v in field(line, "rms").split(",")])
          for line in lines if line.startswith("volumemeter ")]
starts = [t for t, _ in meters]
steps = {round(b - a, 3) for a, b in zip(starts, starts[1:])}
check(f"{len(meters)} readings from {starts[0]:.3f} to {starts[-1]:.3f} s, steps {sorted(steps)} s",
      starts[:1] == [0.0] and steps == {INTERVAL} and starts[-1] >= FINISH - INTERVAL)
played = [t for t in starts if t < PAUSE or RESUME <= t < FINISH]
seconds = PAUSE + FINISH - RESUME
check(f"{len(played)} readings in {seconds} s of broadcast outside the pause: {len(played) / seconds:.1f} per second",
      abs(len(played) / seconds - 1 / INTERVAL) <= 1)
received = [at for at, line in arrivals if line.startswith("volumemeter ")]
rate = (len(received) - 1) / (received[-1] - received[0])
check(f"received live: {rate:.1f} readings per second of wall time", abs(rate - 1 / INTERVAL) <= 1)
# The interval the pause starts in may hold the buffers in progress; the rest of the pause
# is GAPs only.
paused = [rms for t, rms in meters if PAUSE + INTERVAL <= t and t + INTERVAL <= RESUME]
audible = [rms for t, rms in meters if t + INTERVAL <= PAUSE or RESUME <= t < FINISH]
check(f"{len(paused)} intervals inside the pause, rms {sorted({v for rms in paused for v in rms})} dBFS",
      len(paused) == 9 and all(v == -200 for rms in paused for v in rms))
check(f"{len(audible)} intervals outside it, rms {min(min(rms) for rms in audible):.2f} to "
      f"{max(max(rms) for rms in audible):.2f} dBFS",
      all(v > -100 for rms in audible for v in rms))


def bad(what, arguments, expected):
    result = subprocess.run(EXAMPLE + arguments, capture_output=True, text=True, timeout=30)
    check(f"{what}: exit {result.returncode}, {result.stderr.strip()!r}",
          result.returncode == 1 and result.stderr.strip() == expected)


with tempfile.TemporaryDirectory() as folder:
    missing = os.path.join(folder, "none.pipeline")
    bad("unknown file", [missing], f"{missing}: cannot read the file: No such file or directory")
    counted = os.path.join(folder, "counted.pipeline")
    with open(counted, "w") as file:
        file.write("# ${NOT_READ} in a comment\naudiotestsrc num-buffers=${BUFFERS} ! audio/x-raw,rate=48000\n"
                   "  ! volumemeter interval=${INTERVAL:-50000000} ! fakesink\n")
    bad("a variable without a value", [counted], f"{counted}:2: ${{BUFFERS}} has no value: pass --set BUFFERS=VALUE")
    # 47 buffers of 1024 frames at 48 kHz: 20 intervals of 50 ms and 128 frames at EOS.
    result = subprocess.run(EXAMPLE + [counted, "--set", "BUFFERS=47"], capture_output=True, text=True, timeout=30)
    readings = result.stdout.count("volumemeter ")
    check(f"--set BUFFERS=47 and INTERVAL's default: {readings} readings", result.returncode == 0 and readings == 21)
    typo = os.path.join(folder, "typo.pipeline")
    with open(typo, "w") as file:
        file.write("audiotestsrc num-buffers=3\n  ! volumemeterz\n  ! fakesink\n")
    bad("an unknown element", [typo], f'{typo}:2: no element "volumemeterz"')
sys.exit(1 if failures else 0)
