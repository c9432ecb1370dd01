"""Settings shared by the whole suite."""

from hypothesis import HealthCheck, settings

# No per-example deadline: this suite runs on small shared machines where a slow example says
# nothing about the code. Properties still run their full number of examples.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# CI runs the same examples every time (``--hypothesis-profile=ci``, set in .ci/run): a change lands or
# not on its own merits, never on a new random draw. A developer's runs keep drawing new examples, so
# the properties still go on finding what nobody thought to test.
settings.register_profile("ci", parent=settings.get_profile("suite"), derandomize=True)
settings.load_profile("suite")
