# SPDX-License-Identifier: LGPL-2.1-or-later
"""Runs every gst-launch-1.0 line found in a ```sh block of docs/*.md: each must finish
with status 0 within 60 s, or, when the comment line before it says `# ends with an error
naming TEXT`, with a non-zero status and TEXT in its output. Lines are the documentation's
promises. Lines that publish to
rtmp://127.0.0.1:1935 get the local server the docs tell users to start
(scripts/rtmp-server), running for the duration of this script. Lines run in a scratch
folder with a docs/ of its own, so what they write (docs/pipcompositor.png) never changes
the checkout: the committed pictures come from the release that made them; examples/ is the
checkout's, for the inputs the lines read."""
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
LOCAL_RTMP = "rtmp://127.0.0.1:1935/"


def example_lines():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for block in re.findall(r"```sh\n(.*?)```", doc.read_text(), re.S):
            expected_error = None
            for line in block.replace("\\\n", " ").splitlines():
                marker = re.match(r"\s*# ends with an error naming (.+)", line)
                if marker:
                    expected_error = marker.group(1).strip()
                elif line.strip().startswith("gst-launch-1.0"):
                    yield doc, line.strip(), expected_error
                    expected_error = None


lines = list(example_lines())
scratch = tempfile.TemporaryDirectory()
workdir = os.path.join(scratch.name, "work")
os.makedirs(os.path.join(workdir, "docs"))
# Example inputs the lines name by relative path (examples/traces/…) are read from the checkout.
os.symlink(ROOT / "examples", os.path.join(workdir, "examples"))
server = [str(ROOT / "scripts" / "rtmp-server"), "start", "1935", scratch.name]
environment = dict(os.environ, RTMP_SERVER_HOME=os.path.join(scratch.name, "nginx"))
needs_server = any(LOCAL_RTMP in line for _, line, _ in lines)
if needs_server:
    subprocess.run(server, check=True, env=environment, stdout=subprocess.DEVNULL)
failures = 0
count = 0
try:
    for doc, line, expected_error in lines:
        count += 1
        try:
            result = subprocess.run(shlex.split(line), capture_output=True, text=True, timeout=60, cwd=workdir)
            output = result.stdout + result.stderr
            if expected_error:
                ok = result.returncode != 0 and expected_error in output
            else:
                ok = result.returncode == 0
        except subprocess.TimeoutExpired:
            ok, output = False, "timed out"
        if not ok:
            failures += 1
            print(f"{doc.name}: {line}\n{output[-2000:]}")
finally:
    if needs_server:
        subprocess.run([server[0], "stop", "1935"], env=environment, stdout=subprocess.DEVNULL)
print(f"{count} example lines, {failures} failed")
sys.exit(1 if failures or count == 0 else 0)
