# SPDX-License-Identifier: LGPL-2.1-or-later
"""The module graph in docs/architecture.md is Package.swift's, and the sources keep to it.
Reads the targets and their dependencies from `swift package dump-package`, the graph from
the ```text block under "## Module graph" (one line per target: `Target -> A, B`, or
`Target -> nothing`), and every `import` of a package module in each Swift target's
sources. Fails, listing each difference, when the document and the manifest disagree or
when a target imports a package module it does not depend on (a module reached through
another target's dependency, which SwiftPM would let through). Holds the lines between
layers as well: the plugin target declares nothing `public`, `package` or `open` (it offers
its elements through the C shim only), and no target reaches, through any chain of
dependencies, a target of a layer above it (`FORBIDDEN`)."""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLUGIN = "ReplayCast"
# A target and what it must never reach: the plugin knows no application, the Kit no tooling.
FORBIDDEN = {"ReplayCast": {"ReplayCastKit", "ReplayCastTools"}, "ReplayCastKit": {"ReplayCastTools"}}
DECLARATION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(public|package|open)\s+(?:[\w@]+\s+)*?(?:func|var|let|class|struct|enum|protocol|typealias|init|extension|subscript|actor)\b", re.M)


def reached(targets, name):
    """Every target `name` depends on, directly or through others."""
    seen, todo = set(), list(targets[name][0])
    while todo:
        dependency = todo.pop()
        if dependency in seen or dependency not in targets:
            continue
        seen.add(dependency)
        todo.extend(targets[dependency][0])
    return seen


def manifest():
    dump = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True)
    targets = {}
    for target in json.loads(dump.stdout)["targets"]:
        names = [next(iter(dependency.values()))[0] for dependency in target.get("dependencies", [])]
        path = target.get("path") or f"{'Tests' if target['type'] == 'test' else 'Sources'}/{target['name']}"
        targets[target["name"]] = (set(names), ROOT / path)
    return targets


def documented():
    text = (ROOT / "docs/architecture.md").read_text()
    section = text.split("\n## Module graph\n", 1)[1]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    graph = {}
    for line in block.splitlines():
        target, _, dependencies = (part.strip() for part in line.partition("->"))
        graph[target] = set() if dependencies == "nothing" else {d.strip() for d in dependencies.split(",")}
    return graph


def main():
    targets = manifest()
    graph = documented()
    problems = []
    for name in sorted(set(targets) | set(graph)):
        declared = targets.get(name, (None, None))[0]
        if declared is None:
            problems.append(f"docs/architecture.md lists {name}, which Package.swift does not have")
        elif name not in graph:
            problems.append(f"docs/architecture.md's module graph lacks {name} -> {', '.join(sorted(declared)) or 'nothing'}")
        elif graph[name] != declared:
            problems.append(f"{name}: docs/architecture.md says {sorted(graph[name])}, Package.swift {sorted(declared)}")
    modules = set(targets) | {"ArgumentParser"}
    checked = 0
    for name, (declared, path) in sorted(targets.items()):
        for source in sorted(path.rglob("*.swift")):
            checked += 1
            for imported in re.findall(r"^(?:@testable |@_exported )?import (\w+)", source.read_text(), re.M):
                if imported in modules and imported != name and imported not in declared:
                    problems.append(f"{source.relative_to(ROOT)} imports {imported}, which {name} does not depend on")
    for name, never in FORBIDDEN.items():
        for dependency in sorted(reached(targets, name) & never):
            problems.append(f"{name} reaches {dependency}, a layer above it")
    exported = 0
    for source in sorted(targets[PLUGIN][1].rglob("*.swift")):
        text = source.read_text()
        for match in DECLARATION.finditer(text):
            exported += 1
            line = text.count("\n", 0, match.start()) + 1
            problems.append(f"{source.relative_to(ROOT)}:{line}: the plugin declares something {match.group(1)}; "
                            "it offers its elements through the C shim only")
    for problem in problems:
        print(problem)
    print(f"{len(targets)} targets, {sum(len(d) for d, _ in targets.values())} dependencies, {checked} Swift files' imports checked, "
          f"{len(FORBIDDEN)} layer lines, {exported} declarations of the plugin beyond its module")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
