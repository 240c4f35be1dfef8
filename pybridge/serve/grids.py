"""The grid the page is editing, as it sends it (`grid`: rows of '#'
blocked, '.' open, a letter in a cell): the puzzle the candidate lists
search (from the words scoring `min-score` or more, when it is given), the
scores of its dictionaries, and its exports (pictures, JSON, .puz and ipuz)
for POST /api/export."""

from __future__ import annotations

import json
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from pybridge.clues import Details, clued
from pybridge.curation import request_words
from pybridge.errors import InputError, UsageError
from pybridge.exchange import EXCHANGE_FORMATS
from pybridge.lexicon import Dictionary
from pybridge.model import BLOCK, OPEN, Cell, Published, Puzzle, fast_new
from pybridge.readers import read_bytes, read_exchange, require_site, sniff_exchange
from pybridge.scores import Scores
from pybridge.serve import workfile
from pybridge.serve.api import sources
from pybridge.serve.files import Files
from pybridge.service import clueing
from pybridge.solver import at_least

MAX_SIDE = 200  # rows or columns of a grid the page sends


def page_rows(body: Mapping[str, Any], exact: bool) -> tuple[str, ...]:
    """The rows of the grid the page sends (`grid`: '#' blocked, '.' open, a
    letter in a cell; in a grid filled from a dictionary, letters are upper
    case), padded to one width. A bad cell is an InputError naming its row
    and column, as in a grid file."""
    rows = body.get("grid")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise UsageError('"grid" must be a list of rows (strings)')
    if len(rows) > MAX_SIDE or max(map(len, rows)) > MAX_SIDE:
        raise UsageError(f"the grid is larger than {MAX_SIDE} x {MAX_SIDE}")
    for r, row in enumerate(rows, start=1):
        bad = next((c for c, ch in enumerate(row) if not _cell_ok(ch, exact)), None)
        if bad is not None:
            letter = "a letter or a digit" if exact else "an upper-case letter"
            message = f"expected '#' (blocked), '.' (open) or {letter}"
            raise InputError(message, "grid", r, bad + 1, row)
    width = max(map(len, rows))
    return tuple(row.ljust(width, BLOCK) for row in rows)


def page_puzzle(body: Mapping[str, Any], files: Files) -> Puzzle:
    """The puzzle the page is editing: its `grid` (page_rows) with `words`
    (a word list: an exact puzzle) or `dict` (dictionary names: a grid to
    fill from them, only their words scoring `min-score` or more when it is
    given, as `solve --min-score` keeps them)."""
    words = body.get("words")
    grid = page_rows(body, words is not None)
    least = body.get("min-score")
    if words is not None:
        if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
            raise UsageError('"words" must be a list of words')
        puzzle = require_site(Puzzle(tuple(words), grid, "fillin", "grid"))
        return puzzle if least is None else at_least(puzzle, least)  # solve's refusal
    dictionary = _dictionary(body, files)
    puzzle = require_site(_lexicon_puzzle(dictionary.words, grid, dictionary.scores))
    return puzzle if least is None else _at_least(puzzle, dictionary, least)


def _lexicon_puzzle(words: tuple[str, ...], grid: tuple[str, ...], scores: Scores | None) -> Puzzle:
    """A grid to fill from `words`, made without Puzzle's check of every
    word, which costs tens of ms for a big dictionary at each keystroke: the
    dictionary passed it when it was read, and page_rows has checked the grid."""
    fields = {"format": "grid", "source": "grid", "row_widths": (), "mode": "lexicon"}
    return fast_new(Puzzle, words=words, grid=grid, scores=scores, **fields)


# The words of the last few (dictionary, min-score) pairs: a candidate list
# is asked for at each keystroke, and cutting a big dictionary takes a while.
_KEPT: dict[tuple[int, str], tuple[Dictionary, tuple[str, ...], Scores | None]] = {}
_KEPT_MOST = 8
_kept_lock = threading.Lock()


def _at_least(puzzle: Puzzle, dictionary: Dictionary, least: object) -> Puzzle:
    """solver.at_least(puzzle, least) - the words scoring `least` or more,
    by solve's rules and with its messages - for `puzzle` filled from
    `dictionary`, kept for the next keystrokes."""
    key = (id(dictionary), repr(least))
    with _kept_lock:
        found = _KEPT.get(key)
    if found is None or found[0] is not dictionary:
        cut = at_least(puzzle, least)
        found = (dictionary, cut.words, cut.scores)
        with _kept_lock:
            if len(_KEPT) >= _KEPT_MOST:
                _KEPT.clear()
            _KEPT[key] = found
    return _lexicon_puzzle(found[1], puzzle.grid, found[2])


