"""Readers of the grids construction ("lexicon") mode fills, beside the
other readers (pybridge.readers: puzzles; pybridge.lexicon: dictionaries).

Grids (`load_grid`), each read as a list of `Puzzle`s in mode "lexicon" with
no words (the caller attaches a dictionary), rows normalised as everywhere:
`#` blocked, `.` open, a letter given, short rows padded with `#`:

* CS50 structure files: `_` an open cell, *any* other character (`#`, a
  space, a tab, `.`) blocked.  As in CS50's own reader every line is a row:
  an empty line inside or at the end of the file is a row of blocked cells.
  `row_widths` counts every character written, trailing spaces included.
* Plain grids (`../shared/bench/grids`): `.` open, `#` blocked, a letter a
  given cell, upper-cased as dictionary entries are (a letter whose upper
  case is two letters, like `ß`, is an error: a cell holds one letter).
  Trailing spaces and tabs are ignored; blank lines may only end the file
  (the line structure of fill-in grids, so the grammar is grammar/fillin.lark's).
* RP 2016 grid files: see grammar/rp2016.lark.  Every header and row is
  checked (two whole numbers in a header, exactly `cols` values of 0 or 1 in
  a row, exactly `rows` rows, a blank line after the last); a header `0 0`
  ends the file and nothing after it is read, not even checked; a file
  without `0 0` ends at its end.  A file that holds several grids names each
  one `file#N` (1-based) in `Puzzle.source`; `grid=N` picks one.
* The format is sniffed unless given: a first non-blank line of two whole
  numbers is RP 2016, a text with a `_` is CS50, anything else a plain grid;
  but a text that would be a plain grid apart from its `_` cells (so both `_`
  and `.` look open) is an error asking for `--format cs50` or `--format grid`.
* A P-99 puzzle (word list, blank line, framework) is not guessed to be a
  grid: sniffing refuses it, saying it holds its own words.
* Across Lite .puz and ipuz crosswords (sniffed by content, or `--format
  puz|ipuz`) are read by pybridge.readers.read_exchange: their grid, given
  letters kept, filled from the dictionary.
* A grid without a site (no two open cells side by side) is read, but the
  CLI refuses it as "no site to fill" (pybridge.readers.require_site).
  Grid files are UTF-8 text, decoded and normalised as the exact-mode reader
  does (pybridge.readers), and their errors look the same.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Literal, cast

from pybridge.errors import InputError, UsageError, shown
from pybridge.exchange import EXCHANGE_FORMATS, ExchangeFormat
from pybridge.lexicon import load_dictionary
from pybridge.model import BLOCK, OPEN, Puzzle
from pybridge.readers import (
    GRID_COMPLAINTS,
    Complaint,
    check_line,
    decode_text,
    describe_char,
    is_plain_row,
    line_content,
    line_text,
    looks_like_p99,
    normalise,
    padded,
    parse_with,
    read_bytes,
    read_exchange,
    sniff_exchange,
    text_kind,
)

if TYPE_CHECKING:
    from lark import Token

GridFormat = Literal["cs50", "rp2016", "grid"]
GRID_FORMATS: tuple[GridFormat, ...] = ("cs50", "rp2016", "grid")


# ---------------------------------------------------------------- grids

_RP2016_HEADER = re.compile(r"[ \t]*[0-9]+[ \t]+[0-9]+[ \t]*")
_VALUE = re.compile(r"\S+")
_CS50_BLOCKED = re.compile(r"[^_]")


def sniff_grid(text: str, source: str = "<grid>") -> GridFormat:
    """The likely format of a grid text (see the module docstring). A text
    that is a plain grid but for some `_` cells is refused rather than
    guessed: CS50 reads `_` as open and `.` as blocked, a plain grid the
    other way round."""
    first = next((line for line in text.split("\n") if line.strip()), "")
    if _RP2016_HEADER.fullmatch(first):
        return "rp2016"
    if looks_like_p99(text):
        message = (
            "this is a P-99 puzzle (a word list, a blank line, then the framework), which holds "
            "its own words: solve it without --dict (--dict fills an empty grid: a plain "
            "'.'/'#' grid, CS50, RP 2016, .puz or .ipuz)"
        )
        raise InputError(message, source)
    blank = OPEN not in text and BLOCK not in text and "_" not in text
    if blank and (text_kind(text) or "").startswith("a word list"):
        message = (
            "this looks like a word list (a word a line), not a grid to fill: a grid has "
            "'.' open cells and '#' blocks (give a word list with --dict; a filled grid "
            "without a block is read with --format grid)"
        )
        raise InputError(message, source)
    if "_" not in text:
        return "grid"
    if OPEN in text and _plain_but_underscores(text):
        line = next(n for n, row in enumerate(text.split("\n"), 1) if "_" in row)
        row = text.split("\n")[line - 1]
        message = (
            "this grid has both '_' and '.' cells, which CS50 and plain grids read the other "
            "way round: say which it is with --format cs50 ('_' open, '.' blocked) or "
            "--format grid ('.' open, '_' not allowed)"
        )
        raise InputError(message, source, line, row.index("_") + 1, row)
    return "cs50"


def _plain_but_underscores(text: str) -> bool:
    """Whether `text` would read as a plain grid but for its `_` cells: then
    `_` and `.` both look like open cells and the format is not guessed.
    (A CS50 file with spaces or other marks among its blocked cells is plainly
    CS50.)"""
    rows = text.split("\n")[:-1]
    return all(is_plain_row(row.replace("_", "").rstrip(" \t")) for row in rows)


def _cs50_rows(text: str, source: str) -> list[str]:
    lines = text.split("\n")[:-1]  # the normalised text ends with a newline
    if not any(lines):
        raise InputError(
            "the structure file is empty: expected one row per line "
            "('_' open, any other character blocked)",
            source,
        )
    return lines


class _PlainGridBuilder:
    """Checks every cell of a plain grid and upper-cases its given letters."""

    def __init__(self, source: str) -> None:
        self.source = source

    def grid(self, lines: list[Token]) -> list[str]:
        expected = "'.' (open), '#' (blocked) or a letter (given)"
        return [
            self._upper(
                line, check_line(line, line_content(line), is_plain_row, expected, self.source)
            )
            for line in lines
        ]

    def _upper(self, line: Token, row: str) -> str:
        upper = row.upper()
        if len(upper) == len(row):  # upper-casing only ever lengthens a row
            return upper
        bad = next(i for i, ch in enumerate(row) if len(ch.upper()) != 1)
        message = (
            f"{describe_char(row[bad])} is {row[bad].upper()} in upper case, more than one "
            "letter: a given cell holds one letter"
        )
        raise InputError(message, self.source, line.line, bad + 1, line_text(line))


class _RP2016Builder:
    """Reads the numbers of each block of an RP 2016 file: a list of grids."""

    def __init__(self, source: str) -> None:
        self.source = source

    def block(self, lines: list[Token]) -> list[Token]:
        return lines

    def start(self, blocks: list[list[Token]]) -> list[tuple[str, ...]]:
        grids: list[tuple[str, ...]] = []
        for block in blocks:
            rows, cols = self._header(block[0])
            if rows == cols == 0:
                break  # `0 0` ends the file: what follows is never read
            grids.append(self._grid(block, rows, cols))
        if not grids:
            header = blocks[0][0]
            message = "the file ends (`0 0`) before its first grid: expected a header `rows cols`"
            raise self._error(header, _indent(header) + 1, message)
        return grids

    def _error(self, line: Token, column: int, message: str) -> InputError:
        return InputError(message, self.source, line.line, column, line_text(line))

    def _header(self, line: Token) -> tuple[int, int]:
        values = _values(line)
        expected = "expected the grid header `rows cols`"
        for column, value in values[:2]:
            if not (value.isascii() and value.isdigit()):
                raise self._error(
                    line, column, f"{expected} (two whole numbers), found '{shown(value)}'"
                )
        if len(values) == 1:
            message = f"{expected}: two numbers, found one"
            raise self._error(line, len(line_text(line)) + 1, message)
        if len(values) > 2:
            message = f"{expected}: two numbers, found more (is the header missing?)"
            raise self._error(line, values[2][0], message)
        rows, cols = (int(value) for _, value in values)
        if (rows == 0) != (cols == 0):
            message = "a grid needs at least one row and one column (`0 0` ends the file)"
            raise self._error(line, values[0 if rows == 0 else 1][0], message)
        return rows, cols

    def _grid(self, block: list[Token], rows: int, cols: int) -> tuple[str, ...]:
        header, body = block[0], block[1:]
        grid = tuple(self._row(line, cols, header.line) for line in body[:rows])
        if len(body) > rows:
            extra = body[rows]
            message = (
                f"the header on line {header.line} says {rows} rows: "
                "expected a blank line after the last one, found another row"
            )
            raise self._error(extra, _indent(extra) + 1, message)
        if len(body) < rows:
            last = block[-1]
            message = (
                f"the header on line {header.line} says {rows} rows, found {len(body)}: "
                "expected another row after this line"
            )
            raise self._error(last, len(line_text(last)) + 1, message)
        return grid

    def _row(self, line: Token, cols: int, header_line: int | None) -> str:
        values = _values(line)
        counted = f"expected {cols} values (the header on line {header_line} says {cols} columns)"
        for index, (column, value) in enumerate(values):
            if index == cols:
                raise self._error(line, column, f"{counted}, found more")
            if value not in ("0", "1"):
                message = (
                    f"expected 0 (open) or 1 (black), separated by spaces, found '{shown(value)}'"
                )
                raise self._error(line, column, message)
        if len(values) < cols:
            message = f"{counted}, found {len(values)}"
            raise self._error(line, len(line_text(line)) + 1, message)
        return "".join(BLOCK if value == "1" else OPEN for _, value in values)


def _values(line: Token) -> list[tuple[int, str]]:
    """The whitespace-separated values of a line, with their 1-based columns."""
    return [(match.start() + 1, match.group()) for match in _VALUE.finditer(line_text(line))]


def _indent(line: Token) -> int:
    text = line_text(line)
    return len(text) - len(text.lstrip())


_RP2016_COMPLAINTS: Mapping[Complaint, list[str]] = {
    Complaint("the file is empty: expected a grid header `rows cols`", "end"): ["", "\n"],
}


def _plain_grid(text: str) -> list[str] | None:
    """The rows of normalised plain-grid `text` read line by line, or None
    when the text is not plainly well formed: the grammar then reads it (and
    explains what is wrong). It accepts only what grammar/fillin.lark's grid
    and _PlainGridBuilder accept (rows, then only blank lines) and gives the
    same rows; lark's import alone would cost more than reading a grid."""
    lines = text.split("\n")[:-1]  # the text ends with a newline
    rows = []
    for line in lines:
        row = line.rstrip(" \t")
        if not row:
            break
        upper = row.upper()
        if not is_plain_row(row) or len(upper) != len(row):
            return None
        rows.append(upper)
    if not rows or any(line.strip(" \t") for line in lines[len(rows) :]):
        return None
    return rows


