"""Reading a bank file safely, keeping line numbers.

The text is composed into a node tree with PyYAML's safe loader (never ``yaml.load``). Before
anything is constructed, every node's tag is checked: only the standard scalar, sequence and
mapping tags are accepted, so ``!!python/object`` and custom tags are refused with their line.
Duplicate keys, which YAML would silently let the last one win, are refused too. The node tree
stays beside the data so that any later error can be traced back to its line.

Hostile files are refused before they cost anything: a file that is not a regular file (a FIFO, a
device) or larger than :data:`MAX_FILE_BYTES`, bytes that are not UTF-8 (with the line and column
of the first), aliases that add more than :data:`MAX_EXPANDED_NODES` nodes once expanded (an "alias
bomb": a few hundred bytes that nest anchors into billions of nodes), and texts holding a Markdown
image or raw HTML (:mod:`question_bank.text_safety`): a browser would fetch an image from wherever
it points.
"""

from __future__ import annotations

import copy
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from question_bank.text_safety import HINT as TEXT_HINT
from question_bank.text_safety import markup_flaw

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TAG_PREFIX = "tag:yaml.org,2002:"
_STANDARD_TAGS = frozenset(
    _TAG_PREFIX + name for name in ("str", "int", "float", "bool", "null", "map", "seq")
)

PathPart = str | int

#: A bank file larger than this is refused unread (the shipped ones are about 30 kB).
MAX_FILE_BYTES = 1_000_000
#: Nodes the aliases of a file may add once expanded (the shipped files use none); the file's own
#: nodes do not count, since a large file written out in full costs what it weighs.
MAX_EXPANDED_NODES = 20_000


@dataclass(frozen=True)
class Flaw:
    """A structural mistake found while reading: its 1-based line, where in the data, what, and the fix."""

    line: int
    path: tuple[PathPart, ...]
    message: str
    hint: str


@dataclass(frozen=True)
class YamlSource:
    """A file's constructed data beside its node tree (``node`` is None when the file is empty)."""

    path: Path
    node: yaml.Node | None
    data: Any


#: Files read without a flaw, by path and exact text: the same text parses to the same tree, so a bank
#: loaded again in one process (``validate`` run again, a test loading the shipped bank) skips the YAML
#: parser, most of a load's time. Each reader gets its own copy of the data (the node tree is only read).
#: Bounded, so an author editing many files in one long-running process keeps few.
_PARSED: dict[tuple[str, str], YamlSource] = {}
_PARSED_LIMIT = 64


def forget_parsed() -> None:
    """Parse every file anew from here on (a benchmark's cold load)."""
    _PARSED.clear()


def read_yaml(path: Path) -> tuple[YamlSource | None, list[Flaw]]:
    """Read ``path``; return its source and the flaws that stop it from being used.

    With flaws, the source is None (unreadable text, bad syntax) or has a node tree but no data.
    """
    text, flaw = _read_text(path)
    if flaw is not None:
        return None, [flaw]
    known = _PARSED.get((str(path), text))
    if known is not None:
        return YamlSource(path, known.node, copy.deepcopy(known.data)), []
    source, flaws = _parse(path, text)
    if source is not None and source.node is not None and not flaws:
        if len(_PARSED) >= _PARSED_LIMIT:
            _PARSED.clear()
        _PARSED[(str(path), text)] = YamlSource(path, source.node, copy.deepcopy(source.data))
    return source, flaws


def _parse(path: Path, text: str) -> tuple[YamlSource | None, list[Flaw]]:
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 0
        problem = exc.problem or exc.context or "invalid YAML"
        return None, [
            Flaw(
                line,
                (),
                f"YAML syntax: {problem}",
                "consistent indentation with spaces, a colon after each key, closed quotes and brackets",
            )
        ]
    if node is None:
        return YamlSource(path, None, None), []
    bomb = _alias_bomb(node)
    if bomb is not None:
        # Walking or building the expanded tree is what takes minutes: refuse before either.
        return None, [bomb]
    flaws = _structure_flaws(node, ())
    if flaws:
        # The node tree still tells the caller which template each flaw sits in; the data is not built.
        return YamlSource(path, node, None), flaws
    try:
        data = _Loader("").construct_document(node)
    except yaml.YAMLError as exc:  # e.g. an impossible date under a standard tag
        return None, [Flaw(_line(node), (), f"YAML value: {exc}", "plain numbers, text, lists and mappings")]
    return YamlSource(path, node, data), []


