"""Word searches: make one (in either engine) and find words in one.

    >>> from pybridge import wordsearch
    >>> names = ["Matthew", "Joe", "Mary", "Sarah", "Sally"]
    >>> made = wordsearch.make(names, size=(9, 9), seed=1, engine="python")
    >>> made.status, made.grid[0], made.placements[2].direction
    ('solved', 'YWHWTYRAM', 'W')
    >>> found = wordsearch.solve(made.grid, ["mary", "bob"])
    >>> [(p.word, p.row, p.col, p.direction) for p in found.found], found.missing
    ([('MARY', 0, 8, 'W')], ('BOB',))
    >>> wordsearch.make(["elephant"], size=(5, 5)).proof.layer
    'length'

The rules, the search and the files are in docs/wordsearch.md. The modules:
model (values), reading (files), search (the Python engine; its twin is
prolog/wordsearch.pl), engines (both behind one call), proofs, maker (the
orchestrator), finder (solve, and the check of every made puzzle), render
(text, JSON), pictures (SVG, PNG), bench (the benchmark).
"""

from __future__ import annotations

from collections.abc import Sequence

from pybridge.wordsearch import finder, maker
from pybridge.wordsearch.model import (
    DEFAULT_LEVEL,
    Found,
    Made,
    Overlap,
    Shape,
    WordPlacement,
    directions_of,
)
from pybridge.wordsearch.reading import entry, parse_mask, parse_size

__all__ = ["Found", "Made", "Shape", "WordPlacement", "make", "solve"]


def make(
    words: Sequence[str],
    size: tuple[int, int] | None = None,
    *,
    mask: Sequence[str] | None = None,
    directions: str | Sequence[str] = DEFAULT_LEVEL,
    overlap: Overlap = "allow",
    seed: int | None = None,
    avoid: Sequence[str] = (),
    letters: str | None = None,
    engine: str | None = None,
    timeout: float | None = None,
) -> Made:
    """A word search hiding `words` (normalised as word lists are) in a grid
    of `size` (rows, columns), or of the shape of `mask` (rows of '.' and
    '#'); `directions` a level (easy, medium, hard) or a list such as
    ["E", "S"]. Without a seed one is drawn (made.stats.seed)."""
    shape = None
    if mask is not None:
        shape = parse_mask("\n".join(mask), "mask")
    elif size is not None:
        shape = Shape.rectangle(*parse_size(f"{size[0]}x{size[1]}"))
    chosen = directions_of(directions if isinstance(directions, str) else ",".join(directions))
    request = maker.request_of(
        words,
        shape,
        directions=chosen,
        overlap=overlap,
        seed=seed,
        avoid=avoid,
        letters=letters,
        timeout=timeout,
    )
    return maker.make(request, engine)


def solve(grid: Sequence[str], words: Sequence[str]) -> Found:
    """Every occurrence of each word (normalised) in the rows of `grid`."""
    return finder.find(tuple(grid), [entry(word) for word in words])
