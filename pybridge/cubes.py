"""Cube and conquer, the split: the first decisions of a puzzle's wdeg
search, in either engine, enumerate disjoint subproblems (cubes) that
together hold every fill (docs/search.md#cubes). A cube is a set of
placements; the engines take it as givens: its words' letters written into
the grid, a puzzle of its own (cube_puzzle), searched as any other.

The engines' split is pybridge.search.cubes (Python) and prolog/cubes.pl
(Prolog), the same cubes in the same order with the same counts. Running
the cubes (on one machine or many), the journal and the verdict are the
service layer's (pybridge.service.cubes)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pybridge import bridge
from pybridge.bitsets import tables
from pybridge.engines import choose_engine
from pybridge.errors import EngineError, UsageError
from pybridge.layout import Layout, layout_of
from pybridge.model import BLOCK, Puzzle
from pybridge.search import cubes as python_cubes
from pybridge.search.kernel import Counters, Request, SearchTimeout, deadline
from pybridge.solver import check_seed

STRATEGY = "wdeg"  # the search whose prefix the split is
MOST_CUBES = 1_000_000  # a split asked for more is refused (memory, journal)
MOST_DEPTH = 64

Placement = tuple[int, str]  # (site index, word)


@dataclass(frozen=True)
class Cube:
    """One subproblem: its number (from 0, in the search's order) and its
    placements, (site index, word) in the order the search made them."""

    number: int
    placements: tuple[Placement, ...]

    def label(self, layout: Layout) -> str:
        """'1-Across=WORD, 3-Down=OTHER': the placements by clue name."""
        return ", ".join(f"{layout.sites[s].label}={w}" for s, w in self.placements)


@dataclass(frozen=True)
class Split:
    """A puzzle's split: its cubes, the paths refuted by propagation alone
    (counted and dropped), whether the propagated root failed (then there
    is no cube and no fill), the split's own nodes, backtracks and seconds,
    the engine, the seed and the depth, and `status` "split" or "timeout"."""

    status: str
    cubes: tuple[Cube, ...]
    refuted: tuple[tuple[Placement, ...], ...]
    root_failed: bool
    depth: int
    seed: int | None
    engine: str
    nodes: int
    backtracks: int
    seconds: float

    @property
    def proved_unfillable(self) -> bool:
        """Nothing is left to search: the split alone shows there is no fill."""
        return self.status == "split" and not self.cubes


def request_for(puzzle: Puzzle, layout: Layout, seed: int | None) -> Request:
    """The wdeg request whose prefix the split is (its words, scores, seed)."""
    scores = None if puzzle.scores is None else puzzle.scores.values(puzzle.words)
    return Request(layout, puzzle.words, STRATEGY, seed=seed, scores=scores)


def split(
    puzzle: Puzzle,
    depth: int,
    *,
    engine: str | None = None,
    seed: int | None = None,
    timeout: float | None = None,
) -> Split:
    """The cubes of `puzzle`'s wdeg search (from `seed`), `depth`
    decisions deep, found by `engine`; within `timeout` seconds (status
    "timeout" and no cube when it passes)."""
    if not 0 <= depth <= MOST_DEPTH:
        raise UsageError(f"a split's depth is from 0 to {MOST_DEPTH}, not {depth}")
    check_seed(STRATEGY, seed)
    chosen = choose_engine(engine)
    started = time.perf_counter()
    layout = layout_of(puzzle)
    request = request_for(puzzle, layout, seed)
    if chosen == "python":
        found = _python_split(request, depth, timeout)
    else:
        found = _prolog_split(request, depth, timeout)
    status, paths, refuted, root_failed, nodes, backtracks = found
    cubes = tuple(Cube(i, path) for i, path in enumerate(paths))
    seconds = time.perf_counter() - started
    return Split(
        status, cubes, tuple(refuted), root_failed, depth, seed, chosen, nodes, backtracks, seconds
    )


def split_into(
    puzzle: Puzzle,
    at_least: int,
    *,
    engine: str | None = None,
    seed: int | None = None,
    timeout: float | None = None,
) -> Split:
    """The shallowest split with at least `at_least` cubes (or the deepest
    one can go: when every cube places every site, or no cube is left)."""
    if not 1 <= at_least <= MOST_CUBES:
        raise UsageError(f"a split into N cubes takes N from 1 to {MOST_CUBES}, not {at_least}")
    at = deadline(timeout)
    depth, last = 0, None
    sites = len(layout_of(puzzle).sites)
    while True:
        left = None if at is None else max(at - time.perf_counter(), 0.001)
        found = split(puzzle, depth, engine=engine, seed=seed, timeout=left)
        if found.status != "split":
            return found if last is None else replace(last, status="timeout")
        if len(found.cubes) >= at_least or not found.cubes or depth >= min(sites, MOST_DEPTH):
            return found
        last, depth = found, depth + 1


Found = tuple[str, list[tuple[Placement, ...]], list[tuple[Placement, ...]], bool, int, int]


def _python_split(request: Request, depth: int, timeout: float | None) -> Found:
    counters = Counters(deadline=deadline(timeout))
    try:
        done = python_cubes.split(request, depth, counters)
    except SearchTimeout:
        return "timeout", [], [], False, counters.nodes, counters.backtracks
    status = "split"
    return status, done.cubes, done.refuted, done.root_failed, done.nodes, done.backtracks


def _prolog_split(request: Request, depth: int, timeout: float | None) -> Found:
    seed = "none" if request.seed is None else str(request.seed)
    answer = bridge.call_wdeg("cubes", "split", request, [seed, str(depth)], timeout)
    if answer is None:
        return "timeout", [], [], False, 0, 0
    head, *lines = answer.split("\n")
    status, nodes, backtracks = head.split()
    if status not in ("split", "root", "timeout"):
        raise EngineError(f"the Prolog engine's split answered {head!r}")
    words = {n: table.words for n, table in tables(tuple(request.words)).items()}
    lengths = [len(cells) for cells in request.layout.cells]
    cubes: list[tuple[Placement, ...]] = []
    refuted: list[tuple[Placement, ...]] = []
    for line in lines[:-1]:
        kind, *numbers = line.split()
        pairs = [int(x) for x in numbers]
        path = tuple(
            (s, words[lengths[s]][k]) for s, k in zip(pairs[::2], pairs[1::2], strict=True)
        )
        (cubes if kind == "c" else refuted).append(path)
    if status == "root":
        return "split", [], [], True, int(nodes), int(backtracks)
    return status, cubes, refuted, False, int(nodes), int(backtracks)


def cube_puzzle(puzzle: Puzzle, layout: Layout, placements: Sequence[Placement]) -> Puzzle:
    """`puzzle` with the cube's words written into their sites: the letters
    are givens, so each placed site can take its word alone (a dictionary
    holds each word once) and its crossings start with its letters."""
    rows = [list(row) for row in puzzle.grid]
    for s, word in placements:
        for (r, c), letter in zip(layout.cells[s], word, strict=True):
            assert rows[r][c] != BLOCK
            rows[r][c] = letter
    return replace(puzzle, grid=tuple("".join(row) for row in rows))
