"""Griffe extension for the API pages: show the package's reST-flavoured docstrings well.

The docstrings hold doctests, reST roles and lists nested the reST way; the conversion
to Markdown lives in ``rest_markdown.py`` next to this file, shared with the game pages,
so a docstring reads the same wherever the site shows it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import griffe

sys.path.insert(0, str(Path(__file__).resolve().parent))  # griffe loads this file by path

from rest_markdown import to_markdown  # a sibling, put on the path just above

__all__ = ["DoctestFences"]


class DoctestFences(griffe.Extension):
    """Turn every object's docstring into Markdown as it is loaded (see ``rest_markdown``)."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        # the package itself gets no on_object call: convert its docstring here
        if pkg.docstring is not None:
            pkg.docstring.value = to_markdown(pkg.docstring.value)
