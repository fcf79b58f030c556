"""The grader: a judge that decides, and workers that only run the student's code.

Invariant: no verdict is computed in a process that runs a student's code. The student's
code runs only in a worker (:mod:`~solitaire_ds.course.grader.worker`), one per exercise,
inside bubblewrap when the machine has it (:mod:`~solitaire_ds.course.grader.sandbox`),
with the package's skeletons around the student's file, an empty environment, and
nothing of the judge: no pytest, no Hypothesis, no contract test, no instructor test, no
key. The worker answers the judge's requests with plain data only
(:mod:`~solitaire_ds.course.grader.messages`: numbers, text, cards, lists and dicts of
those, the number of an object it keeps, or an exception's type and message).

The judge (:mod:`~solitaire_ds.course.grader.judge`) is a pytest run of the contract
tests in the grader's own process tree. The tests reach the student's objects through
proxies (:mod:`~solitaire_ds.course.grader.proxy`) whose every answer is bounded and
checked before it is believed (:mod:`~solitaire_ds.course.grader.connection` adds the
CPU and wall limits of each call, and replaces a worker that dies or hangs). The runner
(:mod:`~solitaire_ds.course.grader.runner`) starts the judge, reads its events (never
trusting them to be well formed), and turns them into scores.

What a student's code can reach: its own worker process and the files it was given (its
own file and the package). What it cannot: the judge, the other exercises' workers, the
tests, the instructor's environment, classmates' files, the network.
"""
