"""The house's import picture: which package imports which, module and line counts, import circles.

Reads the source with ``ast`` (nothing is imported or run). An import inside a function counts as
an arrow too ("lazy"): it is still a dependency, only a deferred one.

    .venv/bin/python benchmarks/import_picture.py [--modules]

It prints the arrows between the project's packages (``grader.estimator`` and ``grader.explain`` are
shown apart from the rest of ``grader``, ``progress.mock`` apart from ``progress``), then modules and
lines per package, then every circle among modules (a strongly connected set of two or more).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The project's top-level code, in the order the arrows run (entry first).
PACKAGES = ("app", "pages", "ui", "progress", "question_bank", "grader", "gpu_checks")
#: Subpackages shown as parts of their own in the picture.
PARTS = ("grader.estimator", "grader.explain", "progress.mock")


@dataclass(frozen=True)
class Arrow:
    """One import: ``source`` module imports ``target`` module; ``lazy`` when inside a function."""

    source: str
    target: str
    lazy: bool


def module_name(path: Path, root: Path = ROOT) -> str:
    """``grader/estimator/__init__.py`` → ``grader.estimator``; ``app.py`` → ``app``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(root: Path = ROOT) -> list[Path]:
    """Every Python file of the app's packages (tests and benchmarks are not part of the house)."""
    files = [root / "app.py"] if (root / "app.py").exists() else []
    for package in PACKAGES[1:]:
        files += sorted((root / package).rglob("*.py"))
    return files


def _resolve(module: str, level: int, name: str | None, is_package: bool) -> str:
    if level == 0:
        return name or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def _is_main_guard(node: ast.AST) -> bool:
    """``if __name__ == "__main__":``: what it imports runs only when the module is run as a script."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Name)
        and node.test.left.id == "__name__"
    )


def arrows(root: Path = ROOT) -> list[Arrow]:
    """Every import between the project's own modules, found in the source."""
    files = source_files(root)
    known = {module_name(p, root) for p in files}
    out: list[Arrow] = []
    for path in files:
        module = module_name(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        lazy_nodes = {
            id(inner)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or _is_main_guard(node)
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(module, node.level, node.module, path.name == "__init__.py")
                # "from package import module" names a module; "from module import name" does not.
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    out.append(Arrow(module, target, id(node) in lazy_nodes))
    return out


def is_entry(module: str) -> bool:
    """An entry point: the app, a page script, or a package's ``__main__`` (a command).

    Entry points sit above every package and may import whatever they start; nothing imports them.
    """
    return module == "app" or module.startswith("pages.") or module.endswith(".__main__")


def part_of(module: str) -> str:
    """The package (or shown subpackage) a module belongs to."""
    for part in PARTS:
        if module == part or module.startswith(part + "."):
            return part
    return module.split(".")[0]


def package_arrows(found: Iterable[Arrow]) -> dict[tuple[str, str], tuple[int, int]]:
    """(source part, target part) → (imports at module level, imports inside functions)."""
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for a in found:
        src, dst = part_of(a.source), part_of(a.target)
        if is_entry(a.source) and src != "pages":
            src = f"{src} (entry)"
        if src != dst:
            counts[(src, dst)][int(a.lazy)] += 1
    return {k: (v[0], v[1]) for k, v in sorted(counts.items())}


def circles(found: Iterable[Arrow]) -> list[list[str]]:
    """Strongly connected sets of two or more modules (Tarjan), each sorted, largest first."""
    graph: Mapping[str, set[str]] = defaultdict(set)
    for a in found:
        graph[a.source].add(a.target)  # type: ignore[index]
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out, key=len, reverse=True)


def sizes(root: Path = ROOT) -> dict[str, tuple[int, int]]:
    """Part → (modules, lines)."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for path in source_files(root):
        part = part_of(module_name(path, root))
        out[part][0] += 1
        out[part][1] += len(path.read_text(encoding="utf-8").splitlines())
    return {k: (v[0], v[1]) for k, v in sorted(out.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", action="store_true", help="also list module-level arrows across parts")
    args = parser.parse_args(argv)
    found = arrows()
    print("Arrows between packages (imports at module level + inside functions):")
    for (src, dst), (eager, lazy) in package_arrows(found).items():
        print(f"  {src:18} → {dst:18} {eager:4d}" + (f" + {lazy} inside functions" if lazy else ""))
    print("\nModules and lines per package:")
    total = [0, 0]
    for part, (modules, lines) in sizes().items():
        total[0] += modules
        total[1] += lines
        print(f"  {part:18} {modules:4d} modules {lines:7,d} lines")
    print(f"  {'all':18} {total[0]:4d} modules {total[1]:7,d} lines")
    found_circles = circles(found)
    print(f"\nImport circles: {len(found_circles)}")
    for group in found_circles:
        print("  " + " ↔ ".join(group))
    if args.modules:
        print("\nModule arrows across parts:")
        for a in sorted(set(found), key=lambda a: (a.source, a.target)):
            if part_of(a.source) != part_of(a.target):
                print(f"  {a.source} → {a.target}" + (" (inside a function)" if a.lazy else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
