"""The Reporter: collects one template's issues, each with its line in the template's YAML."""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass

import yaml

from question_bank.errors import BankIssue
from question_bank.yaml_source import PathPart, child_node, locate, text_start_line


@dataclass
class Reporter:
    """Collects issues for one template, finding each one's line in the template's YAML node."""

    file: str
    template_id: str
    node: yaml.Node
    issues: list[BankIssue]

    def __call__(self, path: tuple[PathPart, ...], message: str, hint: str, *, line: int = 0) -> None:
        line = line or locate(self.node, path)[0]
        field = ".".join(str(part) for part in path)
        self.issues.append(BankIssue(self.file, line, self.template_id, field, message, hint))

    def text_line(self, path: tuple[PathPart, ...], text: str, offset: int) -> int:
        """The line of character ``offset`` of the text stored at ``path``.

        The text's newlines are found once and searched by bisection, so a prompt with many
        placeholders costs time in proportion to its length, not its square.
        """
        node = child_node(self.node, path)
        if node is None:
            return locate(self.node, path)[0]
        return text_start_line(node) + bisect.bisect_left(_newline_offsets(text), offset)


@functools.lru_cache(maxsize=8)
def _newline_offsets(text: str) -> tuple[int, ...]:
    return tuple(i for i, char in enumerate(text) if char == "\n")