def _lexicon_puzzle(rows: list[str] | tuple[str, ...], format: GridFormat, source: str) -> Puzzle:
    widths = tuple(len(row) for row in rows)
    return Puzzle((), padded(list(rows)), format, source, widths, mode="lexicon")


def parse_grid(text: str, source: str = "<grid>", format: GridFormat | None = None) -> list[Puzzle]:
    """Every grid in `text`: one, or several for an RP 2016 file."""
    if format is not None and format not in GRID_FORMATS:
        raise ValueError(f"unknown grid format {format!r}; expected one of {GRID_FORMATS}")
    text = normalise(text)
    kind = format or sniff_grid(text, source)
    if kind == "cs50":
        rows = [
            _CS50_BLOCKED.sub(BLOCK, line).replace("_", OPEN) for line in _cs50_rows(text, source)
        ]
        return [_lexicon_puzzle(rows, "cs50", source)]
    if kind == "grid":
        plain = _plain_grid(text)
        if plain is None:
            builder = _PlainGridBuilder(source)
            plain = parse_with("fillin", "grid", text, source, builder, GRID_COMPLAINTS)
        return [_lexicon_puzzle(plain, "grid", source)]
    builder_rp = _RP2016Builder(source)
    grids = parse_with("rp2016", "start", text, source, builder_rp, _RP2016_COMPLAINTS)
    names = [source] if len(grids) == 1 else [f"{source}#{n}" for n in range(1, len(grids) + 1)]
    return [_lexicon_puzzle(grid, "rp2016", name) for grid, name in zip(grids, names, strict=True)]


