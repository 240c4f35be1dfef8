"""Grid patterns made from nothing: a size, a number of blocks, a symmetry
and the rules of a crossword grid (`crossword grid`, `generate`).

The rules (American style by default):

* every word (a maximal run of two or more open cells) has at least
  `min_length` letters, and at most `max_length` when one is given;
* every open cell is *checked* - in an across and a down word - unless
  unchecked cells are allowed, and even then every open cell is in a word;
* the open cells are connected;
* at most `max_words` words and `max_cheaters` cheater blocks (blocks that
  do not change the word count): a newspaper's limits, by default for the
  size with American rules (limits_of; docs/cli.md#newspaper-patterns).

A symmetry groups the cells into orbits (a cell and its images), and a
pattern blocks whole orbits. The generator starts from the open grid and
blocks one orbit at a time, drawn at random among those that keep the grid
within the rules, preferring the cells on the longest runs (which keeps the
words short enough to fill; beyond 15x15 also avoiding words of 3 and 4
letters, see SHORT_EXTRA); a run longer than `max_length` is cut first,
and with the limits a run across a whole line, where it can be. In a grid
of checked cells a block adds a word or is a cheater for good, so an orbit
is only blocked while the limits stay within reach. A dead end (no orbit
fits, or the count cannot be met) starts another attempt, up to
`attempts`. Theme entries (pybridge.theme) are placed first, and their
cells are never blocked. Requests no pattern can meet are told from cheap
bounds before any attempt (`ImpossiblePattern`, `ImpossibleTheme`); when
every attempt fails, `PatternNotFound` says so. The RP 2016 mode blocks
exactly N random cells (orbits, with a symmetry) and checks no rule, as
RP 2016's generator does.

The grid is held as one integer, a bit per cell, row after row, with one
always-blocked bit after each row so that shifting by one never wraps:
runs, short words and connectivity are a few shifts and ANDs each. The draws
come from the search's LCG (docs/search.md#seeds), so a seed gives the same
pattern in every process and on every Python version.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import combinations
from math import comb
from typing import Any

from pybridge import theme as themes
from pybridge.errors import CrosswordError, UsageError, shown
from pybridge.layout import find_sites
from pybridge.model import BLOCK, OPEN, Puzzle
from pybridge.options import (
    DEFAULT_ATTEMPTS,
    DEFAULT_MIN_LENGTH,
    DEFAULT_SYMMETRY,
    PATTERN_SECONDS,
    SYMMETRIES,
    PatternOptions,
    Rules,
    Symmetry,
    Unlimited,
)
from pybridge.scores import Scores
from pybridge.search.kernel import Lcg, deadline, late
from pybridge.symmetry import Cell, images, is_symmetric, orbits
from pybridge.theme import ImpossibleTheme, Placed
from pybridge.wording import plural

__all__ = [
    "DEFAULT_ATTEMPTS",
    "DEFAULT_BLOCKS",
    "DEFAULT_MIN_LENGTH",
    "DEFAULT_SYMMETRY",
    "PATTERN_SECONDS",
    "SYMMETRIES",
    "ImpossiblePattern",
    "ImpossibleTheme",
    "Limits",
    "Pattern",
    "PatternNotFound",
    "Rules",
    "Symmetry",
    "asked_rules",
    "cheater_count",
    "default_max_cheaters",
    "default_max_words",
    "generate",
    "parse_blocks",
    "parse_size",
    "pattern_for",
]

DEFAULT_BLOCKS = 1 / 6  # about an American daily: 36-40 blocks in a 15x15
MAX_SIDE = 100  # rows and columns: one attempt at 100x100 takes seconds already
SEED_BOUND = 2**32  # a seed drawn when none is given is below this
NEAR_COUNTS = 4  # with a theme, counts of blocks tried about the one asked for
SMALL_GRID = 81  # cells: a grid smaller has no cheater limit by default
EVERY_CHOICE = 5000  # a request with at most this many choices of orbits is tried whole
# Orbits that keep the rules compared at each step (the one of most merit is
# blocked): more makes evener words, so easier fills (the difficulty's
# median over 40 15x15 patterns with scowl55: 3.2 with 3, 2.7 with 8) and
# slower patterns (12 ms with 3, 23 ms with 8, on a loaded machine).
TOURNAMENT = 8
# Beyond a 15x15, the words of 3 and 4 letters cost extra in that choice
# (added to their squared length, so a 3 costs more than a 6): a list at its
# acceptable line has few short words (the shipped list from 25 up: 543 of
# 3 letters, 2,160 of 4, 4,568 of 5, 7,892 of 6), and a Sunday pattern
# with fewer of them fills far faster (21x21, the 3 patterns estimated
# easiest of 64, make's first floor 25: 13 of 16 filled within 40,000
# wdeg nodes, 5 of 16 without; docs/benchmarks.md#newspaper-patterns).
# Not at 15x15 and below: there the 78-word limit then leaves fewer,
# longer words, and make fills as well without.
SHORT_EXTRA = {3: 30, 4: 8}
SHORT_EXTRA_CELLS = 15 * 15
# and there the first attempt compares twice as many orbits (make 21x21 with
# the defaults, seeds 13, 14 and 17: made at the 1st, 2nd and 2nd try, where
# with TOURNAMENT none was made within make's 300 s at load 16-20)
BIG_TOURNAMENT = 16


def default_max_words(rows: int, cols: int) -> int:
    """The most words a newspaper grid of this size has: 78 at 15x15 (a
    daily), 140 at 21x21 (a Sunday), and for other sizes the straight line
    through them by the number of cells, rounded (13x13: 62, 17x17: 96,
    19x19: 117, 23x23: 165; 5x5: 21, more than such a grid can have)."""
    above = 78 * 216 + 62 * (rows * cols - 225)  # the line, times 216
    return max(0, (2 * above + 216) // 432)


def default_max_cheaters(rows: int, cols: int) -> int | None:
    """The most cheater blocks a pattern of this size has by default: one per
    54 cells, rounded, and at least 4 (15x15: 4, 21x21: 8); no limit below
    81 cells (9x9), where the blocks sit in corners and are cheaters all."""
    cells = rows * cols
    return None if cells < SMALL_GRID else max(4, (2 * cells + 54) // 108)


class ImpossiblePattern(UsageError):
    """No pattern can meet the request: a bound shows it before any attempt,
    or (a small request) every choice of blocks was tried."""


class PatternNotFound(CrosswordError):
    """Every attempt ended at a dead end: the request may be impossible."""


@dataclass(frozen=True)
class _Law:
    """The rules a pattern is made to, its limits resolved for its size (a
    limit None: none)."""

    min_length: int
    checked: bool
    max_length: int | None
    max_words: int | None
    max_cheaters: int | None

    @classmethod
    def of(cls, rules: Rules, limits: Limits) -> _Law:
        return cls(rules.min_length, rules.checked, rules.max_length, limits.words, limits.cheaters)


@dataclass(frozen=True)
class Limits:
    """The limits of a newspaper pattern, as they hold for one size (None:
    no limit): its words, and its cheater blocks (see cheater_count)."""

    words: int | None = None
    cheaters: int | None = None


NO_LIMITS = Limits()


@dataclass(frozen=True)
class Pattern:
    """A generated grid: rows of `.` (open) and `#` (blocked)."""

    grid: tuple[str, ...]
    seed: int
    symmetry: Symmetry
    rules: Rules | None  # None: the RP 2016 mode
    attempts: int  # how many attempts it took (1: the first)
    theme: tuple[Placed, ...] = ()  # the theme entries, in their slots
    limits: Limits = NO_LIMITS  # the limits it was made to

    @property
    def letters(self) -> tuple[str, ...]:
        """The rows with the theme entries' letters in their cells."""
        rows = [list(row) for row in self.grid]
        for entry in self.theme:
            for (r, c), letter in zip(entry.cells, entry.word, strict=True):
                rows[r][c] = letter
        return tuple("".join(row) for row in rows)

    @property
    def blocks(self) -> int:
        return sum(row.count(BLOCK) for row in self.grid)

    @property
    def slots(self) -> int:
        """How many words (slots to fill)."""
        return len(find_sites(self.puzzle()))

    @property
    def mean_length(self) -> float:
        """The words' mean length."""
        geo = _Geometry(len(self.grid), len(self.grid[0]))
        words = word_count(geo, geo.bits_of(self.grid))
        return letter_count(geo, geo.bits_of(self.grid)) / words if words else 0.0

    @property
    def cheaters(self) -> int:
        """How many cheater blocks (see cheater_count)."""
        geo = _Geometry(len(self.grid), len(self.grid[0]))
        return cheater_count(geo, geo.bits_of(self.grid))

    def figures(self) -> str:
        """'78 words, 37 blocks (2 cheaters), mean word length 4.82'."""
        return (
            f"{plural(self.slots, 'word')}, {plural(self.blocks, 'block')} "
            f"({plural(self.cheaters, 'cheater')}), mean word length {self.mean_length:.2f}"
        )

    def puzzle(self, words: Sequence[str] = (), scores: Scores | None = None) -> Puzzle:
        """The pattern as a grid to fill from `words` (lexicon mode), scored by `scores`."""
        return Puzzle(
            tuple(words), self.letters, "grid", "<pattern>", mode="lexicon", scores=scores
        )

    def __str__(self) -> str:
        """The rows, the theme entries' letters in their cells (a plain grid)."""
        return "\n".join(self.letters)

    def to_json(self) -> dict[str, Any]:
        """`crossword grid --output json`: grid, seed, slots, blocks, then how it was made."""
        rules = self.rules
        return {
            "grid": list(self.grid),
            "seed": self.seed,
            "slots": self.slots,
            "blocks": self.blocks,
            "size": f"{len(self.grid)}x{len(self.grid[0])}",
            "symmetry": self.symmetry,
            "rp": rules is None,
            "min_length": rules.min_length if rules else None,
            "max_length": rules.max_length if rules else None,
            "checked": rules.checked if rules else None,
            "attempts": self.attempts,
            "max_words": self.limits.words,
            "max_cheaters": self.limits.cheaters,
            "mean_length": round(self.mean_length, 2),
            "cheaters": self.cheaters,
            "theme": [entry.to_json() for entry in self.theme],
        }


