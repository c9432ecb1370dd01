"""Reading a bank file safely, keeping line numbers.

The text is composed into a node tree with PyYAML's safe loader (never ``yaml.load``). Before
anything is constructed, every node's tag is checked: only the standard scalar, sequence and
mapping tags are accepted, so ``!!python/object`` and custom tags are refused with their line.
Duplicate keys, which YAML would silently let the last one win, are refused too. The node tree
stays beside the data so that any later error can be traced back to its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TAG_PREFIX = "tag:yaml.org,2002:"
_STANDARD_TAGS = frozenset(
    _TAG_PREFIX + name for name in ("str", "int", "float", "bool", "null", "map", "seq")
)

PathPart = str | int


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


def read_yaml(path: Path) -> tuple[YamlSource | None, list[Flaw]]:
    """Read ``path``; return its source and the flaws that stop it from being used.

    With flaws, the source is None (unreadable text, bad syntax) or has a node tree but no data.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Flaw(0, (), f"cannot read the file: {exc}", "a UTF-8 text file")]
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
    flaws = _structure_flaws(node, ())
    if flaws:
        # The node tree still tells the caller which template each flaw sits in; the data is not built.
        return YamlSource(path, node, None), flaws
    try:
        data = _Loader("").construct_document(node)
    except yaml.YAMLError as exc:  # e.g. an impossible date under a standard tag
        return None, [Flaw(_line(node), (), f"YAML value: {exc}", "plain numbers, text, lists and mappings")]
    return YamlSource(path, node, data), []


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
