"""The clues of a job's fill (pybridge.clues): a clue file, the puzzle
file's own, and suggestions from WordNet (pybridge.suggest), as
ClueOptions ask, with the title, author, copyright and notes; the printable
sheet; the same for the command line and the workbench (its exports and
its suggestions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from pybridge.clues import ClueFile, Details, Suggest, answer_key, clued, load_clue_file
from pybridge.errors import MissingDependency, UsageError
from pybridge.model import Puzzle
from pybridge.options import ClueOptions
from pybridge.service.jobs import QUIET, Listener
from pybridge.solver import Outcome


@dataclass(frozen=True)
class Clueing:
    """The clue sources and details a request asks for, made ready."""

    clue_file: ClueFile | None = None
    suggest: Suggest | None = None
    details: Details = field(default_factory=Details)

    @property
    def asked(self) -> bool:
        return self.clue_file is not None or self.suggest is not None or self.details != Details()


def clueing(
    options: ClueOptions, suggest_default: bool, command: str, listener: Listener = QUIET
) -> Clueing:
    """The clue file (read now, so that its errors come before any search),
    the suggester (WordNet, loaded when a fill is there to clue) and the
    details. A missing WordNet is an error when suggestions were asked for,
    a notice to `listener` when they are the command's default."""
    clue_file = load_clue_file(options.clues) if options.clues else None
    wanted = options.suggest if options.suggest is not None else suggest_default
    suggester: Suggest | None = None
    if wanted:
        from pybridge import suggest  # WordNet's reader, only when clues are suggested

        if suggest.available():
            suggester = _wordnet
        elif options.suggest:
            raise MissingDependency(suggest.INSTALL_HINT)
        else:
            listener.notice(f"crossword {command}: no clue suggestions: {suggest.INSTALL_HINT}")
    details = Details(options.title, options.author, options.copyright, options.notes)
    return Clueing(clue_file, suggester, details)


def _wordnet(word: str) -> str | None:
    from pybridge import suggest

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


def sheet_pdf(puzzle: Puzzle, grid: Sequence[str], paper: str, solved: bool = True) -> bytes:
    """The PDF sheet of `grid` (pybridge.sheets): the puzzle page with its
    clues, then the solution's page when `solved`; `paper` letter or a4."""
    from pybridge import sheets  # fpdf2 only when a sheet is asked for

    sheets.require_fpdf()
    if paper not in sheets.PAPERS:
        raise UsageError(f"the paper must be one of {', '.join(sheets.PAPERS)}, not {paper!r}")
    sheet = sheets.crossword_sheet(puzzle, grid)
    return sheets.crossword_pdf(sheet, "a4" if paper == "a4" else "letter", solved=solved)


def suggestions(words: Sequence[str]) -> dict[str, str | None]:
    """WordNet's suggested clue for each word (None: none that keeps it
    hidden); MissingDependency when WordNet is not installed here."""
    from pybridge import suggest

    if not suggest.available():
        raise MissingDependency(suggest.INSTALL_HINT)
    wordnet = suggest.wordnet()
    return {word: wordnet.suggest(answer_key(word)) for word in dict.fromkeys(words)}
