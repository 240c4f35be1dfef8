"""ipuz crossword files, read and written as JSON and validated with the
`ipuz` package.

An ipuz file is a JSON object (or JSONP, `ipuz({...})`) whose `kind` names
the puzzle (`http://ipuz.org/crossword#1`, or a variant such as
`.../crossword/diagramless#1`). A crossword has `dimensions` (width,
height), `puzzle` (rows of cells: a clue number, `0` for an empty square,
`"#"` for a block, `null` for a cell outside an irregular grid, or an object
with `cell`, a given letter as `value` and a `style`, `{"shapebg":
"circle"}` for a circled square), maybe `solution` (rows: a letter, `"#"`,
`null`), `clues` (`{"Across": [[1, "text"], ...], "Down": [...]}`), and
`block` and `empty` when it marks those squares otherwise.

Reading (`parse_ipuz`): JSON errors are located (line and column); the
`ipuz` package validates the file; other kinds (word searches, sudoku...)
are refused by name. Cells outside the grid are read as blocks (and written
back as `null`); `value`s of the puzzle are givens; clues are matched to
entries by the numbers in the grid. A solution square of several letters (a
rebus) is held as a mark (pybridge.exchange.rebus_marks); several values
in a square leave the puzzle without answers (`--answers` then says why).
A given or saved square of several letters is a rebus too, held by the same
mark as the solution's rebus of the same letters.

Writing (`ipuz_text`): version 2, kind crossword#1, numbers as a printed
crossword has them, the solution, the givens and circled squares, the clues
of pybridge.exchange.written_clues, and title, author, copyright and notes
when known. The text is checked with the `ipuz` package before it is returned.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import ipuz

from pybridge.errors import InputError, shown
from pybridge.exchange import rebus_marks, rebus_text, square_letter, written_clues
from pybridge.layout import find_sites
from pybridge.model import BLOCK, OPEN, Cell, Clue, Direction, Published, Puzzle
from pybridge.wording import where

CROSSWORD_KIND = "http://ipuz.org/crossword"
WRITTEN_KIND = "http://ipuz.org/crossword#1"
DIAGRAMLESS_KIND = "http://ipuz.org/crossword/diagramless#1"
WRITTEN_VERSION = "http://ipuz.org/v2"
ORIGIN = "crossword-pybridge"
_TEXTS = ("title", "author", "copyright", "notes")
_DIRECTIONS: Mapping[str, Direction] = {"across": "across", "down": "down"}


def _json_body(text: str) -> tuple[str, int]:
    """The JSON of an ipuz text (JSONP unwrapped) and its offset in `text`."""
    body = text.strip().removeprefix("\ufeff").strip()
    if not body.startswith("{") and body.endswith(")") and "(" in body:
        body = body[body.index("(") + 1 : -1]
    return body, text.find(body)


def _json(text: str, source: str) -> dict[str, Any]:
    body, offset = _json_body(text)
    try:
        doc = json.loads(body)
    except json.JSONDecodeError as err:
        at = offset + err.pos
        line = text.count("\n", 0, at) + 1
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        shown_line = text[start : end if end >= 0 else len(text)]
        message = f"not valid JSON ({err.msg}): an ipuz file is one JSON object"
        raise InputError(message, source, line, at - start + 1, shown_line) from None
    except RecursionError:
        raise InputError("not an ipuz file: its JSON nests too deeply", source) from None
    except ValueError:  # an integer longer than int() reads (sys.get_int_max_str_digits)
        most = sys.get_int_max_str_digits()
        message = f"not an ipuz file: a number in it has more than {most:,} digits"
        raise InputError(message, source) from None
    if not isinstance(doc, dict):
        raise InputError("not an ipuz file: its JSON is not an object ({...})", source)
    return doc


def _check_kind(doc: Mapping[str, Any], source: str) -> None:
    kinds = doc.get("kind")
    if not isinstance(kinds, list) or not all(isinstance(kind, str) for kind in kinds):
        raise InputError('not an ipuz file: "kind" must be a list of puzzle kinds', source)
    if not any(kind.startswith(CROSSWORD_KIND) for kind in kinds):
        names = ", ".join(shown(kind) for kind in kinds) or "none"
        raise InputError(
            f"this ipuz file is not a crossword (its kind: {names}): only crosswords are read",
            source,
        )


def _validated(text: str, source: str) -> dict[str, Any]:
    doc = _json(text, source)
    _check_kind(doc, source)
    try:
        checked = ipuz.read(_json_body(text)[0])
    except ipuz.IPUZException as err:
        raise InputError(f"not a valid ipuz file: {shown(str(err))}", source) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as err:
        raise InputError(f"not a valid ipuz file ({shown(str(err))})", source) from None
    return dict(checked)


class _Cells:
    """The squares of an ipuz `puzzle`: blocks, outside cells, givens,
    circles and the numbers the file writes in its squares."""

    def __init__(self, doc: Mapping[str, Any], source: str) -> None:
        self.source = source
        self.width = int(doc["dimensions"]["width"])
        self.height = int(doc["dimensions"]["height"])
        self.block = doc.get("block", "#")
        self.empty = doc.get("empty", 0)
        self.rows: list[list[str]] = []
        self.omitted: set[Cell] = set()
        self.circled: set[Cell] = set()
        self.shaded: set[Cell] = set()
        self.labels: dict[int, Cell] = {}
        self.rebus: dict[Cell, str] = {}  # the player grid's rebus squares: their letters
        for r, row in enumerate(_rows(doc["puzzle"], "puzzle", self.width, self.height, source)):
            self.rows.append([self._square((r, c), value) for c, value in enumerate(row)])

    def _square(self, cell: Cell, value: Any) -> str:
        if value is None:
            self.omitted.add(cell)
            return BLOCK
        given: Any = None
        if isinstance(value, dict):
            style = value.get("style")
            if isinstance(style, dict) and style.get("shapebg") == "circle":
                self.circled.add(cell)
            if isinstance(style, dict) and (style.get("highlight") is True or style.get("color")):
                self.shaded.add(cell)
            given = value.get("value")
            value = value.get("cell", self.empty)
        if isinstance(value, str) and value == self.block:
            return BLOCK
        label = value if isinstance(value, int) else int(value) if _is_number(value) else 0
        if label > 0:
            self.labels.setdefault(label, cell)
        return self._given(cell, given)

    def _given(self, cell: Cell, given: Any) -> str:
        if not isinstance(given, str) or given in ("", self.block) or given == self.empty:
            return OPEN
        letter = square_letter(given)
        if letter is not None:
            return letter
        text = rebus_text(given)
        if text is None:
            message = (
                f"the square at {where(cell)} shows {shown(repr(given))}: a given square "
                "holds one letter or digit, or a rebus of letters and digits"
            )
            raise InputError(message, self.source)
        self.rebus[cell] = text  # its mark is set once the solution's marks are known
        return OPEN


def _is_number(value: Any) -> bool:
    return isinstance(value, str) and value.isascii() and value.isdigit()


def _rows(rows: Any, name: str, width: int, height: int, source: str) -> list[list[Any]]:
    """The rows of a grid field, InputError unless they match the dimensions."""
    if not isinstance(rows, list) or len(rows) != height:
        found = len(rows) if isinstance(rows, list) else "no"
        message = f'its "{name}" has {found} rows, but its dimensions say {height}'
        raise InputError(message, source)
    for r, row in enumerate(rows, start=1):
        if not isinstance(row, list) or len(row) != width:
            found = len(row) if isinstance(row, list) else "no"
            message = f'row {r} of its "{name}" has {found} squares, but its dimensions say {width}'
            raise InputError(message, source)
    return rows


def _solution(
    doc: Mapping[str, Any], cells: _Cells, source: str
) -> tuple[tuple[str, ...] | None, str, dict[str, str]]:
    """The published solution's rows (a rebus square holding its mark), or
    None and why it cannot be used; and the rebus marks by text."""
    if doc.get("solution") is None:
        return None, "the file has no solution", {}
    rows = _rows(doc["solution"], "solution", cells.width, cells.height, source)
    letters: list[str] = []
    rebus: dict[int, str] = {}
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            letter = _answer(value, cells)
            if isinstance(letter, tuple):  # a square that cannot be one letter
                text = rebus_text(letter[1]) if len(letter) > 1 else None
                if text is None:
                    return (
                        None,
                        (
                            f"its solution has {letter[0]} at {where((r, c))}, "
                            "and this tool places one letter or a rebus of letters per square"
                        ),
                        {},
                    )
                rebus[len(letters)] = text
                letter = OPEN
            if (letter == BLOCK) != (cells.rows[r][c] == BLOCK):
                has = "a block" if letter == BLOCK else "a letter"
                message = (
                    f"its solution has {has} at {where((r, c))}, where its puzzle grid has "
                    f"{'a square' if letter == BLOCK else 'a block'}"
                )
                raise InputError(message, source)
            letters.append(letter)
    marks = rebus_marks([*rebus.values(), *cells.rebus.values()], "".join(letters), source)
    for index, text in rebus.items():
        letters[index] = marks[text]
    width = cells.width
    answers = tuple("".join(letters[r * width : (r + 1) * width]) for r in range(cells.height))
    return answers, "", marks


def _answer(value: Any, cells: _Cells) -> str | tuple[str, ...]:
    """One solution square: a letter, BLOCK, OPEN (no letter), or a tuple
    saying why it is not one letter (and, for several, the text)."""
    if isinstance(value, dict):
        value = value.get("value", cells.empty)
    if value is None or (isinstance(value, str) and value == cells.block):
        return BLOCK
    if isinstance(value, list):
        return ("several values in one square",)
    if not isinstance(value, str) or value in ("", cells.empty):
        return OPEN
    letter = square_letter(value) if value.isprintable() else OPEN
    if letter is not None:
        return letter
    if len(value) > 1:
        return (f"the rebus square {shown(repr(value))}", value)
    return (f"{shown(repr(value))}, which is not a letter or a digit,",)


def _clues(doc: Mapping[str, Any], puzzle: Puzzle, labels: Mapping[int, Cell]) -> tuple[Clue, ...]:
    """The clues of `doc` matched to the puzzle's entries by the numbers its
    squares show (by the usual numbering when it shows none); clues in other
    directions or naming no entry are left out, and so are clues without a
    number beyond the entries of their direction."""
    sites = find_sites(puzzle)
    by_start = {(site.cells[0], site.direction): site for site in sites}
    by_number = {(site.number, site.direction): site for site in sites}
    found: dict[tuple[int, str], Clue] = {}
    clues = doc.get("clues") or {}
    for key, items in clues.items():
        direction = _DIRECTIONS.get(str(key).split(":", 1)[0].strip().lower())
        if direction is None or not isinstance(items, list):
            continue
        in_order = [site for site in sites if site.direction == direction]
        for position, item in enumerate(items):
            number, text = _clue(item)
            if number is None:
                site = in_order[position] if position < len(in_order) else None
            elif labels:
                start = labels.get(number)
                site = by_start.get((start, direction)) if start is not None else None
            else:
                site = by_number.get((number, direction))
            if site is not None and text is not None:
                found.setdefault((site.index, direction), Clue(site.number, site.direction, text))
    return tuple(found[key] for key in sorted(found))


def _clue(item: Any) -> tuple[int | None, str | None]:
    """The number and text of one ipuz clue: [n, text], {"number": n,
    "clue": text} or a bare text."""
    if isinstance(item, str):
        return None, item
    number: Any = None
    text: Any = None
    if isinstance(item, list) and len(item) == 2:
        number, text = item
    elif isinstance(item, dict):
        number = item.get("number", (item.get("numbers") or [None])[0])
        text = item.get("clue")
    if isinstance(number, str) and _is_number(number):
        number = int(number)
    return (number if isinstance(number, int) else None), (text if isinstance(text, str) else None)


def parse_ipuz(text: str, source: str = "<ipuz>") -> Puzzle:
    """The puzzle in an ipuz text (see the module docstring)."""
    doc = _validated(text, source)
    cells = _Cells(doc, source)
    rows = _with_saved(doc, tuple("".join(row) for row in cells.rows), cells, source)
    solution, unusable, marks = _solution(doc, cells, source)
    if cells.rebus:  # rebus givens (or saved rebus letters) hold the marks the solution uses
        if not marks:
            marks = rebus_marks(list(cells.rebus.values()), "".join(rows), source)
        grid = [list(row) for row in rows]
        for (r, c), text in cells.rebus.items():
            grid[r][c] = marks[text]
        rows = tuple("".join(row) for row in grid)
    puzzle = Puzzle((), rows, "ipuz", source)
    published = Published(
        solution=solution,
        unusable=unusable,
        clues=_clues(doc, puzzle, cells.labels),
        circled=frozenset(cells.circled),
        omitted=frozenset(cells.omitted),
        rebus=tuple((mark, text) for text, mark in marks.items()),
        shaded=frozenset(cells.shaded),
        diagramless=any("diagramless" in kind for kind in doc.get("kind", [])),
        **{name: doc[name] for name in _TEXTS if isinstance(doc.get(name), str)},
    )
    return Puzzle((), rows, "ipuz", source, published=published)


def _with_saved(
    doc: Mapping[str, Any], rows: tuple[str, ...], cells: _Cells, source: str
) -> tuple[str, ...]:
    """The rows with the letters of the document's `saved` grid (a solver's
    progress) in their open squares, as the player's grid of a .puz gives
    its letters."""
    if doc.get("saved") is None:
        return rows
    saved = _rows(doc["saved"], "saved", cells.width, cells.height, source)
    letters = [list(row) for row in rows]
    for r, row in enumerate(saved):
        for c, value in enumerate(row):
            if letters[r][c] == OPEN and isinstance(value, str):
                letters[r][c] = cells._given((r, c), value)
    return tuple("".join(row) for row in letters)


# ---------------------------------------------------------------- writing


def ipuz_document(
    puzzle: Puzzle, grid: Sequence[str], progress: Sequence[str] | None = None
) -> dict[str, Any]:
    """The ipuz document of `grid` (a filled grid of `puzzle`): numbers,
    givens, circles, the solution, the clues, and with `progress` (the rows
    of a solver's letters so far) the `saved` grid that holds them."""
    width, height = puzzle.width, puzzle.height
    rows = [row.ljust(width, BLOCK) for row in grid]
    framework = [row.ljust(width, BLOCK) for row in puzzle.grid]
    published = puzzle.published or Published()
    clues = written_clues(puzzle, rows)
    numbers = {site.cells[0]: site.number for site, _ in clues}
    rebus = published.rebus_texts

    def square(r: int, c: int) -> Any:
        if (r, c) in published.omitted:
            return None
        ch = framework[r][c]
        if ch == BLOCK:
            return "#"
        cell: dict[str, Any] = {"cell": numbers.get((r, c), 0)}
        if ch != OPEN:
            cell["value"] = rebus.get(ch, ch)  # a given rebus square: its letters
        style: dict[str, Any] = {}
        if (r, c) in published.circled:
            style["shapebg"] = "circle"
        if (r, c) in published.shaded:
            style["highlight"] = True
        if style:
            cell["style"] = style
        return cell if len(cell) > 1 else cell["cell"]

    def answer(r: int, c: int) -> Any:
        if (r, c) in published.omitted:
            return None
        return rebus.get(rows[r][c]) or _answer_value(rows[r][c])

    doc: dict[str, Any] = {
        "version": WRITTEN_VERSION,
        "kind": [DIAGRAMLESS_KIND if published.diagramless else WRITTEN_KIND],
        "origin": ORIGIN,
        **{name: getattr(published, name) for name in _TEXTS if getattr(published, name)},
        "dimensions": {"width": width, "height": height},
        "puzzle": [[square(r, c) for c in range(width)] for r in range(height)],
        "solution": [[answer(r, c) for c in range(width)] for r in range(height)],
        "clues": {
            "Across": [[site.number, text] for site, text in clues if site.direction == "across"],
            "Down": [[site.number, text] for site, text in clues if site.direction == "down"],
        },
    }
    if progress is not None:
        letters = [row.ljust(width, BLOCK) for row in progress]
        doc["saved"] = [
            [
                None
                if (r, c) in published.omitted
                else rebus.get(letters[r][c]) or _answer_value(letters[r][c])
                for c in range(width)
            ]
            for r in range(height)
        ]
    return doc


def _answer_value(ch: str) -> Any:
    """A square of a solution or `saved` grid: "#" blocked, 0 empty, else its letter."""
    return "#" if ch == BLOCK else 0 if ch == OPEN else ch


def ipuz_text(puzzle: Puzzle, grid: Sequence[str], progress: Sequence[str] | None = None) -> str:
    """The ipuz file of `grid` (with a solver's `progress`), checked by the `ipuz` package."""
    text = _dumps(ipuz_document(puzzle, grid, progress)) + "\n"
    ipuz.read(text)  # an invalid document here is a bug: IPUZException, exit code 4
    return text


def _dumps(value: Any, depth: int = 0) -> str:
    """JSON for people as well: an object's fields one per line, and a list
    of lists (grid rows, clues) one inner list per line."""
    inner = " " * (depth + 1)
    if isinstance(value, dict) and value and depth < 2:
        fields = [f"{inner}{json.dumps(k)}: {_dumps(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(fields) + "\n" + " " * depth + "}"
    if isinstance(value, list) and value and all(isinstance(item, list) for item in value):
        items = [inner + json.dumps(item, ensure_ascii=False) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"
    return json.dumps(value, ensure_ascii=False)
