# SPDX-License-Identifier: LGPL-2.1-or-later
"""What gst-inspect-1.0 prints for each element, held against the committed copy in
Tests/system/inspect/<GStreamer major.minor>/<element>.txt, so a change to pads, caps,
properties, signals or metadata is one a commit makes on purpose (refresh with --update and
review the diff). One folder per GStreamer release, since GStreamer's own base classes add
properties and gst-inspect-1.0 changes its layout between releases. The plugin's file name,
which depends on where it is installed, is left out, and the micro version of the GStreamer
it was built against is masked (a release's bug-fix updates change nothing we show)."""
import difflib
import os
import re
import sys

from plugin_elements import elements, gstreamer_release, inspect

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inspect", gstreamer_release())


def without_filename(text):
    return [re.sub(r"(built against GStreamer \d+\.\d+)\.\d+", r"\1.x", line)
            for line in text.splitlines(keepends=True) if not line.lstrip().startswith("Filename ")]


def main():
    update = "--update" in sys.argv[1:]
    differing = 0
    for element in elements():
        path = os.path.join(FOLDER, f"{element}.txt")
        now = without_filename(inspect(element))
        if update:
            os.makedirs(FOLDER, exist_ok=True)
            with open(path, "w") as f:
                f.writelines(now)
            continue
        if not os.path.exists(path):
            differing += 1
            print(f"{element}: no {path}; install the plugin and run {sys.argv[0]} --update")
            continue
        with open(path) as f:
            committed = f.readlines()
        diff = list(difflib.unified_diff(committed, now, f"{path} (committed)", f"gst-inspect-1.0 {element}"))
        if diff:
            differing += 1
            sys.stdout.writelines(diff)
        else:
            print(f"{element}: {len(now)} lines as committed")
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
