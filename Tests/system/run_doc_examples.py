"""Runs every gst-launch-1.0 line found in a ```sh block of docs/*.md: each must finish
with status 0 within 60 s. Lines are the documentation's promises."""
import pathlib
import re
import shlex
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
failures = 0
count = 0
for doc in sorted((ROOT / "docs").glob("*.md")):
    for block in re.findall(r"```sh\n(.*?)```", doc.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.strip()
            if not line.startswith("gst-launch-1.0"):
                continue
            count += 1
            try:
                result = subprocess.run(shlex.split(line), capture_output=True, text=True, timeout=60)
                ok = result.returncode == 0
                output = result.stdout + result.stderr
            except subprocess.TimeoutExpired:
                ok, output = False, "timed out"
            if not ok:
                failures += 1
                print(f"{doc.name}: {line}\n{output[-2000:]}")
print(f"{count} example lines, {failures} failed")
sys.exit(1 if failures or count == 0 else 0)
