"""The mock interview's domain: what a mock is made of, which problems it draws, its life in the store,
its clock, its debrief and its scorecard. Imports neither streamlit nor torch.

- :mod:`.config`: a mock's settings and drawn problems (``MockConfig``, ``Mix``, ``ProblemRef``);
- :mod:`.selection`: choosing the problems (``select_problems``, ``select_interview``);
- :mod:`.rows`: mocks and their answers as stored rows;
- :mod:`.session`: start, answer, finish, settle (``start``, ``submit``, ``settle``);
- :mod:`.timer`: deadlines and remaining time as pure functions of an injected now;
- :mod:`.debrief`: scoring a finished mock; :mod:`.scorecard`: its Markdown scorecard.

The arrows run one way: ``session`` → ``debrief``, ``scorecard``, ``rows``, ``timer``, ``config``, and
out of the package to ``progress`` (store, scheduling) and ``grader`` (grading, labels, units).
"""
