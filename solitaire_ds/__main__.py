"""``python -m solitaire_ds``: the same as the ``solitaire-ds`` command."""

import sys

from solitaire_ds.cli import main

if __name__ == "__main__":
    sys.exit(main())
