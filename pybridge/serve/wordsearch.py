"""Word searches made from the page (POST /api/wordsearch): the words of a
list, a size and a level, made as `crossword wordsearch make` makes them
(pybridge.service.jobs), answered as its JSON, or as the sheet to print
(PDF) or the picture (SVG)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pybridge.errors import InputError, UsageError
from pybridge.options import WordSearchOptions
from pybridge.service import jobs
from pybridge.wordsearch.model import LEVELS, Made

KINDS = {"json": "application/json", "pdf": "application/pdf", "svg": "image/svg+xml"}
MOST_WORDS = 500  # words a request may list


def made(body: Mapping[str, Any], time_limit: float) -> Made:
    """The word search a request asks for: `words` (a list), `size` ("12x12";
    none: chosen from the words), `directions` (a level: easy, medium or
    hard, or a list as the CLI takes it), `overlap` (allow or forbid),
    `seed` (the same seed makes the same puzzle) and `timeout` (at most
    `time_limit`)."""
    words = body.get("words")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise UsageError('"words" must be a list of words')
    if len(words) > MOST_WORDS:
        raise UsageError(f"at most {MOST_WORDS} words in a word search")
    size, directions = body.get("size") or None, body.get("directions", "hard")
    overlap, seed, timeout = body.get("overlap", "allow"), body.get("seed"), body.get("timeout")
    if size is not None and not isinstance(size, str):
        raise UsageError('"size" must be ROWSxCOLS, as "12x12"')
    if not isinstance(directions, str):
        raise UsageError(f'"directions" must be a level ({", ".join(LEVELS)}) or a list')
    if overlap not in ("allow", "forbid"):
        raise UsageError('"overlap" must be "allow" or "forbid"')
    if seed is not None and (type(seed) is not int or seed < 0):
        raise UsageError('"seed" must be a whole number, from 0')
    if timeout is not None and (type(timeout) not in (int, float) or timeout <= 0):
        raise UsageError('"timeout" must be a number of seconds above 0')
    limit = time_limit if timeout is None else min(float(timeout), time_limit)
    with tempfile.TemporaryDirectory(prefix="crossword-serve-") as tmp:
        path = Path(tmp, "words")
        path.write_text("\n".join(words) + "\n", encoding="utf-8")
        options = WordSearchOptions(
            str(path), size, None, directions, overlap, None, None, seed, None, limit
        )
        try:
            return jobs.wordsearch_make(jobs.wordsearch_request(options), None)
        except InputError as err:  # named as the page knows the list
            if err.source == str(path):
                err.source = "words"
            raise


def answer(body: Mapping[str, Any], time_limit: float) -> tuple[bytes | dict[str, Any], str]:
    """The made word search as `kind` asks: its JSON (as `wordsearch make
    --output json`, with the `seed` that makes it again), or a PDF (puzzle
    and answer key, `title`, `paper`) or SVG (the puzzle) of it."""
    from pybridge.wordsearch.render import made_json

    kind = body.get("kind", "json")
    if kind not in KINDS:
        raise UsageError(f'"kind" must be one of {", ".join(KINDS)}')
    search = made(body, time_limit)
    if kind == "json" or search.status != "solved":
        doc = made_json(search)
        doc["seed"] = search.request.seed
        return doc, KINDS["json"]
    if kind == "svg":
        from pybridge.wordsearch.pictures import draw_svg

        return draw_svg(search.grid, search.request.words).encode(), KINDS[kind]
    from pybridge import sheets

    paper = body.get("paper", "letter")
    if paper not in ("letter", "a4"):
        raise UsageError('"paper" must be "letter" or "a4"')
    title = body.get("title") or "Word search"
    if not isinstance(title, str):
        raise UsageError('"title" must be a string')
    sheets.require_fpdf()
    data = sheets.wordsearch_pdf(
        search.grid,
        search.request.words,
        search.placements,
        search.request.directions,
        title,
        paper,
    )
    return data, KINDS[kind]
