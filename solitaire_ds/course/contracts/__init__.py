"""The contract tests: what an exercise must do; the grader runs exactly these.

Every assert in them carries its own message in plain words, so none is rewritten by
pytest: a failure shows that message alone, not an expression dump under it.
"""
