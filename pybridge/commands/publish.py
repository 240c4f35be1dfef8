"""What solve, make and grid share to publish a crossword: the line on
where its clues came from, and the PDF sheet (pybridge.sheets)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from pybridge.clues import clue_summary
from pybridge.commands.common import check_writable, written
from pybridge.model import Puzzle
from pybridge.service.clueing import sheet_pdf
from pybridge.solver import Outcome


def tell_clues(outcome: Outcome) -> None:
    """Where the first solution's clues came from and what is left to write, on stderr."""
    if outcome.solutions:
        print(f"crossword: {clue_summary(outcome.solutions[0].puzzle)}", file=sys.stderr)


def write_pdf(
    puzzle: Puzzle, grid: Sequence[str], path: str, paper: str, solved: bool = True
) -> str:
    """--output pdf FILE: the sheet of `grid` (see pybridge.sheets); what to print about it."""
    data = sheet_pdf(puzzle, grid, paper, solved=solved)
    check_writable(path, "--output pdf")
    written("the pdf file", path, lambda: Path(path).write_bytes(data))
    return f"wrote {path}"
