"""Which figures of a run can be trusted, and why not when they cannot.

A figure is doubtful for one of a few reasons, each with what to do about it: other programs
kept the CPUs busy while it was measured (a rate is then a lower bound), its timings were too
noisy, its buffers stayed in the cache (the figure is the cache's,
not memory's), or a knee fell outside the range swept. :func:`assess` names the doubts of every
headline figure under a key (``bandwidth``, ``matmul:<dtype>``, ``overhead``, ``overhead-knee``,
``decode:<dtype>``, ``decode-knee:<dtype>``, ``fusion``); a comparison lists the keys it rests
on (:attr:`gpu_checks.report.Comparison.depends`) and inherits their doubts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from gpu_checks.load import BUSY_CPUS
from gpu_checks.report import RunReport
from gpu_checks.results import DecodeResult, Sample
from gpu_checks.table import format_si
from gpu_checks.timing import NOISE_THRESHOLD

_IDLE = "rerun on an idle machine (close other programs; on a shared machine, when it is quiet)"


class Reason(StrEnum):
    """Why a figure is not a measurement to rely on."""

    NOISY = "too noisy"
    BUSY = "the machine was busy"
    CACHE = "cache-resident"
    BELOW_RANGE = "knee below the swept range"
    ABOVE_RANGE = "knee above the swept range"


@dataclass(frozen=True)
class Doubt:
    """One reason not to rely on a figure: ``reason``, what was seen (``detail``), what to do (``advice``)."""

    reason: Reason
    detail: str
    advice: str

    def sentence(self) -> str:
        """``Too noisy: <detail>. <Advice>.``"""
        reason = self.reason.value[0].upper() + self.reason.value[1:]
        separator = "; " if self.reason is Reason.BUSY else ": "
        return f"{reason}{separator}{self.detail}. {self.advice[0].upper()}{self.advice[1:]}."


Doubts = dict[str, tuple[Doubt, ...]]


def _noisy(samples: Sequence[Sample], what: str) -> tuple[Doubt, ...]:
    """A doubt when more than half of ``samples`` spread above the noise threshold."""
    if not samples:
        return ()
    noisy = [s for s in samples if s.timing.noisy]
    if 2 * len(noisy) <= len(samples):
        return ()
    worst = max(s.timing.spread for s in samples)
    if len(samples) == 1:
        detail = f"the timing behind {what} spread by {worst:.0%} (more than {NOISE_THRESHOLD:.0%})"
    else:
        detail = (
            f"{len(noisy)} of the {len(samples)} timings behind {what} spread by more than "
            f"{NOISE_THRESHOLD:.0%} (up to {worst:.0%})"
        )
    return (Doubt(Reason.NOISY, detail, _IDLE),)


def _busy(samples: Sequence[Sample], what: str, *, lower_bound: bool) -> tuple[Doubt, ...]:
    """A doubt when other programs kept the CPUs busy, on average, while ``samples`` were timed.

    ``lower_bound``: the figure is a rate (bytes or FLOPs per second), which other work can only
    lower, so the figure stands as a lower bound; otherwise it is a time, which it lengthens.
    """
    known = [s.timing.busy_cpus for s in samples if s.timing.busy_cpus is not None]
    if not known:
        return ()
    mean = sum(known) / len(known)
    if mean < BUSY_CPUS:
        return ()
    taken = f"other programs kept {mean:.1f} CPUs busy while {what} was measured"
    detail = f"this is a lower bound: {taken}" if lower_bound else f"{taken}, so its times may be too long"
    return (Doubt(Reason.BUSY, detail, _IDLE),)


def _cache(detail: str, *, bigger: str) -> Doubt:
    return Doubt(Reason.CACHE, detail, f"free some memory, or run Full ({bigger})")


def _bandwidth(report: RunReport) -> tuple[Doubt, ...]:
    result = report.bandwidth
    if result is None:
        return ()
    doubts: list[Doubt] = []
    if not result.beyond_cache:
        doubts.append(
            _cache(
                f"no array reached twice the {format_si(result.llc_bytes, 'B')} last-level cache, so the "
                "figure includes cache hits and overstates memory bandwidth",
                bigger="larger arrays",
            )
        )
    plateau = [s for s in result.samples if s.working_set_bytes >= result.plateau_min_bytes] or list(
        result.samples
    )
    busy = _busy(plateau, "the bandwidth plateau", lower_bound=True)
    noisy = _noisy(plateau, "the bandwidth plateau")
    if noisy and result.statistic == "best" and not busy:
        # The best repetition of disturbed blocks: the memory can do at least that much.
        noisy = (replace(noisy[0], detail=noisy[0].detail + "; the best repetition is a lower bound"),)
    return (*doubts, *busy, *noisy)


def _knee_doubts(
    *, knee: float | None, below_range: bool, xs: Iterable[float], what: str, unit: str
) -> tuple[Doubt, ...]:
    swept = sorted(xs)
    if not swept:
        return ()
    lo, hi = swept[0], swept[-1]
    # Reports saved before the fit knew about the range may hold a knee below it.
    if below_range or (knee is not None and knee < lo):
        return (
            Doubt(
                Reason.BELOW_RANGE,
                f"time grew from the smallest {what} swept ({lo:,.0f}{unit}) on, so the knee lies below "
                "it and was not measured",
                _IDLE + "; a Full run uses larger buffers",
            ),
        )
    if knee is None:
        return (
            Doubt(
                Reason.ABOVE_RANGE,
                f"time never rose clearly up to the largest {what} swept ({hi:,.0f}{unit})",
                "run Full, which sweeps further; a slow matmul or a fast memory pushes the knee out",
            ),
        )
    return ()


def _decode(decode: DecodeResult, *, llc_bytes: int) -> tuple[tuple[Doubt, ...], tuple[Doubt, ...]]:
    """(doubts of the decode timings, doubts of the decode knee)."""
    timings: list[Doubt] = []
    if not decode.beyond_cache:
        timings.append(
            _cache(
                f"the {format_si(decode.weight_bytes, 'B')} of weights are only "
                f"{decode.weight_bytes / llc_bytes:.1f}× the {format_si(llc_bytes, 'B')} "
                "last-level cache, so the flat part may be read partly from the cache",
                bigger="larger weights",
            )
        )
    timings += _busy(decode.samples, f"the {decode.dtype} decode sweep", lower_bound=False)
    timings += _noisy(decode.samples, f"the {decode.dtype} decode sweep")
    knee = _knee_doubts(
        knee=decode.knee_measured,
        below_range=decode.fit.below_range,
        xs=[s.size for s in decode.samples],
        what="batch",
        unit="",
    )
    return tuple(timings), knee + tuple(timings)


def assess(report: RunReport) -> Doubts:
    """The doubts of each headline figure of ``report`` (keys in the module docstring); empty when sound."""
    doubts: Doubts = {"bandwidth": _bandwidth(report)}
    if report.matmul:
        for dtype, peak in report.matmul.peak_flops_by_dtype.items():
            best = [s for s in report.matmul.samples if s.label == dtype and s.flops_per_s == peak]
            doubts[f"matmul:{dtype}"] = _busy(best, f"the {dtype} matmul peak", lower_bound=True) + _noisy(
                best, f"the {dtype} matmul peak"
            )
    if report.overhead:
        fit = report.overhead.fit
        flat = sorted(report.overhead.samples, key=lambda s: s.size)[: max(fit.n_flat, 1)]
        doubts["overhead"] = _busy(flat, "the overhead floor", lower_bound=False) + _noisy(
            flat, "the overhead floor"
        )
        doubts["overhead-knee"] = doubts["overhead"] + _knee_doubts(
            knee=report.overhead.knee_bytes_measured,
            below_range=fit.below_range,
            xs=[s.bytes_moved for s in report.overhead.samples],
            what="op",
            unit=" B",
        )
    for decode in report.decode:
        doubts[f"decode:{decode.dtype}"], doubts[f"decode-knee:{decode.dtype}"] = _decode(
            decode, llc_bytes=report.device.llc_bytes
        )
    if report.fusion:
        doubts["fusion"] = _busy(report.fusion.samples, "the fusion ratio", lower_bound=False) + _noisy(
            report.fusion.samples, "the fusion ratio"
        )
    return doubts


def doubts_of(doubts: Doubts, keys: Iterable[str]) -> tuple[Doubt, ...]:
    """The doubts of every figure in ``keys``, each once, in the order of ``keys``."""
    seen: dict[Doubt, None] = {}
    for key in keys:
        seen.update(dict.fromkeys(doubts.get(key, ())))
    return tuple(seen)
