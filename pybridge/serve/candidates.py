"""The words that fit the site under the cursor, and which of them the
proof layers rule out.

A candidate fits the site's letters (the bitset tables of pybridge.bitsets).
The cheap proof layers (pybridge.proofs.prove_settling: no-fit, hall,
letter propagation) then run on the whole grid as it is: when they prove it
unfillable, that verdict and its core come back instead of marks; otherwise
their propagation's fixpoint gives each site the words that some fill could
still give it, and a candidate outside it is marked, with the crossing that
rules it out (at a fixpoint, every word the propagation removed lacks a
letter some crossing site can have). A word the grid holds already as often
as it is listed is marked too: a fill uses each word once.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from pybridge import proofs
from pybridge.bitsets import Settled, Table, members, tables
from pybridge.errors import UsageError
from pybridge.layout import Layout, Site, layout_of
from pybridge.model import BLOCK, OPEN, Cell, Direction, Puzzle
from pybridge.wording import where

DEFAULT_LIMIT = 100  # candidates listed, at most
PROOF_SECONDS = 2.0  # the proof layers' time on one keystroke; past it, no marks


def site_at(layout: Layout, cell: Cell, direction: Direction) -> Site | None:
    """The site through `cell` in `direction`, else the one across it, else None."""
    through = [site for site in layout.sites if cell in site.cells]
    return next((s for s in through if s.direction == direction), None) or next(iter(through), None)


def _fitting(table: Table | None, puzzle: Puzzle, site: Site) -> int:
    """The words of the table that agree with the site's letters."""
    if table is None:
        return 0
    fit = table.full
    for k, (r, c) in enumerate(site.cells):
        ch = puzzle.grid[r][c]
        if ch not in (BLOCK, OPEN):
            fit &= table.masks[k].get(ch, 0)
    return fit


def _first(words: int, n: int) -> list[int]:
    """The indices of the first n words of a set."""
    found: list[int] = []
    while words and len(found) < n:
        low = words & -words
        found.append(low.bit_length() - 1)
        words ^= low
    return found


def _placed(puzzle: Puzzle, layout: Layout, site: Site) -> dict[str, list[Site]]:
    """The words the other sites hold whole, and where."""
    held: dict[str, list[Site]] = {}
    for other in layout.sites:
        letters = "".join(puzzle.grid[r][c] for r, c in other.cells)
        if other is not site and OPEN not in letters:
            held.setdefault(letters, []).append(other)
    return held


def _ruled_out(word: str, site: Site, layout: Layout, settled: Settled) -> str:
    """Why the propagation took `word` from `site`: a crossing site whose
    words have no letter of `word` at the shared cell."""
    for i, other, j, _ in layout.arcs[site.index]:
        letters = settled.supports[other][1][j]
        if word[i] not in letters:
            crossing = layout.sites[other]
            return f"no word left for {crossing.label} has {word[i]} at {where(site.cells[i])}"
    return "the letters propagated through the crossings leave it no fill"


WordScore = Callable[[str], Decimal]  # a word's score, in a scored word list


def _ordered(table: Table, words: int, limit: int, score: WordScore | None) -> list[int]:
    """The first `limit` words of a set: the best scored, else in the list's order."""
    if score is None:
        return _first(words, limit)
    return heapq.nsmallest(limit, members(words), key=lambda u: (-score(table.words[u]), u))


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def candidate_list(
    puzzle: Puzzle,
    cell: Cell,
    direction: Direction,
    limit: int = DEFAULT_LIMIT,
    timeout: float = PROOF_SECONDS,
    score: WordScore | None = None,
) -> dict[str, Any]:
    """The candidates of the site at `cell` (see the module docstring), the
    words some fill can still use first, at most `limit` of them; within
    each group the best `score`d first (each listed with its score), or
    without scores in the word list's order."""
    started = time.perf_counter()
    layout = layout_of(puzzle)
    site = site_at(layout, cell, direction)
    if site is None:
        raise UsageError(f"no word runs through {where(cell)}")
    proof, settled = proofs.prove_settling(puzzle, layout=layout, timeout=timeout)
    # the proofs' own tables when they kept them (a big word list costs a hash to look up)
    table = (settled.tables if settled else tables(tuple(puzzle.words))).get(site.length)
    fitting = settled.start[site.index] if settled else _fitting(table, puzzle, site)
    alive = fitting
    if proof is not None:
        alive = 0
    elif settled is not None:
        alive = settled.supports[site.index][0]
    held = _placed(puzzle, layout, site)
    listed: list[dict[str, Any]] = []
    if table is not None:
        for u in _ordered(table, alive, limit, score) + _ordered(
            table, fitting & ~alive, limit, score
        ):
            word = table.words[u]
            why = None
            if proof is not None:
                why = "the grid cannot be filled as it is"
            elif not alive >> u & 1:
                assert settled is not None
                why = _ruled_out(word, site, layout, settled)
            elif len(held.get(word, ())) >= table.copies[u]:
                why = f"already in the grid at {held[word][0].label}"
            listed.append({"word": word, "dead": why is not None, "why": why})
            if score is not None:
                listed[-1]["score"] = _number(score(word))
    listed.sort(key=lambda candidate: candidate["dead"])  # stable: the list's order kept
    return {
        "site": _site_json(puzzle, site),
        "fitting": fitting.bit_count(),
        "alive": None if proof is None and settled is None else alive.bit_count(),
        "candidates": listed[:limit],
        "verdict": None if proof is None else verdict_json(proof),
        "sites": _counts(puzzle, layout, proof, settled),
        "seconds": round(time.perf_counter() - started, 4),
    }


def _counts(
    puzzle: Puzzle, layout: Layout, proof: proofs.Proof | None, settled: Settled | None
) -> list[dict[str, Any]]:
    """Every site with the number of words that fit its letters and of
    those some fill can still use (null when the proof layers ran out of
    time, or proved the grid unfillable and the site is not in the core):
    the page shades the entries with few."""
    found = (settled.tables if settled else tables(tuple(puzzle.words))) if layout.sites else {}
    core = set() if proof is None else {(s.number, s.direction) for s in proof.core}
    counts = []
    for site in layout.sites:
        fitting = (
            settled.start[site.index] if settled else _fitting(found.get(site.length), puzzle, site)
        )
        alive = None if settled is None else settled.supports[site.index][0].bit_count()
        counts.append(
            {
                "number": site.number,
                "direction": site.direction,
                "fitting": fitting.bit_count(),
                # a proof: its core's sites have none; the others are not known
                "alive": (0 if (site.number, site.direction) in core else None)
                if proof is not None
                else alive,
            }
        )
    return counts


def _site_json(puzzle: Puzzle, site: Site) -> dict[str, Any]:
    return {
        "number": site.number,
        "direction": site.direction,
        "row": site.row,
        "col": site.col,
        "length": site.length,
        "pattern": "".join(puzzle.grid[r][c] for r, c in site.cells),
        "cells": [list(cell) for cell in site.cells],
    }


def verdict_json(proof: proofs.Proof) -> dict[str, Any]:
    """A proof for the page: its layer, the reason in words (the sentence
    `check` prints), the core's sites and their cells."""
    return {
        "layer": proof.layer,
        "reason": proofs.proof_sentence(proof),
        "core": [{"number": s.number, "direction": s.direction} for s in proof.core],
        "cells": sorted({cell for site in proof.core for cell in site.cells}),
        "minimal": proof.minimal,
    }
