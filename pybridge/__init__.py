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
from a dictionary (construction mode) takes `load(grid, dictionary=path)`; an
Across Lite .puz or ipuz crossword is filled with its own answers,
`load(path, answers=True)`, or from a dictionary.

Importing this package never loads SWI-Prolog; the Prolog engine is loaded
the first time it is asked for.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from pybridge import compiled as compiled  # first: it picks the search's form (select)
from pybridge.errors import (
    CrosswordError,
    EngineError,
    InputError,
    MissingDependency,
    ResourceLimit,
    UsageError,
)

if TYPE_CHECKING:  # loaded when first used: see __getattr__
    from pybridge.construct import Construction
    from pybridge.difficulty import Estimate
    from pybridge.difficulty import estimate as estimate_difficulty
    from pybridge.model import Clue, Format, Placement, Published, Puzzle, Solution
    from pybridge.options import (
        DictionaryOptions,
        MakeOptions,
        PatternOptions,
        PuzzleOptions,
        Rules,
        SearchOptions,
    )
    from pybridge.patterns import ImpossiblePattern, Pattern, PatternNotFound
    from pybridge.patterns import generate as make_pattern
    from pybridge.portfolio import Portfolio
    from pybridge.solver import ENGINES, STRATEGIES, Outcome, Stats, run, solve
    from pybridge.theme import ImpossibleTheme

# The API but its exceptions, by the module each name is loaded from when
# first used, so that `import pybridge` (and so every command's start) loads
# no engine, no grammar and no tool it does not use.
_LAZY = {
    **{
        name: ("pybridge.model", name)
        for name in ("Clue", "Format", "Placement", "Published", "Puzzle", "Solution")
    },
    **{
        name: ("pybridge.options", name)
        for name in (
            "DictionaryOptions",
            "MakeOptions",
            "PatternOptions",
            "PuzzleOptions",
            "Rules",
            "SearchOptions",
        )
    },
    "ENGINES": ("pybridge.solver", "ENGINES"),
    "STRATEGIES": ("pybridge.solver", "STRATEGIES"),
    "Outcome": ("pybridge.solver", "Outcome"),
    "Stats": ("pybridge.solver", "Stats"),
    "run": ("pybridge.solver", "run"),
    "solve": ("pybridge.solver", "solve"),
    "Portfolio": ("pybridge.portfolio", "Portfolio"),
    "Construction": ("pybridge.construct", "Construction"),
    "Estimate": ("pybridge.difficulty", "Estimate"),
    "estimate_difficulty": ("pybridge.difficulty", "estimate"),
    "ImpossiblePattern": ("pybridge.patterns", "ImpossiblePattern"),
    "Pattern": ("pybridge.patterns", "Pattern"),
    "PatternNotFound": ("pybridge.patterns", "PatternNotFound"),
    "make_pattern": ("pybridge.patterns", "generate"),
    "ImpossibleTheme": ("pybridge.theme", "ImpossibleTheme"),
}


def __getattr__(name: str) -> Any:
    """A name of the API loaded when first asked for (see _LAZY)."""
    if name not in _LAZY:
        raise AttributeError(f"module 'pybridge' has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


PathLike = str | os.PathLike[str]


def load(
    path: PathLike,
    words: PathLike | None = None,
    *,
    dictionary: PathLike | Sequence[PathLike] | None = None,
    format: str | None = None,
    grid: int | None = None,
    encoding: str | None = None,
    answers: bool = False,
) -> Puzzle:
    """Read a puzzle: exact mode (P-99, fill-in with its `words` file, or a
    .puz or .ipuz crossword with its own `answers`), or with `dictionary` a
    grid (CS50, RP 2016 - pick one with `grid` - plain `.`/`#`, .puz or .ipuz)
    to fill from one or more dictionaries."""
    from pybridge import gridfiles, readers
    from pybridge.exchange import EXCHANGE_FORMATS

    exact_formats = readers.FORMATS + EXCHANGE_FORMATS
    if dictionary is None:
        if format is not None and format not in exact_formats:
            raise UsageError(f"unknown puzzle format {format!r}: one of {exact_formats}")
        return readers.load(path, words, cast("Format", format), answers)
    if words is not None or answers:
        what = "words (placed exactly once)" if words is not None else "answers"
        raise UsageError(f"{what} and dictionary exclude each other")
    grid_formats = gridfiles.GRID_FORMATS + EXCHANGE_FORMATS
    if format is not None and format not in grid_formats:
        raise UsageError(f"unknown grid format {format!r}: one of {grid_formats}")
    grid_format = cast(gridfiles.GridFormat, format)
    return gridfiles.load_lexicon_puzzle(
        path, dictionary, grid=grid, format=grid_format, encoding=encoding
    )


def make_crossword(
    rows: int,
    cols: int,
    dictionary: PathLike | Sequence[PathLike],
    *,
    encoding: str | None = None,
    options: MakeOptions | None = None,
    **keywords: Any,
) -> Construction:
    """A crossword from nothing: a pattern of `rows` x `cols` cells (the
    options of make_pattern) filled from `dictionary` (a path, or several to
    merge), trying other patterns until one fills; the fill is verified.
    The other options are pybridge.construct.make's: engine, strategy,
    tries, try_timeout, timeout, difficulty (low, high), report, and from a
    scored dictionary min_score, maximize ("min" or "sum") and on_better.
    `options` (a MakeOptions, whose pattern's size is then `rows` x `cols`)
    may stand for all but report, progress and on_better."""
    from pybridge import construct, lexicon

    paths = [dictionary] if isinstance(dictionary, str | os.PathLike) else list(dictionary)
    loaded = lexicon.load_dictionary(paths, encoding)
    keywords.setdefault("scores", loaded.scores)
    if options is None:
        return construct.make(rows, cols, loaded.words, **keywords)
    sized = replace(options, pattern=replace(options.pattern, rows=rows, cols=cols))
    return construct.construct(loaded.words, sized, **keywords)


__all__ = [
    "ENGINES",
    "STRATEGIES",
    "Clue",
    "Construction",
    "CrosswordError",
    "DictionaryOptions",
    "EngineError",
    "Estimate",
    "ImpossiblePattern",
    "ImpossibleTheme",
    "InputError",
    "MakeOptions",
    "MissingDependency",
    "Outcome",
    "Pattern",
    "PatternNotFound",
    "PatternOptions",
    "Placement",
    "Portfolio",
    "Published",
    "Puzzle",
    "PuzzleOptions",
    "ResourceLimit",
    "Rules",
    "SearchOptions",
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