# ---------------------------------------------------------------- the request


_SIZE = re.compile(r"(\d{1,4}) *[xX\u00d7] *(\d{1,4})", re.ASCII)


def parse_size(text: str) -> tuple[int, int]:
    """'15x15' -> (15, 15): rows x columns."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise UsageError(f"a size is ROWSxCOLUMNS, e.g. 15x15, not {shown(text)!r}")
    rows, cols = int(match[1]), int(match[2])
    check_size(rows, cols)
    return rows, cols


def check_size(rows: int, cols: int) -> None:
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise UsageError(f"rows and columns must be from 1 to {MAX_SIDE}, got {rows}x{cols}")


def parse_blocks(text: str) -> int | float:
    """'38' -> 38 blocks; '0.17' -> that fraction of the cells (below 1)."""
    try:
        count = int(text)
    except ValueError:
        pass
    else:
        if count < 0:
            raise UsageError(f"a count of blocks is at least 0, got {count}")
        return count
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"blocks are a count or a fraction below 1, not {text!r}") from None
    if not 0 <= value < 1:
        raise UsageError(f"a fraction of blocks must be at least 0 and below 1, got {text}")
    return value


def _check_options(
    rows: int, cols: int, blocks: int | float, symmetry: str, rules: _Law | None
) -> None:
    check_size(rows, cols)
    if symmetry not in SYMMETRIES:
        raise UsageError(f"unknown symmetry {symmetry!r}: one of {', '.join(SYMMETRIES)}")
    if symmetry == "rot90" and rows != cols:
        raise UsageError(f"90-degree symmetry needs a square grid, not {rows}x{cols}")
    if isinstance(blocks, float) and not 0 <= blocks < 1:
        raise UsageError(f"a fraction of blocks must be at least 0 and below 1, got {blocks}")
    if isinstance(blocks, int) and not 0 <= blocks <= rows * cols:
        raise UsageError(
            f"a {rows}x{cols} grid has {rows * cols} cells: {blocks} blocks cannot fit"
        )
    if rules is None:
        return
    if rules.min_length < 2:
        raise UsageError(f"the minimum word length is at least 2, got {rules.min_length}")
    if rules.max_length is not None and rules.max_length < rules.min_length:
        raise UsageError(
            f"the maximum word length ({rules.max_length}) is below the minimum "
            f"({rules.min_length})"
        )
    for name, limit in (("words", rules.max_words), ("cheater blocks", rules.max_cheaters)):
        if limit is not None and limit < 0:
            raise UsageError(f"the most {name} is a count, at least 0, not {limit}")


# ---------------------------------------------------------------- symmetry


def _reachable(total: int, ones: int, twos: int, fours: int) -> bool:
    """Whether orbits of sizes 1, 2, 4 (so many of each) can make `total`."""
    for a in range(min(fours, total // 4) + 1):
        rest = total - 4 * a
        least_twos = max(0, (rest - ones + 1) // 2)
        if least_twos <= min(twos, rest // 2):
            return True
    return False


def block_count(rows: int, cols: int, blocks: int | float | None, symmetry: Symmetry) -> int:
    """The number of blocks asked for: a count that the symmetry's orbits can
    make (else ImpossiblePattern), or the makeable count nearest a fraction."""
    sizes = [len(orbit) for orbit in orbits(rows, cols, symmetry)]
    ones, twos, fours = (sizes.count(k) for k in (1, 2, 4))
    cells = rows * cols
    if isinstance(blocks, int):
        if not _reachable(blocks, ones, twos, fours):
            raise ImpossiblePattern(
                f"a {rows}x{cols} grid with {symmetry} symmetry cannot have {blocks} blocks: "
                f"{_makeable_hint(blocks, cells, ones, twos, fours)}"
            )
        return blocks
    wanted = (DEFAULT_BLOCKS if blocks is None else blocks) * cells
    makeable = [n for n in range(cells + 1) if _reachable(n, ones, twos, fours)]
    return min(makeable, key=lambda n: (abs(n - wanted), n))


def _near_counts(rows: int, cols: int, blocks: float | None, symmetry: Symmetry) -> tuple[int, ...]:
    """The makeable counts of blocks nearest a fraction, the nearest first
    (a theme entry through the centre keeps the centre open, so a count
    other than the nearest may be needed)."""
    sizes = [len(orbit) for orbit in orbits(rows, cols, symmetry)]
    ones, twos, fours = (sizes.count(k) for k in (1, 2, 4))
    wanted = (DEFAULT_BLOCKS if blocks is None else blocks) * rows * cols
    makeable = [n for n in range(rows * cols + 1) if _reachable(n, ones, twos, fours)]
    return tuple(sorted(makeable, key=lambda n: (abs(n - wanted), n))[:NEAR_COUNTS])


def _makeable_hint(blocks: int, cells: int, ones: int, twos: int, fours: int) -> str:
    below = next((n for n in range(blocks, -1, -1) if _reachable(n, ones, twos, fours)), None)
    above = next((n for n in range(blocks, cells + 1) if _reachable(n, ones, twos, fours)), None)
    near = [str(n) for n in (below, above) if n is not None]
    return (
        f"its blocks come in orbits of {_orbit_sizes(ones, twos, fours)}; try {' or '.join(near)}"
    )


def _orbit_sizes(ones: int, twos: int, fours: int) -> str:
    parts = [f"{k} ({n} of them)" for k, n in ((4, fours), (2, twos), (1, ones)) if n]
    return ", ".join(parts)


# ---------------------------------------------------------------- cheap bounds


def impossibility(rows: int, cols: int, blocks: int, rules: _Law) -> str | None:
    """Why no pattern can have `blocks` blocks under `rules`, from bounds that
    take no search; None when none of them shows it."""
    m, longest = rules.min_length, rules.max_length
    size = f"a {rows}x{cols} grid"
    if m > max(rows, cols):
        return f"{size} has no run of {m} cells for a word of the minimum length"
    if rules.checked and m > min(rows, cols):
        return (
            f"in {size} no cell can be in both an across and a down word of {m} letters "
            f"or more (allow unchecked cells, or lower the minimum length)"
        )
    open_cells = rows * cols - blocks
    least_open = m * m if rules.checked else m
    if open_cells < least_open:
        why = (
            f"a word of {m} letters whose cells are all checked needs {least_open} open cells"
            if rules.checked
            else f"a word of {m} letters needs {m} open cells"
        )
        cells = plural(open_cells, "open cell")
        return f"{size} with {plural(blocks, 'block')} has {cells}, but {why}"
    if longest is not None:
        least = max(rows * _cuts(cols, longest), cols * _cuts(rows, longest))
        if blocks < least:
            return (
                f"{size} needs at least {least} blocks to keep every word within "
                f"{longest} letters, not {blocks}"
            )
    return _too_few_words(rows, cols, blocks, rules)


def _too_few_words(rows: int, cols: int, blocks: int, rules: _Law) -> str | None:
    """Why `max_words` is too few for `blocks` blocks, or None. In a grid of
    checked cells every row and column with an open cell has a word, and
    every block that is no cheater has a word on both sides of it, across
    or down, one more than its line would have without it."""
    if rules.max_words is None or not rules.checked:
        return None
    lines = rows - blocks // cols + cols - blocks // rows  # some rows may be all blocks
    cheaters = blocks if rules.max_cheaters is None else min(blocks, rules.max_cheaters)
    least = lines + blocks - cheaters
    if least <= rules.max_words:
        return None
    cheats = "" if rules.max_cheaters is None else f" and at most {cheaters} cheater blocks"
    return (
        f"a {rows}x{cols} grid with {plural(blocks, 'block')}{cheats} has at least "
        f"{least} words, more than the {rules.max_words} allowed: fewer blocks, or allow "
        "more words or cheater blocks"
    )


def _cuts(length: int, longest: int) -> int:
    """The fewest blocks that cut a line of `length` cells into runs of at most `longest`."""
    return max(0, -(-(length - longest) // (longest + 1)))


# ---------------------------------------------------------------- the grid as bits


@dataclass(frozen=True)
class _Geometry:
    rows: int
    cols: int

    @property
    def step(self) -> int:  # one row down; one column right is 1
        return self.cols + 1

    @property
    def every(self) -> int:
        row = (1 << self.cols) - 1
        return sum(row << (r * self.step) for r in range(self.rows))

    @property
    def short_extra(self) -> dict[int, int]:
        """The extra cost of a word of each short length (see SHORT_EXTRA)."""
        return SHORT_EXTRA if self.rows * self.cols > SHORT_EXTRA_CELLS else {}

    @property
    def keeps_beside(self) -> bool:
        """Whether the cells beside theme entries' letters are kept open
        (pybridge.theme.Frame.beside): beyond 15x15, as SHORT_EXTRA."""
        return self.rows * self.cols > SHORT_EXTRA_CELLS

    @property
    def tournament(self) -> int:
        """The orbits a first attempt compares (TOURNAMENT, BIG_TOURNAMENT beyond 15x15)."""
        return BIG_TOURNAMENT if self.rows * self.cols > SHORT_EXTRA_CELLS else TOURNAMENT

    def bit(self, r: int, c: int) -> int:
        return 1 << (r * self.step + c)

    def bits_of(self, grid: Sequence[str]) -> int:
        """The open cells of rows of `.`, `#` and letters (open, given)."""
        cells = [(r, c) for r, row in enumerate(grid) for c, cell in enumerate(row)]
        return sum(self.bit(r, c) for r, c in cells if grid[r][c] != BLOCK)

    def rows_of(self, open_cells: int) -> tuple[str, ...]:
        return tuple(
            "".join(
                OPEN if open_cells >> (r * self.step + c) & 1 else BLOCK for c in range(self.cols)
            )
            for r in range(self.rows)
        )


def _starts(open_cells: int, length: int, step: int) -> int:
    """The cells that start `length` open cells in a line (step 1: across)."""
    starts = open_cells
    for k in range(1, length):
        starts &= open_cells >> (k * step)
    return starts


def _spread(starts: int, length: int, step: int) -> int:
    """Every cell of the runs of `length` cells that start at `starts`."""
    covered = starts
    for k in range(1, length):
        covered |= starts << (k * step)
    return covered


def _within_rules(geo: _Geometry, open_cells: int, rules: _Law) -> bool:
    """No word shorter than the minimum, every open cell checked (or, with
    unchecked cells allowed, in one word at least), and connected. The
    maximum length is the attempt's to reach."""
    lonely = []  # per direction: open cells in no word that way
    for step in (1, geo.step):
        pairs = open_cells & (open_cells >> step)
        in_words = pairs | (pairs << step)
        if rules.min_length > 2:
            long_enough = _spread(
                _starts(open_cells, rules.min_length, step), rules.min_length, step
            )
            if in_words & ~long_enough:
                return False
        lonely.append(open_cells & ~in_words)
    across, down = lonely
    if (across | down) if rules.checked else (across & down):
        return False
    return _connected(geo, open_cells)


