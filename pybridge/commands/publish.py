"""What solve, make and grid share to publish a crossword: its clues (a
clue file, the file's own, WordNet's suggestions), title, author, copyright
and notes, and the PDF sheet (pybridge.clues, pybridge.suggest,
pybridge.sheets)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from pybridge import suggest
from pybridge.clues import ClueFile, Details, Suggest, clue_summary, clued, load_clue_file
from pybridge.commands.common import check_writable, positive_int, written
from pybridge.errors import MissingDependency
from pybridge.model import Puzzle
from pybridge.sheets import PAPERS, crossword_pdf, crossword_sheet
from pybridge.solver import Outcome

DEFAULT_DPI = 144  # PNG pictures: a 40-pixel cell is 7 mm wide on paper


def add_clue_options(parser: argparse.ArgumentParser, suggest_default: bool) -> None:
    """--clues FILE, --suggest/--no-suggest, --title, --author, --copyright, --notes."""
    parser.add_argument(
        "--clues",
        metavar="FILE",
        help="the clues: WORD<TAB>clue lines (several lines per word allowed); they come "
        "before the file's own clues and suggestions",
    )
    default = "on" if suggest_default else "off"
    parser.add_argument(
        "--suggest",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="suggest a clue from WordNet for each entry that has none (a start for the "
        f"constructor, not finished clues; default: {default})",
    )
    for name, what in (
        ("title", "the title"),
        ("author", "the author"),
        ("copyright", "the copyright line"),
        ("notes", "the notes"),
    ):
        parser.add_argument(f"--{name}", metavar="TEXT", help=f"{what} written with the puzzle")


def add_sheet_options(
    parser: argparse.ArgumentParser, paper: bool = True, pictures: bool = True
) -> None:
    """--paper for PDF sheets, --dpi for PNG pictures."""
    if paper:
        parser.add_argument(
            "--paper", choices=PAPERS, default="letter", help="the PDF's paper (default: letter)"
        )
    if pictures:
        parser.add_argument(
            "--dpi",
            type=positive_int,
            default=DEFAULT_DPI,
            metavar="N",
            help="a PNG's resolution in dots per inch: its cells are 7 mm wide on paper "
            f"(default: {DEFAULT_DPI})",
        )


@dataclass(frozen=True)
class Clueing:
    """The clue sources and details a command line asks for."""

    clue_file: ClueFile | None = None
    suggest: Suggest | None = None
    details: Details = field(default_factory=Details)

    @property
    def asked(self) -> bool:
        return self.clue_file is not None or self.suggest is not None or self.details != Details()


def clueing(args: argparse.Namespace, suggest_default: bool, command: str) -> Clueing:
    """The clue file (read now: its errors before any search), the suggester
    (loaded when a fill is there to clue) and the details; a missing WordNet
    is an error when --suggest asks for it, a notice when it is a default."""
    clue_file = load_clue_file(args.clues) if getattr(args, "clues", None) else None
    wanted = args.suggest if args.suggest is not None else suggest_default
    suggester: Suggest | None = None
    if wanted:
        if suggest.available():
            suggester = _lazy_wordnet
        elif args.suggest:
            raise MissingDependency(suggest.INSTALL_HINT)
        else:
            print(
                f"crossword {command}: no clue suggestions: {suggest.INSTALL_HINT}", file=sys.stderr
            )
    details = Details(args.title, args.author, args.copyright, args.notes)
    return Clueing(clue_file, suggester, details)


def _lazy_wordnet(word: str) -> str | None:
    return suggest.wordnet()(word)


def publish(outcome: Outcome, how: Clueing) -> Outcome:
    """`outcome` whose solutions' puzzles publish them with their clues (see
    pybridge.clues.clued), so that every writer finds them there."""
    solutions = [
        replace(
            solution,
            puzzle=clued(
                solution.puzzle,
                solution.grid,
                clue_file=how.clue_file,
                suggest=how.suggest,
                details=how.details,
            ),
        )
        for solution in outcome.solutions
    ]
    return replace(outcome, solutions=solutions)


def tell_clues(outcome: Outcome) -> None:
    """Where the first solution's clues came from and what is left to write, on stderr."""
    if outcome.solutions:
        print(f"crossword: {clue_summary(outcome.solutions[0].puzzle)}", file=sys.stderr)


def write_pdf(
    puzzle: Puzzle, grid: Sequence[str], path: str, paper: str, solved: bool = True
) -> str:
    """--output pdf FILE: the sheet of `grid` (see pybridge.sheets); what to print about it."""
    sheet = crossword_sheet(puzzle, grid)
    data = crossword_pdf(sheet, "a4" if paper == "a4" else "letter", solved=solved)
    check_writable(path, "--output pdf")
    written("the pdf file", path, lambda: Path(path).write_bytes(data))
    return f"wrote {path}"
