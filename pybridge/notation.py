"""A puzzle's own notation: its framework and its answers as text and HTML.

This is what a Puzzle and a Solution show of themselves (`str()`, a
notebook's `_repr_html_`), so it sits below pybridge.model and imports it only
for type checking. Text comes back in the puzzle's own notation: a P-99
answer prints as P-99's expected output (rows at their written width, blocked
cells as spaces, trailing spaces stripped), a fill-in answer as a `filled`
file.
"""

from __future__ import annotations

import html
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
    puzzle = solution.puzzle
    if puzzle.format == "p99":
        rows = written_rows(puzzle, solution.grid)
        return "\n".join(row.replace(BLOCK, P99_BLOCK).rstrip() for row in rows)
    return "\n".join(solution.grid)


def framework_text(puzzle: Puzzle) -> str:
    """The empty framework as the puzzle's own format writes it."""
    if puzzle.format == "p99":
        rows = written_rows(puzzle, puzzle.grid)
        return "\n".join(row.replace(BLOCK, P99_BLOCK) for row in rows)
    return "\n".join(row.replace(OPEN, FILLIN_OPEN) for row in puzzle.grid)


_TABLE_STYLE = "border-collapse:collapse;font-family:monospace;font-size:14px"
_CELL_STYLE = "width:1.6em;height:1.6em;border:1px solid #999;text-align:center;padding:0"


def _cell_html(puzzle: Puzzle, row: int, col: int, ch: str) -> str:
    if ch == BLOCK:
        return f'<td style="{_CELL_STYLE};background:#000"></td>'
    letter = "" if ch == OPEN else html.escape(ch)
    # Predefined letters are part of the puzzle, not of the answer: show them bold.
    weight = ";font-weight:bold" if puzzle.given((row, col)) is not None else ""
    return f'<td style="{_CELL_STYLE}{weight}">{letter}</td>'


def grid_html(puzzle: Puzzle, grid: Sequence[str]) -> str:
    """A self-contained HTML table of `grid` (the framework or a filled grid)."""
    rows = (
        "<tr>" + "".join(_cell_html(puzzle, r, c, ch) for c, ch in enumerate(row)) + "</tr>"
        for r, row in enumerate(grid)
    )
    return f'<table style="{_TABLE_STYLE}">' + "".join(rows) + "</table>"
