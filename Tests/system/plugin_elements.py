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


def fixtures(rtmp):
    """Tests/system/fixtures.json's fixtures, `{rtmp}` in their process and allocations lines
    replaced by the URL `rtmp`, the process line also split into gst-launch-1.0's words;
    exits unless they are exactly the plugin's elements."""
    import json
    import os
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures.json")) as f:
        entries = json.load(f)
    names, plugin = sorted(e["element"] for e in entries), sorted(elements())
    if names != plugin:
        sys.exit(f"Tests/system/fixtures.json has fixtures for {names}, the plugin has {plugin}")
    for entry in entries:
        entry["words"] = entry["process"].replace("{rtmp}", rtmp).split(" ")
        entry["allocations"] = {name: line.replace("{rtmp}", rtmp) for name, line in entry["allocations"].items()}
    return entries


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "fixtures":
        sys.exit("usage: plugin_elements.py fixtures RTMP-URL: each fixture's element, a tab, its process line")
    for fixture in fixtures(sys.argv[2]):
        print(fixture["element"], " ".join(fixture["words"]), sep="\t")
