"""A benchmark suite: the grids the files and folders named hold, each
with the name its rows and reports show."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pybridge.errors import InputError
from pybridge.gridfiles import load_grid
from pybridge.model import OPEN, Puzzle
from pybridge.readers import NOTHING_TO_FILL, has_site


@dataclass(frozen=True)
class Grid:
    """One grid of the suite: its puzzle (no words yet) and the name shown."""

    name: str
    puzzle: Puzzle

    @property
    def size(self) -> str:
        return f"{self.puzzle.height}x{self.puzzle.width}"


def _is_fillable(puzzle: Puzzle) -> bool:
    """Whether a grid has a site to fill: a word list or an answer read as a
    plain grid has only given letters, and a grid whose open cells are all
    single ones has no site."""
    return any(OPEN in row for row in puzzle.grid) and has_site(puzzle)


def _grid_name(source: str) -> str:
    """'dir/g05.01.txt' -> 'g05.01'; 'dir/grilles1.txt#3' -> 'grilles1#3'."""
    path, hash_, number = source.partition("#")
    return Path(path).stem + hash_ + number


def _file_grids(path: Path, named: bool) -> list[Puzzle]:
    """The grids of a file; a file met in a folder that is not a grid to
    fill is skipped, while a named one must be (its error stops the run)."""
    try:
        puzzles = load_grid(path)
    except InputError:
        if named:
            raise
        return []
    fillable = [puzzle for puzzle in puzzles if _is_fillable(puzzle)]
    if named and not fillable:
        raise InputError(NOTHING_TO_FILL, str(path))
    return fillable


def load_suite(args: Sequence[str]) -> list[Grid]:
    """Every grid of the files named, and of the *.txt files (sorted) in the
    folders named, in that order."""
    grids: list[Grid] = []
    for arg in args:
        folder = Path(arg)
        if folder.is_dir():
            found = [p for path in sorted(folder.glob("*.txt")) for p in _file_grids(path, False)]
            if not found:
                raise InputError("no grid file (*.txt) in this folder", arg)
        else:
            found = _file_grids(folder, True)
        grids += [Grid(_grid_name(p.source), p) for p in found]
    names = [grid.name for grid in grids]
    if len(set(names)) == len(names):
        return grids
    return [replace(grid, name=grid.puzzle.source) for grid in grids]  # names clash: paths
