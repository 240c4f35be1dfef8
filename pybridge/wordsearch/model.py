"""Word search values: directions and difficulty levels, the shape of a
grid, a request to make a puzzle, and what making or solving one answers.

The rules these values carry are specified in docs/wordsearch.md; the
order of DIRECTIONS is part of the search's contract (both engines list a
word's candidate places in it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pybridge.errors import UsageError, shown
from pybridge.search.kernel import Status

Overlap = Literal["allow", "forbid"]
HOLE = "#"  # a cell outside the mask: no letter goes there
USABLE = "."  # a cell of a mask that takes a letter

# name -> (row step, column step). The first four read forwards (left to
# right, or top to bottom when straight down); DIRECTIONS[i + 4] runs
# against DIRECTIONS[i].
STEPS: dict[str, tuple[int, int]] = {
    "E": (0, 1),
    "S": (1, 0),
    "SE": (1, 1),
    "NE": (-1, 1),
    "W": (0, -1),
    "N": (-1, 0),
    "NW": (-1, -1),
    "SW": (1, -1),
}
DIRECTIONS: tuple[str, ...] = tuple(STEPS)
FORWARD: tuple[str, ...] = DIRECTIONS[:4]  # also the four lines a window lies along
LEVELS: dict[str, tuple[str, ...]] = {
    "easy": ("E", "S"),
    "medium": ("E", "S", "SE", "NE"),
    "hard": DIRECTIONS,
}
DEFAULT_LEVEL = "hard"


def opposite(direction: str) -> str:
    """The direction that reads the same cells the other way."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + 4) % 8]


def directions_of(text: str) -> tuple[str, ...]:
    """A level (easy, medium, hard) or a comma-separated list of directions
    (E, SW, ...; any case), in the order of DIRECTIONS; UsageError otherwise."""
    spec = text.strip().lower()
    if spec in LEVELS:
        return LEVELS[spec]
    names = [part.strip().upper() for part in spec.split(",")]
    unknown = [name for name in names if name not in STEPS]
    if unknown or not names:
        raise UsageError(
            f"unknown directions {shown(repr(text))}: give a level ({', '.join(LEVELS)}) "
            f"or a list such as E,S,SE from {','.join(DIRECTIONS)}"
        )
    return tuple(d for d in DIRECTIONS if d in names)


@dataclass(frozen=True)
class Shape:
    """The grid: `mask` rows of equal length, USABLE or HOLE in each cell."""

    mask: tuple[str, ...]
    source: str = "<grid>"

    @classmethod
    def rectangle(cls, rows: int, cols: int) -> Shape:
        return cls(tuple(USABLE * cols for _ in range(rows)), f"{rows}x{cols}")

    @property
    def rows(self) -> int:
        return len(self.mask)

    @property
    def cols(self) -> int:
        return len(self.mask[0]) if self.mask else 0

    @property
    def cells(self) -> int:
        """The usable cells."""
        return sum(row.count(USABLE) for row in self.mask)

    def usable(self, r: int, c: int) -> bool:
        return 0 <= r < self.rows and 0 <= c < self.cols and self.mask[r][c] == USABLE

    def describe(self) -> str:
        masked = " mask" if self.cells < self.rows * self.cols else ""
        return f"{self.rows}x{self.cols}{masked}"


@dataclass(frozen=True)
class Request:
    """A puzzle to make. `words` are placed once each, in listed order of
    the answer; `avoid` must appear nowhere; `letters` are the filler's
    alphabet (sorted, distinct). The seed is always set: the maker draws one
    when the user gives none, and reports it."""

    words: tuple[str, ...]
    shape: Shape
    directions: tuple[str, ...] = LEVELS[DEFAULT_LEVEL]
    overlap: Overlap = "allow"
    seed: int = 0
    avoid: tuple[str, ...] = ()
    letters: tuple[str, ...] = ()
    timeout: float | None = None


@dataclass(frozen=True)
class Answer:
    """What an engine's search came to: the grid (rows, HOLE outside the
    mask) and each word's place (the row and column of its first cell, and
    its direction), in listed order; both empty unless solved."""

    status: Status
    grid: tuple[str, ...]
    places: tuple[tuple[int, int, str], ...]
    nodes: int
    backtracks: int


@dataclass(frozen=True)
class WordPlacement:
    """One occurrence of a word: its first cell, its direction and every
    cell it covers, 0-based."""

    word: str
    row: int
    col: int
    direction: str
    cells: tuple[tuple[int, int], ...]

    @classmethod
    def at(cls, word: str, row: int, col: int, direction: str) -> WordPlacement:
        dr, dc = STEPS[direction]
        cells = tuple((row + k * dr, col + k * dc) for k in range(len(word)))
        return cls(word, row, col, direction, cells)


@dataclass(frozen=True)
class Proof:
    """Why no puzzle exists: the layer that shows it, in words, and the
    words involved."""

    layer: str
    reason: str
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stats:
    engine: str
    nodes: int
    backtracks: int
    seconds: float
    seed: int


@dataclass(frozen=True)
class Made:
    """A made puzzle (status "solved"), or why there is none."""

    request: Request = field(repr=False)
    status: Status
    grid: tuple[str, ...]
    placements: tuple[WordPlacement, ...]
    stats: Stats
    proof: Proof | None = None

    @property
    def reason(self) -> str | None:
        return None if self.proof is None else self.proof.reason


@dataclass(frozen=True)
class Found:
    """What `solve` found in a grid: every occurrence of each word, in
    listed order, and the words that occur nowhere."""

    grid: tuple[str, ...]
    words: tuple[str, ...]
    found: tuple[WordPlacement, ...]
    missing: tuple[str, ...]


def total_letters(words: Sequence[str]) -> int:
    return sum(map(len, words))
