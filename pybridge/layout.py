"""The layout of a puzzle: its sites, the crossings between them and the
predefined letters in them, built once per puzzle and read by every engine,
strategy and proof (prolog/layout.pl builds the same for the Prolog engine).

A site is a maximal horizontal or vertical run of two or more open cells.
Sites are numbered as in a printed crossword: cells are scanned row by row,
and every cell that starts an across or a down site gets the next number.
The site order - used by both engines, by the data handed to Prolog and by
every listing - is by number, across before down; a site's index is its
place in that order.

A crossing is two sites a < b sharing a cell, at position i of a and j of b.
Crossings are numbered (their id, from 0) in the order of (a, i, b, j).
Each site lists its own crossings as arcs (i, t, j, id) - position i here is
position j of site t - in the order of (i, t, j). docs/search.md says which
search reads which order.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat
from typing import NamedTuple

from pybridge.model import BLOCK, OPEN, Cell, Direction, Puzzle, fast_new
from pybridge.search.kernel import check_clock, late

MIN_LENGTH = 2

Arc = tuple[int, int, int, int]  # (i, t, j, id): position i here is position j of site t


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


class Crossing(NamedTuple):
    """Site `a` at position `i` shares its cell with site `b` at position `j`
    (a < b); `id` is its place in the order of (a, i, b, j)."""

    id: int
    a: int
    i: int
    b: int
    j: int


@dataclass(frozen=True)
class Layout:
    """Sites, crossings and givens of one puzzle (see the module docstring).
    `givens` maps each cell of a site that holds a predefined letter to it,
    cells in row order. The crossings are found when first asked for (given
    and sorted never ask, nor does a puzzle the length check refutes)."""

    sites: tuple[Site, ...]
    givens: Mapping[Cell, str]

    @cached_property
    def arcs(self) -> tuple[tuple[Arc, ...], ...]:
        """Per site, its crossings as arcs (i, t, j, id), in the order of (i, t, j)."""
        arcs = self.arcs_by(None)
        assert arcs is not None  # no deadline, no giving up
        return arcs

    def arcs_by(self, at: float | None) -> tuple[tuple[Arc, ...], ...] | None:
        """The arcs, found (and kept) unless the clock passes `at` first
        (then None): a puzzle of millions of crossings takes seconds."""
        if "arcs" in self.__dict__:
            return self.arcs
        meetings = _meetings(self.sites, at)
        if meetings is None:
            return None
        arcs: list[list[Arc]] = [[] for _ in self.sites]
        for x, (a, i, b, j) in enumerate(meetings):
            arcs[a].append((i, b, j, x))
            arcs[b].append((j, a, i, x))
        for site_arcs in arcs:
            site_arcs.sort()
        found = self.__dict__["arcs"] = tuple(map(tuple, arcs))  # what cached_property keeps
        return found

    @cached_property
    def crossings(self) -> tuple[Crossing, ...]:
        """Every crossing, by id."""
        found = [
            Crossing(x, a, i, b, j)
            for a, site_arcs in enumerate(self.arcs)
            for i, b, j, x in site_arcs
            if a < b
        ]
        return tuple(sorted(found))

    @property
    def cells(self) -> list[tuple[Cell, ...]]:
        """Each site's cells, in site order."""
        return [site.cells for site in self.sites]

    @property
    def lengths(self) -> list[int]:
        return [len(site.cells) for site in self.sites]

    def restricted(self, kept: Iterable[int]) -> Layout:
        """The layout of the sub-puzzle of the `kept` sites (renumbered in
        order), with their crossings among themselves and their givens."""
        chosen = [self.sites[s] for s in sorted(kept)]
        cells = {cell for site in chosen for cell in site.cells}
        givens = {cell: ch for cell, ch in self.givens.items() if cell in cells}
        return of_sites(chosen, givens)


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