def word_count(geo: _Geometry, open_cells: int) -> int:
    """How many words: runs of two or more open cells, across and down."""
    total = 0
    for step in (1, geo.step):
        total += (open_cells & ~(open_cells << step) & (open_cells >> step)).bit_count()
    return total


def letter_count(geo: _Geometry, open_cells: int) -> int:
    """How many letters the words have together (a checked cell counts twice)."""
    total = 0
    for step in (1, geo.step):
        pairs = open_cells & (open_cells >> step)
        total += (pairs | (pairs << step)).bit_count()
    return total


def cheater_count(geo: _Geometry, open_cells: int) -> int:
    """How many cheater blocks: blocks whose opening, alone, would leave the
    number of words as it is (in a grid of checked cells: blocks with no
    word on both sides of them, across or down)."""
    joins, makes = [], []  # per direction: opening the block -1 word, +1 word
    for step in (1, geo.step):
        before, after = open_cells << step, open_cells >> step
        long_before = before & (open_cells << (2 * step))  # a word of 2+ ends just before
        long_after = after & (open_cells >> (2 * step))
        joins.append(long_before & long_after)
        makes.append((before | after) & ~long_before & ~long_after)
    (join_a, join_d), (make_a, make_d) = joins, makes
    same_a, same_d = ~(join_a | make_a), ~(join_d | make_d)
    unchanged = (same_a & same_d) | (join_a & make_d) | (make_a & join_d)
    return (geo.every & ~open_cells & unchanged).bit_count()


