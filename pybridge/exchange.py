"""What the two exchange formats share: Across Lite `.puz` (pybridge.acrosslite)
and ipuz (pybridge.ipuzfile), the files constructors and solvers exchange.

Both readers make a Puzzle of format "puz" or "ipuz" with no words: its grid
(blocks, and the letters the file shows in the grid before anyone solves it,
as givens) and what the file published beside it (`Published`: the solution,
the clues, circled cells, title...). Such a puzzle is filled one of two ways:

* `with_answers`: the entries of the published solution become the word
  list of an exact puzzle, each placed once (`solve --answers`);
* with a dictionary, as any grid (`solve --dict`, pybridge.lexicon).

Alone it cannot be solved (it has no words), so the readers refuse it with
`fill_it_how`, which says both ways.

Writing (`written_clues`): each entry's clue is the file's own when the word
written there is the file's own answer for that entry; any other entry gets
the placeholder `1-Across`, `2-Down`... (its number and direction), since a
clue written for another answer would be wrong.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from pybridge.errors import InputError, shown
from pybridge.layout import Site, find_sites
from pybridge.model import BLOCK, OPEN, Clue, Puzzle
from pybridge.wording import where

MAGIC = b"ACROSS&DOWN\x00"  # the .puz file's magic string


def has_magic(data: bytes) -> bool:
    """Whether `data` holds the .puz magic string where a header can precede it."""
    return data.find(MAGIC) >= 2


ExchangeFormat = Literal["puz", "ipuz"]
EXCHANGE_FORMATS: tuple[ExchangeFormat, ...] = ("puz", "ipuz")
KIND_NAMES = {"puz": "an Across Lite .puz crossword", "ipuz": "an ipuz crossword"}


def cell_letter(ch: str) -> str:
    """A grid letter as puzzles and dictionaries hold it: upper case where
    that is one letter (a `ß` stays itself)."""
    upper = ch.upper()
    return upper if len(upper) == 1 else ch


def square_letter(text: str) -> str | None:
    """What a square of a .puz or ipuz grid holds, as puzzles hold it: OPEN
    for an empty square (nothing, or only spaces), the letter or digit it
    holds (upper-cased, NFC: a decomposed `é` is one letter), or None for
    anything else (`_`, `~`, a lone combining mark, punctuation), which no
    square may hold: placed as a letter, it would make answers that no text
    output could give back."""
    text = unicodedata.normalize("NFC", text)
    if not text.strip():
        return OPEN
    if len(text) == 1 and text.isalnum():
        return cell_letter(text)
    return None


# The marks of rebus squares: a square holding several letters holds one of
# these in the solution, so that both engines place it as one letter; the
# writers and pictures put the letters back (Published.rebus).
REBUS_MARKS = (
    "".join(map(chr, range(0x2460, 0x2474)))  # ① to ⑳
    + "".join(map(chr, range(0x3251, 0x3260)))  # ㉑ to ㉟
    + "".join(map(chr, range(0x32B1, 0x32C0)))  # ㊱ to ㊿
)


def rebus_text(text: str) -> str | None:
    """The letters of a rebus square (upper-cased, NFC), or None when it
    holds anything but letters and digits."""
    text = unicodedata.normalize("NFC", text.strip())
    if len(text) < 2 or not text.isalnum():
        return None
    return "".join(cell_letter(ch) for ch in text)


def rebus_marks(texts: Sequence[str], grid_letters: str, source: str) -> dict[str, str]:
    """A mark for each distinct rebus text, in order, none that the grid
    holds as a letter; InputError when there are more texts than marks."""
    free = [mark for mark in REBUS_MARKS if mark not in grid_letters]
    distinct = list(dict.fromkeys(texts))
    if len(distinct) > len(free):
        message = f"it has {len(distinct)} different rebus answers: at most {len(free)} are read"
        raise InputError(message, source)
    return dict(zip(distinct, free, strict=False))


def rebus_cell(ch: str, rebus: dict[str, str]) -> str:
    """What a square of a solution shows: its letter, or the letters its rebus mark stands for."""
    return rebus.get(ch, ch)


def not_a_letter(text: str, cell: tuple[int, int]) -> str:
    """Why a square holding `text` (not a letter) is refused."""
    return (
        f"{shown(repr(text))} at {where(cell)}, which is not a letter or a digit "
        "(a square holds one letter or digit)"
    )


def entry_words(grid: Sequence[str], sites: Sequence[Site]) -> list[str]:
    """The word each site reads in `grid`."""
    return ["".join(grid[r][c] for r, c in site.cells) for site in sites]


def fill_it_how(puzzle: Puzzle) -> str:
    """Why an exchange puzzle cannot be solved as it stands, and what to add."""
    kind = KIND_NAMES.get(puzzle.format, "a crossword")
    return (
        f"this is {kind} ({puzzle.width}x{puzzle.height}): say what to fill it with, "
        "--answers (its own solution's entries, each placed once) or --dict FILE "
        "(a dictionary)"
    )


def with_answers(puzzle: Puzzle) -> Puzzle:
    """The exact puzzle whose word list is the published solution's entries:
    "can these answers be placed only one way?". InputError when the file
    has no usable solution (none, locked, rebus squares, incomplete)."""
    published = puzzle.published
    if published is None or published.solution is None:
        why = published.unusable if published else "it is not a .puz or .ipuz crossword"
        raise InputError(f"--answers needs the file's own solution, but {why}", puzzle.source)
    sites = find_sites(puzzle)
    words = entry_words(published.solution, sites)
    for site, word in zip(sites, words, strict=True):
        if OPEN in word or BLOCK in word:
            r, c = site.cells[word.index(OPEN if OPEN in word else BLOCK)]
            message = (
                f"--answers needs the file's own solution, but it is incomplete: "
                f"{site.label} has no letter at {where((r, c))}"
            )
            raise InputError(message, puzzle.source)
    return replace(puzzle, words=tuple(words), mode="exact")


def entry_clues(puzzle: Puzzle, grid: Sequence[str]) -> list[Clue | None]:
    """The clue the puzzle publishes for each of its sites as `grid` fills
    it: its published clue when the word `grid` puts there is the published
    answer for that site, else None (a clue written for another word would
    be wrong)."""
    sites = find_sites(puzzle)
    published = puzzle.published
    if published is None or published.solution is None or not published.clues:
        return [None] * len(sites)
    known = {(clue.number, clue.direction): clue for clue in published.clues}
    answers = entry_words(published.solution, sites)
    return [
        known.get((site.number, site.direction)) if word == answer else None
        for site, word, answer in zip(sites, entry_words(grid, sites), answers, strict=True)
    ]


def written_clues(puzzle: Puzzle, grid: Sequence[str]) -> list[tuple[Site, str]]:
    """Each site of `puzzle` with the clue to write for the word `grid` puts
    there: the published clue when the word is the published answer (see
    entry_clues), else the placeholder (the site's label, `1-Across`)."""
    sites = find_sites(puzzle)
    clues = entry_clues(puzzle, grid)
    return [
        (site, clue.text if clue is not None else site.label)
        for site, clue in zip(sites, clues, strict=True)
    ]
