"""GPU checks: live micro-timings on the user's own device, beside the answers they back.

- :mod:`.page_view`: the page (device, plan, run, history); :mod:`.run_view`: one run drawn.
The probes themselves are the :mod:`gpu_checks` package.
"""
