"""cubes: the first decisions of wdeg's search, enumerated, split a search
into disjoint subproblems (cube and conquer), specified in
docs/search.md#cubes; prolog/cubes.pl is its twin, step for step.

The split is the prefix of one wdeg search (the first stream's, from the
seed): the root propagated, then DEPTH levels of its choice of site
(|D| / wdeg over every open site) and its order of words (the draw, the
look-ahead, the scores), each word placed with full propagation. A
placement whose propagation fails is a cube *refuted* at the split; every
other path DEPTH placements deep (or shorter, when no site is left open) is
a *cube*: the set of its placements. Two cubes part at the first level where
their paths differ, where one site holds two different words, so no fill is
in both; each fill is in one, as propagation removes no word of a fill. So
the cubes' fills are the grid's fills, each once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pybridge.search.kernel import Counters, Request
from pybridge.search.wdeg import Search

Path = tuple[tuple[int, str], ...]  # (site, word) per level, in the order chosen


@dataclass(frozen=True)
class Split:
    """What a split found: the cubes (their paths, in the search's order),
    the paths whose last placement failed to propagate (refuted at the
    split), whether the propagated root failed (no cube at all), and the
    nodes and backtracks it counted."""

    cubes: list[Path]
    refuted: list[Path]
    root_failed: bool
    nodes: int
    backtracks: int


def split(request: Request, depth: int, counters: Counters | None = None) -> Split:
    """Split the wdeg search of `request` (its words, layout, seed and
    scores) `depth` decisions deep."""
    counters = counters if counters is not None else Counters()
    search = Search(
        request.words, request.layout, counters, request.seed, request.settled, request.scores
    )
    cubes: list[Path] = []
    refuted: list[Path] = []
    if not _root(search):
        return Split(cubes, refuted, True, counters.nodes, counters.backtracks)
    for path, failed in _leaves(search, depth, ()):
        (refuted if failed else cubes).append(path)
    return Split(cubes, refuted, False, counters.nodes, counters.backtracks)


def _root(search: Search) -> bool:
    """The root propagated, every site queued in site order (or the proofs'
    fixpoint, when handed over); False if it fails."""
    sites = list(range(len(search.lengths)))
    search.recount()  # the weights a seed drew count from the first choice
    if search.settled is not None:
        search.dom = [domain for domain, _ in search.settled.supports]
        search.sup = search.supports(search.settled)
        return True
    search.sup = [None] * len(sites)
    return search.propagate(sites)


def _leaves(search: Search, depth: int, path: Path) -> Iterator[tuple[Path, bool]]:
    """Each path below `path`, `depth` levels more: (path, False) for a
    cube, (path, True) for a placement refuted by its propagation."""
    left = [s for s, is_open in enumerate(search.open) if is_open]
    if depth == 0 or not left:
        yield path, False
        return
    s = search.choose(left)
    words = search.tables[search.lengths[s]].words
    for k in search.order(s):
        search.counters.node()
        saved = search.snapshot()
        try:
            here = (*path, (s, words[k]))
            if search.place(s, k):
                yield from _leaves(search, depth - 1, here)
            else:
                yield here, True
        finally:
            search.unplace(s, k, saved)