def _read_text(path: Path) -> tuple[str, Flaw | None]:
    """The file's text, or the flaw that stops it being read (never blocking on a FIFO)."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            message = "it is not a regular file (a FIFO, a device or a socket)"
            return "", Flaw(0, (), message, "a plain .yaml text file")
        if info.st_size > MAX_FILE_BYTES:
            message = f"the file is {info.st_size:,} bytes; a bank file is at most {MAX_FILE_BYTES:,}"
            return "", Flaw(0, (), message, "split it into several files")
        data = path.read_bytes()
    except OSError as exc:
        return "", Flaw(0, (), f"cannot read the file: {exc.strerror or exc}", "a readable UTF-8 text file")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", errors="replace")) + 1
        message = f"column {column}: byte 0x{data[exc.start]:02x} is not UTF-8 text"
        return "", Flaw(line, (), message, "save the file as UTF-8")


def _alias_bomb(root: yaml.Node) -> Flaw | None:
    """A flaw at the smallest node whose aliases add over :data:`MAX_EXPANDED_NODES` nodes, else None.

    An alias is the same node object met again. Only what aliases add counts: a node met again
    brings its whole expanded size, a node met first only what the aliases inside it add. So a large
    file written out in full counts nothing, however many nodes it holds. Sizes are counted once per
    object (linear in the file) and added up as the expansion would repeat them.
    """
    sizes: dict[int, int] = {}  # expanded size of each node object, once counted
    found: list[tuple[yaml.Node, str]] = []
    open_nodes: set[int] = set()

    def walk(node: yaml.Node) -> tuple[int, int]:
        """The node's expanded size and the nodes aliases add to it, here where it is met."""
        if id(node) in open_nodes:  # an alias inside its own anchor: it expands for ever
            found.append((node, "an alias (*name) here refers to the anchor that contains it"))
            return MAX_EXPANDED_NODES + 1, MAX_EXPANDED_NODES + 1
        if id(node) in sizes:  # an alias: everything it stands for is added
            return sizes[id(node)], sizes[id(node)]
        open_nodes.add(id(node))
        total, extra = 1, 0
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        for child in children:
            size, more = walk(child)
            total += size
            extra += more
        open_nodes.discard(id(node))
        if extra > MAX_EXPANDED_NODES and not found:
            found.append((node, f"aliases (*name) here expand to over {MAX_EXPANDED_NODES:,} YAML nodes"))
        sizes[id(node)] = total
        return total, extra

    walk(root)
    if not found:
        return None
    node, message = found[0]
    hint = "write the values out; an alias must not multiply the file (no anchors nested in anchors)"
    return Flaw(_line(node), (), message, hint)


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _structure_flaws(node: yaml.Node, path: tuple[PathPart, ...]) -> list[Flaw]:
    flaws: list[Flaw] = []
    if node.tag not in _STANDARD_TAGS:
        flaws.append(
            Flaw(
                _line(node),
                path,
                f"the YAML tag {node.tag.replace(_TAG_PREFIX, '!!')} is not allowed",
                "plain YAML values without tags (no !!python/..., no !custom)",
            )
        )
        return flaws
    refused = markup_flaw(node.value) if isinstance(node, yaml.ScalarNode) else None
    if refused is not None:
        flaws.append(Flaw(_line(node), path, refused, TEXT_HINT))
    if isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            flaws += _structure_flaws(item, (*path, index))
    elif isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            if key.tag == _TAG_PREFIX + "merge":
                flaws.append(
                    Flaw(_line(key), path, "merge keys (<<) are not allowed", "write the keys out in full")
                )
                continue
            if not isinstance(key, yaml.ScalarNode) or key.tag != _TAG_PREFIX + "str":
                flaws.append(Flaw(_line(key), path, "a key must be plain text", "name: value"))
                continue
            if key.value in seen:
                flaws.append(
                    Flaw(
                        _line(key),
                        (*path, key.value),
                        f"the key {key.value!r} appears twice here (first on line {seen[key.value]})",
                        "one entry per key; remove or rename the repeat",
                    )
                )
            seen.setdefault(key.value, _line(key))
            flaws += _structure_flaws(value, (*path, key.value))
    return flaws


def _child(node: yaml.Node, part: PathPart) -> tuple[int, yaml.Node] | None:
    """The line and node of ``part`` below ``node``; a mapping entry's line is its key's line."""
    if isinstance(node, yaml.MappingNode) and isinstance(part, str):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == part:
                return _line(key), value
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
        item = node.value[part]
        return _line(item), item
    return None


def locate(node: yaml.Node, parts: tuple[PathPart, ...]) -> tuple[int, tuple[PathPart, ...]]:
    """The line of the deepest node named by ``parts`` under ``node``, and the parts that matched.

    Validation error paths mix real keys with the names of union members (``int``, ``call``,
    ``numeric``) that are not in the file; a part that does not match is skipped, and of all the
    ways to skip, the one that matches the most real keys wins.
    """
    best: tuple[int, tuple[PathPart, ...]] = (_line(node), ())

    def walk(
        current: yaml.Node, line: int, rest: tuple[PathPart, ...], matched: tuple[PathPart, ...]
    ) -> None:
        nonlocal best
        if len(matched) > len(best[1]):
            best = (line, matched)
        if not rest:
            return
        found = _child(current, rest[0])
        if found is not None:
            walk(found[1], found[0], rest[1:], (*matched, rest[0]))
        walk(current, line, rest[1:], matched)

    walk(node, _line(node), parts, ())
    return best


def child_node(node: yaml.Node, parts: tuple[PathPart, ...]) -> yaml.Node | None:
    """The node at exactly ``parts`` below ``node``, or None."""
    for part in parts:
        found = _child(node, part)
        if found is None:
            return None
        node = found[1]
    return node


def text_start_line(node: yaml.Node) -> int:
    """The line where a scalar's text begins: the line after ``|`` or ``>`` for block scalars."""
    return _line(node) + (1 if getattr(node, "style", None) in ("|", ">") else 0)
