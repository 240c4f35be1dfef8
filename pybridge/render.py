"""Puzzles and answers as text, HTML and JSON-ready dicts.

Text comes back in the puzzle's own notation, so a P-99 answer prints as the
P-99 expected output (rows at their written width, blocked cells as spaces,
trailing spaces stripped) and a fill-in answer as a fill-in `filled` file.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pybridge.model import BLOCK, OPEN, Placement, Puzzle, Solution

if TYPE_CHECKING:
    from pybridge.solver import Outcome

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


BLOCK_GLYPH = "█"


def blocks_text(solution: Solution) -> str:
    """The filled grid at full width with █ for blocked cells (CS50's look)."""
    return "\n".join(row.replace(BLOCK, BLOCK_GLYPH) for row in solution.grid)


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


def _placement_json(placement: Placement) -> dict[str, Any]:
    return {
        "number": placement.number,
        "direction": placement.direction,
        "row": placement.row,
        "col": placement.col,
        "length": placement.length,
        "word": placement.word,
    }


def _solution_json(solution: Solution) -> dict[str, Any]:
    width = solution.puzzle.width
    return {
        "grid": [row.ljust(width, BLOCK) for row in solution.grid],
        "placements": [_placement_json(p) for p in solution.placements],
    }


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The `--json` document: status, solutions, then count, reason, proof and
    unique where known, and stats."""
    doc: dict[str, Any] = {
        "status": outcome.status,
        "solutions": [_solution_json(s) for s in outcome.solutions],
    }
    if outcome.count is not None:
        doc["count"] = outcome.count
    if outcome.reason is not None:
        doc["reason"] = outcome.reason
    if outcome.proof is not None:
        from pybridge.proofs import proof_json

        doc["proof"] = proof_json(outcome.proof)
    if outcome.unique is not None:
        doc["unique"] = outcome.unique
    stats = outcome.stats
    doc["stats"] = {
        "engine": stats.engine,
        "strategy": stats.strategy,
        "nodes": stats.nodes,
        "backtracks": stats.backtracks,
        "seconds": stats.seconds,
    }
    return doc
