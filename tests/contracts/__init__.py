"""The contract tests: what an exercise must do; the grader runs exactly these."""
