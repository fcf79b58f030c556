"""mkdocs hook: expand the ``<!-- gen: ... -->`` directives of every page from the real code.

See the ``docgen`` package next to this file for the generators. mkdocs puts this folder on
``sys.path`` while it loads the hook, so ``docgen`` imports as a sibling package.
"""

from __future__ import annotations

from typing import Any

import docgen

__all__ = ["on_page_markdown"]


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace each generator directive on ``page`` by its generated Markdown."""
    return docgen.expand(markdown, where=page.file.src_uri)
