"""The grader: a judge that decides, and workers that only run the student's code.

Invariant: no verdict is computed in a process that runs a student's code, and no student's
code runs before the wall around it has been chosen and seen to hold. The student's code runs
only in a worker (:mod:`~solitaire_ds.course.grader.worker`), one per exercise, with the
package's skeletons around the student's file, an empty environment, and nothing of the
judge: no pytest, no Hypothesis, no contract test, no instructor test, no key. The worker
answers the judge's requests with plain data only (:mod:`~solitaire_ds.course.grader.messages`:
numbers, text, cards, lists and dicts of those, the number of an object it keeps, or an
exception's type and message).

The modules, by which side of that line they run on:

* **in the worker**, the only code near the student's: :mod:`~solitaire_ds.course.grader.worker`
  and the message types it shares with the judge (:mod:`~solitaire_ds.course.grader.messages`);
* **the walls around it**, set up by the judge and the runner before a line of it runs:
  :mod:`~solitaire_ds.course.grader.walls` chooses the tier (bubblewrap's namespaces; as root
  without them, a user id per exercise; or, only when asked, none) and sees it hold,
  :mod:`~solitaire_ds.course.grader.sandbox` builds bubblewrap's sandbox and the cgroups,
  :mod:`~solitaire_ds.course.grader.users` hands out the user ids and sweeps every process of
  one after each worker;
* **the judge**, which never runs a student's code: :mod:`~solitaire_ds.course.grader.judge`
  (the pytest plugin), :mod:`~solitaire_ds.course.grader.proxy` (every answer bounded and
  checked before it is believed), :mod:`~solitaire_ds.course.grader.connection` (the CPU and
  wall-clock limits of each call; a worker that dies or hangs is replaced),
  :mod:`~solitaire_ds.course.grader.remote_error` and
  :mod:`~solitaire_ds.course.grader.random_source` (exercise 7's draws, the judge's own);
* **the runner**, which never runs one either: :mod:`~solitaire_ds.course.grader.runner`
  (a submission's grade), :mod:`~solitaire_ds.course.grader.submission` (its copy, read for
  the instructor's notes, never run), :mod:`~solitaire_ds.course.grader.launch` (a judge
  started in isolated mode, its report read from a pipe only it holds, every judge of a run
  stopped on Ctrl-C or SIGTERM), :mod:`~solitaire_ds.course.grader.events`,
  :mod:`~solitaire_ds.course.grader.plan` and :mod:`~solitaire_ds.course.grader.scoring`.

What a student's code can reach depends on the wall (the docs' "Grade a class" says it tier
by tier); in every tier, it cannot reach the judge, the tests or a verdict.
"""