def _within_limits(geo: _Geometry, open_cells: int, rules: _Law) -> bool:
    """At most `max_words` words and `max_cheaters` cheater blocks."""
    if rules.max_words is not None and word_count(geo, open_cells) > rules.max_words:
        return False
    return rules.max_cheaters is None or cheater_count(geo, open_cells) <= rules.max_cheaters


def _connected(geo: _Geometry, open_cells: int) -> bool:
    reached = open_cells & -open_cells  # the first open cell
    step = geo.step
    while True:
        grown = (
            reached | reached << 1 | reached >> 1 | reached << step | reached >> step
        ) & open_cells
        if grown == reached:
            return reached == open_cells
        reached = grown


def _too_long(geo: _Geometry, open_cells: int, longest: int | None) -> int:
    """The cells of runs longer than `longest`."""
    if longest is None:
        return 0
    n = longest + 1
    return _spread(_starts(open_cells, n, 1), n, 1) | _spread(
        _starts(open_cells, n, geo.step), n, geo.step
    )


def _spanning(geo: _Geometry, open_cells: int) -> int:
    """The cells of runs that span their line, or all of it but one cell:
    a newspaper pattern cuts every line inside, which makes its words far
    easier to fill (15x15 with scowl55-wordfreq: 20 of 20 patterns filled
    in 3 s, against 16 of 20 with no such preference)."""
    found = 0
    for length, step in ((geo.cols - 1, 1), (geo.rows - 1, geo.step)):
        if length >= 2:
            found |= _spread(_starts(open_cells, length, step), length, step)
    return found


def _theme_crossers(geo: _Geometry, open_cells: int, frame: _BitFrame) -> int:
    """The cells of runs that cross two theme entries or more: a word
    crossing several entries has letters given in several places, so few
    words fit it, and constructors keep such crossings short."""
    found = 0
    for step, lines, span, entries in (
        (geo.step, geo.cols, geo.rows, frame.across),
        (1, geo.rows, geo.cols, frame.down),
    ):
        if not entries:
            continue
        for line in range(lines):
            run, crossed = 0, 0
            for k in range(span + 1):
                bit = geo.bit(k, line) if step != 1 else geo.bit(line, k)
                if k < span and open_cells & bit:
                    run |= bit
                    crossed += bool(entries & bit)
                    continue
                if crossed >= 2:
                    found |= run
                run, crossed = 0, 0
    return found


def _arms(geo: _Geometry, open_cells: int, bit: int) -> tuple[int, int, int, int]:
    """How many open cells lie left, right, above and below the cell `bit`, in a row."""
    r, c = divmod(bit.bit_length() - 1, geo.step)
    row = (open_cells >> (r * geo.step)) & ((1 << geo.cols) - 1)
    column = sum(((open_cells >> (k * geo.step + c)) & 1) << k for k in range(geo.rows))
    return (*_line_arms(row, c), *_line_arms(column, r))


def _line_arms(line: int, at: int) -> tuple[int, int]:
    """The open cells (1 bits) just before and just after position `at` of a line."""
    before = at - (~line & ((1 << at) - 1)).bit_length()
    after = line >> (at + 1)
    return before, (~after & (after + 1)).bit_length() - 1


def _merit(geo: _Geometry, open_cells: int, mask: int, longest: int | None) -> tuple[int, int]:
    """How good blocking `mask` is: first the cuts it saves towards the
    maximum length (blocks that runs too long still need), then how much it
    evens the words out (long runs make words hard to fill), by the cost of
    the pieces (_piece_cost) it leaves: lower is better."""
    saved = evened = 0
    extra = geo.short_extra
    for bit in _bits(mask):
        left, right, up, down = _arms(geo, open_cells, bit)
        for before, after in ((left, right), (up, down)):
            # the sum of the squared lengths falls most when a long run is
            # cut near its middle: the words get even, none very long
            evened += 2 * before * after + 2 * before + 2 * after + 1
            if extra:
                evened += extra.get(before + after + 1, 0)
                evened -= extra.get(before, 0) + extra.get(after, 0)
            if longest is not None:
                whole = before + after + 1
                saved += _cuts(whole, longest) - _cuts(before, longest) - _cuts(after, longest)
    return saved, evened


def _blockable(geo: _Geometry, open_cells: int, rules: _Law) -> int:
    """The open cells whose blocking, alone, leaves no word too short on
    either side (the pieces left are empty or long enough; with unchecked
    cells allowed, a piece of one cell passes here, for _within_rules to judge)."""
    m, allowed = rules.min_length, open_cells
    for step in (1, geo.step):
        long_pieces = _starts(open_cells, m, step)
        before_ok = ~(open_cells << step) | (long_pieces << (m * step))
        after_ok = ~(open_cells >> step) | (long_pieces >> step)
        if not rules.checked:
            before_ok |= (open_cells << step) & ~(open_cells << (2 * step))
            after_ok |= (open_cells >> step) & ~(open_cells >> (2 * step))
        allowed &= before_ok & after_ok
    return allowed


def _stays_connected(geo: _Geometry, open_cells: int, mask: int) -> bool:
    """Whether the open cells stay connected when `mask` is blocked: a
    local test of each cell (its open neighbours connected around it), and
    a flood fill only when that cannot tell."""
    step = geo.step
    remaining = open_cells
    for bit in _bits(mask):
        remaining &= ~bit
        ring = (remaining << (step + 1)) >> (bit.bit_length() - 1)  # bit step+1: the cell
        north, south = ring >> 1 & 1, ring >> (2 * step + 1) & 1
        west, east = ring >> step & 1, ring >> (step + 2) & 1
        corners = (ring & 1, ring >> 2 & 1, ring >> (2 * step + 2) & 1, ring >> (2 * step) & 1)
        links = (
            (north & east & corners[1])
            + (east & south & corners[2])
            + (south & west & corners[3])
            + (west & north & corners[0])
        )
        if north + south + west + east - links > 1:
            return _connected(geo, open_cells & ~mask)
    return True


# ---------------------------------------------------------------- the attempts


@dataclass
class _Orbits:
    masks: list[int]
    sizes: list[int]
    lined: list[bool]  # two of its cells share a row or a column


class _OutOfTime(Exception):
    """The time limit passed during an attempt."""


