"""Settings shared by the whole suite."""

from hypothesis import HealthCheck, settings

# No per-example deadline: this suite runs on small shared machines where a slow example says
# nothing about the code. Properties still run their full number of examples.
settings.register_profile("suite", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("suite")
