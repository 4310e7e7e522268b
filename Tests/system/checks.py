# SPDX-License-Identifier: LGPL-2.1-or-later
"""What the system check scripts print and how they end: a line per check, `ok` or `FAIL`
with what was seen, and an exit status of 1 when any check failed
(`sys.exit(1 if failures else 0)`)."""

failures = []


def check(what, ok, detail=""):
    """Prints the check's line (flushed: Tests/system/run interleaves it with other tools'
    output) and returns `ok`."""
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}", flush=True)
    if not ok:
        failures.append(what)
    return ok
