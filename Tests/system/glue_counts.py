# SPDX-License-Identifier: LGPL-2.1-or-later
"""The lines of glue each element costs, for docs/adding-an-element.md: its C file and header,
its Swift property table (its `<Element>Properties.swift`, or the tables inside its Swift files
where it has none), its Swift exports (the `@_cdecl` functions, each to its closing
brace, in every file of its folder, and the lines tying its instance structs to their Swift
objects: `SwiftStateSlot` conformances, `typealias Instance`), its DebugLog and its `RC_ELEMENTS` row; and the whole
C shim's lines.
  glue_counts.py              prints the table, between the page's markers
  glue_counts.py write FILE   puts that table in FILE
  glue_counts.py check FILE   exit 1 unless FILE holds that table
The elements are RC_ELEMENTS's; an element's folder is the one whose Swift declares its
DebugLog."""
import glob
import os
import re
import sys

from checks import marked_block, write_block

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BEGIN = "<!-- glue per element: Tests/system/glue_counts.py -->"
END = "<!-- end of the glue per element -->"


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        return file.read()


def elements():
    listing = read("Sources/CReplayCast/include/rc_debug.h")
    return re.findall(r"^\s+X\((\w+),", listing, re.M)


def folder_of(element):
    declaration = f'static let {element} = DebugLog("{element}")'
    for path in glob.glob(os.path.join(ROOT, "Sources/ReplayCast/*/*.swift")):
        if declaration in read(path):
            return os.path.dirname(path)
    sys.exit(f"no Swift file declares `{declaration}`")


def block_lines(text, starts, opener, closer):
    """Lines of every block that begins on a line matching `starts` and ends on the line
    where its first `opener` is closed by `closer` (which may open on a later line)."""
    lines, count, index = text.split("\n"), 0, 0
    while index < len(lines):
        if re.match(starts, lines[index]):
            depth, start, opened = 0, index, False
            while index < len(lines):
                depth += lines[index].count(opener) - lines[index].count(closer)
                opened = opened or opener in lines[index]
                index += 1
                if opened and depth <= 0:
                    break
            count += index - start
        else:
            index += 1
    return count


def export_lines(text):
    """Lines of the `@_cdecl` functions, from the attribute to the brace closing the
    function, and the lines tying instance structs to their Swift objects."""
    return block_lines(text, r"\s*@_cdecl", "{", "}") + len(STATE_TIES.findall(text))


def table_lines(text):
    """Lines of the property tables declared inside a Swift file: from `static let … =
    PropertyTable(` to the line that closes its call."""
    return block_lines(text, r"\s*static let \w+ = PropertyTable\(", "(", ")")


# The lines that tie an instance struct to its Swift object (GStreamer/SwiftState.swift).
STATE_TIES = re.compile(r"^extension Rc\w+: SwiftStateSlot \{\}$|^\s*typealias Instance = Rc\w+$", re.M)


def count(element):
    folder = folder_of(element)
    name = os.path.basename(folder)
    c = len(read(f"Sources/CReplayCast/{element}.c").splitlines())
    header = len(read(f"Sources/CReplayCast/include/rc_{element}.h").splitlines())
    table_file = os.path.join(folder, f"{name}Properties.swift")
    if os.path.exists(table_file):
        table = len(read(table_file).splitlines())
    else:
        table = sum(table_lines(read(path)) for path in sorted(glob.glob(os.path.join(folder, "*.swift"))))
    exports = sum(export_lines(read(path)) for path in sorted(glob.glob(os.path.join(folder, "*.swift")))
                  if not path.endswith("Properties.swift"))
    # The DebugLog extension (3 lines) and the RC_ELEMENTS row (1).
    return dict(element=element, c=c, header=header, table=table, exports=exports, total=c + header + table + exports + 4)


def table():
    rows = [count(element) for element in elements()]
    lines = [BEGIN, "", "| element | `.c` | `rc_<element>.h` | property table | Swift exports | DebugLog + `RC_ELEMENTS` row | total |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    lines += [f"| {r['element']} | {r['c']} | {r['header']} | {r['table']} | {r['exports']} | 4 | {r['total']} |" for r in rows]
    shim = sum(len(read(os.path.relpath(path, ROOT)).splitlines())
               for path in glob.glob(os.path.join(ROOT, "Sources/CReplayCast/**/*.[ch]"), recursive=True))
    lines += ["", f"The C shim in all (`Sources/CReplayCast`, every `.c` and `.h`): {shim} lines."]
    return "\n".join(lines + ["", END])


def main(arguments):
    if not arguments:
        print(table())
    elif arguments[0] == "write" and len(arguments) == 2:
        write_block(arguments[1], BEGIN, END, table())
    elif arguments[0] == "check" and len(arguments) == 2:
        text, where = marked_block(arguments[1], BEGIN, END)
        if text[where] != table():
            sys.exit(f"{arguments[1]}: its glue counts are not the sources' (write them with: "
                     f"python3 Tests/system/glue_counts.py write {arguments[1]})\n" + table())
        print(f"{arguments[1]}: glue counts of {len(elements())} elements match the sources", flush=True)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
