"""Across Lite `.puz` files, read and written with puzpy (the `puz` module).

A .puz file is binary: a header (checksums, the magic string
`ACROSS&DOWN`, the version, width, height and number of clues), the
solution grid and the player's grid, one byte per square (`.` a block, `-`
an empty square), then title, author, copyright, the clues in entry order
and notes, each ending in a NUL byte, then optional extensions (rebus
squares, circled squares...). puzpy checks every checksum.

Reading (`parse_puz`): the grid's blocks come from the solution (from the
player's grid when the file has no solution); the letters the player's grid
holds are givens; the solution, the clues (one per entry, in order), circled
squares, title, author, copyright and notes are kept (pybridge.exchange).

* Text: version 1 files are single-byte text. puzpy reads them as Latin-1;
  Across Lite on Windows writes cp1252, so the characters Latin-1 reads as
  invisible controls (bytes 0x80-0x9f: typographic quotes, dashes, `…`) are
  read as cp1252. Version 2 files keep their text in UTF-8.
* Odd files: a diagramless puzzle is read with the blocks of its solution
  (the grid its solver has to find); a locked (scrambled) solution, a file
  without one, and rebus squares (several letters in one square) leave the
  puzzle without answers: `--dict` fills its grid, `--answers` says why it
  cannot.
* Damaged files (a wrong magic, a cut-off file, a checksum that does not
  match, more or fewer clues than entries) are an InputError naming what is
  wrong.

Writing (`puz_bytes`): version 1.3 with cp1252 text (Across Lite's), or
version 2.0 (UTF-8) when some text needs more than cp1252 and every grid
letter is ASCII; a grid letter that takes more than one byte is refused.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import puz

from pybridge.errors import InputError, OutputError, shown
from pybridge.exchange import (
    MAGIC,
    not_a_letter,
    rebus_marks,
    rebus_text,
    square_letter,
    written_clues,
)
from pybridge.layout import find_sites
from pybridge.model import BLOCK, OPEN, Cell, Clue, Published, Puzzle
from pybridge.wording import where

HEADER_SIZE = 52  # from the global checksum, two bytes before the magic, to the grids
_WIDTH_AT, _HEIGHT_AT, _CLUES_AT = 44, 45, 46  # offsets in the header
_BLOCKS = ".:"  # `:` marks blocks in diagramless puzzles
_EMPTY = "-"
_TYPOGRAPHIC = range(0x80, 0xA0)  # Latin-1 controls that are cp1252 punctuation
_MAX_SIDE = 255  # a .puz header keeps width and height in one byte each


def _damaged(reason: str, source: str) -> InputError:
    return InputError(f"damaged .puz file: {reason}", source)


def _check_size(data: bytes, source: str) -> int:
    """The offset of the header; InputError for a file cut short before the
    end of its grids, title, author, copyright and clues."""
    start = data.find(MAGIC) - 2
    if start < 0:
        raise InputError(
            "not an Across Lite .puz file: the magic string ACROSS&DOWN is missing", source
        )
    if len(data) < start + HEADER_SIZE:
        raise _damaged(f"the file ends inside its {HEADER_SIZE}-byte header (cut short?)", source)
    width, height = data[start + _WIDTH_AT], data[start + _HEIGHT_AT]
    if width == 0 or height == 0:
        raise _damaged(f"its header says the grid is {width}x{height}", source)
    grids_end = start + HEADER_SIZE + 2 * width * height
    if len(data) < grids_end:
        message = (
            f"the file ends inside its grids (cut short?): a {width}x{height} puzzle needs "
            f"{grids_end} bytes up to the end of its grids, the file has {len(data)}"
        )
        raise _damaged(message, source)
    clues = int.from_bytes(data[start + _CLUES_AT : start + _CLUES_AT + 2], "little")
    strings = data.count(b"\x00", grids_end)
    if strings < 3 + clues:
        message = (
            f"the file ends inside its text (cut short?): it needs {3 + clues} texts (title, "
            f"author, copyright and {clues} clues), it holds {strings}"
        )
        raise _damaged(message, source)
    return start


def _load(data: bytes, source: str) -> puz.Puzzle:
    """puzpy's reading of `data`, every failure an InputError."""
    _check_size(data, source)
    try:
        return puz.load(data)
    except puz.PuzzleFormatError as err:
        reason = err.message or "puzpy could not read it"
        if "checksum" in reason:
            reason += " (the file was changed or cut short after it was written)"
        raise _damaged(reason, source) from None
    except UnicodeDecodeError as err:
        message = (
            f"its text is not valid UTF-8 (byte 0x{err.object[err.start]:02x}), "
            "which a version 2 file must be"
        )
        raise _damaged(message, source) from None
    except (ValueError, IndexError, KeyError, struct.error) as err:
        raise _damaged(f"puzpy could not read it ({shown(str(err))})", source) from None


