"""What ``make run`` starts: the long-lived things loaded first, then Streamlit serving ``app.py``.

Streamlit runs ``app.py`` only when the first browser connects, so the first visit after ``make run``
used to pay for importing the packages and parsing the question bank, several times a warm visit.
Loading them before the server starts moves that wait to the terminal, before the address is printed.

    .venv/bin/python -m ui.serve app.py [streamlit run options]
"""

from __future__ import annotations

import logging
import sys


def main(argv: list[str]) -> None:
    """Load, then hand ``argv`` (the script and its options) to ``streamlit run``."""
    # Outside a running server Streamlit warns that there is no script context; nothing is wrong.
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(logging.ERROR)
    logging.getLogger("streamlit.runtime.caching.cache_data_api").setLevel(logging.ERROR)
    from ui.long_lived import load_long_lived

    load_long_lived()
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", *argv]
    cli.main()


if __name__ == "__main__":
    main(sys.argv[1:])
