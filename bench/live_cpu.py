# SPDX-License-Identifier: LGPL-2.1-or-later
"""Prints the CPU share of replaykitsrc running live (iphone-11-ios17, all three pads into
fakesinks that sync to the clock) for 10 s: (user + system time) / wall time."""
import resource
import subprocess
import time

PIPELINE = ("replaykitsrc device=iphone-11-ios17 duration=10000000000 name=rk rk.video ! fakesink sync=true "
            "rk.audio_app ! fakesink sync=true rk.audio_mic ! fakesink sync=true")


def main():
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(["gst-launch-1.0", "-q"] + PIPELINE.split(), check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    verdict = "meets" if cpu / wall < 0.10 else "MISSES"
    print(f"   live, 10 s, iphone-11-ios17: {cpu:.2f} s of CPU in {wall:.2f} s = {100 * cpu / wall:.1f} % of one core "
          f"(target < 10 %: {verdict}; includes gst-launch start-up)")


if __name__ == "__main__":
    main()
