# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the system checks ask gst-inspect-1.0: one element's page, and the elements the
replaycast plugin registers (so a new element is checked without being listed anywhere)."""
import functools
import re
import subprocess
import sys


def inspect(name):
    done = subprocess.run(["gst-inspect-1.0", name], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"gst-inspect-1.0 {name} exited {done.returncode}: {(done.stderr or done.stdout).strip()}")
    return done.stdout


def elements():
    return re.findall(r"^  (\w+): ", inspect("replaycast"), re.M)


@functools.cache
def gstreamer_release():
    """The major.minor of the GStreamer gst-inspect-1.0 runs on, e.g. "1.22"."""
    done = subprocess.run(["gst-inspect-1.0", "--version"], capture_output=True, text=True)
    found = re.search(r"GStreamer (\d+\.\d+)\.", done.stdout)
    if done.returncode != 0 or not found:
        sys.exit(f"gst-inspect-1.0 --version gave no GStreamer version: {(done.stderr or done.stdout).strip()}")
    return found.group(1)
