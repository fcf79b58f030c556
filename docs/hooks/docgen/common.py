"""Shared by every kind of page: where the sources are, escaping, the stored figures."""

from __future__ import annotations

import html
import inspect
import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]  # docs/hooks/docgen/common.py -> the checkout


DATA = ROOT / "docs" / "data"


class DirectiveError(ValueError):
    """A directive that names no generator or gives it bad arguments."""


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _game_class(name: str) -> Any:
    from solitaire_ds.games import game_class

    return game_class(name)


def _docstring_head(obj: Any) -> str:
    return inspect.cleandoc(obj.__doc__ or "")


def _anchor(title: str) -> str:
    """The id mkdocs' toc extension gives a heading such as ``solitaire-ds play``."""
    return re.sub(r"[\s]+", "-", re.sub(r"[^\w\s-]", "", title).strip().lower())


def _esc_cell(text: str) -> str:
    return text.replace("|", "\\|")


def _item_text(item: Any) -> str:
    return getattr(item, "label", str(item))


def _load(name: str) -> dict[str, Any] | None:
    path = DATA / name
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data