def _attempt(
    geo: _Geometry,
    found: _Orbits,
    blocks: int,
    rules: _Law,
    rng: Lcg,
    tournament: int,
    deadline: float | None = None,
    frame: _BitFrame | None = None,
) -> int | None:
    """One greedy attempt from the open grid (but the `frame`'s blocks, its
    kept cells never blocked), blocking at each step the orbit of most merit
    among `tournament` that keep the rules: the open cells of a pattern, or
    None. _OutOfTime once `deadline` has passed."""
    frame = frame or _NO_FRAME
    open_cells = geo.every & ~frame.blocked
    placed = frame.blocked.bit_count()
    if placed > blocks or not _within_rules(geo, open_cells, rules):
        return None
    taken = frame.blocked | frame.kept | frame.beside
    left = [k for k, mask in enumerate(found.masks) if not mask & taken]
    counts = _size_counts([found.sizes[k] for k in left])
    while True:
        if late(deadline):
            raise _OutOfTime
        long_cells = _too_long(geo, open_cells, rules.max_length)
        if placed == blocks:
            done = not long_cells and _within_limits(geo, open_cells, rules)
            return open_cells if done else None
        blockable = _blockable(geo, open_cells, rules)
        spanning = 0
        if not long_cells and rules.max_words is not None:
            spanning = _spanning(geo, open_cells) | _theme_crossers(geo, open_cells, frame)
        step = _Step(open_cells, blocks - placed, long_cells or spanning, blockable)
        chosen = _choose(geo, found, left, step, counts, rules, rng, tournament)
        if chosen is None and spanning:  # none of those runs can be cut now: any orbit will do
            step = _Step(open_cells, blocks - placed, 0, blockable)
            chosen = _choose(geo, found, left, step, counts, rules, rng, tournament)
        if chosen is None:
            return None
        open_cells &= ~found.masks[chosen]
        size = found.sizes[chosen]
        placed += size
        counts[size] -= 1
        left.remove(chosen)


@dataclass(frozen=True)
class _BitFrame:
    """The theme's cells kept open and its blocks, as bits of the grid."""

    kept: int
    blocked: int
    entries: tuple[Placed, ...] = ()
    across: int = 0  # the cells of the entries across
    down: int = 0  # the cells of the entries down
    beside: int = 0  # cells kept open beside the entries' letters


_NO_FRAME = _BitFrame(0, 0)
ATTEMPTS_PER_PLACEMENT = 4  # attempts at a pattern around one placement of the theme
# and of those, beyond 15x15, the first BESIDE_TURNS keep the cells beside
# the entries' letters open (pybridge.theme.Frame.beside), the others need
# not: a grid may have no pattern that does. Not at 15x15 and below, where
# themed patterns fill from the shipped list as they are
# (docs/benchmarks.md#theme-entries-at-21x21) and would only get more short words.
BESIDE_TURNS = 2
COUNTS_PER_PLACEMENT = 2  # counts of blocks tried around it, when a fraction was asked


@dataclass
class _Framed:
    """The theme's placements, one after another (pybridge.theme.place)."""

    geo: _Geometry
    counts: tuple[int, ...]  # the counts of blocks that will do, the best first
    rules: _Law
    words: tuple[str, ...]
    symmetry: Symmetry
    orbits: _Orbits
    apart: tuple[int, int] = themes.APART[0]  # how far apart the entries were found to fit

    def next(self, rng: Lcg) -> tuple[_BitFrame, tuple[int, ...]]:
        """The next placement, and the counts of blocks to try with it, the
        best first (the orbits clear of the entries can make them up, but
        whether the rules let them is for the attempts to find)."""
        geo = self.geo
        try:
            frame = themes.place(
                self.words,
                geo.rows,
                geo.cols,
                self.symmetry,
                self.rules.min_length,
                rng,
                self._keeps_rules,
                self.apart,
            )
        except themes.ThemeNotPlaced as err:
            raise PatternNotFound(str(err)) from None
        if frame is not None:
            self.apart = frame.apart
        if frame is None:
            blocks = self.counts[0] if len(self.counts) == 1 else max(self.counts)
            raise ImpossibleTheme(
                f"no such pattern: the {themes.counted(len(self.words))} cannot all be "
                f"placed in {self.symmetry}-symmetric slots of a {geo.rows}x{geo.cols} grid "
                f"with {'' if len(self.counts) == 1 else 'at most '}"
                f"{plural(blocks, 'block')}: each needs a slot of its own, not beside another, "
                "with a block at each end, room for words of "
                f"{self.rules.min_length} letters or more around it, and the rest of the "
                "blocks symmetric"
            )
        across = self._mask(frozenset(c for e in frame.entries if e.across for c in e.cells))
        kept = self._mask(frame.kept)
        beside = self._mask(frame.beside(geo.rows, geo.cols)) if geo.keeps_beside else 0
        bits = _BitFrame(
            kept, self._mask(frame.blocked), frame.entries, across, kept & ~across, beside
        )
        free = self._free(frame.kept, frame.blocked)
        counts = [n for n in self.counts if _reachable(n - len(frame.blocked), *free)]
        return bits, tuple(counts[:COUNTS_PER_PLACEMENT])

    def _mask(self, cells: frozenset[Cell]) -> int:
        return sum(self.geo.bit(r, c) for r, c in cells)

    def _free(self, kept: frozenset[Cell], blocked: frozenset[Cell]) -> tuple[int, int, int]:
        """The orbits clear of these cells: how many of size 1, 2 and 4."""
        taken = self._mask(kept) | self._mask(blocked)
        sizes = self.orbits.sizes
        return _by_size(
            _size_counts([n for k, n in enumerate(sizes) if not self.orbits.masks[k] & taken])
        )

    def _keeps_rules(self, kept: frozenset[Cell], blocked: frozenset[Cell]) -> bool:
        """Whether the grid with only these blocks keeps the rules, and the
        orbits clear of the kept cells and blocks can make up a count."""
        free = self._free(kept, blocked)
        return any(_reachable(n - len(blocked), *free) for n in self.counts) and (
            _within_rules(self.geo, self.geo.every & ~self._mask(blocked), self.rules)
        )


@dataclass(frozen=True)
class _Step:
    open_cells: int
    wanted: int  # blocks still to place
    long_cells: int  # cells of runs longer than the maximum
    blockable: int  # see _blockable


def _choose(
    geo: _Geometry,
    found: _Orbits,
    left: list[int],
    step: _Step,
    counts: dict[int, int],
    rules: _Law,
    rng: Lcg,
    tournament: int,
) -> int | None:
    """An orbit to block next: of the first `tournament` (in random order)
    that keep the rules and leave a makeable count, the one of most _merit;
    only orbits on a too-long run while one is left."""
    best, best_merit, seen = None, (-1, -(2**62)), 0  # (a merit may be negative)
    # a count that only singletons can make up (an odd one with rot180, say)
    # takes one now, while the grid is open enough to have room for it
    single = not _reachable(step.wanted, 0, counts[2], counts[4])
    for k in range(len(left)):  # a Fisher-Yates shuffle, drawn as far as it is read
        j = k + rng.below(len(left) - k)
        left[k], left[j] = left[j], left[k]
        index = left[k]
        mask, size = found.masks[index], found.sizes[index]
        lined = found.lined[index]
        if (
            (not lined and mask & step.blockable != mask)
            or size > step.wanted
            or (single and size != 1)
            or (step.long_cells and not mask & step.long_cells)
            or not _fits(geo, found, index, step, counts, rules)
            or not _keeps_limits(geo, step, mask, size, rules)
        ):
            continue
        merit = _merit(geo, step.open_cells, mask, rules.max_length)
        if merit > best_merit:
            best, best_merit = index, merit
        seen += 1
        if seen == tournament:
            break
    return best


def _fits(
    geo: _Geometry, found: _Orbits, index: int, step: _Step, counts: dict[int, int], rules: _Law
) -> bool:
    """Whether blocking orbit `index` leaves a makeable count and keeps the rules."""
    mask, size = found.masks[index], found.sizes[index]
    counts[size] -= 1
    makeable = _reachable(step.wanted - size, counts[1], counts[2], counts[4])
    counts[size] += 1
    if not makeable:
        return False
    after = step.open_cells & ~mask
    if rules.checked and not found.lined[index]:  # _blockable settled the word lengths
        return _stays_connected(geo, step.open_cells, mask)
    return _within_rules(geo, after, rules)


