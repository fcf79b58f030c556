"""The grading secret: the key of the decks the games' tests draw for each file when grading.

Invariant: a grading secret is a file of exactly :data:`SECRET_BYTES` bytes, made by
:func:`default_secret` from :func:`secrets.token_bytes` with mode 0600 in a folder of mode
0700, or by anyone the same way (``head -c 32 /dev/urandom``). Grading with the same secret
gives the same decks to the same file, so the same scores, wherever it runs: at home
(``solitaire-ds grade --secret FILE``) and on Gradescope (the bundle carries a copy). Only
the judge reads it (see :mod:`solitaire_ds.course.contracts.drawn`); ``check`` never needs it.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["SECRET_BYTES", "SecretError", "default_path", "default_secret", "read_secret"]

#: The size of a grading secret, in bytes.
SECRET_BYTES = 32


class SecretError(Exception):
    """A grading secret that cannot be read or made: says why, in one line."""


def default_path() -> Path:
    """Return where the grading secret is kept by default:
    ``$XDG_CONFIG_HOME/solitaire-ds/grading-secret``, else ``~/.config/solitaire-ds/grading-secret``.

    >>> default_path().parts[-2:]
    ('solitaire-ds', 'grading-secret')
    """
    config = os.environ.get("XDG_CONFIG_HOME", "")
    base = Path(config) if os.path.isabs(config) else Path.home() / ".config"  # the XDG rule: only an absolute path
    return base / "solitaire-ds" / "grading-secret"


def read_secret(path: Path) -> bytes:
    """Return the grading secret in the file ``path``.

    Raise :class:`SecretError` when it cannot be read, is empty, or is not a grading secret
    (not exactly :data:`SECRET_BYTES` bytes).

    Runtime complexity: O(1): at most one byte more than a secret is read.
    """
    try:
        with open(path, "rb") as file:
            data = file.read(SECRET_BYTES + 1)
    except OSError as exc:
        raise SecretError(f"cannot read the grading secret {path}: {exc.strerror or exc}") from None
    if not data:
        raise SecretError(f"the grading secret {path} is empty (a secret is {SECRET_BYTES} random bytes)")
    if len(data) != SECRET_BYTES:
        size = f"{len(data)} bytes" if len(data) <= SECRET_BYTES else f"more than {SECRET_BYTES} bytes"
        raise SecretError(f"{path} is not a grading secret: it holds {size}, and a secret is exactly "
                          f"{SECRET_BYTES} bytes")
    return data


def default_secret() -> tuple[bytes, Path, bool]:
    """Return the secret at :func:`default_path`, its path, and whether it was made just now
    (32 random bytes, mode 0600, its folder made with mode 0700 if missing).

    Raise :class:`SecretError` when it cannot be made or read.
    """
    path = default_path()
    made = False
    if not path.exists():
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another grading run made it meanwhile: read theirs
        except OSError as exc:
            raise SecretError(f"cannot make the grading secret {path}: {exc.strerror or exc}") from None
        else:
            with os.fdopen(fd, "wb") as file:
                file.write(secrets.token_bytes(SECRET_BYTES))
            made = True
    return read_secret(path), path, made
