"""Reading what a word search is made from, and the grids it is solved in
(docs/wordsearch.md#files):

* word lists (`make WORDS`, `--avoid FILE`, `solve GRID WORDS`): one entry
  per line, normalised as dictionary entries are (pybridge.lexicon): upper
  case (`str.upper`, so `ß` becomes `SS`), Unicode NFC, hyphens,
  apostrophes and spaces removed (`ICE CREAM` -> `ICECREAM`). Blank lines
  are skipped. An entry left with anything but letters, of one letter, or
  the same as an earlier entry is an error at its line;
* masks (`--mask FILE`): `.` a cell that takes a letter, `#` a hole; short
  rows are padded with holes, trailing blank lines ignored;
* letter grids (`solve GRID`): a letter per cell, `#` a hole; spaces
  between cells are ignored (`C A T` is `CAT`), so every row must hold the
  same number of cells. The grid ends at its first blank line: what
  follows (the word list of `make`'s text) is not read.

Files are UTF-8 (a byte-order mark and any line endings are fine), read
with the limits of every puzzle file (pybridge.readers.read_text).
"""

from __future__ import annotations

import os
import unicodedata

from pybridge.errors import InputError, UsageError, shown
from pybridge.lexicon import JOINERS
from pybridge.readers import describe_char, read_text, read_word_list, unify_newlines
from pybridge.wordsearch.model import HOLE, USABLE, Shape

MAX_SIDE = 200  # rows or columns: each word length lists up to 8 places a cell


def entry(line: str) -> str:
    """A word as the dictionaries normalise it (upper case, NFC, joiners out)."""
    text = unicodedata.normalize("NFC", line.upper())
    for joiner in JOINERS:
        text = text.replace(joiner, "")
    return text.strip()


def parse_words(text: str, source: str = "<words>", what: str = "word") -> tuple[str, ...]:
    """The normalised entries of a word list, in order (see the module doc)."""
    words: dict[str, int] = {}
    for number, line in enumerate(_lines(text), start=1):
        word = entry(line)
        if not word:
            continue
        bad = next((i for i, ch in enumerate(word) if not ch.isalpha()), None)
        if bad is not None:
            column = _column(line, word[bad])
            message = f"expected a letter in a {what}, found {describe_char(word[bad])}"
            raise InputError(message, source, number, column, line)
        if len(word) < 2:
            message = f"the {what} {shown(word)} has one letter: a {what} needs two or more"
            raise InputError(message, source, number, 1, line)
        if word in words:
            message = f"{shown(word)} is listed twice (first on line {words[word]})"
            raise InputError(message, source, number, 1, line)
        words[word] = number
    return tuple(words)


def _lines(text: str) -> list[str]:
    return unify_newlines(text).removeprefix("\ufeff").split("\n")


def _column(line: str, ch: str) -> int:
    """The 1-based column of `ch` in the raw line (or 1 when it changed form)."""
    upper = line.upper()
    for candidate in (line, upper, unicodedata.normalize("NFC", upper)):
        found = candidate.find(ch)
        if found >= 0:
            return found + 1
    return 1


def load_words(path: str | os.PathLike[str], what: str = "word") -> tuple[str, ...]:
    """The entries of a word list file; InputError if it has none."""
    source = os.fspath(path)
    words = parse_words(read_word_list(path), source, what)
    if not words:
        raise InputError(f"no {what} in this file: expected one per line", source)
    return words


def parse_mask(text: str, source: str = "<mask>") -> Shape:
    """A mask's shape (see the module doc)."""
    rows = [line.rstrip(" \t") for line in _lines(text)]
    while rows and not rows[-1]:
        rows.pop()
    for number, row in enumerate(rows, start=1):
        bad = next((i for i, ch in enumerate(row) if ch not in (USABLE, HOLE)), None)
        if bad is not None:
            message = f"expected '{USABLE}' (a cell) or '{HOLE}' (a hole), found "
            raise InputError(message + describe_char(row[bad]), source, number, bad + 1, row)
    if not any(USABLE in row for row in rows):
        raise InputError(f"the mask has no cell: mark the cells with '{USABLE}'", source)
    _check_sides(len(rows), max(map(len, rows)), source)
    width = max(map(len, rows))
    return Shape(tuple(row.ljust(width, HOLE) for row in rows), source)


def load_mask(path: str | os.PathLike[str]) -> Shape:
    return parse_mask(read_text(path), os.fspath(path))


def parse_grid(text: str, source: str = "<grid>") -> tuple[str, ...]:
    """A letter grid's rows, upper-cased, HOLE for a hole (see the module doc)."""
    lines = _lines(text)
    first = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    end = next((i for i in range(first, len(lines)) if not lines[i].strip()), len(lines))
    rows: list[str] = []
    for number, line in enumerate(lines[first:end], start=first + 1):
        row = _grid_row(line, number, source)
        if rows and len(row) != len(rows[0]):
            message = (
                f"this row has {len(row)} cells, the first has {len(rows[0])}: every row "
                f"needs the same number (write '{HOLE}' for a hole)"
            )
            raise InputError(message, source, number, 1, line)
        rows.append(row)
    if not rows or all(set(row) <= {HOLE} for row in rows):
        raise InputError("no letter in this grid: expected rows of letters", source)
    _check_sides(len(rows), len(rows[0]), source)
    return tuple(rows)


def _grid_row(line: str, number: int, source: str) -> str:
    cells: list[str] = []
    for column, ch in enumerate(line, start=1):
        if ch == " ":
            continue
        if ch == HOLE:
            cells.append(ch)
            continue
        upper = unicodedata.normalize("NFC", ch.upper())
        if not ch.isalpha() or len(upper) != 1:
            expected = "a letter or '#' (a hole)"
            if ch.isalpha():
                expected = f"one letter per cell ({describe_char(ch)} is {upper} in upper case)"
            message = f"expected {expected}, found {describe_char(ch)}"
            raise InputError(message, source, number, column, line)
        cells.append(upper)
    if not cells:
        raise InputError("an empty row inside the grid", source, number, 1, line)
    return unicodedata.normalize("NFC", "".join(cells))


def load_grid(path: str | os.PathLike[str]) -> tuple[str, ...]:
    return parse_grid(read_text(path), os.fspath(path))


def parse_size(text: str) -> tuple[int, int]:
    """`RxC` (rows by columns) or `N` (a square); UsageError otherwise."""
    parts = text.lower().replace("×", "x").split("x")  # noqa: RUF001 (the sign is meant)
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        numbers = []
    if len(numbers) not in (1, 2) or min(numbers, default=0) < 1:
        raise UsageError(f"expected a size like 15x15 (rows x columns), got {shown(repr(text))}")
    rows, cols = numbers if len(numbers) == 2 else numbers * 2
    _check_sides(rows, cols, "--size")
    return rows, cols


def _check_sides(rows: int, cols: int, source: str) -> None:
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise UsageError(
            f"{shown(source)}: a grid of {rows}x{cols} is larger than {MAX_SIDE}x{MAX_SIDE}"
        )


def parse_letters(text: str) -> tuple[str, ...]:
    """The filler's alphabet from `--letters`: distinct letters, sorted."""
    letters = entry(text)
    bad = [ch for ch in letters if not ch.isalpha()]
    if bad or not letters:
        found = f": found {describe_char(bad[0])}" if bad else ""
        raise UsageError(f"--letters takes letters only, such as ABCDEFGHIJKLMNOPQRSTUVWXYZ{found}")
    return tuple(sorted(set(letters)))
