"""The contract tests: what an exercise must do; the grader runs exactly these."""

import pytest

# The shared contracts' bare asserts get pytest's explanations (expected against actual).
pytest.register_assert_rewrite("tests.contracts.structure_contracts")
