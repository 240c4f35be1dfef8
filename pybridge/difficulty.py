"""How hard a grid is to fill, estimated before any search (`crossword
difficulty`, `estimate`).

The estimate reads features of the grid alone and, given a dictionary, of
the grid with it:

* grid: its slots (sites), their lengths, the crossings, the checked and
  unchecked cells, and a "generation complexity" after the Habr generator's
  ingredients (words, their lengths, their crossings), defined here as the
  sum over slots of length x crossings: long words crossed all along weigh
  most (a fully checked slot of n letters counts n squared);
* dictionary: per slot length, the words against the slots; per slot its
  candidates |D| (the words that fit its given letters) and, per position,
  the share of its candidates with each letter; then the expected number of
  fills, E = prod |D_s| x prod over crossings of the chance that the two
  candidates drawn at random agree there (the letters independent, words
  allowed to repeat), and the constrainedness kappa = 1 - log2 E / log2
  prod |D_s| (Gent, MacIntyre, Prosser and Walsh 1996: a grid with kappa
  near or above 1 expects at most about one fill).

The difficulty is a number on the scale of log10 of the search nodes the
default strategy (`wdeg`) needs: a grid filled without a dead end needs about
one node per slot, and the fewer fills a grid is expected to have, the more
nodes. With a dictionary it is

    difficulty = log10(slots) + WEIGHT x max(0, SHORTFALL - log10 E / slots)

(E per slot, so that grids of all sizes compare), and from the grid alone
log10(slots) plus a term for the share of long slots. The weights were fitted
on van Beek's 72 grids with scowl55 and checked against other dictionaries
(docs/benchmarks.md#difficulty). None, when a slot has no candidate at all:
the grid cannot be filled.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pybridge.bitsets import Table, tables
from pybridge.errors import UsageError
from pybridge.layout import Layout, layout_of, uncovered_cells
from pybridge.model import BLOCK, Puzzle

# Fitted on van Beek's grids x scowl55 (docs/benchmarks.md#difficulty).
WEIGHT = 4.0  # log10 nodes per unit of shortfall
SHORTFALL = 0.6  # log10 expected fills per slot below which a grid starts to cost
LONG_SLOT = 7  # grid alone: slots this long or longer are the hard ones
LONG_WEIGHT = 3.0  # grid alone: log10 nodes per unit share of long slots

Distribution = tuple[dict[str, float], ...]  # per position: letter -> share of the candidates


@dataclass(frozen=True)
class Estimate:
    """The difficulty (None: cannot be filled) and the features behind it."""

    difficulty: float | None
    features: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"difficulty": self.difficulty, "features": self.features}


# ---------------------------------------------------------------- the grid alone


def grid_features(puzzle: Puzzle, layout: Layout | None = None) -> dict[str, Any]:
    """The features of the grid alone (see the module docstring)."""
    layout = layout or layout_of(puzzle)
    lengths = Counter(site.length for site in layout.sites)
    crossings = [len(arcs) for arcs in layout.arcs]
    checked = {layout.sites[c.a].cells[c.i] for c in layout.crossings}
    open_cells = sum(len(row) - row.count(BLOCK) for row in puzzle.grid)
    slots = len(layout.sites)
    return {
        "rows": puzzle.height,
        "cols": puzzle.width,
        "blocks": puzzle.height * puzzle.width - open_cells,
        "open_cells": open_cells,
        "slots": slots,
        "lengths": {str(n): lengths[n] for n in sorted(lengths)},
        "mean_length": _rounded(sum(site.length for site in layout.sites) / slots) if slots else 0,
        "longest": max(lengths, default=0),
        "crossings": len(layout.crossings),
        "crossings_per_slot": _rounded(sum(crossings) / slots) if slots else 0,
        "checked_cells": len(checked),
        "unchecked_cells": sum(site.length for site in layout.sites) - 2 * len(checked),
        "cells_in_no_slot": len(uncovered_cells(puzzle, layout.sites)),
        "long_slots": sum(n for length, n in lengths.items() if length >= LONG_SLOT),
        "generation_complexity": sum(
            site.length * count for site, count in zip(layout.sites, crossings, strict=True)
        ),
    }


def _rounded(x: float) -> float:
    return round(x, 4)


# ---------------------------------------------------------------- with a dictionary


_SHARES: dict[tuple[int, int], tuple[Table, Distribution]] = {}
_SHARES_KEPT = 256  # (table, domain) pairs: a dictionary's lengths, and the givens of a few grids


def _letter_shares(table: Table, domain: int) -> Distribution:
    """Per position, the share of the words of `domain` with each letter
    there (kept for the tables of the last dictionaries seen)."""
    key = (id(table), domain)
    kept = _SHARES.get(key)
    if kept is not None and kept[0] is table:
        return kept[1]
    size = domain.bit_count()
    shares = tuple(
        {ch: (mask & domain).bit_count() / size for ch, mask in position.items() if mask & domain}
        for position in table.masks
    )
    if len(_SHARES) >= _SHARES_KEPT:
        _SHARES.clear()
    _SHARES[key] = (table, shares)
    return shares


def _domain(table: Table | None, givens: Sequence[tuple[int, str]]) -> int:
    """The words of `table` with the `givens` (position, letter)."""
    if table is None:
        return 0
    domain = table.full
    for position, letter in givens:
        domain &= table.masks[position].get(letter, 0)
    return domain


def _agreement(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    """The chance that a letter drawn from `a` equals one drawn from `b`."""
    if len(b) < len(a):
        a, b = b, a
    return sum(share * b.get(ch, 0.0) for ch, share in a.items())


def dictionary_features(
    puzzle: Puzzle, words: Sequence[str], layout: Layout | None = None
) -> dict[str, Any]:
    """The features of the grid with the dictionary `words`."""
    layout = layout or layout_of(puzzle)
    by_length = tables(tuple(words))
    sites = layout.sites
    domains = []
    shares: list[Distribution] = []
    for site in sites:
        givens = [
            (p, layout.givens[cell]) for p, cell in enumerate(site.cells) if cell in layout.givens
        ]
        table = by_length.get(site.length)
        domain = _domain(table, givens)
        domains.append(domain.bit_count())
        shares.append(_letter_shares(table, domain) if table is not None and domain else ())
    slot_counts = Counter(site.length for site in sites)
    counts = {n: len(by_length[n].words) if n in by_length else 0 for n in sorted(slot_counts)}
    ratios = [counts[n] / slot_counts[n] for n in counts]
    found: dict[str, Any] = {
        "words": sum(len(table.words) for table in by_length.values()),
        "words_by_length": {str(n): count for n, count in counts.items()},
        "tightest_length_ratio": _rounded(min(ratios, default=0.0)),
        "empty_slots": sum(1 for d in domains if d == 0),
        "least_candidates": min(domains, default=0),
    }
    if found["empty_slots"]:
        found.update(log10_search_space=None, log10_expected_fills=None, kappa=None)
        return found
    space = sum(math.log10(d) for d in domains)
    agree = 0.0
    chances: dict[tuple[int, int, int, int], float] = {}  # slots of one length share their shares
    for c in layout.crossings:
        a, b = shares[c.a], shares[c.b]
        key = (id(a), c.i, id(b), c.j)
        chance = chances.get(key)
        if chance is None:
            chance = chances[key] = _agreement(a[c.i], b[c.j])
        agree += math.log10(chance) if chance > 0 else -math.inf
    expected = space + agree
    found["log10_search_space"] = _rounded(space)
    found["log10_expected_fills"] = _rounded(expected) if math.isfinite(expected) else None
    found["kappa"] = _rounded(-agree / space) if space > 0 and math.isfinite(agree) else None
    return found


# ---------------------------------------------------------------- the estimate


def estimate(puzzle: Puzzle, words: Sequence[str] | None = None) -> Estimate:
    """The difficulty of filling `puzzle` from `words` (default: the puzzle's
    own words in lexicon mode; none: the grid alone) and its features."""
    layout = layout_of(puzzle)
    features = grid_features(puzzle, layout)
    if words is None and puzzle.mode == "lexicon" and puzzle.words:
        words = puzzle.words
    slots = features["slots"]
    if not slots:
        return Estimate(0.0, features)
    if not words:
        share = features["long_slots"] / slots
        return Estimate(_rounded(math.log10(slots) + LONG_WEIGHT * share), features)
    features.update(dictionary_features(puzzle, words, layout))
    expected = features["log10_expected_fills"]
    if expected is None:
        return Estimate(None, features)
    per_slot = expected / slots
    features["log10_expected_fills_per_slot"] = _rounded(per_slot)
    return Estimate(_rounded(difficulty_of(slots, per_slot)), features)


def difficulty_of(slots: int, expected_per_slot: float) -> float:
    """The calibrated difficulty from the slot count and log10 E per slot."""
    return math.log10(slots) + WEIGHT * max(0.0, SHORTFALL - expected_per_slot)


# ---------------------------------------------------------------- validation


def ranks(values: Sequence[float]) -> list[float]:
    """The rank of each value, from 1; tied values share their mean rank."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranked = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            ranked[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return ranked


def rank_correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Spearman's rho: the correlation of the ranks (None for fewer than
    two values, or when one side is all ties).

    >>> rank_correlation([1, 2, 3, 4], [10, 30, 20, 40])
    0.8
    """
    if len(xs) != len(ys):
        raise ValueError("rank_correlation needs two sequences of one length")
    if len(xs) < 2:
        return None
    a, b = ranks(xs), ranks(ys)
    mean = (len(a) + 1) / 2
    cov = sum((p - mean) * (q - mean) for p, q in zip(a, b, strict=True))
    spread = math.sqrt(sum((p - mean) ** 2 for p in a) * sum((q - mean) ** 2 for q in b))
    return None if spread == 0 else round(cov / spread, 4)


def parse_range(text: str) -> tuple[float, float]:
    """'2:3' -> (2.0, 3.0); an empty side is open: ':2.5', '3:'."""
    low_text, colon, high_text = text.partition(":")
    try:
        low = float(low_text) if low_text.strip() else float("-inf")
        high = float(high_text) if high_text.strip() else float("inf")
    except ValueError:
        low = high = float("nan")
    if not colon or not low <= high:
        raise UsageError(f"a difficulty range is LOW:HIGH (e.g. 2:3, or :2.5), not {text!r}")
    return low, high
