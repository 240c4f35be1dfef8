"""A puzzle's own notation: its framework and its answers as text, and the
clue numbers of a grid.

This is what a Puzzle and a Solution show of themselves (`str()`), so it
sits below pybridge.model and imports it only for type checking. Text comes
back in the puzzle's own notation: a P-99 answer prints as P-99's expected
output (rows at their written width, blocked cells as spaces, trailing
spaces stripped), a fill-in answer as a `filled` file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pybridge.model import Puzzle, Solution

BLOCK = "#"  # a blocked cell, in every grid the package keeps
OPEN = "."  # an open cell without a letter
FILLIN_OPEN = "_"
P99_BLOCK = " "


def written_rows(puzzle: Puzzle, grid: Sequence[str]) -> list[str]:
    """`grid` cut back to the width each framework row had as written."""
    widths = puzzle.row_widths or tuple(len(row) for row in grid)
    return [row[:width] for row, width in zip(grid, widths, strict=True)]


def solution_text(solution: Solution) -> str:
    """The answer in the puzzle's notation; a crossword with rebus squares
    (several letters in one square, held as one mark) says under the grid
    what each mark it shows stands for."""
    puzzle = solution.puzzle
    if puzzle.format == "p99":
        rows = written_rows(puzzle, solution.grid)
        return "\n".join(row.replace(BLOCK, P99_BLOCK).rstrip() for row in rows)
    text = "\n".join(solution.grid)
    rebus = puzzle.published.rebus if puzzle.published is not None else ()
    shown = [f"{mark} {letters}" for mark, letters in rebus if mark in text]
    return text + ("\nrebus: " + ", ".join(shown) if shown else "")


def framework_text(puzzle: Puzzle) -> str:
    """The empty framework as the puzzle's own format writes it."""
    if puzzle.format == "p99":
        rows = written_rows(puzzle, puzzle.grid)
        return "\n".join(row.replace(BLOCK, P99_BLOCK) for row in rows)
    return "\n".join(row.replace(OPEN, FILLIN_OPEN) for row in puzzle.grid)


def clue_numbers(grid: Sequence[str]) -> dict[tuple[int, int], int]:
    """The number of each cell that starts a site (two or more open cells in
    a row across or down), numbered row by row as in a printed crossword:
    the numbers pybridge.layout.find_sites gives its sites."""
    width = max(map(len, grid), default=0)
    rows = [row.ljust(width, BLOCK) for row in grid]

    def is_open(r: int, c: int) -> bool:
        return 0 <= r < len(rows) and 0 <= c < width and rows[r][c] != BLOCK

    starts = [
        (r, c)
        for r in range(len(rows))
        for c in range(width)
        if is_open(r, c)
        and (
            (not is_open(r, c - 1) and is_open(r, c + 1))
            or (not is_open(r - 1, c) and is_open(r + 1, c))
        )
    ]
    return {cell: number for number, cell in enumerate(starts, start=1)}
