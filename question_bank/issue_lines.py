"""The line of a field inside a loaded template, for checks that run after loading.

Loading keeps each template's file and first line (:attr:`question_bank.bank.Bank.sources`); a check
that finds fault with one step's answer or one option reads the file again to point at that line.
It runs only when an issue is found, so a clean bank never pays for it.
"""

from __future__ import annotations

from pathlib import Path

from question_bank.yaml_source import PathPart, child_node, locate, read_yaml


def field_line(file: str, template_line: int, path: tuple[PathPart, ...]) -> int:
    """The line of ``path`` inside the template that starts at ``template_line`` of ``file``.

    The template's own line when the file cannot be read again or the path is not found.
    """
    source, _ = read_yaml(Path(file))
    items = child_node(source.node, ("templates",)) if source is not None and source.node else None
    for item in getattr(items, "value", None) or ():
        if item.start_mark.line + 1 == template_line:
            return locate(item, path)[0]
    return template_line
