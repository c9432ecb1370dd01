"""Timing statistics, and one real measurement through torch.utils.benchmark."""

from __future__ import annotations

import math
import time

import pytest

from gpu_checks.timing import MIN_REPLICATES, NOISE_THRESHOLD, ProbeStopped, measure, timing_from_times


def test_median_and_interquartile_range() -> None:
    timing = timing_from_times(times_s=[4.0, 1.0, 3.0, 2.0, 5.0])
    assert timing.median_s == 3.0
    assert timing.iqr_s == pytest.approx(2.0)  # p75 = 4, p25 = 2
    assert timing.spread == pytest.approx(2.0 / 3.0)
    assert timing.noisy


def test_tight_replicates_are_not_noisy() -> None:
    timing = timing_from_times(times_s=[1.0, 1.01, 0.99, 1.0])
    assert timing.spread < NOISE_THRESHOLD
    assert not timing.noisy


def test_one_replicate_has_no_spread_and_none_is_refused() -> None:
    assert timing_from_times(times_s=[0.5]).iqr_s == 0.0
    with pytest.raises(ValueError):
        timing_from_times(times_s=[])


def test_measure_returns_replicates_of_a_real_statement() -> None:
    import torch

    x = torch.ones(64)
    timing = measure(
        "torch.add(x, 1.0, out=x)",
        namespace={"torch": torch, "x": x},
        num_threads=1,
        min_run_time_s=0.001,
        max_run_time_s=0.01,
    )
    assert len(timing.times_s) >= 1
    assert timing.number_per_block >= 1
    assert timing.median_s > 0 and math.isfinite(timing.median_s)
    assert float(x[0]) > 1.0  # the statement really ran


def test_a_slow_statement_still_gets_three_replicates() -> None:
    timing = measure(
        "time.sleep(0.01)",
        namespace={"time": time},
        num_threads=1,
        min_run_time_s=0.001,
        max_run_time_s=1.0,
    )
    assert len(timing.times_s) >= MIN_REPLICATES
    assert timing.number_per_block == 1
    assert timing.median_s >= 0.01


def test_a_stop_request_ends_a_measurement_between_blocks() -> None:
    import threading

    stop = threading.Event()
    calls: list[int] = []
    # The statement itself asks to stop after its first call: the measurement must not finish
    # its blocks (let alone its second round) before noticing.
    namespace = {"stop": stop, "calls": calls}
    with pytest.raises(ProbeStopped):
        measure(
            "calls.append(1); stop.set()",
            namespace=namespace,
            num_threads=1,
            min_run_time_s=60.0,
            max_run_time_s=60.0,
            stop=stop,
        )
    assert calls  # it did run, and was cut short


def test_replicates_are_asked_for_again_when_an_autorange_brings_one_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On a busy machine an autorange can return a single block however long it was asked to run.
    from types import SimpleNamespace

    from gpu_checks import timing as timing_module

    def one_block(self: object, min_run_time: float) -> SimpleNamespace:
        return SimpleNamespace(times=[0.01], raw_times=[0.01], number_per_run=1)

    monkeypatch.setattr(timing_module._stoppable_timer_class(), "blocked_autorange", one_block)
    timing = measure("pass", namespace={}, num_threads=1, min_run_time_s=0.001, max_run_time_s=1.0)
    assert len(timing.times_s) == MIN_REPLICATES
