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
from typing import Any, cast

from pybridge import construct, lexicon, readers
from pybridge.construct import Construction
from pybridge.difficulty import Estimate
from pybridge.difficulty import estimate as estimate_difficulty
from pybridge.errors import (
    CrosswordError,
    EngineError,
    InputError,
    MissingDependency,
    UsageError,
)
from pybridge.model import Format, Placement, Puzzle, Solution
from pybridge.patterns import ImpossiblePattern, Pattern, PatternNotFound
from pybridge.patterns import generate as make_pattern
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


def make_crossword(
    rows: int,
    cols: int,
    dictionary: PathLike | Sequence[PathLike],
    *,
    encoding: str | None = None,
    **options: Any,
) -> Construction:
    """A crossword from nothing: a pattern of `rows` x `cols` cells (the
    options of make_pattern) filled from `dictionary` (a path, or several to
    merge), trying other patterns until one fills; the fill is verified.
    The other options are pybridge.construct.make's: engine, strategy,
    tries, try_timeout, timeout, difficulty (low, high), report."""
    paths = [dictionary] if isinstance(dictionary, str | os.PathLike) else list(dictionary)
    words = lexicon.load_dictionary(paths, encoding).words
    return construct.make(rows, cols, words, **options)


__all__ = [
    "ENGINES",
    "STRATEGIES",
    "Construction",
    "CrosswordError",
    "EngineError",
    "Estimate",
    "ImpossiblePattern",
    "InputError",
    "MissingDependency",
    "Outcome",
    "Pattern",
    "PatternNotFound",
    "Placement",
    "Puzzle",
    "Solution",
    "Stats",
    "UsageError",
    "estimate_difficulty",
    "load",
    "make_crossword",
    "make_pattern",
    "run",
    "solve",
]
