"""The workbench's work file (docs/serve.md#the-work-file): the JSON export
of POST /api/export (`grid` rows, `placements` with their clues, `title`,
`author`) with `workbench`, the page's state (which letters were typed,
locked or filled, the word list of an exact puzzle, the symmetry of its
blocks). The page saves it; /api/open reads it
back, and so does a plain JSON export of the API (its letters then open
as locked)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pybridge.errors import InputError

VERSION = 1
MAX_SIDE = 200  # as the page's grids (pybridge.serve.grids)
_KINDS = re.compile(r"[tlf.#]*")
_SYMMETRIES = ("rot180", "rot90", "mirror-lr", "mirror-tb", "none", "")


@dataclass(frozen=True)
class Work:
    """A work file as the page takes it back."""

    rows: tuple[str, ...]  # '#' a block, '.' an empty cell, else its letter
    kinds: tuple[str, ...] | None  # per cell: t typed, l locked, f filled, '.' none, '#' a block
    mode: str  # "exact" (its own word list) or "lexicon"
    words: tuple[str, ...] | None
    source: str  # the file's name
    symmetry: str
    title: str
    author: str
    clues: tuple[dict[str, Any], ...]  # {"number", "direction", "clue"}, in entry order

    def grid_json(self) -> dict[str, Any]:
        """The work as /api/open gives a grid (format "work")."""
        return {
            "source": self.source,
            "format": "work",
            "mode": self.mode,
            "rows": list(self.rows),
            "words": None if self.words is None else list(self.words),
            "title": self.title,
            "answers": False,
            "author": self.author,
            "clues": list(self.clues),
            "solution": None,
            "kinds": None if self.kinds is None else list(self.kinds),
            "symmetry": self.symmetry,
        }


def _is_rows(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(r, str) for r in value)


def document(data: bytes) -> dict[str, Any] | None:
    """The JSON object of a file that may be a work file (it has a `grid`
    and, unlike an ipuz file, names no `kind`), else None."""
    head = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"{"):
        return None
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or "grid" not in doc or "kind" in doc:
        return None
    return doc


def read_work(doc: dict[str, Any], source: str) -> Work:
    """The work in a work file's JSON object (see `document`); InputError
    naming `source` and what is wrong when it is damaged."""

    def refuse(message: str) -> InputError:
        return InputError(message, source)

    grid = doc["grid"]
    if not _is_rows(grid):
        raise refuse('"grid" must be a list of rows (strings of letters, "." and "#")')
    cells = [list(row) for row in grid]
    if len(cells) > MAX_SIDE or max(map(len, cells)) > MAX_SIDE:
        raise refuse(f"the grid is larger than {MAX_SIDE} x {MAX_SIDE}")
    for r, row in enumerate(cells, start=1):
        for c, ch in enumerate(row, start=1):
            if ch not in "#." and not ch.isalnum():
                raise refuse(
                    f"row {r}, column {c} of \"grid\": expected '#' (a block), '.' (empty) "
                    f"or a letter, found {json.dumps(ch)}"
                )
    bench = doc.get("workbench")
    bench = bench if isinstance(bench, dict) else {}
    version = bench.get("version", VERSION)
    if type(version) is not int or version > VERSION:
        raise refuse(f"a work file of version {version!r}: this one reads version {VERSION}")
    kinds = bench.get("kinds")
    if kinds is not None and not (
        _is_rows(kinds)
        and len(kinds) == len(cells)
        and all(
            _KINDS.fullmatch(k) and len(k) == len(row) for k, row in zip(kinds, cells, strict=False)
        )
    ):
        raise refuse('"workbench.kinds" must have a code (t, l, f, . or #) for each cell of "grid"')
    mode, words = "lexicon", None
    if bench.get("mode") == "exact":
        if not _is_rows(bench.get("words")):
            raise refuse('an exact puzzle needs its word list in "workbench.words"')
        mode, words = "exact", tuple(bench["words"])
    symmetry = bench.get("symmetry") or ""
    if symmetry not in _SYMMETRIES:
        raise refuse(f'"workbench.symmetry" must be one of {", ".join(_SYMMETRIES[:-1])}')
    return Work(
        rows=tuple(grid),
        kinds=None if kinds is None else tuple(kinds),
        mode=mode,
        words=words,
        source=source,
        symmetry=symmetry,
        title=_text(doc.get("title")),
        author=_text(doc.get("author")),
        clues=tuple(_clues(doc.get("placements"))),
    )


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _clues(placements: object) -> list[dict[str, Any]]:
    """The clues of the placements that carry one."""
    found = []
    for p in placements if isinstance(placements, list) else []:
        if (
            isinstance(p, dict)
            and type(p.get("number")) is int
            and p.get("direction") in ("across", "down")
            and isinstance(p.get("clue"), str)
            and p["clue"].strip()
        ):
            found.append({"number": p["number"], "direction": p["direction"], "clue": p["clue"]})
    return found
