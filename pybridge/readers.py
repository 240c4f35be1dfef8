"""Readers for the two puzzle formats, turning a file into a `Puzzle`.

P-99 (`.dat`): the word list, one word per line; one or more blank lines; the
framework, one row per line: `.` an open cell, a letter a predefined cell, a
space a blocked cell.

Fill-in: a grid file (`_` open, `#` blocked, a letter or digit predefined) and
a separate word file, one word per line.

Decisions worth knowing (each one is tested):

* Text is UTF-8; a leading byte-order mark is dropped; CRLF, CR and LF line
  endings are all accepted, and so is a missing final newline; text is
  normalised to Unicode NFC, so a decomposed `Ä` matches a composed one.
  Lines and columns in error messages count characters of that normalised text.
* Whitespace-only lines count as blank.  Blank lines are allowed where the
  format separates things (between the P-99 words and framework) and at the
  end of a file, nowhere else: a blank line inside a framework, a grid or a
  word list is an error, and so is a blank line before the first word or row.
  So a P-99 framework row made only of blocked cells cannot be written; it
  would be blank.
* Words: every character must be a letter (`str.isalpha`, so `Ä`, `ß` and
  Cyrillic are fine) for P-99, a letter or digit (`str.isalnum`) for fill-in.
  Trailing spaces and tabs are ignored; leading ones are an error (in P-99 a
  line starting with a space is a framework row).  Case is kept: words and
  predefined letters match case-sensitively.
* A tab in a P-99 framework is rejected: its width is ambiguous, and every
  column matters.
* Rows may be ragged in both formats; short rows are padded with blocked
  cells.  `Puzzle.row_widths` keeps each row's width as written: for P-99
  trailing spaces included (so output can reproduce the layout), for fill-in
  without trailing spaces and tabs, which are ignored there.
* Sniffing (`sniff`) picks fill-in when `_` and `#` together outnumber `.`,
  P-99 otherwise.  `load` uses the format it is given, if any.  Before the
  text is decoded, `sniff_exchange` looks for the two binary-or-JSON
  exchange formats, Across Lite `.puz` (its magic bytes) and ipuz (a JSON
  object naming an ipuz.org kind), read by pybridge.acrosslite and
  pybridge.ipuzfile.
* A file of the wrong kind is named for what it looks like: binary data
  (a NUL byte) is never shown, a plain `.`/`#` grid given a word list, a
  .puz or .ipuz crossword given no way to fill it, JSON that is not ipuz
  (`wrong_kind`, `binary_error`).

The grammars (grammar/p99.lark, grammar/fillin.lark) make every line one
token, which keeps parsing fast; the characters inside a line are checked
here, so that an error can point at the exact column. The builders of
their trees are plain classes (`built` walks a tree as lark's Transformer
would), and lark is imported only by parse_with: a plainly written P-99
file (_plain_p99) or plain grid (gridfiles._plain_grid) is read without it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pybridge import cache as file_cache
from pybridge.errors import InputError, UsageError, shown
from pybridge.exchange import (
    EXCHANGE_FORMATS,
    KIND_NAMES,
    ExchangeFormat,
    fill_it_how,
    has_magic,
    with_answers,
)
from pybridge.model import BLOCK, OPEN, Format, Puzzle
from pybridge.resources import grammar_path
from pybridge.scores import Scores, parse_score

if TYPE_CHECKING:  # lark loads when a text needs its grammar (parse_with)
    from lark import Lark, Token, Tree, UnexpectedInput

BOM = "\ufeff"
FORMATS: tuple[Format, ...] = ("p99", "fillin")  # the text formats of exact mode

# ---------------------------------------------------------------- file text


def unify_newlines(text: str) -> str:
    return text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")


def normalise(text: str) -> str:
    """The text the grammars parse: no BOM, LF endings, NFC, final newline."""
    text = unicodedata.normalize("NFC", unify_newlines(text))
    return text if text == "" or text.endswith("\n") else text + "\n"


def _encoding_error(data: bytes, err: UnicodeDecodeError, source: str) -> InputError:
    before = unify_newlines(data[: err.start].decode("utf-8")).split("\n")
    shown = unify_newlines(data.decode("utf-8", errors="replace")).split("\n")
    return InputError(
        f"not valid UTF-8 (byte 0x{data[err.start]:02x}): save the file as UTF-8",
        source,
        len(before),
        len(before[-1]) + 1,
        shown[len(before) - 1],
    )


# The most a file may hold, in MiB, by kind: a puzzle, grid or word list, and
# a dictionary. Each is overridden by its environment variable.
LIMITS_MB = {"puzzle": 16, "dictionary": 256}
LIMIT_VARIABLES = {"puzzle": "CROSSWORD_MAX_PUZZLE_MB", "dictionary": "CROSSWORD_MAX_DICT_MB"}
_CHUNK = 1 << 20


def input_limit(kind: str) -> int:
    """The most bytes a `kind` ("puzzle" or "dictionary") file may hold."""
    variable = LIMIT_VARIABLES[kind]
    text = os.environ.get(variable, "").strip()
    if not text:
        return LIMITS_MB[kind] << 20
    try:
        megabytes = float(text)
    except ValueError:
        megabytes = -1.0
    if not 0 < megabytes < 1 << 40:
        raise UsageError(f"{variable} must be a positive number of MiB, got {shown(repr(text))}")
    return int(megabytes * (1 << 20))


def read_bytes(path: str | os.PathLike[str], kind: str = "puzzle") -> bytes:
    """The bytes of `path`, read in bounded chunks; InputError if it cannot be
    read, is a device or a folder (not a file that ends), or holds more than
    the limit of its kind (see input_limit)."""
    source = os.fspath(path)
    what = "the dictionary" if kind == "dictionary" else "the file"
    limit = input_limit(kind)
    try:
        # O_NONBLOCK: opening a FIFO without a writer must not hang; a
        # regular file ignores it
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise InputError(f"cannot read {what}: {err.strerror or err}", source) from None
    # the kind of file is told before the descriptor is wrapped: wrapping a
    # folder's raises IsADirectoryError
    mode = os.fstat(fd).st_mode
    if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode)):
        os.close(fd)
        kind_name = "a folder" if stat.S_ISDIR(mode) else "a device or other special file"
        raise InputError(f"cannot read {what}: not a regular file ({kind_name})", source)
    with open(fd, "rb", buffering=0, closefd=True) as stream:
        if stat.S_ISFIFO(mode):
            os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        try:
            while True:
                chunk = stream.read(min(_CHUNK, limit + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    message = (
                        f"{what} is larger than the limit of {limit / (1 << 20):g} MiB "
                        f"(set {LIMIT_VARIABLES[kind]} to a larger number of MiB to read it)"
                    )
                    raise InputError(message, source)
        except OSError as err:
            raise InputError(f"cannot read {what}: {err.strerror or err}", source) from None
    return b"".join(chunks)


def read_text(path: str | os.PathLike[str], expected: str | None = None) -> str:
    """The decoded text of `path`; InputError if it cannot be read or
    decoded (naming what was `expected`, when it is not a puzzle)."""
    return decode_text(read_bytes(path), os.fspath(path), expected=expected)


def decode_text(
    data: bytes, source: str, format: str | None = None, expected: str | None = None
) -> str:
    """The UTF-8 text of a file's bytes; InputError for binary data (never
    shown, named for what it is) or bytes that are not UTF-8 (located).
    `format`, when the user forced one, is named in the message about
    binary data; `expected` names what the file should have been (default:
    a puzzle)."""
    binary = _binary_at(data)
    if binary is not None:
        raise binary_error(data, source, binary, format, expected)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        binary = _binary_at(data, strict=False)
        if binary is not None:
            raise binary_error(data, source, binary, format, expected) from None
        raise _encoding_error(data, err, source) from None


_SNIFFED = 8000  # bytes looked at for a NUL, as git does to tell binary files
_CONTROLS = frozenset(range(0x20)) - {0x09, 0x0A, 0x0C, 0x0D} | {0x7F}


def _binary_at(data: bytes, strict: bool = True) -> int | None:
    """The offset of the byte that shows `data` is binary, or None: a NUL in
    its first 8000 bytes, or (not `strict`, for data that is not UTF-8) a
    tenth or more control characters in its first kilobyte."""
    nul = data.find(b"\x00", 0, _SNIFFED)
    if nul >= 0:
        return nul
    if strict:
        return None
    head = data[:1024]
    controls = [i for i, byte in enumerate(head) if byte in _CONTROLS]
    return controls[0] if head and len(controls) * 10 >= len(head) else None


_FORMAT_NAMES = {
    "p99": "a P-99 text",
    "fillin": "a fill-in grid",
    "cs50": "a CS50 structure file",
    "rp2016": "an RP 2016 grid file",
    "grid": "a plain grid",
    "ipuz": "an ipuz file (JSON text)",
}


# What a binary file is, by its first bytes: named when it is given where a
# text is expected (a picture as a dictionary, say).
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or an office document)"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\x7fELF", "a program"),
    (b"SQLite format 3\x00", "an SQLite database"),
)


def binary_offset(data: bytes, text: bool) -> int | None:
    """Where `data` shows it is binary, or None: the signature of a .puz, a
    picture, an archive...; or, when it is not `text` (valid UTF-8), a NUL
    or a tenth of control characters (a text may hold a stray NUL)."""
    if has_magic(data) or any(data.startswith(magic) for magic, _ in _SIGNATURES):
        found = data.find(b"\x00", 0, _SNIFFED)
        return found if found >= 0 else 0
    return None if text else _binary_at(data, strict=False)


def binary_kind(data: bytes) -> str:
    """What binary `data` is: an Across Lite .puz, a picture, a PDF... or
    just binary data."""
    if has_magic(data):
        return "an Across Lite .puz crossword"
    return next((name for magic, name in _SIGNATURES if data.startswith(magic)), "binary data")


def text_kind(text: str) -> str | None:
    """What a text looks like when it is not the kind expected: an ipuz
    crossword or other JSON, a grid of '.' and '#' cells, or a word list
    (a word a line); None when it looks like none of these."""
    body = text.lstrip(BOM + " \t\r\n")
    if body.startswith(("{", "[", "ipuz(")):
        return "an ipuz crossword (JSON)" if "ipuz.org" in body[:4096].lower() else "JSON"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return None
    if all(set(line) <= set(".#_ ") for line in lines) or (
        all(is_plain_row(line) for line in lines)
        and any(OPEN in line or BLOCK in line for line in lines)
    ):
        return "a grid ('.' open cells, '#' blocks)"
    if all(entry.replace("-", "").replace("'", "").replace(" ", "").isalpha() for entry in lines):
        return "a word list (a word a line)"
    return None


def is_plain_row(line: str) -> bool:
    """Whether a row reads as a plain grid's: open cells, blocks and letters."""
    given = line.replace(OPEN, "").replace(BLOCK, "")
    return given == "" or given.isalpha()


