"""``python -m progress export --format csv|json [--db PATH]``: print every stored attempt."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from progress.errors import StoreError
from progress.export import ExportFormat, export_report
from progress.paths import default_db_path


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m progress", description="Roofline Drill progress.")
    commands = parser.add_subparsers(dest="command", required=True)
    export = commands.add_parser("export", help="print every attempt, oldest first")
    export.add_argument(
        "--format",
        choices=[f.value for f in ExportFormat],
        default=ExportFormat.JSON.value,
        help="default: json",
    )
    export.add_argument(
        "--db", type=Path, default=None, help="the database (default: $DRILL_DB, else the user's data folder)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (1 when the database is refused).

    Rows that are not well-formed attempts are left out and named on stderr; the rest are exported.
    """
    args = _parser().parse_args(argv)
    path = args.db if args.db is not None else default_db_path()
    try:
        export = export_report(path, args.format)
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 1
    sys.stdout.write(export.text)
    if export.notice:
        # On stderr, so that the export itself stays clean when piped to a file.
        print(export.notice, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
