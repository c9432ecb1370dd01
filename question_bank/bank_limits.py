"""How large a user's bank may be: its files' bytes in all, and its templates.

Each user template is generated for 700 seeds by ``validate`` and again when the app starts (see
:mod:`question_bank.generation_checks`), about 30 to 90 ms a template (``benchmarks/hostile_banks.py``
prints the figure). A bank of thousands of templates would hold the first page for minutes, so a
user bank (every folder beside the shipped one) holds at most :data:`MAX_USER_TEMPLATES` templates and
scenarios and :data:`MAX_USER_BANK_BYTES` bytes of files. What is over is left out by name, the rest
loads: the files in the order they are read, the templates in the order they are loaded.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from question_bank.errors import BankIssue, display_path
from question_bank.loading import LoadResult

#: Templates and scenarios a user bank may hold, all folders together: 15 to 60 s of ``validate`` and of
#: the app's first page, at 30 to 130 ms a template.
MAX_USER_TEMPLATES = 500
#: Bytes a user bank's files may hold in all (each file is at most 1 MB on its own): 500 templates of
#: 4 kB, more than any template written out needs.
MAX_USER_BANK_BYTES = 2_000_000
_WHAT_TO_DO = (
    "keep the folders you are not drilling out of DRILL_BANK_DIRS, or validate them one folder at a time"
)


def within_size_limit(
    templates: list[Path], pools: list[Path], *, shipped_roots: Iterable[Path]
) -> tuple[list[Path], list[Path], list[BankIssue]]:
    """The template and pool files kept under :data:`MAX_USER_BANK_BYTES`, and one issue per file left out."""
    roots = [root.resolve() for root in shipped_roots]
    total = 0
    kept: dict[Path, None] = {}
    issues: list[BankIssue] = []
    for path in [*pools, *templates]:
        if any(path.resolve().is_relative_to(root) for root in roots):
            kept[path] = None
            continue
        try:
            size = path.stat().st_size
        except OSError:
            size = 0  # reading it says why it cannot be read
        if total + size > MAX_USER_BANK_BYTES:
            message = (
                f"left out: your bank files hold over {MAX_USER_BANK_BYTES:,} bytes in all "
                f"({total + size:,} with this one)"
            )
            issues.append(BankIssue(display_path(path), 0, "", "", message, _WHAT_TO_DO))
            continue
        total += size
        kept[path] = None
    return [p for p in templates if p in kept], [p for p in pools if p in kept], issues


def within_template_limit(result: LoadResult, shipped_files: set[str]) -> list[BankIssue]:
    """Drop from ``result`` the user templates past :data:`MAX_USER_TEMPLATES`; one issue names them."""
    loaded = {t.id for t in result.templates} | {s.id for s in result.scenarios}
    users = [tid for tid, (file, _) in result.sources.items() if tid in loaded and file not in shipped_files]
    if len(users) <= MAX_USER_TEMPLATES:
        return []
    dropped = set(users[MAX_USER_TEMPLATES:])
    first = users[MAX_USER_TEMPLATES]
    file, line = result.sources[first]
    result.templates[:] = [t for t in result.templates if t.id not in dropped]
    result.scenarios[:] = [s for s in result.scenarios if s.id not in dropped]
    for tid in dropped:
        del result.sources[tid]
    message = (
        f"your bank holds {len(users):,} templates and at most {MAX_USER_TEMPLATES:,} are loaded "
        f"(each is generated for 700 seeds): this one and the {len(dropped) - 1:,} after it are left out"
    )
    return [BankIssue(file, line, first, "", message, _WHAT_TO_DO)]
