#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The installed library exports GStreamer's plugin entry points and the C API of
replaycast.h, nothing else (scripts/exports.map): no Swift symbol, no symbol of the C shim,
which an app or another plugin could otherwise bind to. Reads the dynamic symbol table with
nm, and the C API from the header's declarations.
    Tests/system/plugin_exports.py LIBRARY HEADER"""
import re
import subprocess
import sys

from checks import check, failures

library, header = sys.argv[1], sys.argv[2]
listed = subprocess.run(["nm", "--dynamic", "--extern-only", "--defined-only", library], capture_output=True, text=True)
if listed.returncode != 0:
    sys.exit(f"nm --dynamic {library} exited {listed.returncode}: {listed.stderr.strip()}")
# The linker's own markers of the data segment are not the library's code. Local symbols the
# table still holds (Swift type metadata) cannot be bound to from outside: --extern-only.
markers = {"__bss_start", "_edata", "_end"}
exported = {line.split()[-1].split("@")[0] for line in listed.stdout.splitlines() if line.strip()} - markers
code = re.sub(r"/\*.*?\*/|//[^\n]*", "", open(header).read(), flags=re.S)
declared = set(re.findall(r"\b(replaycast_\w+)\s*\([^()]*\)\s*;", code))
entries = {"gst_plugin_replaycast_get_desc", "gst_plugin_replaycast_register"}
check(f"{header} declares a C API", len(declared) >= 3, ", ".join(sorted(declared)))
check("the C API and the plugin's entry points are exported", declared | entries <= exported,
      f"missing: {', '.join(sorted((declared | entries) - exported)) or 'none'}")
extra = sorted(exported - declared - entries)
check("nothing else is exported", not extra,
      f"{len(exported)} symbols; {len(extra)} others{': ' + ', '.join(extra[:8]) if extra else ''}")
sys.exit(1 if failures else 0)