def _text(value: str, version: tuple[int, ...]) -> str:
    """A version 1 text as cp1252 where Latin-1 read control characters."""
    if version >= (2,) or not any(ord(ch) in _TYPOGRAPHIC for ch in value):
        return value
    return value.encode("latin-1").decode("cp1252", errors="replace")


def _version(p: puz.Puzzle) -> tuple[int, ...]:
    try:
        return tuple(p.version_tuple())
    except ValueError:
        return (1, 3)


def parse_puz(data: bytes, source: str = "<puz>") -> Puzzle:
    """The puzzle in the bytes of a .puz file (see the module docstring)."""
    p = _load(data, source)
    width, height = p.width, p.height
    version = _version(p)
    solution, fill = _text(p.solution, version), _text(p.fill, version)
    if len(solution) != width * height or len(fill) != width * height:
        message = (
            f"its grids do not hold one character per square of its {width}x{height} grid "
            "(a version 2 file must keep one ASCII letter per square)"
        )
        raise _damaged(message, source)
    has_solution = p.solution_state != puz.SolutionState.NotProvided
    blocks = solution if has_solution else fill
    rebus = _rebus_squares(p, source)  # a rebus square shows no given (its first letter)
    cells = [
        BLOCK
        if blocks[i] in _BLOCKS
        else OPEN
        if i in rebus
        else _given(fill[i], divmod(i, width), source)
        for i in range(width * height)
    ]
    rows = tuple("".join(cells[r * width : (r + 1) * width]) for r in range(height))
    puzzle = Puzzle((), rows, "puz", source)
    sites = find_sites(puzzle)
    if len(p.clues) != len(sites):
        message = (
            f"it holds {len(p.clues)} clues, but its grid has {len(sites)} entries "
            "(one clue per entry)"
        )
        raise _damaged(message, source)
    answers, unusable, marks = _answers(p, solution, rows, has_solution, rebus, source)
    published = Published(
        solution=answers,
        unusable=unusable,
        rebus=tuple((mark, text) for text, mark in marks.items()),
        diagramless=p.puzzletype == puz.PuzzleType.Diagramless,
        clues=tuple(
            Clue(site.number, site.direction, _text(text, version))
            for site, text in zip(sites, p.clues, strict=True)
        ),
        circled=_circled(p, width, source),
        title=_text(p.title, version),
        author=_text(p.author, version),
        copyright=_text(p.copyright, version),
        notes=_text(p.notes, version),
    )
    return Puzzle((), rows, "puz", source, published=published)


def _square(ch: str) -> str | None:
    """A square of the player's grid or the solution: OPEN (empty), a
    letter, or None for a character no square may hold."""
    if ch in _BLOCKS or ch == _EMPTY or not ch.isprintable():
        return OPEN
    return square_letter(ch)


def _given(ch: str, cell: Cell, source: str) -> str:
    """A square of the player's grid: OPEN or a given letter."""
    letter = _square(ch)
    if letter is None:
        raise InputError(f"its player's grid shows {not_a_letter(ch, cell)}", source)
    return letter


