"""solitaire-ds: stacks, queues and deques taught through solitaire.

The structures live in :mod:`solitaire_ds.structures`, the card model in
:mod:`solitaire_ds.cards`, the games in :mod:`solitaire_ds.games`.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
