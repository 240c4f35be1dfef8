"""Fill-one-entry suggestions: the words of one entry with which the whole
grid still fills (POST /api/fill with "suggest": true).

The candidate list (pybridge.serve.candidates) shows the words that fit an
entry and which of them the cheap proof layers rule out; whether a word
leaves the rest of the grid a fill takes a search. Here the words the
layers leave, the best scored first, are placed in the entry one at a time
and the grid is searched for a fill (as Autofill searches it), each search
within a share of the time limit, until WANTED words are found that fill,
or the words or the time run out. A word whose search proves that no fill
is left is said so, with the proof's reason; one whose search ran out of
its share stays unknown. When every word the layers leave is refuted, the
grid as it stands cannot be filled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pybridge.model import Cell, Direction, Puzzle, fast_new
from pybridge.options import SearchOptions
from pybridge.serve.api import Told
from pybridge.serve.candidates import candidate_list
from pybridge.solver import run

WANTED = 5  # words that fill, found before the suggestions stop
MOST_TRIED = 1000  # words of the entry tried, at most
SHARE = 0.2  # the share of the time limit one word's search may take
LEAST_SECONDS = 1.0  # ... but at least this long (or what is left)


def with_word(puzzle: Puzzle, cells: list[list[int]], word: str) -> Puzzle:
    """`puzzle` with `word` written in `cells` (the words were checked when
    the dictionary was read: no need to check them again per word)."""
    rows = [list(row) for row in puzzle.grid]
    for (r, c), letter in zip(cells, word, strict=True):
        rows[r][c] = letter
    return fast_new(Puzzle, **{**puzzle.__dict__, "grid": tuple("".join(row) for row in rows)})


def entry_suggestions(
    puzzle: Puzzle,
    cell: Cell,
    direction: Direction,
    search: SearchOptions,
    timeout: float,
    tell: Callable[[str], None],
    wanted: int = WANTED,
) -> dict[str, Any]:
    """The words of the entry at `cell` (in `direction`) tried one by one,
    within `timeout` seconds in all: each with `fills` true (and the fill
    found, its `grid`), false (and the `reason` no fill is left) or null
    (its search ran out of time). `status` is solved when some word fills,
    unsolvable when every word the proof layers left was refuted (or they
    proved the grid unfillable: `verdict`), else timeout."""
    started = time.perf_counter()
    score = None if puzzle.scores is None else puzzle.scores.score
    listed = candidate_list(puzzle, cell, direction, MOST_TRIED, score=score)
    site = listed["site"]
    alive = [found for found in listed["candidates"] if not found["dead"]]
    tried: list[dict[str, Any]] = []
    filling = 0
    for k, candidate in enumerate(alive):
        left = timeout - (time.perf_counter() - started)
        if filling >= wanted or left <= 0:
            break
        word = candidate["word"]
        what = f"trying {word} ({k + 1} of {len(alive)}; {filling} that fill so far)"
        tell(what)
        share = min(left, max(LEAST_SECONDS, timeout * SHARE))
        asked = replace(search, timeout=share, limit=1, count=False, unique=False, maximize=None)
        line = Told(tell, what)
        outcome = run(with_word(puzzle, site["cells"], word), asked, progress=line.watch)
        tried.append(_tried(candidate, outcome))
        filling += outcome.status == "solved"
    refuted = len(tried) == len(alive) and all(t["fills"] is False for t in tried)
    every = listed["alive"] is not None and listed["alive"] == len(alive)  # none left untried
    status = "solved" if filling else "unsolvable" if refuted and every else "timeout"
    if listed["verdict"] is not None:
        status = "unsolvable"
    return {
        "status": status,
        "site": site,
        "words": tried,
        "alive": listed["alive"],
        "wanted": wanted,
        "verdict": listed["verdict"],
        "seconds": round(time.perf_counter() - started, 3),
    }


def _tried(candidate: dict[str, Any], outcome: Any) -> dict[str, Any]:
    """One word's trial, for the page."""
    found: dict[str, Any] = {"word": candidate["word"]}
    if "score" in candidate:
        found["score"] = candidate["score"]
    found["fills"] = {"solved": True, "unsolvable": False}.get(outcome.status)
    if outcome.status == "solved":
        found["grid"] = list(outcome.solutions[0].grid)
    elif outcome.status == "unsolvable":
        found["reason"] = outcome.reason
    stats = outcome.stats
    found["nodes"] = None if stats is None else stats.nodes
    found["seconds"] = None if stats is None else round(stats.seconds, 3)
    return found