def page_scores(body: Mapping[str, Any], files: Files) -> Scores | None:
    """The word scores of the page's dictionaries, when they are scored
    (Dictionary.scores, as the dictionary reader keeps them), else None."""
    if body.get("words") is not None:
        return None
    return _dictionary(body, files).scores


def page_picture(body: Mapping[str, Any]) -> tuple[Puzzle, tuple[str, ...]]:
    """The page's grid as a framework (letters left out) and its letters."""
    grid = page_rows(body, exact=True)
    framework = tuple("".join(OPEN if ch != BLOCK else ch for ch in row) for row in grid)
    return Puzzle((), framework, "grid", "grid", mode="lexicon"), grid


EXPORTS = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "json": "application/json",
    "puz": "application/x-crossword",
    "ipuz": "application/json",
    "pdf": "application/pdf",
}


def export(body: Mapping[str, Any], files: Files) -> tuple[bytes, str, str]:
    """POST /api/export: the page's grid as a file to download (its bytes,
    media type and name): a picture (SVG, PNG: the marked cells shaded),
    JSON (rows and placements, as in the CLI's JSON), or a .puz or ipuz
    crossword (with the clues, title and author of the file it was opened
    from, `original`, where its entries are that file's own answers). The
    page's own `title`, `author` and `clues` go into JSON, .puz, ipuz and PDF
    (the printable sheet, pybridge.sheets, on `paper` letter or a4)
    (and into JSON its `workbench`: a work file, pybridge.serve.workfile);
    with `progress`, a .puz or ipuz holds the grid's letters in the
    player's grid too (a solver's progress), not only in the solution."""
    from pybridge import acrosslite, ipuzfile, pictures
    from pybridge.layout import find_sites

    kind = body.get("kind")
    if not isinstance(kind, str) or kind not in EXPORTS:
        raise UsageError(f'"kind" must be one of {", ".join(EXPORTS)}')
    puzzle, grid = page_picture(body)
    texts = page_texts(body)
    name, media = f"crossword.{kind}", EXPORTS[kind]
    if kind == "json":
        clues = texts.get("clues", {})
        placements = []
        for site in find_sites(puzzle):
            placement = {
                "number": site.number,
                "direction": site.direction,
                "row": site.row,
                "col": site.col,
                "length": site.length,
                "word": "".join(grid[r][c] for r, c in site.cells),
            }
            if "clues" in texts:
                placement["clue"] = clues.get((site.number, site.direction), "")
            placements.append(placement)
        document: dict[str, Any] = {"grid": list(grid), "placements": placements}
        document.update({key: texts[key] for key in ("title", "author") if key in texts})
        if body.get("workbench") is not None:  # the page's state: a work file, checked as read
            document["workbench"] = body["workbench"]
            try:
                workfile.read_work(document, "workbench")
            except InputError as err:
                raise UsageError(f'"workbench": {err.message}') from None
        return json.dumps(document, ensure_ascii=False, indent=2).encode(), media, name
    if kind == "pdf":  # the printable sheet: the puzzle page, and the solution's when filled
        paper = body.get("paper", "letter")
        if paper not in ("letter", "a4"):
            raise UsageError('"paper" must be "letter" or "a4"')
        puzzle = _published(_original(body.get("original"), files, puzzle) or puzzle, grid, texts)
        filled = any(ch not in (BLOCK, OPEN) for row in grid for ch in row)
        return clueing.sheet_pdf(puzzle, grid, paper, solved=filled), media, name
    if kind in EXCHANGE_FORMATS:
        puzzle = _published(_original(body.get("original"), files, puzzle) or puzzle, grid, texts)
        progress = grid if flag(body, "progress") else None
        if kind == "puz":
            return acrosslite.puz_bytes(puzzle, grid, progress), media, name
        return ipuzfile.ipuz_text(puzzle, grid, progress).encode(), media, name
    marked = cells(body.get("marked")) or ()
    if kind == "svg":
        return pictures.draw_svg(puzzle, grid, marked).encode(), media, name
    with tempfile.TemporaryDirectory(prefix="crossword-serve-") as tmp:
        path = Path(tmp, name)
        pictures.draw_png(puzzle, grid, path, marked)
        return path.read_bytes(), media, name