def load_grid(
    path: str | os.PathLike[str],
    grid: int | None = None,
    format: GridFormat | ExchangeFormat | None = None,
) -> list[Puzzle]:
    """The grids of the file `path` (sniffing its format unless `format` is
    given), or only its `grid`-th one (1-based)."""
    source = os.fspath(path)
    data = read_bytes(path)
    exchange = format if format in EXCHANGE_FORMATS else None
    exchange = exchange or (None if format else sniff_exchange(data))
    if exchange is not None:
        puzzles = [replace(read_exchange(data, source, exchange), mode="lexicon")]
    else:
        text = decode_text(data, source, format)
        puzzles = parse_grid(text, source, cast(GridFormat | None, format))
    if grid is None:
        return puzzles
    if not 1 <= grid <= len(puzzles):
        count = f"{len(puzzles)} grid" + ("" if len(puzzles) == 1 else "s")
        raise InputError(
            f"there is no grid {grid}: the file holds {count}, numbered from 1", source
        )
    return [puzzles[grid - 1]]


def load_lexicon_puzzle(
    path: str | os.PathLike[str],
    dictionary: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    grid: int | None = None,
    format: GridFormat | ExchangeFormat | None = None,
    encoding: str | None = None,
) -> Puzzle:
    """One grid of `path` with `dictionary` (a path or several, merged) as its
    words. A file of several grids needs `grid` to say which."""
    paths = [dictionary] if isinstance(dictionary, (str, os.PathLike)) else list(dictionary)
    grids = load_grid(path, grid=grid, format=format)
    if len(grids) != 1:
        raise UsageError(f"{os.fspath(path)} holds {len(grids)} grids: say which with grid=N")
    merged = load_dictionary(paths, encoding)
    return replace(grids[0], words=merged.words, scores=merged.scores)
