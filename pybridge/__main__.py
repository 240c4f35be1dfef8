"""`python -m pybridge`: the `crossword` command."""

from pybridge.cli import main

raise SystemExit(main())
