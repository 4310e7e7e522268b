# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the system check scripts print and how they end: a line per check, `ok` or `FAIL`
with what was seen, and an exit status of 1 when any check failed
(`sys.exit(1 if failures else 0)`); and the ports and servers they share. The bash checks
take a free port from `python3 Tests/system/checks.py free-port tcp|udp`."""
import os
import socket
import subprocess
import sys

failures = []


def check(what, ok, detail=""):
    """Prints the check's line (flushed: Tests/system/run interleaves it with other tools'
    output) and returns `ok`."""
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        failures.append(what)
    return ok


def free_port(kind=socket.SOCK_STREAM):
    """A port of 127.0.0.1 that nothing is bound to now: TCP, or UDP with SOCK_DGRAM."""
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server(command, port, folder, home, kind="rtmp", check=True, **environment):
    """scripts/rtmp-server (kind "rtmp") or scripts/srt-receiver ("srt") COMMAND PORT FOLDER,
    with its own files in HOME and the server's other variables in `environment`. With
    `check`, a failed start or stop raises."""
    script, variable = {"rtmp": ("scripts/rtmp-server", "RTMP_SERVER_HOME"),
                        "srt": ("scripts/srt-receiver", "SRT_RECEIVER_HOME")}[kind]
    env = dict(os.environ, **{variable: home}, **environment)
    subprocess.run([script, command, str(port), folder], env=env, check=check, stdout=subprocess.DEVNULL)


def marked_block(path, begin, end):
    """(the page's text, the slice of its block from the `begin` marker to the `end` one), for
    the pages whose tables a script writes; exits naming the page when a marker is missing."""
    with open(path, encoding="utf-8") as page:
        text = page.read()
    if begin not in text or end not in text:
        sys.exit(f"{path}: no block between '{begin}' and '{end}'")
    return text, slice(text.index(begin), text.index(end) + len(end))


def write_block(path, begin, end, block):
    """Puts `block` (markers included) in place of the page's block."""
    text, where = marked_block(path, begin, end)
    with open(path, "w", encoding="utf-8") as page:
        page.write(text[:where.start] + block + text[where.stop:])


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "free-port" or sys.argv[2] not in ("tcp", "udp"):
        sys.exit("usage: checks.py free-port tcp|udp")
    print(free_port(socket.SOCK_STREAM if sys.argv[2] == "tcp" else socket.SOCK_DGRAM))