def find_sites(puzzle: Puzzle, at: float | None = None) -> tuple[Site, ...]:
    """All sites of `puzzle` in site order (number, across before down);
    SearchTimeout if the clock passes `at` (None: no deadline) first."""
    width = puzzle.width
    rows = [row.ljust(width, BLOCK) for row in puzzle.grid]
    columns = ["".join(column) for column in zip(*rows, strict=True)]
    # runs by their first cell as one integer (integers sort many times
    # faster than pairs: a 2000 x 2000 grid can have a million sites)
    key = max(width, 1)
    across = {r * key + c: end for r, c, end in _runs(rows)}
    down = {r * key + c: end for c, r, end in _runs(columns)}
    sites: list[Site] = []
    for number, start in enumerate(sorted(across.keys() | down.keys()), start=1):
        check_clock(at, number)
        r, c = divmod(start, key)
        if (end := across.get(start)) is not None:
            cells = tuple(zip(repeat(r), range(c, end)))
            sites.append(Site.make(len(sites), number, "across", r, c, cells))
        if (end := down.get(start)) is not None:
            cells = tuple(zip(range(r, end), repeat(c)))
            sites.append(Site.make(len(sites), number, "down", r, c, cells))
    return tuple(sites)


def layout_of(puzzle: Puzzle, at: float | None = None) -> Layout:
    """The puzzle's layout: its sites, their crossings and givens (the
    crossings found when first asked for); SearchTimeout if the clock
    passes `at` (None: no deadline) while its sites are found."""
    sites = find_sites(puzzle, at)
    return of_sites(sites, _givens(puzzle, sites))


def of_cells(cells: Sequence[Sequence[Cell]], givens: Mapping[Cell, str]) -> Layout:
    """A layout from sites given as their cells alone (each a straight run,
    in the order wanted): numbered 1, 2, ... in that order, across when the
    first two cells share a row. `givens`: the predefined letters by cell."""
    sites = []
    for index, run in enumerate(cells):
        run = tuple(run)
        across = len(run) < 2 or run[0][0] == run[1][0]
        row, col = run[0] if run else (0, 0)
        sites.append(Site(index, index + 1, "across" if across else "down", row, col, run))
    covered = {cell for run in cells for cell in run}
    return of_sites(sites, {cell: ch for cell, ch in givens.items() if cell in covered})


def of_sites(sites: Sequence[Site], givens: Mapping[Cell, str]) -> Layout:
    """The layout of `sites` (renumbered by their place in the sequence)."""
    sites = tuple(site if site.index == k else _renumbered(site, k) for k, site in enumerate(sites))
    return Layout(sites, dict(givens))


def _renumbered(site: Site, index: int) -> Site:
    return Site.make(index, site.number, site.direction, site.row, site.col, site.cells)


def _meetings(
    sites: Sequence[Site], at: float | None = None
) -> list[tuple[int, int, int, int]] | None:
    """(a, i, b, j) for every two sites a < b through one cell, in that
    order: the crossings in the order of their ids. None when the clock
    passes `at` (None: no deadline) first."""
    owners: dict[Cell, list[tuple[int, int]]] = {}  # every (site, position) at each cell
    for s, site in enumerate(sites):
        if s & 1023 == 0 and late(at):
            return None
        for p, cell in enumerate(site.cells):
            here = (s, p)
            found = owners.setdefault(cell, [here])
            if found[0] is not here:
                found.append(here)
    # Each cell's owners are in site order, so walking the sites in order
    # and each one's later owners gives (a, i, b, j) already sorted.
    pairs: list[tuple[int, int, int, int]] = []
    for a, site in enumerate(sites):
        if a & 1023 == 0 and late(at):
            return None
        for i, cell in enumerate(site.cells):
            shared = owners[cell]
            if len(shared) == 1:
                continue
            pairs.extend((a, i, b, j) for b, j in shared if b > a)
    return pairs


_LETTER = re.compile(f"[^{re.escape(BLOCK + OPEN)}]")


def _givens(puzzle: Puzzle, sites: Sequence[Site]) -> dict[Cell, str]:
    """The predefined letters in sites, by cell in row order."""
    letters = {
        (r, match.start()): match.group()
        for r, row in enumerate(puzzle.grid)
        for match in _LETTER.finditer(row)
    }
    if not letters:  # most puzzles: no need to collect the cells of the sites
        return letters
    cells = {cell for site in sites for cell in site.cells}
    return {cell: ch for cell, ch in letters.items() if cell in cells}


def uncovered_cells(puzzle: Puzzle, sites: tuple[Site, ...]) -> list[Cell]:
    """Open cells that belong to no site (a run of one cell both ways)."""
    covered = {cell for site in sites for cell in site.cells}
    return [
        (r, c)
        for r in range(puzzle.height)
        for c in range(puzzle.width)
        if puzzle.is_open((r, c)) and (r, c) not in covered
    ]
