"""Readers for construction ("lexicon") mode: empty grids to fill and the
dictionaries to fill them from.

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

Dictionaries (`load_dictionary`), one entry per line:

* Encoding: UTF-8 when the bytes are valid UTF-8, cp1252 otherwise (the
  encoding used is kept per file); `encoding=` forces one, and then bytes it
  cannot decode are an error pointing at their line and column.  A leading
  byte-order mark is dropped; CRLF, CR and LF endings are all accepted.
* Entries are upper-cased with `str.upper` (locale-independent: `i` becomes
  `I` in every language), then normalised to Unicode NFC.  Accents stay (`é`
  becomes `É`, never `E`); `ß` becomes `SS`, the crossword convention.
* Hyphens, apostrophes (`'` and the typographic U+2019) and spaces are
  removed, as crosswords write such entries (`E-MAIL` -> `EMAIL`, `N'T` ->
  `NT`, `ICE CREAM` -> `ICECREAM`), and leading or trailing whitespace (tabs
  too) is stripped.  An entry that still holds anything but letters
  (`str.isalpha`: a digit, a tab inside, other punctuation) is skipped and
  counted in `Dictionary.skipped` under its reason, e.g. "with '!'".  Empty
  lines, and lines left empty by the removals, are ignored without a count.
  One-letter entries are kept (no site is that short, so they never fit).
* Scored dictionaries (docs/formats.md#scored-dictionaries): a line
  `WORD;score` (Crossfire, ingrid_core: 0-100) gives the word that score; so
  does `WORD number` when every non-blank line of the file is of that form
  (RP 2016's weights in [0, 1]).  A score is a decimal number, kept as
  written (pybridge.scores); a line of a `;` file without one gives no
  score, and a word without a score counts DEFAULT_SCORE.  A line whose
  score is not a number is skipped and counted ("with a score that is not
  a number").  The files with scores are listed in `Dictionary.weighted`,
  the scores are `Dictionary.scores`.
* Duplicates (after normalisation, within and across files) are kept once,
  in the order of first occurrence, with the score of the first occurrence
  (or none), and counted as "duplicate".  Several files are merged in the
  order given.
* A missing file, or a file without a single usable entry, is an InputError.

Loading is whole-text work (str methods, one list comprehension whose
per-line cost is `str.isalpha`; hashing for duplicates costs most): about
0.1 s for the 246,000 words of debian-wbritish-huge on a busy 2-core machine.
Each file's normalised words are then cached (see "dictionary cache" below),
so a repeat load of an unchanged file only hashes it and reads the words back.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, Literal, cast

from lark import Token, Transformer

from pybridge import cache
from pybridge.errors import InputError, UsageError, shown
from pybridge.exchange import EXCHANGE_FORMATS, ExchangeFormat
from pybridge.model import BLOCK, OPEN, Puzzle
from pybridge.readers import (
    GRID_COMPLAINTS,
    Complaint,
    binary_error,
    binary_offset,
    check_line,
    decode_text,
    describe_char,
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
    unify_newlines,
)
from pybridge.scores import Scores, parse_score

GridFormat = Literal["cs50", "rp2016", "grid"]
GRID_FORMATS: tuple[GridFormat, ...] = ("cs50", "rp2016", "grid")

# ---------------------------------------------------------------- dictionaries


@dataclass(frozen=True)
class Dictionary:
    """The merged entries of one or more dictionary files.

    `skipped` counts, by reason, the lines not added as a new word;
    `encodings[i]` is the encoding `sources[i]` was read in; `weighted` lists
    the files that give scores, and `scores` holds them (None when no file
    gives any)."""

    words: tuple[str, ...]
    skipped: Mapping[str, int]
    sources: tuple[str, ...]
    encodings: tuple[str, ...]
    weighted: tuple[str, ...] = ()
    scores: Scores | None = None

    def summary(self) -> str:
        """One line saying what was read and what was left out."""
        files = ", ".join(f"{s} ({e})" for s, e in zip(self.sources, self.encodings, strict=True))
        count = len(self.words)
        parts = [f"{count} word{'' if count == 1 else 's'} from {files}"]
        if self.weighted:
            scored = ", ".join(self.weighted) if self.weighted != self.sources else "every file"
            parts.append(f"scores from {scored}")
        if self.skipped:
            reasons = sorted(self.skipped.items(), key=lambda item: (-item[1], item[0]))
            parts.append("skipped " + ", ".join(f"{n} {reason}" for reason, n in reasons))
        return "; ".join(parts)


DETECTED_ENCODINGS = ("utf-8", "cp1252")
DUPLICATE = "duplicate"
BAD_SCORE = "with a score that is not a number"

# What crosswords drop from an entry: hyphens, apostrophes, spaces.
JOINERS = ("-", "'", "\u2019", " ")

_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:E[-+]?[0-9]+)?"  # ASCII digits only
_WEIGHTED_LINE = re.compile(rf"[ \t]*(\S+)[ \t]+({_NUMBER})[ \t]*")


def _codec(encoding: str | None) -> str | None:
    """The canonical name of a requested encoding (None: detect)."""
    if encoding is None:
        return None
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise UsageError(
            f"unknown encoding {shown(repr(encoding))} (try utf-8 or cp1252)"
        ) from None


def _read_bytes(source: str) -> bytes:
    return read_bytes(source, "dictionary")


def _decoding_error(
    data: bytes, err: UnicodeDecodeError, encoding: str, forced: bool, source: str
) -> InputError:
    before = unify_newlines(data[: err.start].decode(encoding, errors="replace")).split("\n")
    shown = unify_newlines(data.decode(encoding, errors="replace")).split("\n")
    byte = f"byte 0x{data[err.start]:02x}"
    if forced:
        message = f"not valid {encoding} ({byte}): leave out the encoding to detect UTF-8 or cp1252"
    else:
        message = f"neither UTF-8 nor cp1252 ({byte}): give the file's encoding (--encoding)"
    line = len(before)
    return InputError(message, source, line, len(before[-1]) + 1, shown[line - 1])


def _decode(data: bytes, codec: str | None, source: str) -> tuple[str, str]:
    """The text of `data` and the encoding that decoded it."""
    candidates = (codec,) if codec else DETECTED_ENCODINGS
    for encoding in candidates:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as err:
            failure = err
            binary = None if codec else binary_offset(data, text=False)
            if binary is not None:  # not UTF-8 and full of controls: not a text at all
                raise binary_error(data, source, binary, expected=DICTIONARY) from None
    raise _decoding_error(data, failure, candidates[-1], codec is not None, source)


def _weighted(text: str) -> tuple[str, list[str]] | None:
    """RP 2016's weighted list, when every non-blank line of `text` is `WORD
    number`: the words (a line each) and each line's number (blank lines
    have none). None if it is not such a list."""
    first = text.lstrip().split("\n", 1)[0]
    if not _WEIGHTED_LINE.fullmatch(first):  # cheap test before the full one
        return None
    words, numbers = [], []
    for line in text.split("\n"):
        found = _WEIGHTED_LINE.fullmatch(line)
        if found is None:
            if line.strip():
                return None
            words.append("")
            numbers.append("")
        else:
            words.append(found[1])
            numbers.append(found[2])
    return "\n".join(words), numbers


def _semicolon_scored(text: str, skipped: Counter[str]) -> tuple[str, list[str]]:
    """A `WORD;score` list (a line without `;` gives no score): the entries
    (a line each, the score cut off at the line's last `;`) and each
    line's score as written. A line whose score is not a number is
    skipped, and counted in `skipped`."""
    entries, numbers = [], []
    for line in text.split("\n"):
        entry, semicolon, written = line.rpartition(";")
        score = written.strip()
        if not semicolon:
            entry, score = line, ""
        elif parse_score(score) is None:
            skipped[BAD_SCORE] += 1
            entry = score = ""
        entries.append(entry)
        numbers.append(score)
    return "\n".join(entries), numbers


def _scored_lines(text: str, skipped: Counter[str]) -> tuple[str, list[str]] | None:
    """A scored list's entries, a line each, and each line's score as written
    ("" for none); None when no line gives a score."""
    weighted = _weighted(text)
    if weighted is not None:
        return weighted
    if ";" not in text:
        return None
    return _semicolon_scored(text, skipped)


def _reason(ch: str) -> str:
    if ch.isdigit():
        return "with a digit"
    if ch == "\t":
        return "with a tab inside"
    return f"with {describe_char(ch)}"


def _repaired(line: str, skipped: Counter[str]) -> str:
    """The entry on a line that is not all letters: stripped of surrounding
    whitespace, or "" (and counted in `skipped`) if it still is not."""
    entry = line.strip()
    if entry == "" or entry.isalpha():
        return entry
    skipped[_reason(next(ch for ch in entry if not ch.isalpha()))] += 1
    return ""


def _lines(text: str, skipped: Counter[str]) -> list[str]:
    """The entry of each line of normalised dictionary text ("" for none)."""
    for joiner in JOINERS:
        text = text.replace(joiner, "")
    # The usual line is all letters already: only the others cost a call.
    return [line if line.isalpha() else _repaired(line, skipped) for line in text.split("\n")]


def _entries(text: str, skipped: Counter[str]) -> dict[str, None]:
    """The distinct entries of normalised dictionary text, in order."""
    lines = _lines(text, skipped)
    entries = dict.fromkeys(lines)
    entries.pop("", None)
    _count_duplicates(lines, len(entries), skipped)
    return entries


def _scored_entries(text: str, scores: list[str], skipped: Counter[str]) -> dict[str, str]:
    """The distinct entries of normalised dictionary text, in order, each
    with the score of its first line ("" for none)."""
    lines = _lines(text, skipped)
    entries: dict[str, str] = {}
    for line, score in zip(lines, scores, strict=True):
        if line and line not in entries:
            entries[line] = score
    _count_duplicates(lines, len(entries), skipped)
    return entries


def _count_duplicates(lines: list[str], distinct: int, skipped: Counter[str]) -> None:
    duplicates = len(lines) - lines.count("") - distinct
    if duplicates:
        skipped[DUPLICATE] += duplicates


def _no_entry(source: str, skipped: Counter[str], text: str = "") -> InputError:
    kind = text_kind(text)
    if kind is not None and not kind.startswith("a word list"):
        return InputError(f"this looks like {kind}, not {DICTIONARY}", source)
    message = "no usable entry in this dictionary: expected one word per line"
    if skipped:
        reasons = ", ".join(f"{n} {reason}" for reason, n in skipped.most_common())
        message += f" (skipped {reasons})"
    return InputError(message, source)


@dataclass(frozen=True)
class _FileWords:
    """One dictionary file, normalised: its distinct words in order, its lines
    skipped by reason, the encoding it was read in, whether it gives scores,
    and then each word's score as written ("" for none)."""

    words: tuple[str, ...]
    skipped: Counter[str]
    encoding: str
    weighted: bool
    scores: tuple[str, ...] = ()


DICTIONARY = "a dictionary (a text, a word a line, or WORD;score)"


def _normalised(data: bytes, codec: str | None, source: str) -> _FileWords:
    binary = binary_offset(data, text=True)
    if binary is not None:  # cp1252 would decode it: never read a picture as words
        raise binary_error(data, source, binary, expected=DICTIONARY)
    text, used = _decode(data, codec, source)
    text = unicodedata.normalize("NFC", unify_newlines(text).upper())
    skipped: Counter[str] = Counter()
    scored = _scored_lines(text, skipped)
    if scored is None:
        entries = _entries(text, skipped)
        if not entries:
            raise _no_entry(source, skipped, text)
        return _FileWords(tuple(entries), skipped, used, False)
    with_scores = _scored_entries(*scored, skipped)
    if not with_scores:
        raise _no_entry(source, skipped, text)
    return _FileWords(tuple(with_scores), skipped, used, True, tuple(with_scores.values()))


def _merged(files: Sequence[_FileWords]) -> tuple[tuple[str, ...], Counter[str]]:
    """The words of `files` in order of first occurrence, and what they
    skipped, counting a word an earlier file already had as a duplicate."""
    skipped: Counter[str] = Counter()
    for found in files:
        skipped.update(found.skipped)
    if len(files) == 1:  # a file's own words are distinct already
        return files[0].words, skipped
    words: dict[str, None] = {}
    for found in files:
        known = len(words)
        words.update(dict.fromkeys(found.words))
        seen_before = len(found.words) - (len(words) - known)
        if seen_before:
            skipped[DUPLICATE] += seen_before
    return tuple(words), skipped


def _merged_scores(files: Sequence[_FileWords]) -> Scores | None:
    """The scores the `files` give, each word's from its first occurrence
    (which may give none); None when no file gives any."""
    if not any(found.weighted for found in files):
        return None
    written: dict[str, Decimal] = {}
    seen: set[str] = set()
    for found in files:
        if not found.weighted:
            seen.update(found.words)
            continue
        for word, score in zip(found.words, found.scores, strict=True):
            if word not in seen:
                seen.add(word)
                if score:
                    written[word] = Decimal(score)
    return Scores(written)


def load_dictionary(
    paths: Sequence[str | os.PathLike[str]], encoding: str | None = None, *, cached: bool = True
) -> Dictionary:
    """The merged, normalised entries of the dictionary files `paths`;
    `encoding` forces an encoding instead of detecting UTF-8 or cp1252.
    `cached=False` reads every file afresh, neither reading nor writing the
    cache: what a verifier does, trusting nothing but the files."""
    if not paths:
        raise ValueError("load_dictionary needs at least one file")
    codec = _codec(encoding)
    sources = tuple(os.fspath(path) for path in paths)
    files = [_file_words(source, codec, cached) for source in sources]
    words, skipped = _merged(files)
    encodings = tuple(found.encoding for found in files)
    weighted = tuple(source for source, found in zip(sources, files, strict=True) if found.weighted)
    return Dictionary(words, dict(skipped), sources, encodings, weighted, _merged_scores(files))


# ---------------------------------------------------------------- dictionary cache
#
# Normalising a big dictionary costs about 0.1 s a run, reading back its words
# a fifth of that, so each file's `_FileWords` is kept in a cache entry
# (pybridge.cache) named after the SHA-256 of the file's bytes, the forced
# encoding and CACHE_FORMAT; its body is the words, one per line, in UTF-8,
# and for a scored file a NUL (no word holds one) and their scores as written.

CACHE_FORMAT = 2  # bump whenever normalisation changes: older entries are then never read


def _entry_name(data: bytes, codec: str | None) -> str:
    digest = hashlib.sha256(data).hexdigest()
    return f"v{CACHE_FORMAT}-{codec or 'detected'}-{digest}.words"


def _file_words(source: str, codec: str | None, cached: bool = True) -> _FileWords:
    """The normalised words of one file, from the cache when it has them
    (and `cached`)."""
    data = _read_bytes(source)
    if not cached:
        return _normalised(data, codec, source)
    name = _entry_name(data, codec)
    found = _cached(name, _most_entry_bytes(data))
    if found is None:
        found = _normalised(data, codec, source)
        _store(name, found)
    return found


def _most_entry_bytes(data: bytes) -> int:
    """The largest entry the words of a file of `data` make: a character
    upper-cases to at most three (in UTF-8, at most four times its bytes in
    cp1252), a score is copied as written, and the header counts at most a
    reason per character."""
    return 8 * len(data) + (64 << 10)


def _cached(name: str, most: int) -> _FileWords | None:
    """The file words kept in a cache entry of at most `most` bytes; None
    if it is missing or bad."""
    kept = cache.read(name, most)
    if kept is None:
        return None
    meta, body = kept
    try:
        if meta["format"] != CACHE_FORMAT:
            return None
        skipped = Counter({str(reason): int(n) for reason, n in meta["skipped"].items()})
        text, _, score_text = body.decode("utf-8").partition("\0")
        words = tuple(text.split("\n"))
        weighted = bool(meta["weighted"])
        scores = tuple(score_text.split("\n")) if weighted else ()
        if weighted and len(scores) != len(words):
            return None
        return _FileWords(words, skipped, str(meta["encoding"]), weighted, scores)
    except (ValueError, LookupError, TypeError, AttributeError):
        return None


def _store(name: str, found: _FileWords) -> None:
    meta = {
        "format": CACHE_FORMAT,
        "encoding": found.encoding,
        "weighted": found.weighted,
        "skipped": dict(found.skipped),
    }
    body = "\n".join(found.words)
    if found.weighted:
        body += "\0" + "\n".join(found.scores)
    cache.write(name, meta, body.encode("utf-8"))


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
    return all(_is_plain_row(row.replace("_", "").rstrip(" \t")) for row in rows)


def _cs50_rows(text: str, source: str) -> list[str]:
    lines = text.split("\n")[:-1]  # the normalised text ends with a newline
    if not any(lines):
        raise InputError(
            "the structure file is empty: expected one row per line "
            "('_' open, any other character blocked)",
            source,
        )
    return lines


def _is_plain_row(text: str) -> bool:
    given = text.replace(OPEN, "").replace(BLOCK, "")
    return given == "" or given.isalpha()


class _PlainGridBuilder(Transformer[Token, Any]):
    """Checks every cell of a plain grid and upper-cases its given letters."""

    def __init__(self, source: str) -> None:
        super().__init__(visit_tokens=False)
        self.source = source

    def grid(self, lines: list[Token]) -> list[str]:
        expected = "'.' (open), '#' (blocked) or a letter (given)"
        return [
            self._upper(
                line, check_line(line, line_content(line), _is_plain_row, expected, self.source)
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


class _RP2016Builder(Transformer[Token, Any]):
    """Reads the numbers of each block of an RP 2016 file: a list of grids."""

    def __init__(self, source: str) -> None:
        super().__init__(visit_tokens=False)
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
        builder = _PlainGridBuilder(source)
        rows = parse_with("fillin", "grid", text, source, builder, GRID_COMPLAINTS)
        return [_lexicon_puzzle(rows, "grid", source)]
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
