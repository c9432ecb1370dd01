"""The bank's rubrics checked against its own model answers, and against text that is off the subject.

A recall template's model answer must make every one of its key points, show none of its
misconceptions nor any point's contrary claim, and work every sum it shows out right; a paragraph
about something else must make none of them. ``validate`` and the test suite both run this, so a
rubric too strict for its own answer, or loose enough to fire on anything, is caught where it is
written.
"""

from __future__ import annotations

import random

from grader import Kind, Problem, check_explanation
from grader.explain.claims import Reading

#: Technical prose about another subject: rubrics must find nothing in it.
OFF_TOPIC = (
    "Our web service keeps user sessions in a relational database. Each request opens a connection, "
    "runs a few indexed queries and returns JSON; we cache hot rows in Redis, and when traffic grows we "
    "add replicas behind a load balancer and tune the connection pool. Deploys go out every afternoon, "
    "and the on-call engineer watches the error rate and the p99 latency for an hour afterwards."
)


def explanation_issue(problem: Problem) -> tuple[str, str] | None:
    """What is wrong with a recall problem's rubrics (message, hint), or None."""
    if problem.kind is not Kind.RECALL:
        return None
    own = check_explanation(problem, problem.model_answer)
    missed = [i for i, hit in enumerate(own.hits) if not hit]
    if missed:
        return (
            f"the model answer misses key point(s) {', '.join(map(str, missed))} by their rubric",
            "add the model answer's wording to those concepts as an alternative, or lower need",
        )
    if own.slips:
        return (
            f"the model answer works a sum out wrong: {own.slips[0]}",
            "fix the sum or its result (the checker reads worked sums in answers the same way)",
        )
    if own.misconceptions:
        return (
            f"the model answer shows the misconception(s) {', '.join(own.misconceptions)}",
            "make the misconception's phrases more specific (a whole wrong statement, not one word)",
        )
    for issue in (
        _contrary_issue(problem),
        _negation_issue(problem),
        _shuffle_issue(problem),
        _misconception_issue(problem),
    ):
        if issue is not None:
            return issue
    stray = check_explanation(problem, OFF_TOPIC)
    if any(stray.hits) or stray.misconceptions:
        found = [f"key point {i}" for i, hit in enumerate(stray.hits) if hit] + list(stray.misconceptions)
        return (
            f"an off-topic paragraph matches {', '.join(found)}",
            "use phrases specific to the subject, or need more concepts",
        )
    return None


#: A shuffled model answer may keep at most this share of the key points (word order carries claims).
SHUFFLED_SHARE = 0.5


def negated(statement: str) -> str:
    """A statement's own negation, as a candidate might deny it."""
    return f"It is false that {statement[:1].lower()}{statement[1:]}"


def rejected(statement: str) -> str:
    """A statement named in order to reject it."""
    return f"A common mistake is to think that {statement}."


def shuffled(text: str, *, seed: int = 0) -> str:
    """The text's words in a fixed random order: the vocabulary without the claims."""
    words = text.split()
    random.Random(seed).shuffle(words)
    return " ".join(words)


def _contrary_issue(problem: Problem) -> tuple[str, str] | None:
    """A point's contrary claim must be read in neither the model answer nor the point's own sentence."""
    answer, texts = Reading(problem.model_answer), [Reading(point) for point in problem.key_points]
    for i, rubric in enumerate(problem.key_point_rubrics):
        for claim in rubric.contrary:
            if answer.misconception(claim).made or texts[i].misconception(claim).made:
                return (
                    f"key point {i}'s contrary claim is read in the model answer or the point itself",
                    "make the contrary claim's concepts say the opposite (a whole wrong statement)",
                )
    return None


def _negation_issue(problem: Problem) -> tuple[str, str] | None:
    for i, point in enumerate(problem.key_points):
        if check_explanation(problem, negated(point)).hits[i]:
            return (
                f"key point {i}'s own negation ('It is false that ...') still makes it",
                "check that the point's phrases are not all negations themselves",
            )
    return None


def _shuffle_issue(problem: Problem) -> tuple[str, str] | None:
    made = (
        sum(
            check_explanation(problem, shuffled(problem.model_answer, seed=seed)).points_made
            for seed in range(3)
        )
        / 3
    )
    if made > SHUFFLED_SHARE * len(problem.key_points):
        return (
            f"the model answer shuffled still makes {made:.1f} of {len(problem.key_points)} points",
            "give points concepts that must stand together (two or more), not one common word",
        )
    return None


def _misconception_issue(problem: Problem) -> tuple[str, str] | None:
    for m in problem.misconceptions:
        statement = m.name[:1].upper() + m.name[1:] + "."
        if m.name not in check_explanation(problem, statement).misconceptions:
            return (
                f"the misconception {m.name!r} is not found in its own statement",
                "add the statement's wording to its concepts",
            )
        if m.name in check_explanation(problem, rejected(m.name)).misconceptions:
            return (
                f"the misconception {m.name!r} is still found when the statement is rejected",
                "misconception phrases must not carry their own rejection",
            )
    return None
