"""Word searches for the terminal and for scripts: the text of a puzzle and
of what `solve` found, and the JSON documents of `make` and `solve` (a
contract: extend, never break; docs/wordsearch.md#json).
"""

from __future__ import annotations

import textwrap
from typing import Any

from pybridge.wording import plural
from pybridge.wordsearch.model import Found, Made, WordPlacement

WRAP = 72  # the word list's width in characters, at least


def grid_text(grid: tuple[str, ...]) -> str:
    """The rows with a space between letters (holes stay '#'): square cells
    on a terminal, and `solve` reads it back."""
    return "\n".join(" ".join(row) for row in grid)


def words_text(words: tuple[str, ...], width: int) -> str:
    return textwrap.fill("  ".join(words), width=max(width, WRAP), break_on_hyphens=False)


def made_text(made: Made) -> str:
    """The puzzle and its word list, or the verdict."""
    if made.status == "solved":
        width = 2 * len(made.grid[0]) - 1 if made.grid else WRAP
        return f"{grid_text(made.grid)}\n\n{words_text(made.request.words, width)}"
    if made.status == "timeout":
        limit = made.request.timeout
        return f"time limit of {limit:g} s reached before a puzzle was made"
    proof = made.proof
    assert proof is not None  # an unsolvable answer carries its proof
    return f"unsolvable (layer: {proof.layer})\n{proof.reason}"


def stats_text(made: Made) -> str:
    s = made.stats
    return (
        f"stats: engine={s.engine} nodes={s.nodes} backtracks={s.backtracks} "
        f"seconds={s.seconds:.6f} seed={s.seed}"
    )


def placement_json(placement: WordPlacement) -> dict[str, Any]:
    return {
        "word": placement.word,
        "row": placement.row,
        "col": placement.col,
        "direction": placement.direction,
        "cells": [list(cell) for cell in placement.cells],
    }


def made_json(made: Made) -> dict[str, Any]:
    """`make --output json`: status, grid, placements, then reason and proof
    when unsolvable, and stats."""
    doc: dict[str, Any] = {
        "status": made.status,
        "grid": list(made.grid),
        "placements": [placement_json(p) for p in made.placements],
    }
    if made.proof is not None:
        doc["reason"] = made.proof.reason
        doc["proof"] = {
            "layer": made.proof.layer,
            "reason": made.proof.reason,
            "words": list(made.proof.words),
        }
    s = made.stats
    doc["stats"] = {
        "engine": s.engine,
        "nodes": s.nodes,
        "backtracks": s.backtracks,
        "seconds": s.seconds,
        "seed": s.seed,
    }
    return doc


def found_json(found: Found) -> dict[str, Any]:
    """`solve --output json`: every occurrence, and the words found nowhere."""
    return {
        "found": [placement_json(p) for p in found.found],
        "missing": list(found.missing),
    }


def found_text(found: Found) -> str:
    """A line per occurrence (rows and columns from 1) or per missing word,
    in listed order, and a count."""
    width = max(map(len, found.words), default=0)
    lines = []
    for word in found.words:
        places = [p for p in found.found if p.word == word]
        lines += [
            f"{word:<{width}}  {p.direction:<2}  from row {p.row + 1}, column {p.col + 1}"
            for p in places
        ] or [f"{word:<{width}}  not found"]
    hits = len(found.words) - len(found.missing)
    summary = f"{hits} of {plural(len(found.words), 'word')} found"
    if found.missing:
        summary += f"; missing: {', '.join(found.missing)}"
    return "\n".join([*lines, summary])
