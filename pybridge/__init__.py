"""Fill crossword frameworks by backtracking, in SWI-Prolog or in Python.

    >>> import pybridge
    >>> puzzle = pybridge.load("data/demo.dat")
    >>> print(next(pybridge.solve(puzzle, engine="python")))
    PYTHON
    R  E O
    O  A D
    L  PEEK
    O        T
    GRAMMAR  O
      T   U  K
      O   LEXER
      MERGE  N

A fill-in puzzle takes its word list, `load(grid, words=path)`; a grid filled
from a dictionary (construction mode) takes `load(grid, dictionary=path)`.

Importing this package never loads SWI-Prolog; the Prolog engine is loaded
the first time it is asked for.
"""

import os
from collections.abc import Sequence
from typing import cast

from pybridge import lexicon, readers
from pybridge.errors import (
    CrosswordError,
    EngineError,
    InputError,
    MissingDependency,
    ResourceLimit,
    UsageError,
)
from pybridge.model import Format, Placement, Puzzle, Solution
from pybridge.solver import ENGINES, STRATEGIES, Outcome, Stats, run, solve

PathLike = str | os.PathLike[str]


def load(
    path: PathLike,
    words: PathLike | None = None,
    *,
    dictionary: PathLike | Sequence[PathLike] | None = None,
    format: str | None = None,
    grid: int | None = None,
    encoding: str | None = None,
) -> Puzzle:
    """Read a puzzle: exact mode (P-99, or fill-in with its `words` file), or
    with `dictionary` a grid (CS50, RP 2016 - pick one with `grid` - or plain
    `.`/`#`) to fill from one or more dictionaries."""
    if dictionary is None:
        if format is not None and format not in readers.FORMATS:
            raise UsageError(f"unknown puzzle format {format!r}: one of {readers.FORMATS}")
        return readers.load(path, words, cast(Format, format))
    if words is not None:
        raise UsageError("words (placed exactly once) and dictionary exclude each other")
    if format is not None and format not in lexicon.GRID_FORMATS:
        raise UsageError(f"unknown grid format {format!r}: one of {lexicon.GRID_FORMATS}")
    grid_format = cast(lexicon.GridFormat, format)
    return lexicon.load_lexicon_puzzle(
        path, dictionary, grid=grid, format=grid_format, encoding=encoding
    )


__all__ = [
    "ENGINES",
    "STRATEGIES",
    "CrosswordError",
    "EngineError",
    "InputError",
    "MissingDependency",
    "Outcome",
    "Placement",
    "Puzzle",
    "ResourceLimit",
    "Solution",
    "Stats",
    "UsageError",
    "load",
    "run",
    "solve",
]
