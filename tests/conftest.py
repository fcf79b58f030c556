"""Options shared by the package's own tests.

The contract tests' ``--impl`` option and ``impl`` fixture live with the contract tests,
in ``solitaire_ds/conftest.py``: the contract tests ship inside the package.

The docs' generators (the ``docgen`` package) live in ``docs/hooks``, where mkdocs loads
them; that folder goes on the path here, once, for every docs test.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HOOKS = str(Path(__file__).resolve().parent.parent / "docs" / "hooks")
if _HOOKS not in sys.path:
    sys.path.insert(0, _HOOKS)
