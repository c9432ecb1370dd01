"""The bank's rubrics checked against its own model answers, and against text that is off the subject.

A recall template's model answer must make every one of its key points and show none of its
misconceptions; a paragraph about something else must make none of them. ``validate`` and the
test suite both run this, so a rubric too strict for its own answer, or loose enough to fire on
anything, is caught where it is written.
"""

from __future__ import annotations

from grader import Kind, Problem, check_explanation

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
    if own.misconceptions:
        return (
            f"the model answer shows the misconception(s) {', '.join(own.misconceptions)}",
            "make the misconception's phrases more specific (a whole wrong statement, not one word)",
        )
    stray = check_explanation(problem, OFF_TOPIC)
    if any(stray.hits) or stray.misconceptions:
        found = [f"key point {i}" for i, hit in enumerate(stray.hits) if hit] + list(stray.misconceptions)
        return (
            f"an off-topic paragraph matches {', '.join(found)}",
            "use phrases specific to the subject, or need more concepts",
        )
    return None
