"""Micro-benchmarks on the user's own device, compared with grader.estimator. Imports torch lazily."""