def _keeps_limits(geo: _Geometry, step: _Step, mask: int, size: int, rules: _Law) -> bool:
    """Whether blocking `mask` leaves the limits on words and cheater blocks
    within reach. In a grid of checked cells each block adds a word or is a
    cheater for good, and words are only ever added: so the blocks still to
    place add at least as many words as exceed the cheaters still allowed.
    (With unchecked cells a block can take a word away: only the finished
    pattern is judged.)"""
    if not rules.checked or (rules.max_words is None and rules.max_cheaters is None):
        return True
    after = step.open_cells & ~mask
    allowed = step.wanted - size  # cheaters still allowed: any, unless limited
    if rules.max_cheaters is not None:
        allowed = rules.max_cheaters - cheater_count(geo, after)
        if allowed < 0:
            return False
    if rules.max_words is None:
        return True
    return word_count(geo, after) + max(0, step.wanted - size - allowed) <= rules.max_words


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low)
        mask ^= low
    return found


def _orbit_masks(geo: _Geometry, symmetry: Symmetry) -> _Orbits:
    groups = orbits(geo.rows, geo.cols, symmetry)
    masks = [sum(geo.bit(r, c) for r, c in orbit) for orbit in groups]
    lined = [
        len({r for r, _ in orbit}) < len(orbit) or len({c for _, c in orbit}) < len(orbit)
        for orbit in groups
    ]
    return _Orbits(masks, [len(orbit) for orbit in groups], lined)


def _random_blocks(geo: _Geometry, found: _Orbits, blocks: int, rng: Lcg) -> int:
    """The RP 2016 mode: random orbits blocked until there are `blocks`, no rules."""
    left = list(range(len(found.masks)))
    rng.shuffle(left)
    counts = _size_counts(found.sizes)
    open_cells, placed = geo.every, 0
    for index in left:
        size = found.sizes[index]
        counts[size] -= 1
        if placed + size <= blocks and _reachable(blocks - placed - size, *_by_size(counts)):
            open_cells &= ~found.masks[index]
            placed += size
    return open_cells


def _by_size(counts: dict[int, int]) -> tuple[int, int, int]:
    return counts[1], counts[2], counts[4]


def _size_counts(sizes: Sequence[int]) -> dict[int, int]:
    return {k: sizes.count(k) for k in (1, 2, 4)}


