# SPDX-License-Identifier: LGPL-2.1-or-later
"""Every element of the plugin has docs/<element>.md whose property table and pad templates
agree with what gst-inspect-1.0 prints. Exits non-zero listing each disagreement. A row whose
description says "GStreamer 1.N and later" (a property a newer base class adds) is expected
only where gst-inspect-1.0 runs on 1.N or later."""
import pathlib
import re
import sys

from plugin_elements import elements, gstreamer_release, inspect

ROOT = pathlib.Path(__file__).resolve().parents[2]
INHERITED = {"name", "parent", "qos"}


def properties(text):
    """Element properties: name -> (blurb, type, range, default) as gst-inspect prints them."""
    section = text.split("Element Properties:", 1)[1].split("\nElement Signals:", 1)[0]
    section = section.split("\nElement Actions:", 1)[0]
    return parse_properties(section)


def pad_properties(text):
    """Properties of the sink pads' types, merged over the pad templates."""
    props = {}
    templates = text.split("Pad Templates:", 1)[1].split("\nElement has", 1)[0]
    for block in templates.split("Pad Properties:")[1:]:
        section = block.split("\n  \n", 1)[0].split("\n  SRC template", 1)[0].split("\n  SINK template", 1)[0]
        props.update(parse_properties(section))
    return props


def parse_properties(section):
    props = {}
    for block in re.split(r"\n(?=(?:  |      )[a-z][\w-]* *: )", section):
        head = re.match(r"\s*([a-z][\w-]*) *: (.*)", block)
        if not head:
            continue
        name, blurb = head.group(1), head.group(2).strip()
        lines = [l.strip() for l in block.splitlines()[1:]]
        while lines and not lines[0].startswith("flags:"):
            blurb += " " + lines.pop(0)
        detail = " ".join(l for l in lines if not l.startswith("flags:"))
        kind = re.match(r"([\w ]+?)(?:\.| \"|$)", detail)
        rng = re.search(r"Range: *(\S+) *- *(\S+)", detail)
        enum_default = re.search(r'Default: *-?\d+, "([^"]*)"', detail)
        default = re.search(r"Default: *(.*?)\s*(?:\(|$)", detail)
        if enum_default:
            default_text = enum_default.group(1)
        else:
            default_text = default.group(1).strip().strip('"') if default else ""
        # A boxed property has no default to show; its type is the boxed type's name.
        boxed = re.match(r'Boxed pointer of type "(\w+)"', detail)
        props[name] = (blurb, f"Boxed {boxed.group(1)}" if boxed else kind.group(1) if kind else "",
                       f"{rng.group(1)} – {rng.group(2)}" if rng else "", "—" if boxed else default_text)
    return props


def pad_templates(text):
    section = text.split("Pad Templates:", 1)[1].split("\nElement has", 1)[0]
    return re.findall(r"(SINK|SRC) template: '([^']+)'\s+Availability: (\w+)", section)


def newer_than_running(row):
    """A row for a property of a later GStreamer than the one running."""
    since = re.search(r"GStreamer (\d+)\.(\d+) and later", row[4])
    running = tuple(int(part) for part in gstreamer_release().split("."))
    return since is not None and (int(since.group(1)), int(since.group(2))) > running


def table_rows(doc):
    rows = {}
    for line in doc.splitlines():
        if line.startswith("### Pad properties"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5 and cells[0].startswith("`") and not newer_than_running(cells):
            rows[cells[0].strip("`")] = cells
    return rows


def pad_table_rows(doc):
    """Rows of the tables under the '### Pad properties' heading."""
    if "### Pad properties" not in doc:
        return {}
    return table_rows(doc.split("### Pad properties", 1)[1].split("\n## ", 1)[0].replace("### Pad properties", ""))


def compare(where, what, inspected, rows, problems):
    """Each property gst-inspect shows has a docs row with its type, range, default and blurb,
    and the docs list nothing else."""
    for name, (blurb, kind, rng, default) in inspected.items():
        row = rows.get(name)
        if row is None:
            problems.append(f"{where} {what} {name} is not in the docs table")
            continue
        expected = [kind, rng or "—", default]
        if row[1:4] != expected:
            problems.append(f"{where} {name}: docs say {row[1:4]}, gst-inspect says {expected}")
        if blurb not in row[4]:
            problems.append(f"{where} {name}: docs description lacks the blurb '{blurb}'")
    for name in rows:
        if name not in inspected:
            problems.append(f"{where} docs list {what} {name} that gst-inspect does not show")


def main():
    problems = []
    for element in elements():
        path = ROOT / "docs" / f"{element}.md"
        if not path.exists():
            problems.append(f"{element}: docs/{element}.md is missing")
            continue
        doc = path.read_text()
        text = inspect(element)
        element_properties = {k: v for k, v in properties(text).items() if k not in INHERITED}
        compare(f"{element}:", "property", element_properties, table_rows(doc), problems)
        compare(f"{element}: pad", "pad property", pad_properties(text), pad_table_rows(doc), problems)
        for direction, template, availability in pad_templates(text):
            if not re.search(rf"`{re.escape(template)}`.*{direction.lower()}.*{availability.lower()}", doc, re.I):
                problems.append(f"{element}: pad template {template} ({direction}, {availability}) is not documented")
        caps_values = set(re.findall(r"\(string\)(\w+)", text.split("Pad Templates:", 1)[1].split("\nElement has", 1)[0]))
        for value in sorted(caps_values):
            if value not in doc:
                problems.append(f"{element}: caps value {value} is not mentioned in the docs")
    for p in problems:
        print(p)
    return 1 if problems else 0


sys.exit(main())