def binary_error(
    data: bytes, source: str, at: int, format: str | None = None, expected: str | None = None
) -> InputError:
    """The error for binary data read as a text: what it looks like and
    what was expected (a puzzle, unless `expected` names another kind),
    without a byte of it."""
    found = f"byte {at} is 0x{data[at]:02x}"
    kind = binary_kind(data)
    if expected is not None:
        message = f"this is {kind} ({found}), not {expected}"
    elif has_magic(data):
        expected = _FORMAT_NAMES.get(format or "", "a text")
        message = (
            f"this is an Across Lite .puz file (binary: {found}), not {expected}: "
            "leave out --format (or say --format puz)"
        )
    elif source.lower().endswith(".puz"):
        message = (
            f"this file is binary ({found}), but not an Across Lite .puz file either: the magic "
            "string ACROSS&DOWN is missing (a damaged or different file)"
        )
    else:
        message = (
            f"this file is {kind} ({found}), not a puzzle: expected a text (P-99, fill-in, "
            "CS50, RP 2016 or a plain grid), an Across Lite .puz or an ipuz file"
        )
    return InputError(message, source)


# ---------------------------------------------------------------- characters


def describe_char(ch: str) -> str:
    """A character as an error message shows it."""
    if ch == " ":
        return "a space"
    if ch == "\t":
        return "a tab"
    if ch == "'":
        return "an apostrophe (')"
    if ch.isprintable():
        return f"'{ch}'"
    return f"U+{ord(ch):04X}"


