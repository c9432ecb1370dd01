"""``python -m grader.estimator explore ...``: the estimator's figures for one setup, in a terminal.

An entry point, like ``app.py``: the command reads the bank's presets, which ``grader`` may not
import, so it lives in ``ui.explore.cli``; this module only hands over to it (see README).
"""

from ui.explore.cli import main

raise SystemExit(main())
