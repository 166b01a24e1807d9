"""``python -m rulelang``: the same command line as the ``rulelang`` script."""

from .cli import main

main()
