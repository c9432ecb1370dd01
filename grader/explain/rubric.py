"""Rubrics: what a typed explanation must say for a key point, and the misconceptions to listen for.

Plain data, so a :class:`~grader.problem.Problem` carries them and the grader never reads the bank.
A rubric is a list of *concepts*; a concept is a tuple of alternative phrases (synonyms, symbols,
number forms) any one of which expresses it. A key point is made when at least ``need`` concepts
appear, none of them negated, and no ``forbid`` phrase appears (un-negated) anywhere in the text.
A misconception is found when all the concepts of its rubric appear un-negated in one sentence.

Phrases are matched on word stems, numbers by value (within 10 %), and long words forgivingly for
typos: see :mod:`grader.explain.text_match`.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rubric:
    """Concepts (each a tuple of alternative phrases) of which ``need`` must appear; ``forbid`` must not.

    ``need`` 0 means all of them. A point's concepts must stand in one sentence (or one that goes on
    "It is..."), a misconception's in one segment of a sentence (up to "and", "but", "while"...).
    """

    concepts: tuple[tuple[str, ...], ...]
    need: int = 0
    forbid: tuple[str, ...] = ()
    #: The point's figure, where it states one, and the unit it is said in ("FLOP/B"): a figure in
    #: that unit in the point's sentence that differs from it by more than ``value_rel_tol`` voids it.
    value: float | None = None
    value_unit: str = ""
    value_rel_tol: float = 0.10
    #: For a misconception: phrases that, standing between two of its concepts, pair them with
    #: something else ("below → memory-bound, above → compute-bound" says nothing compute-bound
    #: about "below").
    contrast: tuple[str, ...] = ()
    #: For a key point: claims that say its opposite in other words ("step time grows with every
    #: sequence" against "a bigger batch is almost free"), each read like a misconception's claim.
    #: One that stands where the point is not made makes the point denied: a wrong claim.
    contrary: tuple[Rubric, ...] = ()

    @property
    def required(self) -> int:
        """How many concepts must appear."""
        return self.need or len(self.concepts)


@dataclass(frozen=True)
class Misconception:
    """A common wrong belief: ``name`` as people say it, the ``correction``, and how to spot it."""

    name: str
    correction: str
    rubric: Rubric = field(default_factory=lambda: Rubric(concepts=()))
