"""What gst-inspect-1.0 prints for each element, held against the committed copy in
Tests/system/inspect/<element>.txt, so a change to pads, caps, properties, signals or
metadata is one a commit makes on purpose (refresh with --update and review the diff).
The plugin's file name, which depends on where it is installed, is left out."""
import difflib
import os
import sys

from plugin_elements import elements, inspect

FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inspect")


def without_filename(text):
    return [line for line in text.splitlines(keepends=True) if not line.lstrip().startswith("Filename ")]


def main():
    update = "--update" in sys.argv[1:]
    differing = 0
    for element in elements():
        path = os.path.join(FOLDER, f"{element}.txt")
        now = without_filename(inspect(element))
        if update:
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