def _first_bad(text: str, ok: Callable[[str], bool]) -> int | None:
    """Index of the first character of `text` that `ok` rejects, or None."""
    return next((i for i, ch in enumerate(text) if not ok(ch)), None)


# Each check takes a whole line (one C-level call in the common, valid case)
# or a single character (to find the culprit when the line is bad).


def _is_framework(text: str) -> bool:
    given = text.replace(".", "").replace(" ", "")
    return given == "" or given.isalpha()


def _is_grid(text: str) -> bool:
    given = text.replace("_", "").replace("#", "")
    return given == "" or given.isalnum()


def line_text(token: Token) -> str:
    return str(token).removesuffix("\n")


def line_content(token: Token) -> str:
    """A word or fill-in row: the line without its trailing spaces and tabs."""
    return str(token).rstrip(" \t\n")


def check_line(
    token: Token, text: str, ok: Callable[[str], bool], expected: str, source: str
) -> str:
    """`text` (taken from `token`'s line) if `ok` accepts it, else InputError."""
    bad = None if ok(text) else _first_bad(text, ok)
    if bad is None:
        return text
    message = f"expected {expected}, found {describe_char(text[bad])}"
    raise InputError(message, source, token.line, bad + 1, line_text(token))


def padded(rows: list[str]) -> tuple[str, ...]:
    width = max(len(row) for row in rows)
    return tuple(row.ljust(width, BLOCK) for row in rows)


