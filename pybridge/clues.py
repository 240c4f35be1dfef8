"""Clues as data: the clue files a constructor writes, and a filled grid
made into a crossword that publishes a clue per entry beside its solution.

A clue file (`--clues FILE`, docs/formats.md#clue-files) has one clue a
line, `WORD<TAB>clue`; a word may have several lines, blank lines and lines
starting with `#` are skipped. Its words are normalised as dictionary
entries are (upper case, NFC, hyphens, apostrophes and spaces out), so
`ice cream<TAB>Sundae base` clues ICECREAM. Every bad line is an InputError
naming its line and column.

`clued` makes the puzzle a filled grid belongs to publish that grid as its
solution (`Puzzle.published`, the value every writer reads: .puz, ipuz,
JSON, PDF) with a clue per entry, each from the first source that has one:

1. the clue file, the constructor's own words (a word's first clue for its
   first entry, its second for a second entry of the same word...);
2. the clue the puzzle's own file gave that entry, when the word is that
   file's answer there (a clue written for another word would be wrong);
3. a suggestion (pybridge.suggest: WordNet), when one is asked for;

and an entry none of them clues is left without one (`Clue.source` tells
which source each came from), so that the commands can say what is left to
write, and the writers put the entry's label (`1-Across`) in its place.
"""

from __future__ import annotations

import os
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from pybridge.errors import InputError, shown
from pybridge.exchange import entry_clues, entry_words
from pybridge.layout import find_sites
from pybridge.lexicon import JOINERS
from pybridge.model import Clue, Published, Puzzle
from pybridge.readers import describe_char, read_text, unify_newlines

COMMENT = "#"
SEPARATOR = "\t"
MAX_CLUE = 500  # characters: a clue is a line of a printed puzzle, not a paragraph

Suggest = Callable[[str], str | None]  # a word (normalised) -> a clue, or None


@dataclass(frozen=True)
class ClueFile:
    """The clues of a clue file by word (normalised), each word's in file order."""

    source: str
    clues: Mapping[str, tuple[str, ...]]

    def __len__(self) -> int:
        return sum(map(len, self.clues.values()))


@dataclass(frozen=True)
class Details:
    """What a puzzle publishes beside its grid and clues; None keeps what
    the puzzle already has (a .puz's own title...)."""

    title: str | None = None
    author: str | None = None
    copyright: str | None = None
    notes: str | None = None

    def apply(self, published: Published) -> Published:
        given = {name: value for name, value in vars(self).items() if value is not None}
        return replace(published, **given)


def answer_key(word: str) -> str:
    """A word as clue files and dictionaries hold it: upper case, NFC, no
    hyphens, apostrophes or spaces."""
    text = unicodedata.normalize("NFC", word.upper())
    for joiner in JOINERS:
        text = text.replace(joiner, "")
    return text.strip()


# ---------------------------------------------------------------- clue files


def parse_clue_file(text: str, source: str = "<clues>") -> ClueFile:
    """The clues of a clue file's text (see the module docstring)."""
    clues: dict[str, list[str]] = {}
    lines = unify_newlines(text).split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith(COMMENT):
            continue
        word, clue = _clue_line(line, number, source)
        clues.setdefault(word, []).append(clue)
    if not clues:
        raise InputError(
            "no clue in this clue file: expected lines of WORD, a tab, and its clue", source
        )
    return ClueFile(source, {word: tuple(texts) for word, texts in clues.items()})


def _clue_line(line: str, number: int, source: str) -> tuple[str, str]:
    """The word and clue of one line, or an InputError at its column."""

    def error(message: str, column: int) -> InputError:
        return InputError(message, source, number, column, line)

    written, tab, clue = line.partition(SEPARATOR)
    if not tab:
        message = "expected WORD, a tab, then the clue: this line has no tab"
        raise error(message, len(line) + 1)
    word = answer_key(written)
    if not word:
        raise error("expected the word before the tab", 1)
    bad = next((ch for ch in word if not ch.isalnum()), None)
    if bad is not None:
        column = _column_of(written, bad)
        raise error(f"expected letters in the word, found {describe_char(bad)}", column)
    start = len(written) + 2  # the clue's first column
    if SEPARATOR in clue:
        raise error(
            "a clue holds no tab: one tab between the word and its clue",
            start + clue.index(SEPARATOR),
        )
    stripped = clue.strip()
    if not stripped:
        raise error(f"expected a clue after the tab (the clue of {shown(word)})", start)
    odd = next((i for i, ch in enumerate(clue) if not ch.isprintable()), None)
    if odd is not None:
        raise error(f"a clue is printable text, found {describe_char(clue[odd])}", start + odd)
    if len(stripped) > MAX_CLUE:
        message = (
            f"a clue of {len(stripped)} characters: at most {MAX_CLUE} (a line, not a paragraph)"
        )
        raise error(message, start)
    return word, unicodedata.normalize("NFC", stripped)


