"""Sites (the slots words go into) and the crossings between them.

A site is a maximal horizontal or vertical run of two or more open cells.
Sites are numbered as in a printed crossword: cells are scanned row by row,
and every cell that starts an across or a down site gets the next number.
The canonical order of sites - used by both engines, by the facts handed to
Prolog and by every listing - is by number, across before down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import repeat

from pybridge.model import BLOCK, Cell, Direction, Puzzle, fast_new

MIN_LENGTH = 2


@dataclass(frozen=True)
class Site:
    index: int
    number: int
    direction: Direction
    row: int
    col: int
    cells: tuple[Cell, ...]

    @classmethod
    def make(
        cls,
        index: int,
        number: int,
        direction: Direction,
        row: int,
        col: int,
        cells: tuple[Cell, ...],
    ) -> Site:
        """Site(...) made fast (find_sites makes one per site): see fast_new."""
        return fast_new(
            cls, index=index, number=number, direction=direction, row=row, col=col, cells=cells
        )

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def label(self) -> str:
        return f"{self.number}-{self.direction.capitalize()}"


@dataclass(frozen=True)
class Crossing:
    """Site `a` at position `i` shares its cell with site `b` at position `j`."""

    a: int
    i: int
    b: int
    j: int


_RUN = re.compile(f"[^{re.escape(BLOCK)}]{{{MIN_LENGTH},}}")


def _runs(lines: list[str]) -> list[tuple[int, int, int]]:
    """(line, start, end) of every run of open cells long enough to be a site,
    the lines being of one length: one regex pass over them all, joined by
    blocks (a pass per line costs half as much again)."""
    size = len(lines[0]) + 1 if lines else 1
    runs = []
    for match in _RUN.finditer(BLOCK.join(lines)):
        start, end = match.span()
        line, col = divmod(start, size)
        runs.append((line, col, col + end - start))
    return runs


def find_sites(puzzle: Puzzle) -> tuple[Site, ...]:
    """All sites of `puzzle` in canonical order (number, across before down)."""
    width = puzzle.width
    rows = [row.ljust(width, BLOCK) for row in puzzle.grid]
    columns = ["".join(column) for column in zip(*rows, strict=True)]
    across = {(r, c): tuple(zip(repeat(r), range(c, end))) for r, c, end in _runs(rows)}
    down = {(r, c): tuple(zip(range(r, end), repeat(c))) for c, r, end in _runs(columns)}
    sites: list[Site] = []
    for number, start in enumerate(sorted(across.keys() | down.keys()), start=1):
        r, c = start
        if (cells := across.get(start)) is not None:
            sites.append(Site.make(len(sites), number, "across", r, c, cells))
        if (cells := down.get(start)) is not None:
            sites.append(Site.make(len(sites), number, "down", r, c, cells))
    return tuple(sites)


def find_crossings(sites: tuple[Site, ...]) -> tuple[Crossing, ...]:
    """Every pair of sites sharing a cell, as (a, i, b, j) with a < b."""
    seen: dict[Cell, tuple[int, int]] = {}
    crossings: list[Crossing] = []
    for site in sites:
        for i, cell in enumerate(site.cells):
            if cell in seen:
                a, ai = seen[cell]
                crossings.append(Crossing(a, ai, site.index, i))
            else:
                seen[cell] = (site.index, i)
    return tuple(sorted(crossings, key=lambda x: (x.a, x.i, x.b, x.j)))


def uncovered_cells(puzzle: Puzzle, sites: tuple[Site, ...]) -> list[Cell]:
    """Open cells that belong to no site (a run of one cell both ways)."""
    covered = {cell for site in sites for cell in site.cells}
    return [
        (r, c)
        for r in range(puzzle.height)
        for c in range(puzzle.width)
        if puzzle.is_open((r, c)) and (r, c) not in covered
    ]
