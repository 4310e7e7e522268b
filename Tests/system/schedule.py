# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads Tests/system/schedule, the table of system checks, for Tests/system/run and
docs/platforms.md (.ci/run reads its sections line itself, before python3 is installed):
  schedule.py plan SECTION TIERS    a line per check: name, then `run` or why it does not run
                                    here, its flags and what it shows, split by \\x1f
  schedule.py doc [LOG]             the table docs/platforms.md shows, between its markers; with
                                    the log of a host run of `Tests/system/run`, each check's
                                    seconds in it
  schedule.py write-doc FILE [LOG]  puts that table in FILE
  schedule.py check-doc FILE        exit 1 unless FILE's table is `doc`'s (seconds aside)
Any malformed row (an unknown tier or section, two rows of one check for one section) is an
error naming the schedule's line."""
import os
import re
import sys

from checks import marked_block, write_block

SCHEDULE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schedule")
TIERS = ("test", "ci")
BEGIN = "<!-- the schedule of system checks: Tests/system/schedule.py doc -->"
END = "<!-- end of the schedule -->"
# Between the fields of `plan`: not whitespace, which bash's read would merge when flags are empty.
SEPARATOR = "\x1f"


def fail(line, why):
    sys.exit(f"{SCHEDULE}:{line}: {why}")


def read():
    """(sections, rows): rows as dicts of check, tier, where (a list of sections), flags,
    what and line, in the file's order."""
    sections, rows = None, []
    with open(SCHEDULE, encoding="utf-8") as table:
        for number, text in enumerate(table, 1):
            text = text.strip()
            if text.startswith("sections:"):
                sections = text.split(":", 1)[1].split()
                if not sections or sections[0] != "host":
                    fail(number, "the sections start with host")
            elif text.startswith("| ") and not text.startswith(("| check ", "|---")):
                cells = [cell.strip() for cell in text.strip("|").split("|")]
                if len(cells) != 5:
                    fail(number, f"a row has 5 cells, this one {len(cells)}")
                check, tier, where, flags, what = cells
                if tier not in TIERS:
                    fail(number, f"tier '{tier}' is none of {', '.join(TIERS)}")
                rows.append(dict(check=check, tier=tier, where=where.split(), flags=flags,
                                 what=what, line=number))
    if sections is None:
        fail(1, "no 'sections:' line")
    covered = {}
    for row in rows:
        if row["where"] == ["all"]:
            row["where"] = list(sections)
        for section in row["where"]:
            if section not in sections:
                fail(row["line"], f"section '{section}' is none of {', '.join(sections)} (or all)")
            earlier = covered.setdefault((row["check"], section), row["line"])
            if earlier != row["line"]:
                fail(row["line"], f"{row['check']} already has a row for {section} (line {earlier})")
    return sections, rows


def plan(section, tiers):
    """One line per check: the row for this section, or the first row with why it is not run."""
    sections, rows = read()
    if section not in sections:
        sys.exit(f"{SCHEDULE}: no section '{section}' (sections: {' '.join(sections)})")
    chosen = {}
    for row in rows:
        if section in row["where"] or row["check"] not in chosen:
            chosen[row["check"]] = row
    for check, row in chosen.items():
        if section not in row["where"]:
            state = "the schedule runs it in " + " and ".join(
                sorted({s for r in rows if r["check"] == check for s in r["where"]}, key=sections.index))
        elif row["tier"] not in tiers:
            state = "scripts/test --all runs it, as CI does"
        else:
            state = "run"
        print(SEPARATOR.join((check, state, row["flags"], row["what"])))


def seconds(log):
    """{what a check shows: its seconds} from the lines Tests/system/run prints."""
    if log is None:
        return {}
    with open(log, encoding="utf-8") as lines:
        found = (re.match(r"(?:ok  |FAIL) +(\d+) s  (.*)$", line.rstrip("\n")) for line in lines)
        return {match[2]: match[1] for match in found if match}


def doc(log=None):
    sections, rows = read()
    took = seconds(log)
    lines = [BEGIN, "", "| check | tier | " + " | ".join(sections) + " | s | what it shows |",
             "|---|---|" + "---|" * len(sections) + "--:|---|"]
    merged = {}
    for row in rows:
        merged.setdefault(row["check"], []).append(row)
    for check, variants in merged.items():
        cells = []
        for section in sections:
            row = next((r for r in variants if section in r["where"]), None)
            cells.append("" if row is None else ("✓ " + row["flags"]).strip())
        what = variants[0]["what"]
        lines.append(f"| {check} | {variants[0]['tier']} | " + " | ".join(cells)
                     + f" | {took.get(what, '')} | {what} |")
    lines += ["", END]
    return "\n".join(lines)


def without_seconds(table):
    """The table with its seconds column blank: those figures are a record of one run."""
    rows = []
    for line in table.split("\n"):
        cells = line.split(" | ")
        if line.startswith("| ") and len(cells) > 2:
            cells[-2] = ""
        rows.append(" | ".join(cells))
    return "\n".join(rows)


def check_doc(path):
    text, where = marked_block(path, BEGIN, END)
    table = doc()
    if without_seconds(text[where]) != without_seconds(table):
        sys.exit(f"{path}: its schedule of checks is not Tests/system/schedule's "
                 f"(write it with: python3 Tests/system/schedule.py write-doc {path} LOG)")
    print(f"{path} shows the schedule: {table.count(chr(10) + '| ') - 1} checks", flush=True)


def main(arguments):
    if arguments[:1] == ["plan"] and len(arguments) == 3:
        plan(arguments[1], arguments[2].split())
    elif arguments[:1] == ["doc"] and len(arguments) <= 2:
        print(doc(*arguments[1:]))
    elif arguments[:1] == ["write-doc"] and len(arguments) in (2, 3):
        write_block(arguments[1], BEGIN, END, doc(*arguments[2:]))
    elif arguments[:1] == ["check-doc"] and len(arguments) == 2:
        check_doc(arguments[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