def _answers(
    p: puz.Puzzle,
    solution: str,
    rows: Sequence[str],
    has_solution: bool,
    rebus: dict[int, str],
    source: str,
) -> tuple[tuple[str, ...] | None, str, dict[str, str]]:
    """The published solution's rows (a rebus square holding its mark), or
    None and why it cannot be used; and the rebus marks by text."""
    if not has_solution:
        return None, "the file has no solution (Across Lite's 'solution not provided')", {}
    if p.solution_state == puz.SolutionState.Locked:
        locked = (
            "its solution is locked (scrambled with a key): unlock it in Across Lite and save "
            "it again, or fill the grid from a dictionary with --dict FILE"
        )
        return None, locked, {}
    bad = next(((i, text) for i, text in rebus.items() if rebus_text(text) is None), None)
    if bad is not None:
        index, text = bad
        odd = (
            f"its rebus square at {where(divmod(index, p.width))} holds {shown(repr(text))}, "
            "which is not letters or digits"
        )
        return None, odd, {}
    width = p.width
    letters: list[str] = []
    for i, ch in enumerate(solution):
        letter = BLOCK if rows[i // width][i % width] == BLOCK else _square(ch)
        if letter is None:
            return None, f"its solution has {not_a_letter(ch, divmod(i, width))}", {}
        letters.append(letter)
    texts = {i: rebus_text(text) or "" for i, text in rebus.items()}
    marks = rebus_marks(list(texts.values()), "".join(letters), source)
    for i, text in texts.items():
        letters[i] = marks[text]
    answers = tuple("".join(letters[r * width : (r + 1) * width]) for r in range(p.height))
    return answers, "", marks


def _rebus_squares(p: puz.Puzzle, source: str) -> dict[int, str]:
    """The rebus squares of the file and what each holds, as written."""
    try:
        if not p.has_rebus():
            return {}
        rebus = p.rebus()
        return {i: rebus.get_rebus_solution(i) or "" for i in rebus.get_rebus_squares()}
    except (ValueError, IndexError, KeyError, UnicodeDecodeError) as err:
        raise _damaged(f"its rebus squares cannot be read ({shown(str(err))})", source) from None


def _circled(p: puz.Puzzle, width: int, source: str) -> frozenset[Cell]:
    try:
        if not p.has_markup():
            return frozenset()
        squares = p.markup().get_markup_squares(puz.GridMarkup.Circled)
    except (ValueError, IndexError) as err:
        raise _damaged(f"its circled squares cannot be read ({shown(str(err))})", source) from None
    return frozenset(divmod(i, width) for i in squares if i < width * p.height)


# ---------------------------------------------------------------- writing


def _as_cp1252(text: str) -> str | None:
    """`text` as puzpy must hold it to write its cp1252 bytes (puzpy
    encodes Latin-1), or None if cp1252 cannot write it."""
    try:
        return text.encode("cp1252").decode("latin-1")
    except UnicodeEncodeError:
        return None


def puz_bytes(puzzle: Puzzle, grid: Sequence[str], progress: Sequence[str] | None = None) -> bytes:
    """A .puz file of `grid` (a filled grid of `puzzle`) as its solution,
    with the puzzle's givens in the player's grid (or `progress`: the rows
    of a solver's letters so far, which the player's grid then holds) and
    its clues (see pybridge.exchange.written_clues)."""
    width, height = puzzle.width, puzzle.height
    if width > _MAX_SIDE or height > _MAX_SIDE:
        raise OutputError(
            f"cannot write a .puz of a {width}x{height} grid: a .puz grid has at most "
            f"{_MAX_SIDE} rows and columns (write an ipuz file instead: --output ipuz FILE)"
        )
    rows = [row.ljust(width, BLOCK) for row in grid]
    published = puzzle.published or Published()
    clues = written_clues(puzzle, rows)
    texts = {
        "title": published.title,
        "author": published.author,
        "copyright": published.copyright,
        "notes": published.notes,
        **{f"the clue of {site.label}": text for site, text in clues},
    }
    texts = {name: text.replace("\x00", "") for name, text in texts.items()}  # NUL ends a text
    # a square in no entry may have no letter: `-`, as in the player's grid; a
    # rebus square shows the first letter of its answer, its answer in the rebus table
    rebus = published.rebus_texts
    block = ":" if published.diagramless else "."  # Across Lite's blocks of a diagramless
    solution = "".join(
        block if ch == BLOCK else _EMPTY if ch == OPEN else rebus.get(ch, ch)[0]
        for row in rows
        for ch in row
    )
    fill = "".join(
        (_EMPTY if published.diagramless else ".")
        if ch == BLOCK
        else (_EMPTY if ch == OPEN or ch in rebus else ch)
        for row in (puzzle.grid if progress is None else progress)
        for ch in row.ljust(width, BLOCK)
    )
    p = puz.Puzzle()  # version 1.3
    in_cp1252 = {name: _as_cp1252(text) for name, text in texts.items()}
    needs_utf8 = next((name for name, held in in_cp1252.items() if held is None), None)
    squares = _one_byte_squares(solution + fill, needs_utf8)
    solution, fill = squares[: len(solution)], squares[len(solution) :]
    if needs_utf8 is None:
        texts = {name: held or "" for name, held in in_cp1252.items()}
    else:
        p.set_version("2.0")
    p.width, p.height = width, height
    p.solution, p.fill = solution, fill
    p.title, p.author, p.copyright, p.notes = (
        texts["title"],
        texts["author"],
        texts["copyright"],
        texts["notes"],
    )
    p.clues = [texts[f"the clue of {site.label}"] for site, _ in clues]
    _write_rebus(
        p, rows, rebus, needs_utf8 is not None
    )  # GRBS and RTBL before GEXT, as Across Lite
    if published.circled:
        circled = sorted(r * width + c for r, c in published.circled if r < height and c < width)
        p.markup().set_markup_squares(circled, puz.GridMarkup.Circled)
    if published.diagramless:
        p.puzzletype = puz.PuzzleType.Diagramless
    return bytes(p.tobytes())


def _write_rebus(p: puz.Puzzle, rows: Sequence[str], rebus: dict[str, str], utf8: bool) -> None:
    """The rebus table of the squares whose solution holds a rebus mark."""
    width = p.width
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in rebus:
                continue
            text = rebus[ch]
            held = (text if text.isascii() else None) if utf8 else _as_cp1252(text)
            if held is None:
                raise OutputError(
                    f"cannot write the .puz file: the rebus square {shown(repr(text))} holds a "
                    "letter no .puz encoding writes in one byte (write an ipuz file instead: "
                    "--output ipuz FILE)"
                )
            p.rebus().add_rebus_squares(r * width + c, held)


def _one_byte_squares(squares: str, needs_utf8: str | None) -> str:
    """The grids' squares as puzpy must hold them, one byte each: cp1252 in
    version 1.3, ASCII in a version 2.0 file (chosen when the text named
    `needs_utf8` needs more than cp1252). OutputError for a letter that
    cannot be written in one byte."""
    if needs_utf8 is None:
        held = _as_cp1252(squares)
        if held is not None:
            return held
        wide = next(ch for ch in squares if _as_cp1252(ch) is None)
        reason = f"the grid holds {shown(repr(wide))}, which no .puz encoding writes in one byte"
    else:
        wide = next((ch for ch in squares if not ch.isascii()), "")
        if not wide:
            return squares
        reason = (
            f"{needs_utf8} needs more than cp1252 (a version 2.0 file, in UTF-8), where the "
            f"grid's {shown(repr(wide))} would take two bytes"
        )
    raise OutputError(
        f"cannot write the .puz file: {reason}; a .puz square holds one byte "
        "(write an ipuz file instead: --output ipuz FILE)"
    )