# ---------------------------------------------------------------- builders


class _P99Builder:
    """Checks every character of a P-99 parse tree and builds the Puzzle."""

    def __init__(self, source: str) -> None:
        self.source = source

    def words(self, lines: list[Token]) -> tuple[str, ...]:
        expected = "a letter (a word is made of letters only)"
        return tuple(
            check_line(line, line_content(line), str.isalpha, expected, self.source)
            for line in lines
        )

    def framework(self, lines: list[Token]) -> list[str]:
        return [self._row(line) for line in lines]

    def _row(self, line: Token) -> str:
        row = line_text(line)
        tab = row.find("\t")
        if tab >= 0:
            message = "tab in framework: use spaces for blocked cells"
            raise InputError(message, self.source, line.line, tab + 1, row)
        expected = "'.' (open), a letter (given) or a space (blocked) in the framework"
        return check_line(line, row, _is_framework, expected, self.source)

    def start(self, parts: list[Any]) -> Puzzle:
        words, rows = parts
        grid = padded([row.replace(" ", BLOCK) for row in rows])
        widths = tuple(len(row) for row in rows)
        return Puzzle(words, grid, "p99", self.source, widths)


class _FillinBuilder:
    """Checks every character of a fill-in grid or word file."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.scores: dict[str, Decimal] = {}  # a word list's `WORD;score` lines

    def grid(self, lines: list[Token]) -> tuple[tuple[str, ...], tuple[int, ...]]:
        expected = "'_' (open), '#' (blocked), a letter or a digit (given)"
        rows = [
            check_line(line, line_content(line), _is_grid, expected, self.source) for line in lines
        ]
        return padded([row.replace("_", OPEN) for row in rows]), tuple(len(r) for r in rows)

    def words(self, lines: list[Token]) -> tuple[str, ...]:
        return tuple(self._word(line) for line in lines)

    def _word(self, line: Token) -> str:
        """The word on a line, `WORD` or `WORD;score` (the first score of a
        word listed twice is its score)."""
        expected = "a letter or a digit (one word per line)"
        text = line_content(line)
        entry, semicolon, written = text.rpartition(";")
        if not semicolon:
            return check_line(line, text, str.isalnum, expected, self.source)
        score = parse_score(written.strip())
        if score is None:
            message = f"expected a score after ';' (a number such as 40 or 0.5), found {written!r}"
            raise InputError(message, self.source, line.line, len(entry) + 2, line_text(line))
        word = check_line(line, entry.rstrip(" \t"), str.isalnum, expected, self.source)
        self.scores.setdefault(word, score)
        return word


# ---------------------------------------------------------------- syntax errors


class Complaint(NamedTuple):
    """What a syntax error means, and where to point: at the offending line
    (`line`), at its first non-letter (`word`, whose message has `{found}`),
    at the blank line before it (`blank`), or at the end of the file (`end`)."""

    message: str
    where: Literal["line", "word", "blank", "end"]


# Malformed examples for lark's `match_examples`: each parse fails in the
# parser state the complaint is about.  Runs of one and of two lines are both
# given because a state also counts the depth of the parse stack.
_P99_COMPLAINTS: Mapping[Complaint, list[str]] = {
    Complaint(
        "the file is empty: expected the word list, a blank line, then the framework", "end"
    ): [""],
    Complaint("the word list is empty: the file must start with the words, one per line", "line"): [
        "\n"
    ],
    Complaint(
        "expected a word, found {found}: the file must start with the word list, one word per line",
        "word",
    ): [". .\n"],
    Complaint(
        "expected a word or a blank line, found {found}: "
        "a blank line must separate the word list from the framework",
        "word",
    ): ["A\n. .\n", "A\nB\n. .\n"],
    Complaint(
        "the framework is missing: expected a blank line after the word list, then the framework",
        "end",
    ): ["A\n", "A\nB\n"],
    Complaint("the framework is missing: expected framework rows after the blank line", "end"): [
        "A\n\n",
        "A\n\n\n",
    ],
    Complaint(
        "blank line inside the framework: blank lines may only separate the word list "
        "from the framework and end the file",
        "blank",
    ): ["A\n\n.\n\n.\n", "A\n\n.\n\n\n.\n"],
}

GRID_COMPLAINTS: Mapping[Complaint, list[str]] = {
    Complaint("the grid is empty: expected one row per line", "end"): [""],
    Complaint("expected a grid row: the grid must start on the first line", "line"): ["\n"],
    Complaint("blank line inside the grid: blank lines may only end the file", "blank"): [
        "_\n\n_\n",
        "_\n\n\n_\n",
    ],
}

_WORDS_COMPLAINTS: Mapping[Complaint, list[str]] = {
    Complaint("the word list is empty: expected one word per line", "end"): [""],
    Complaint("expected a word: the word list must start on the first line", "line"): ["\n"],
    Complaint("blank line inside the word list: blank lines may only end the file", "blank"): [
        "a\n\nb\n",
        "a\n\n\nb\n",
    ],
}


def _first_of_blank_run(lines: list[str], line: int) -> int:
    """The first line of the run of blank lines that ends at 1-based `line`."""
    while line > 1 and lines[line - 2].strip(" \t") == "":
        line -= 1
    return line


def _located(complaint: Complaint, token: Token, lines: list[str], source: str) -> InputError:
    if complaint.where == "end" or token.type == "$END":
        return InputError(complaint.message, source, max(len(lines), 1))
    line = token.line or 1
    if complaint.where == "blank":
        line = _first_of_blank_run(lines, line - 1)
    text = lines[line - 1]
    bad = _first_bad(text, str.isalpha) if complaint.where == "word" else None
    found = describe_char(text[bad]) if bad is not None else "nothing"
    return InputError(complaint.message.format(found=found), source, line, (bad or 0) + 1, text)


def _syntax_error(
    err: UnexpectedInput,
    text: str,
    source: str,
    parse: Callable[[str], Tree[Token]],
    complaints: Mapping[Complaint, list[str]],
) -> InputError:
    from lark import UnexpectedToken

    lines = text.split("\n")[:-1]
    if not isinstance(err, UnexpectedToken):
        # Every line is some token, so lark only ever reports unexpected tokens;
        # this keeps its position should that change.
        return InputError("unexpected text", source, err.line, err.column)
    complaint: Complaint | None = err.match_examples(
        parse, complaints.items(), token_type_match_fallback=True
    )
    if complaint is None:
        complaint = Complaint("unexpected line", "line")
    return _located(complaint, err.token, lines, source)


# ---------------------------------------------------------------- parsing


@cache
def _parser(name: str) -> Lark:
    """The LALR parser of grammar/NAME.lark. Building one costs a command
    about 14 ms (lark's analysis of the grammar), reading its tables back
    0.4 ms: they are kept in the cache (pybridge.cache), under the digest
    of the grammar, its start rules and the versions of lark and Python.
    The tables are a pickle (lark's Lark.save): the cache reads an entry
    only when this user's key signed it, so a planted one is never loaded."""
    from lark import Lark

    start = ["grid", "words"] if name == "fillin" else ["start"]
    text = grammar_path(f"{name}.lark").read_text(encoding="utf-8")
    entry = _parser_entry(text, start)
    kept = file_cache.read(entry, PARSER_BYTES)
    if kept is not None:
        with contextlib.suppress(Exception):  # a bad entry: build it again
            return Lark.load(io.BytesIO(kept[1]))
    parser = Lark(text, parser="lalr", start=start)
    tables = io.BytesIO()
    parser.save(tables)
    file_cache.write(entry, {"grammar": name}, tables.getvalue())
    return parser


PARSER_BYTES = 1 << 20  # a grammar's parse tables: a few kB


def _parser_entry(text: str, start: list[str]) -> str:
    import lark

    made_by = f"{lark.__version__} {sys.version_info[0]}.{sys.version_info[1]} {start}"
    digest = hashlib.sha256(f"{made_by}\n{text}".encode()).hexdigest()
    return f"v1-{digest}.grammar"


def parse_with(
    name: str,
    start: str,
    text: str,
    source: str,
    builder: object,
    complaints: Mapping[Complaint, list[str]],
) -> Any:
    """Parse normalised `text` from rule `start` and build it with `builder`
    (see built). lark loads here, the first time a text needs a grammar: a
    plainly written P-99 file or plain grid is read without it (_plain_p99,
    gridfiles._plain_grid), and its import is a third of a small command's."""
    from lark import UnexpectedInput

    parser = _parser(name)

    def parse(sample: str) -> Tree[Token]:
        return parser.parse(sample, start=start)

    try:
        tree = parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, source, parse, complaints) from None
    return built(builder, tree)


def built(builder: object, tree: Tree[Token]) -> Any:
    """What `builder` makes of a parse tree, as a lark Transformer (without
    visiting tokens) would: each rule's children built first, then handed
    to the builder's method of the rule's name (every rule of our grammars
    has one). A builder is a plain class, so that defining one loads no
    lark; what it raises (InputError) comes through as it is."""
    children = [c if isinstance(c, str) else built(builder, c) for c in tree.children]
    return getattr(builder, str(tree.data))(children)


def parse_p99(text: str, source: str = "<p99>") -> Puzzle:
    """The puzzle in P-99 `text`; `source` names it in errors."""
    text = normalise(text)
    plain = _plain_p99(text, source)
    if plain is not None:
        return plain
    puzzle: Puzzle = parse_with("p99", "start", text, source, _P99Builder(source), _P99_COMPLAINTS)
    return puzzle


# grammar/p99.lark's WORD without its newline (a line never holds one)
_WORD_LINE = re.compile(r"[^ \t\n.]+[ \t]*")


def _is_blank(line: str) -> bool:
    return line.strip(" \t") == ""


def _plain_p99(text: str, source: str) -> Puzzle | None:
    """The puzzle in normalised P-99 `text` read line by line, or None when
    the text is not plainly well formed: the grammar then reads it (and
    explains what is wrong). It accepts only what grammar/p99.lark and
    _P99Builder accept and builds the same Puzzle; lark would cost more than
    the rest of solving a small puzzle."""
    lines = text.split("\n")[:-1]  # the text ends with a newline
    k, end = 0, len(lines)
    while k < end and _WORD_LINE.fullmatch(lines[k]):
        k += 1
    words = [line.rstrip(" \t") for line in lines[:k]]
    gap = k
    while k < end and _is_blank(lines[k]):
        k += 1
    first_row = k
    while k < end and not _is_blank(lines[k]):
        k += 1
    rows = lines[first_row:k]
    while k < end and _is_blank(lines[k]):
        k += 1
    if not words or gap == first_row or not rows or k < end:
        return None
    if not all(map(str.isalpha, words)) or any(
        "\t" in row or not _is_framework(row) for row in rows
    ):
        return None
    grid = padded([row.replace(" ", BLOCK) for row in rows])
    return Puzzle(tuple(words), grid, "p99", source, tuple(len(row) for row in rows))


def parse_fillin(
    grid_text: str,
    words_text: str,
    grid_source: str = "<grid>",
    words_source: str = "<words>",
) -> Puzzle:
    """The fill-in puzzle made of a grid text and a word-list text."""
    grid_builder = _FillinBuilder(grid_source)
    words_builder = _FillinBuilder(words_source)
    grid_text = normalise(grid_text)
    words_text = normalise(words_text)
    grid, widths = parse_with(
        "fillin", "grid", grid_text, grid_source, grid_builder, GRID_COMPLAINTS
    )
    words = parse_with(
        "fillin", "words", words_text, words_source, words_builder, _WORDS_COMPLAINTS
    )
    scores = Scores(words_builder.scores) if words_builder.scores else None
    return Puzzle(words, grid, "fillin", grid_source, widths, scores=scores)


_TWO_OPEN = re.compile(f"[^{BLOCK}]{{2}}")
NOTHING_TO_FILL = (
    "no site to fill: every run of open cells is a single cell "
    "(a word needs two or more open cells in a row or a column)"
)


def has_site(puzzle: Puzzle) -> bool:
    """Whether the framework has a site: two open cells side by side, across or down."""
    grid = puzzle.grid
    return any(map(_TWO_OPEN.search, grid)) or any(
        _TWO_OPEN.search("".join(column)) for column in zip(*grid, strict=False)
    )


def require_site(puzzle: Puzzle) -> Puzzle:
    """`puzzle`, or InputError when there is nothing to fill in it."""
    if not has_site(puzzle):
        raise InputError(NOTHING_TO_FILL, puzzle.source)
    return puzzle


def sniff(text: str) -> Format:
    """The likely format of a puzzle text: fill-in grids are made of `_` and
    `#`, P-99 frameworks of `.` and spaces, so the more frequent marks win."""
    fillin_marks = text.count("_") + text.count("#")
    return "fillin" if fillin_marks > text.count(".") else "p99"


_JSONP = re.compile(rb"[A-Za-z_$][\w$]*\(\s*\{")


def sniff_exchange(data: bytes) -> ExchangeFormat | None:
    """The exchange format of a file's bytes: "puz" when they hold the .puz
    magic string, "ipuz" for a JSON object (or JSONP) that names an ipuz.org
    kind, else None (a text format)."""
    if has_magic(data):
        return "puz"
    head = data[:100_000].lstrip(b"\xef\xbb\xbf \t\r\n")
    if (head.startswith(b"{") or _JSONP.match(head)) and b"ipuz.org/" in head:
        return "ipuz"
    return None


def sniff_file(path: str | os.PathLike[str]) -> Format:
    """The likely format of a puzzle file: .puz or ipuz, else by its text."""
    data = read_bytes(path)
    return sniff_exchange(data) or sniff(decode_text(data, os.fspath(path)))


def read_exchange(data: bytes, source: str, format: ExchangeFormat) -> Puzzle:
    """The .puz or ipuz puzzle in a file's bytes, with no words: its grid and
    what it published (pybridge.exchange says how to fill it). Their
    readers (and the puz and ipuz libraries) load when such a file comes."""
    if format == "puz":
        from pybridge import acrosslite

        return acrosslite.parse_puz(data, source)
    from pybridge import ipuzfile

    return ipuzfile.parse_ipuz(decode_text(data, source, format), source)


def _is_plain_grid(text: str) -> bool:
    """Whether a text reads as a plain grid ('.' open, '#' blocked, letters
    given, no blank line inside): what a P-99 file never is."""
    rows = [row.rstrip(" \t") for row in text.rstrip(" \t\n").split("\n")]
    marks = "".join(rows)
    letters = marks.replace(".", "").replace("#", "")
    return all(rows) and ("." in marks or "#" in marks) and (letters == "" or letters.isalpha())


def is_plain_grid_file(path: str | os.PathLike[str]) -> bool:
    """Whether a puzzle file reads as a plain grid ('.' open, '#' blocked),
    which is filled from a dictionary, rather than as a P-99 or fill-in
    puzzle or a crossword file (False too when it cannot be read: reading
    it as a puzzle then says why)."""
    try:
        data = read_bytes(path)
        if sniff_exchange(data) is not None:
            return False
        text = decode_text(data, os.fspath(path))
    except InputError:
        return False
    return sniff(text) == "p99" and not looks_like_p99(text) and _is_plain_grid(normalise(text))


def looks_like_p99(text: str) -> bool:
    """Whether a text is shaped as a P-99 file: word lines, a blank line,
    then framework rows ('.', letters, spaces)."""
    lines = normalise(text).split("\n")
    k = 0
    while k < len(lines) and lines[k].strip(" \t").isalpha():
        k += 1
    if k == 0 or k == len(lines) or lines[k].strip(" \t"):
        return False
    rows = [line for line in lines[k:] if line.strip(" \t")]
    return bool(rows) and all(_is_framework(row.rstrip(" \t")) for row in rows)


def wrong_kind(text: str, source: str, words: bool) -> InputError | None:
    """The error for a text that looks like another kind of file than the
    options ask for (sniffing said P-99): JSON that is not ipuz, a plain
    grid (for a dictionary) with or without a word list."""
    body = text.lstrip(BOM + " \t\r\n")
    if body.startswith(("{", "[")):
        return InputError(
            'this is JSON, but not an ipuz crossword (its "kind" would name '
            "http://ipuz.org/crossword#1): expected a puzzle file",
            source,
        )
    if looks_like_p99(text) or not _is_plain_grid(normalise(text)):
        return None
    hint = (
        "--words goes with a fill-in grid, whose open cells are '_'"
        if words
        else "a P-99 file would start with its word list"
    )
    return InputError(
        "this looks like a plain grid ('.' open, '#' blocked), which is filled from a "
        f"dictionary: add --dict FILE ({hint})",
        source,
    )


def load(
    path: str | os.PathLike[str],
    words: str | os.PathLike[str] | None = None,
    format: Format | None = None,
    answers: bool = False,
) -> Puzzle:
    """Read a puzzle file; `words` is the word file a fill-in puzzle needs,
    `format` ("p99", "fillin", "puz" or "ipuz") overrides sniffing, and
    `answers` fills a .puz or ipuz crossword with its own solution's entries
    (pybridge.exchange.with_answers)."""
    if format is not None and format not in FORMATS + EXCHANGE_FORMATS:
        known = FORMATS + EXCHANGE_FORMATS
        raise ValueError(f"unknown puzzle format {format!r}; expected one of {known}")
    source = os.fspath(path)
    data = read_bytes(path)
    exchange = format if format in EXCHANGE_FORMATS else None
    exchange = exchange or (None if format else sniff_exchange(data))
    if exchange is not None:
        return _exchange_puzzle(read_exchange(data, source, exchange), words, answers)
    text = decode_text(data, source, format)
    kind = format or sniff(text)
    if answers:
        what = "a P-99 file" if kind == "p99" else "a fill-in grid"
        message = (
            "--answers fills a .puz or .ipuz crossword with its own solution's entries, "
            f"but this is {what}, not such a crossword"
        )
        raise InputError(message, source)
    if kind == "p99":
        unlike = None if format else wrong_kind(text, source, words is not None)
        if unlike is not None:
            raise unlike
        if words is not None:
            message = (
                "this is a P-99 file, which holds its own word list: --words is only for "
                "fill-in puzzles (use --format fillin if this is a fill-in grid)"
            )
            raise InputError(message, source)
        return parse_p99(text, source)
    if words is None:
        raise InputError("a fill-in puzzle needs its word list: pass --words FILE", source)
    return parse_fillin(text, read_word_list(words), source, os.fspath(words))


WORD_LIST = "a word list (a text, a word a line)"


def read_word_list(path: str | os.PathLike[str]) -> str:
    """The text of a word list file; InputError naming what it looks like
    when it is a binary file (a .puz, a picture), JSON or a grid."""
    text = read_text(path, expected=WORD_LIST)
    kind = text_kind(text)
    if kind is not None and not kind.startswith("a word list"):
        raise InputError(f"this looks like {kind}, not {WORD_LIST}", os.fspath(path))
    return text


def _exchange_puzzle(puzzle: Puzzle, words: object, answers: bool) -> Puzzle:
    if words is not None:
        message = (
            f"this is {KIND_NAMES[puzzle.format]}, which holds its own answers: use "
            "--answers instead of --words (or --dict FILE to fill its grid from a dictionary)"
        )
        raise InputError(message, puzzle.source)
    if not answers:
        raise InputError(fill_it_how(puzzle), puzzle.source)
    return with_answers(puzzle)
