"""The real-browser test of the built docs site: run only when a built site is named.

CI builds the site and then runs ``SOLITAIRE_DS_SITE=DIR python -m pytest tests/browser``.
Without ``SOLITAIRE_DS_SITE`` (the default test run) nothing here is collected.
"""

from __future__ import annotations

import os

if not os.environ.get("SOLITAIRE_DS_SITE"):
    collect_ignore_glob = ["test_*.py"]