def _column_of(written: str, ch: str) -> int:
    """The 1-based column of `ch` in the written word (1 when it changed form)."""
    for candidate in (written, written.upper(), unicodedata.normalize("NFC", written.upper())):
        found = candidate.find(ch)
        if found >= 0:
            return found + 1
    return 1


def load_clue_file(path: str | os.PathLike[str]) -> ClueFile:
    """The clues of a clue file (UTF-8, the size limits of a puzzle file)."""
    source = os.fspath(path)
    return parse_clue_file(read_text(path), source)


# ---------------------------------------------------------------- clued puzzles


def clued(
    puzzle: Puzzle,
    grid: Sequence[str],
    *,
    entries: Mapping[tuple[int, str], str] | None = None,
    clue_file: ClueFile | None = None,
    suggest: Suggest | None = None,
    details: Details | None = None,
) -> Puzzle:
    """`puzzle` publishing `grid` (a fill of it) as its solution, with a clue
    per entry from the sources in the module docstring's order (`entries`,
    clues given by (number, direction) as the workbench keeps them, before
    all), and the `details` (title...) over those it had."""
    width = puzzle.width
    rows = tuple(row.ljust(width, "#") for row in grid)
    sites = find_sites(puzzle)
    own = entry_clues(puzzle, rows)
    used: Counter[str] = Counter()
    clues: list[Clue] = []
    for site, word, known in zip(sites, entry_words(rows, sites), own, strict=True):
        key = answer_key(word)
        texts = clue_file.clues.get(key, ()) if clue_file is not None else ()
        given = (entries or {}).get((site.number, site.direction), "").strip()
        if given:
            clue: Clue | None = Clue(site.number, site.direction, given, "clues")
        elif texts:
            clue = Clue(site.number, site.direction, texts[used[key] % len(texts)], "clues")
            used[key] += 1
        elif known is not None:
            clue = known
        else:
            suggested = suggest(key) if suggest is not None else None
            clue = (
                None
                if suggested is None
                else Clue(site.number, site.direction, suggested, "wordnet")
            )
        if clue is not None:
            clues.append(clue)
    published = replace(
        puzzle.published or Published(), solution=rows, unusable="", clues=tuple(clues)
    )
    if details is not None:
        published = details.apply(published)
    return replace(puzzle, published=published)


def unclued(puzzle: Puzzle) -> list[tuple[str, str]]:
    """The entries of a clued puzzle left without a clue: (label, answer)."""
    published = puzzle.published
    if published is None or published.solution is None:
        return []
    sites = find_sites(puzzle)
    have = {(clue.number, clue.direction) for clue in published.clues}
    words = entry_words(published.solution, sites)
    return [
        (site.label, word)
        for site, word in zip(sites, words, strict=True)
        if (site.number, site.direction) not in have
    ]


def clue_summary(puzzle: Puzzle, most: int = 12) -> str:
    """One line on where a clued puzzle's clues came from and what is left to write."""
    published = puzzle.published
    clues = published.clues if published is not None else ()
    sources = Counter(clue.source for clue in clues)
    left = unclued(puzzle)
    total = len(clues) + len(left)
    names = {
        "clues": "from the clue file",
        "file": "the file's own",
        "wordnet": "suggested from WordNet",
    }
    parts = [f"{n} {names.get(source, source)}" for source, n in sources.most_common()]
    line = f"clues: {len(clues)} of {total} entries" + (f" ({', '.join(parts)})" if parts else "")
    if left:
        shown_left = ", ".join(f"{label} {word}" for label, word in left[:most])
        more = f" and {len(left) - most} more" if len(left) > most else ""
        line += f"; {len(left)} to write: {shown_left}{more}"
    return line