def _choices(total: int, ones: int, twos: int, fours: int, limit: int = EVERY_CHOICE) -> int:
    """How many ways orbits of sizes 1, 2, 4 (so many of each) make `total`,
    counted up to just past `limit` (a big grid has astronomically many)."""
    found = 0
    for a in range(min(fours, total // 4) + 1):
        for b in range(min(twos, (total - 4 * a) // 2) + 1):
            found += comb(fours, a) * comb(twos, b) * comb(ones, total - 4 * a - 2 * b)
            if found > limit:
                return found
    return found


def _every_choice(found: _Orbits, total: int) -> Iterator[int]:
    """The blocked cells of every choice of orbits with `total` cells."""
    by_size = {
        k: [m for m, n in zip(found.masks, found.sizes, strict=True) if n == k] for k in (1, 2, 4)
    }
    for a in range(min(len(by_size[4]), total // 4) + 1):
        for b in range(min(len(by_size[2]), (total - 4 * a) // 2) + 1):
            c = total - 4 * a - 2 * b
            if c > len(by_size[1]):
                continue
            for fours in combinations(by_size[4], a):
                for twos in combinations(by_size[2], b):
                    for ones in combinations(by_size[1], c):
                        yield sum(fours) + sum(twos) + sum(ones)


def _pattern_from_all(
    geo: _Geometry,
    found: _Orbits,
    count: int,
    rules: _Law,
    rng: Lcg,
    symmetry: Symmetry,
    at: float | None = None,
) -> tuple[str, ...]:
    """A small request decided by trying every choice of orbits: the rows of
    one of the patterns at random, or ImpossiblePattern when there is none;
    _OutOfTime once the clock passes `at`."""
    every, valid = geo.every, []
    for k, blocked in enumerate(_every_choice(found, count)):
        if k % 256 == 0 and late(at):
            raise _OutOfTime
        if (
            _within_rules(geo, every & ~blocked, rules)
            and not _too_long(geo, every & ~blocked, rules.max_length)
            and _within_limits(geo, every & ~blocked, rules)
        ):
            valid.append(every & ~blocked)
    if not valid:
        ways = _choices(count, *_by_size(_size_counts(found.sizes)))
        raise ImpossiblePattern(
            f"no such pattern: none of the {plural(ways, 'way')} to place "
            f"{plural(count, 'block')} {symmetry}-symmetrically in a {geo.rows}x{geo.cols} "
            "grid keeps the rules"
        )
    return geo.rows_of(valid[rng.below(len(valid))])


def _one_line(geo: _Geometry, blocks: int, symmetry: Symmetry, rules: _Law, rng: Lcg) -> int | None:
    """A grid too narrow (or too short) for a word across it, unchecked cells
    allowed: its open cells are one straight word, as no two can touch the
    other way. One such word, symmetric, with the right number of blocks."""
    length = geo.rows * geo.cols - blocks
    vertical = geo.rows >= rules.min_length  # the word runs down when the rows are too short
    if length < rules.min_length or (rules.max_length is not None and length > rules.max_length):
        return None
    lines, span = (geo.cols, geo.rows) if vertical else (geo.rows, geo.cols)
    options = []
    for line in range(lines):
        for start in range(span - length + 1):
            cells = [(start + k, line) if vertical else (line, start + k) for k in range(length)]
            open_cells = sum(geo.bit(r, c) for r, c in cells)
            if is_symmetric(set(cells), geo.rows, geo.cols, symmetry) and _within_limits(
                geo, open_cells, rules
            ):
                options.append(open_cells)
    return options[rng.below(len(options))] if options else None


# ---------------------------------------------------------------- a complete search
#
# When every greedy attempt fails, the request may still have patterns (5x5
# with 16 blocks and no symmetry: the centred open square) or have none; a
# depth-first search over the cells, in reading order, settles which. A
# cell's images under the symmetry take its value at once; a run of open
# cells is judged as it closes (a word's length, or a lone cell where
# unchecked cells are allowed), the count of blocks against the cells left,
# and, at each row's end, whether some open cells were cut off from the
# rest for good. It is exponential, so it gets COMPLETE_SECONDS at most: a
# small grid is settled in milliseconds, a large one rarely.

COMPLETE_SECONDS = 10.0


class _Complete:
    """The complete search of one request (see above)."""

    def __init__(self, geo: _Geometry, count: int, rules: _Law, symmetry: Symmetry) -> None:
        self.geo, self.count, self.rules = geo, count, rules
        rows, cols = geo.rows, geo.cols
        self.n = rows * cols
        self.images = [
            sorted({r * cols + c for r, c in images(i // cols, i % cols, rows, cols, symmetry)})
            for i in range(self.n)
        ]
        self.value: list[bool | None] = [None] * self.n  # True: open
        self.blocks = 0
        self.decided = 0

    def run(self, rng: Lcg, at: float) -> int | None:
        """The open cells of a pattern; None when none exists; _OutOfTime
        when the clock passes `at` first."""
        frames: list[tuple[int, list[bool], list[int]]] = []  # cell, values left, set cells
        i, nodes = 0, 0
        while True:
            nodes += 1
            if nodes % 4096 == 0 and time.perf_counter() > at:
                raise _OutOfTime
            if i == self.n:
                found = self._open_cells()
                if (
                    _within_rules(self.geo, found, self.rules)
                    and not _too_long(self.geo, found, self.rules.max_length)
                    and _within_limits(self.geo, found, self.rules)
                ):
                    return found
            elif self.value[i] is not None:  # set by an image
                if self._fits(i):
                    i += 1
                    continue
            else:
                frames.append((i, [True, False] if rng.below(2) else [False, True], []))
            # the next value of the last free cell, backtracking as need be
            while frames:
                cell, left, placed = frames[-1]
                self._unset(placed)
                if not left:
                    frames.pop()
                    continue
                self._set(cell, left.pop(), placed)
                if self._fits(cell):
                    i = cell + 1
                    break
            else:
                return None

    def _set(self, cell: int, is_open: bool, placed: list[int]) -> None:
        for j in self.images[cell]:
            self.value[j] = is_open
            placed.append(j)
        self.decided += len(placed)
        if not is_open:
            self.blocks += len(placed)

    def _unset(self, placed: list[int]) -> None:
        for j in placed:
            self.blocks -= self.value[j] is False
            self.value[j] = None
        self.decided -= len(placed)
        placed.clear()

    def _fits(self, i: int) -> bool:
        """Whether cell i's value (all before it in reading order set) keeps
        the rules so far and leaves the count of blocks makeable."""
        if not self.blocks <= self.count <= self.blocks + self.n - self.decided:
            return False
        cols = self.geo.cols
        r, c = divmod(i, cols)
        is_open = self.value[i]
        across = self._run(i, -1, c)
        down = self._run(i, -cols, r)
        if is_open:
            longest = self.rules.max_length
            if longest is not None and max(across, down) + 1 > longest:
                return False
            if c == cols - 1 and not self._word(across + 1):
                return False
            if r == self.geo.rows - 1 and not self._word(down + 1):
                return False
        elif not (self._word(across) and self._word(down)):
            return False
        return c < cols - 1 or self._joined(r)

    def _run(self, i: int, step: int, room: int) -> int:
        """How many open cells run back from cell i (not counted), `step` at
        a time, `room` cells at most."""
        length = 0
        while length < room and self.value[i + step * (length + 1)]:
            length += 1
        return length

    def _word(self, length: int) -> bool:
        """Whether a closed run of `length` open cells keeps the rules."""
        rules = self.rules
        if length == 0 or (length == 1 and not rules.checked):
            return True
        return rules.min_length <= length <= (rules.max_length or length)

    def _joined(self, r: int) -> bool:
        """At the end of row r: whether no open cells of rows 0..r are cut
        off from the rest for good (a part that does not reach row r must
        be all there is)."""
        geo, cols = self.geo, self.geo.cols
        seen = 0
        for j in range((r + 1) * cols):
            if self.value[j]:
                seen |= geo.bit(j // cols, j % cols)
        last = seen & (((1 << cols) - 1) << (r * geo.step))
        reached = last
        while True:
            grown = (
                reached | reached << 1 | reached >> 1 | reached << geo.step | reached >> geo.step
            ) & seen
            if grown == reached:
                break
            reached = grown
        if not seen & ~reached:
            return True
        if reached:  # an open part cut off above, another reaching row r
            return False
        # every open cell so far is above: the cells after must all be blocks
        later = self.value[(r + 1) * cols :]
        return not any(later) and self.count == self.blocks + later.count(None)

    def _open_cells(self) -> int:
        cols = self.geo.cols
        return sum(self.geo.bit(j // cols, j % cols) for j in range(self.n) if self.value[j])


def _complete(
    geo: _Geometry, count: int, rules: _Law, symmetry: Symmetry, rng: Lcg, at: float | None
) -> int | None:
    """The open cells of a pattern found by the complete search, None when
    it shows there is none; _OutOfTime when it runs past `at` or its own
    COMPLETE_SECONDS."""
    own = time.perf_counter() + COMPLETE_SECONDS
    return _Complete(geo, count, rules, symmetry).run(rng, own if at is None else min(at, own))


def _settled(
    geo: _Geometry,
    count: int,
    rules: _Law,
    symmetry: Symmetry,
    rng: Lcg,
    seed: int,
    attempts: int,
    at: float | None,
) -> int:
    """After `attempts` greedy attempts failed: the complete search's pattern
    (its open cells),
    or ImpossiblePattern when it shows there is none, or PatternNotFound
    when it does not finish in its time."""
    size, blocked = f"{geo.rows}x{geo.cols}", plural(count, "block")
    started = time.perf_counter()
    try:
        open_cells = _complete(geo, count, rules, symmetry, rng, at)
    except _OutOfTime:
        spent = time.perf_counter() - started
        raise PatternNotFound(
            f"no {size} pattern with {blocked} found in {plural(attempts, 'attempt')}, and a "
            f"complete search did not settle within {spent:.1f} s whether one exists (seed "
            f"{seed}): {_LOOSER} or more --attempts"
        ) from None
    if open_cells is None:
        placed = "" if symmetry == "none" else f" placed {symmetry}-symmetrically"
        raise ImpossiblePattern(
            f"no such pattern: a complete search shows that no {size} grid with "
            f"{blocked}{placed} keeps the rules"
        )
    return open_cells


# ---------------------------------------------------------------- the entry point


def asked_rules(
    min_length: int | None = None,
    allow_unchecked: bool = False,
    max_length: int | None = None,
    max_words: int | Unlimited | None = None,
    max_cheaters: int | Unlimited | None = None,
) -> Rules | None:
    """The rules a request names (`--min-length`, `--allow-unchecked`,
    `--max-length`, `--max-words`, `--max-cheaters`; min_length None: the
    default, a limit None: the default by size, "any": none), or None when it
    names none (then the default rules hold, or none in the RP 2016 mode)."""
    named = (min_length, max_length, max_words, max_cheaters)
    if all(value is None for value in named) and not allow_unchecked:
        return None
    shortest = min_length or DEFAULT_MIN_LENGTH
    return Rules(shortest, not allow_unchecked, max_length, max_words, max_cheaters)


def limits_of(rows: int, cols: int, rules: Rules | None) -> Limits:
    """The limits `rules` set for a grid of this size: theirs, or by default
    (a limit None) default_max_words and default_max_cheaters for American
    rules (words of 3 letters or more, every cell checked), none for others;
    none at all in the RP 2016 mode (no rules)."""
    if rules is None:
        return NO_LIMITS
    american = rules.min_length >= DEFAULT_MIN_LENGTH and rules.checked

    def limit(asked: int | Unlimited | None, by_size: int | None) -> int | None:
        if asked is None:
            return by_size if american else None
        return None if asked == "any" else asked

    return Limits(
        limit(rules.max_words, default_max_words(rows, cols)),
        limit(rules.max_cheaters, default_max_cheaters(rows, cols)),
    )


def generate(
    rows: int,
    cols: int,
    blocks: int | float | None = None,
    *,
    symmetry: Symmetry | None = None,
    min_length: int | None = None,
    allow_unchecked: bool = False,
    max_length: int | None = None,
    max_words: int | Unlimited | None = None,
    max_cheaters: int | Unlimited | None = None,
    theme: Sequence[str] = (),
    seed: int | None = None,
    rp: bool = False,
    attempts: int = DEFAULT_ATTEMPTS,
    timeout: float | None = None,
) -> Pattern:
    """pattern_for() with the options as keywords (pybridge.make_pattern): a
    random pattern of `rows` x `cols` cells with `blocks` blocked cells (a
    count, or a fraction below 1 of the cells; default 1/6), symmetric as
    asked (default rot180, or none with `rp`) and within the rules (words of
    `min_length` letters or more, default 3; every open cell checked unless
    `allow_unchecked`; at most `max_length` letters; open cells connected;
    at most `max_words` words and `max_cheaters` cheater blocks: None, by
    default, for default_max_words and default_max_cheaters of the size, "any"
    for no limit). With `rp`, exactly `blocks` random blocks and no rules (RP
    2016). The `theme` entries are placed first, in symmetric slots of their
    lengths (pybridge.theme), and the blocks around them."""
    rules = asked_rules(min_length, allow_unchecked, max_length, max_words, max_cheaters)
    shape = PatternOptions(rows, cols, blocks, symmetry, rules, rp, seed, attempts, timeout)
    return pattern_for(replace(shape, theme=tuple(theme)))


def pattern_for(options: PatternOptions) -> Pattern:
    """A random pattern as `options` ask (see PatternOptions and generate).

    The same seed gives the same pattern; without one a seed is drawn (and
    kept in the Pattern). Raises UsageError for a bad option,
    ImpossiblePattern when a bound shows that no pattern exists, and
    PatternNotFound when every attempt ends at a dead end, or the time
    limit passes first; ImpossibleTheme when no symmetric slots of the size
    can hold the theme entries."""
    rows, cols, blocks, rp = options.rows, options.cols, options.blocks, options.rp
    seed, attempts, timeout = options.seed, options.attempts, options.timeout
    chosen: Symmetry = options.symmetry or ("none" if rp else DEFAULT_SYMMETRY)
    if rp and (options.rules is not None or options.theme):
        raise UsageError(
            "the RP 2016 mode places blocks with no rules: drop the word-length and word-count "
            "rules and the theme"
        )
    rules = None if rp else options.rules or Rules()
    law = None if rules is None else _Law.of(rules, limits_of(rows, cols, rules))
    _check_options(rows, cols, DEFAULT_BLOCKS if blocks is None else blocks, chosen, law)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big") % SEED_BOUND
    elif seed < 0:
        raise UsageError(f"a seed is an integer >= 0, got {seed}")
    if attempts < 1:
        raise UsageError(f"attempts must be at least 1, got {attempts}")
    if timeout is not None and not timeout > 0:
        raise UsageError("timeout must be a positive number of seconds")
    words = themes.entries(options.theme)
    count = block_count(rows, cols, blocks, chosen)
    geo, rng = _Geometry(rows, cols), Lcg(seed)
    found = _orbit_masks(geo, chosen)
    made = partial(Pattern, seed=seed, symmetry=chosen, rules=rules)
    if law is None:
        return made(geo.rows_of(_random_blocks(geo, found, count, rng)), attempts=1)
    limits = Limits(law.max_words, law.max_cheaters)
    why = impossibility(rows, cols, count, law)
    if why is not None:
        raise ImpossiblePattern(f"no such pattern: {why}")
    if words:
        why = themes.impossibility(words, rows, cols, chosen, law.min_length, law.max_length)
        if why is not None or min(rows, cols) < law.min_length:
            raise ImpossibleTheme(
                f"no such pattern: {why or 'a grid this narrow holds one word, no theme'}"
            )
    if min(rows, cols) < law.min_length:  # unchecked cells allowed, or impossibility said so
        line = _one_line(geo, count, chosen, law, rng)
        if line is None:
            raise ImpossiblePattern(
                f"no such pattern: in a {rows}x{cols} grid the open cells can only be one "
                f"word, and no {chosen}-symmetric word of {rows * cols - count} "
                "letters fits the rules"
            )
        return made(geo.rows_of(line), attempts=1, limits=limits)
    give_up = deadline(timeout)
    if not words and _choices(count, *_by_size(_size_counts(found.sizes))) <= EVERY_CHOICE:
        try:
            grid = _pattern_from_all(geo, found, count, law, rng, chosen, give_up)
        except _OutOfTime:
            raise PatternNotFound(
                f"no {rows}x{cols} pattern with {plural(count, 'block')} found within "
                f"{timeout:g} s (seed {seed}): {_LOOSER} or more time"
            ) from None
        return made(grid, attempts=1, limits=limits)
    framed = None
    if words:
        near = (count,) if isinstance(blocks, int) else _near_counts(rows, cols, blocks, chosen)
        framed = _Framed(geo, near, law, words, chosen, found)
    work = _Work(geo, found, count, law, rng, give_up, framed, chosen)
    open_cells, attempt, frame = work.attempts(attempts, seed, timeout)
    return made(geo.rows_of(open_cells), attempts=attempt, theme=frame.entries, limits=limits)


@dataclass
class _Work:
    """The attempts at a pattern: the grid, its orbits, the count of blocks,
    the rules, the draws, the time limit, and the theme's placements."""

    geo: _Geometry
    found: _Orbits
    count: int
    rules: _Law
    rng: Lcg
    give_up: float | None
    framed: _Framed | None
    symmetry: Symmetry = "none"

    def attempts(
        self, attempts: int, seed: int, timeout: float | None
    ) -> tuple[int, int, _BitFrame]:
        """The open cells of the first attempt that ends in a pattern, which
        attempt it was and the theme's placement; PatternNotFound when none
        does, or the time runs out."""
        rows, cols = self.geo.rows, self.geo.cols
        frame, count = _NO_FRAME, self.count
        counts: tuple[int, ...] = (count,)
        for attempt in range(1, attempts + 1):
            # the first attempt evens the words out most; the next ones look
            # at fewer orbits, so more at random: a small grid whose patterns
            # all cluster their blocks in corners is found that way (with a
            # theme, each placement of the entries gets ATTEMPTS_PER_PLACEMENT)
            turn = attempt - 1
            shaped = frame
            if self.framed is not None:
                turn %= ATTEMPTS_PER_PLACEMENT
                if turn == 0:
                    frame, counts = self.framed.next(self.rng)
                # the first attempts keep the cells beside the letters open
                shaped = frame if turn < BESIDE_TURNS else replace(frame, beside=0)
                count = counts[turn % len(counts)]  # each count in turn
                turn //= len(counts)
            tournament = max(1, self.geo.tournament >> turn)
            try:
                open_cells = _attempt(
                    self.geo,
                    self.found,
                    count,
                    self.rules,
                    self.rng,
                    tournament,
                    self.give_up,
                    shaped,
                )
            except _OutOfTime:
                raise PatternNotFound(
                    f"no {rows}x{cols} pattern with {plural(count, 'block')} found within "
                    f"{timeout:g} s ({plural(attempt - 1, 'attempt')} ended at a dead end; seed "
                    f"{seed}): {_LOOSER} or more time"
                ) from None
            if open_cells is not None:
                return open_cells, attempt, shaped
        if self.framed is None:  # a complete search says which (it knows no theme)
            settled = _settled(
                self.geo, count, self.rules, self.symmetry, self.rng, seed, attempts, self.give_up
            )
            return settled, attempts + 1, frame
        raise PatternNotFound(
            f"no {rows}x{cols} pattern with {plural(count, 'block')} found in "
            f"{plural(attempts, 'attempt')} (seed {seed}): it may not exist; {_LOOSER} or "
            "more --attempts"
        )


_LOOSER = (
    "try fewer blocks, another symmetry, looser rules (more words or cheater blocks, "
    "--max-words, --max-cheaters)"
)