def suggestions(body: Mapping[str, Any]) -> dict[str, Any]:
    """POST /api/suggest: a clue suggested for each of `words` (WordNet's,
    pybridge.suggest; null when it has none that does not give the word away)."""
    from pybridge import suggest

    words = body.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) and w for w in words):
        raise UsageError('"words" must be a list of words')
    if len(words) > 2000:
        raise UsageError("at most 2000 words at a time")
    if not suggest.available():
        raise UsageError(
            "no clue suggestions here: they need WordNet "
            "(Debian's wordnet-base, which setup.sh installs)"
        )
    return {"suggestions": clueing.suggestions(words)}


def page_texts(body: Mapping[str, Any]) -> dict[str, Any]:
    """The page's `title` and `author` (strings) and `clues` (a list of
    {"number", "direction", "clue"}, as {(number, direction): text}), those
    the body gives."""
    texts: dict[str, Any] = {}
    for key in ("title", "author"):
        if body.get(key) is not None:
            if not isinstance(body[key], str):
                raise UsageError(f'"{key}" must be a string')
            texts[key] = body[key]
    given = body.get("clues")
    if given is not None:
        message = (
            '"clues" must be a list of {"number": N, "direction": "across" or "down", "clue": text}'
        )
        if not isinstance(given, list):
            raise UsageError(message)
        clues = {}
        for item in given:
            if not (
                isinstance(item, dict)
                and type(item.get("number")) is int
                and item.get("direction") in ("across", "down")
                and isinstance(item.get("clue"), str)
            ):
                raise UsageError(message)
            clues[(item["number"], item["direction"])] = item["clue"]
        texts["clues"] = clues
    return texts


def _published(puzzle: Puzzle, grid: tuple[str, ...], texts: Mapping[str, Any]) -> Puzzle:
    """`puzzle` publishing the page's title, author and clues, where the
    page gives them, by the commands' rules (pybridge.clues.clued):
    the page's clue for an entry, else the opened file's own where the word
    is still its answer; an entry without either gets the placeholder
    (`7-Across`) in .puz and ipuz, its length in the PDF."""
    if not texts:
        return puzzle
    details = Details(title=texts.get("title"), author=texts.get("author"))
    if "clues" not in texts:
        return replace(puzzle, published=details.apply(puzzle.published or Published()))
    return clued(puzzle, grid, entries=texts["clues"], details=details)


def flag(body: Mapping[str, Any], key: str) -> bool:
    """A true-or-false key of a request body (false when absent)."""
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise UsageError(f'"{key}" must be true or false')
    return value


def _original(value: object, files: Files, framework: Puzzle) -> Puzzle | None:
    """The .puz or ipuz crossword the grid was opened from (`original`: a
    body as /api/open takes it), when its blocks are still the grid's."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise UsageError('"original" must name the file the grid came from, as /api/open does')
    with sources(value, files) as found:
        data = read_bytes(found.puzzle)
        exchange = sniff_exchange(data)
        if exchange is None:
            return None
        puzzle = read_exchange(data, found.puzzle, exchange)
    blocks = [[ch == BLOCK for ch in row] for row in framework.grid]
    same = [[ch == BLOCK for ch in row] for row in puzzle.grid] == blocks
    return puzzle if same else None


def cells(value: object) -> tuple[Cell, ...] | None:
    """A list of cells [row, col] from a request body (None: none given)."""
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(c, list) and len(c) == 2 and all(type(x) is int for x in c) for c in value
    ):
        raise UsageError("cells must be given as a list of [row, col] pairs")
    return tuple((row, col) for row, col in value)


def _dictionary(body: Mapping[str, Any], files: Files) -> Dictionary:
    """The served dictionaries the body names, less its "ban" words and
    with its "prefer" words scoring more (pybridge.curation)."""
    ban, prefer = request_words(body.get("ban"), "ban"), request_words(body.get("prefer"), "prefer")
    return files.dictionary(_names(body.get("dict")), ban, prefer)


def _names(value: object) -> list[str]:
    if not value:
        raise UsageError('choose a dictionary: "dict" names none (served: see /api/info)')
    return value if isinstance(value, list) else [str(value)]


def _cell_ok(ch: str, exact: bool) -> bool:
    return ch in (BLOCK, OPEN) or (ch.isalnum() if exact else ch.isalpha() and ch == ch.upper())
