"""Solve a Puzzle with either engine: the pre-check, the choice of engine,
and turning an engine's words-per-site into Solutions and an Outcome."""

from __future__ import annotations

import gc
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from pybridge import engine as python_engine
from pybridge.bitsets import Settled
from pybridge.errors import UsageError
from pybridge.model import BLOCK, OPEN, Cell, Placement, Puzzle, Solution
from pybridge.sites import Site, find_sites

if TYPE_CHECKING:
    from pybridge.proofs import Proof

STRATEGIES = ("given", "sorted", "mrv", "ac3", "lcv", "cs50", "cbj", "wdeg")
# given and sorted place the listed words one by one, so they need exact mode
# and take no seed; the domain strategies do both modes and take a seed.
LEXICON_STRATEGIES = ("mrv", "ac3", "lcv", "cs50", "cbj", "wdeg")
SEEDED_STRATEGIES = LEXICON_STRATEGIES
DEFAULT_STRATEGY = "mrv"
# Built for big dictionaries: with scowl55 it fills 68 of van Beek's 72 grids
# within 10 s each, where lcv fills 39 (see `crossword bench`).
DEFAULT_LEXICON_STRATEGY = "wdeg"
ENGINES = ("prolog", "python")

Status = Literal["solved", "unsolvable", "timeout"]


@dataclass
class Stats:
    engine: str
    strategy: str
    nodes: int = 0
    backtracks: int = 0
    seconds: float = 0.0


@dataclass
class Outcome:
    """What a search came to. `count` is set when counting, `reason` and
    `proof` when unsolvable, `unique` when uniqueness was asked and settled."""

    status: Status
    solutions: list[Solution] = field(default_factory=list)
    count: int | None = None
    reason: str | None = None
    stats: Stats = field(default_factory=lambda: Stats("python", DEFAULT_STRATEGY))
    proof: Proof | None = None
    unique: bool | None = None


_NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


def _letters(n: int) -> str:
    return f"{_NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else n}-letter"


def length_mismatch(puzzle: Puzzle, sites: Sequence[Site]) -> str | None:
    """Why the word lengths cannot match the site lengths, or None if they can."""
    words = Counter(len(w) for w in puzzle.words)
    slots = Counter(site.length for site in sites)
    if words == slots:
        return None
    parts = [
        f"{words[n]} {_letters(n)} word{'s' * (words[n] != 1)} "
        f"for {slots[n]} {_letters(n)} site{'s' * (slots[n] != 1)}"
        for n in sorted(words.keys() | slots.keys())
        if words[n] != slots[n]
    ]
    return "word and site lengths differ: " + "; ".join(parts)


def choose_engine(engine: str | None) -> str:
    """The engine to use: as asked, or prolog when SWI-Prolog loads, else python."""
    if engine is not None:
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
        return engine
    from pybridge import bridge

    if bridge.available():
        return "prolog"
    print("crossword: SWI-Prolog not found, using --engine python", file=sys.stderr)
    return "python"


_LETTER = re.compile(f"[^{re.escape(BLOCK + OPEN)}]")


def _givens(puzzle: Puzzle, sites: Sequence[Site]) -> dict[Cell, str]:
    """The predefined letters in sites, by cell in row order."""
    letters = {
        (r, match.start()): match.group()
        for r, row in enumerate(puzzle.grid)
        for match in _LETTER.finditer(row)
    }
    if not letters:  # most puzzles: no need to collect the cells of the sites
        return letters
    cells = {cell for site in sites for cell in site.cells}
    return {cell: ch for cell, ch in letters.items() if cell in cells}


def make_solution(puzzle: Puzzle, sites: Sequence[Site], words: Sequence[str]) -> Solution:
    """A Solution from the word of each site (in site order)."""
    rows = [list(row) for row in puzzle.grid]
    placements = []
    for site, word in zip(sites, words, strict=True):
        r, c, n = site.row, site.col, len(site.cells)
        if len(word) != n:
            raise ValueError(f"{word!r} does not fit {site.label}")
        if site.direction == "across":
            rows[r][c : c + n] = word  # a site is a straight run of cells
        else:
            for k, ch in enumerate(word):
                rows[r + k][c] = ch
        placements.append(Placement.make(site.number, site.direction, r, c, n, word))
    return Solution(puzzle, tuple(map("".join, rows)), tuple(placements))


def default_strategy(puzzle: Puzzle) -> str:
    """mrv for exact puzzles, wdeg for a grid filled from a dictionary."""
    return DEFAULT_LEXICON_STRATEGY if puzzle.mode == "lexicon" else DEFAULT_STRATEGY


# The proofs and the Python engine's searches make many lists, tuples and
# letter sets that live a while (domain snapshots, supports) and form no
# cycles, so the cyclic collector frees nothing there, yet takes about 8% of a
# wdeg fill's time. It is off while run() proves and searches
# (tests/test_wdeg.py checks that a run leaves no cyclic garbage).
@contextmanager
def _no_collections() -> Iterator[None]:
    """Turn the cyclic collector off for a while, if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


@_no_collections()
def run(
    puzzle: Puzzle,
    *,
    engine: str | None = None,
    strategy: str | None = None,
    limit: int | None = 1,
    count: bool = False,
    unique: bool = False,
    timeout: float | None = None,
    prove: bool = True,
    seed: int | None = None,
) -> Outcome:
    """Search `puzzle`: up to `limit` solutions (None: all); with `count`
    count them all without keeping them; with `unique` stop at the second
    solution and say whether there is exactly one. With `prove` the cheap
    proofs of pybridge.proofs run before the search, so an unsolvable puzzle
    is answered without a search where they can show it (else only lengths
    are checked); only a search that quickly finds a solution on a small
    puzzle goes first, as no proof can apply then (see _quick_solution).
    A `seed` (an integer >= 0) shuffles the domains and breaks site ties at
    random; the same seed gives the same answer in both engines. `strategy`
    None is default_strategy(puzzle). `timeout` (seconds) bounds the proofs
    and the search together."""
    strategy = strategy or default_strategy(puzzle)
    check_strategy(puzzle, strategy)
    check_seed(strategy, seed)
    if timeout is not None and timeout <= 0:
        raise ValueError("timeout must be a positive number of seconds")
    chosen = choose_engine(engine)
    stats = Stats(chosen, strategy)
    started = time.perf_counter()
    sites = find_sites(puzzle)
    search = _prolog_search if chosen == "prolog" else _python_search
    request = _Request(puzzle, sites, strategy, 2 if unique else limit, count, timeout, seed)
    result = _quick_solution(search, request, started, stats) if prove else None
    if result is None:
        # the time limit is for the whole run, proofs included
        proof, settled = _cheap_proof(puzzle, sites, prove, _time_left(started, timeout))
        if proof is not None:
            stats.seconds = time.perf_counter() - started
            return Outcome("unsolvable", [], 0 if count else None, _reason(proof), stats, proof)
        request = replace(request, timeout=_time_left(started, timeout), settled=settled)
        result = search(request, stats)
    status, found, n = result
    stats.seconds = time.perf_counter() - started
    outcome = Outcome(status, [make_solution(puzzle, sites, w) for w in found], stats=stats)
    outcome.count = n if count else None
    if unique and status != "timeout":
        outcome.unique = n == 1
    if status == "unsolvable":
        outcome.proof = _exhausted(puzzle, sites, stats.nodes)
        outcome.reason = outcome.proof.reason
    return outcome


def check_strategy(puzzle: Puzzle, strategy: str | None) -> None:
    """Raise UsageError unless `strategy` (None: the default) can search `puzzle`."""
    if strategy is None:
        return
    allowed = LEXICON_STRATEGIES if puzzle.mode == "lexicon" else STRATEGIES
    if strategy not in allowed:
        raise UsageError(
            f"strategy {strategy!r} does not apply to a {puzzle.mode} puzzle: "
            f"choose from {', '.join(allowed)}"
        )


def check_seed(strategy: str | None, seed: int | None) -> None:
    """Raise ValueError unless `seed` is None or an integer >= 0, and
    UsageError when `strategy` takes no seed (None, a default, takes one)."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    if strategy is not None and strategy not in SEEDED_STRATEGIES:
        raise UsageError(
            f"strategy {strategy!r} takes no seed: choose from {', '.join(SEEDED_STRATEGIES)}"
        )


def _cheap_proof(
    puzzle: Puzzle, sites: tuple[Site, ...], prove: bool, timeout: float | None
) -> tuple[Proof | None, Settled | None]:
    """A cheap proof, else None; and the propagation's root fixpoint, if found."""
    # Imported here: pybridge.proofs builds on this module.
    from pybridge import proofs

    if prove:
        return proofs.prove_settling(puzzle, sites=sites, timeout=timeout)
    if puzzle.mode == "lexicon":  # most words stay unused: lengths need not match
        return None, None
    mismatch = length_mismatch(puzzle, sites)
    return None if mismatch is None else proofs.length_proof(puzzle, sites, mismatch), None


def _reason(proof: Proof) -> str:
    from pybridge import proofs

    return proof.reason if proof.layer == "length" else proofs.proof_sentence(proof)


def _exhausted(puzzle: Puzzle, sites: tuple[Site, ...], nodes: int) -> Proof:
    from pybridge import proofs

    reason = f"the search space is exhausted after {nodes} node{'s' * (nodes != 1)}"
    words = tuple(puzzle.words) if puzzle.mode == "exact" else ()  # not a whole dictionary
    return proofs.Proof("search", reason, sites, words, nodes, minimal=False)


_SearchResult = tuple[Status, list[list[str]], int]


@dataclass(frozen=True)
class _Request:
    """One search, as either engine takes it."""

    puzzle: Puzzle
    sites: Sequence[Site]
    strategy: str
    limit: int | None
    count: bool
    timeout: float | None
    seed: int | None
    settled: Settled | None = None  # for wdeg in the Python engine: see bitsets.Settled


def _prolog_search(request: _Request, stats: Stats) -> _SearchResult:
    from pybridge import bridge

    puzzle, sites = request.puzzle, request.sites
    raw = bridge.search(
        puzzle.words,
        [s.cells for s in sites],
        _givens(puzzle, sites),
        request.strategy,
        limit=request.limit,
        count=request.count,
        timeout=request.timeout,
        seed=request.seed,
    )
    stats.nodes, stats.backtracks = raw.nodes, raw.backtracks
    status: Status = (
        "solved"
        if raw.status == "solved"
        else ("timeout" if raw.status == "timeout" else "unsolvable")
    )
    return status, raw.solutions, raw.count


def _python_steps(
    puzzle: Puzzle,
    sites: Sequence[Site],
    strategy: str,
    counters: python_engine.Counters,
    seed: int | None,
    settled: Settled | None = None,
) -> Generator[list[str], None, None]:
    cells = [s.cells for s in sites]
    givens = _givens(puzzle, sites)
    return python_engine.search(puzzle.words, cells, givens, strategy, counters, seed, settled)


# A search of a small puzzle that finds a solution this fast settles it
# before the proofs run: the proofs are sound, so none could have applied,
# and the search gives the same answer after them as before them. On small
# puzzles the proofs cost as much as such a search; a longer search waits for
# them (which may spare it), and so does a large word list, which each call
# sends to the engine again.
_QUICK_SECONDS = 0.005
_QUICK_WORDS = 2000


def _quick_solution(
    search: Callable[[_Request, Stats], _SearchResult],
    request: _Request,
    started: float,
    stats: Stats,
) -> _SearchResult | None:
    """The search's result if it finds a solution within _QUICK_SECONDS
    (and half the time limit), else None: then the proofs go first."""
    puzzle = request.puzzle
    if len(puzzle.words) > _QUICK_WORDS or (
        puzzle.mode == "exact" and length_mismatch(puzzle, request.sites) is not None
    ):
        return None  # no search needed to show this one unsolvable
    budget = _QUICK_SECONDS
    if request.timeout is not None:
        budget = min(budget, (started + request.timeout - time.perf_counter()) / 2)
    if budget <= 0:
        return None
    tried = Stats(stats.engine, stats.strategy)
    result = search(replace(request, timeout=budget), tried)
    if result[0] != "solved":
        return None
    stats.nodes, stats.backtracks = tried.nodes, tried.backtracks
    return result


# The least time a search is given when the proofs used up the limit: it
# then stops at its first look at the clock, with status "timeout".
_LEAST_SECONDS = 0.001


def _time_left(started: float, timeout: float | None) -> float | None:
    if timeout is None:
        return None
    return max(started + timeout - time.perf_counter(), _LEAST_SECONDS)


def _deadline(timeout: float | None) -> float | None:
    return None if timeout is None else time.perf_counter() + timeout


def _python_search(request: _Request, stats: Stats) -> _SearchResult:
    counters = python_engine.Counters(deadline=_deadline(request.timeout))
    found: list[list[str]] = []
    n = 0
    timed_out = False
    steps = _python_steps(
        request.puzzle, request.sites, request.strategy, counters, request.seed, request.settled
    )
    limit = request.limit
    try:
        for words in steps:
            n += 1
            if not request.count:
                found.append(words)
                if limit is not None and n >= limit:
                    break
    except python_engine.SearchTimeout:
        timed_out = True
    finally:
        steps.close()
    stats.nodes, stats.backtracks = counters.nodes, counters.backtracks
    status: Status = "timeout" if timed_out else ("solved" if n else "unsolvable")
    return status, found, n


def _prolog_batches(
    puzzle: Puzzle, strategy: str, timeout: float | None, limit: int | None, seed: int | None
) -> Iterator[Solution]:
    given, batch = 0, 1
    while True:
        want = batch if limit is None else min(batch, limit)
        outcome = run(
            puzzle, engine="prolog", strategy=strategy, limit=want, timeout=timeout, seed=seed
        )
        yield from outcome.solutions[given:]
        given = len(outcome.solutions)
        if outcome.status == "timeout":
            raise TimeoutError(f"no further solution found within {timeout} s")
        if given < want or given == limit:
            return
        batch *= 8


def solve(
    puzzle: Puzzle,
    *,
    engine: str | None = None,
    strategy: str | None = None,
    timeout: float | None = None,
    limit: int | None = None,
    seed: int | None = None,
) -> Iterator[Solution]:
    """The solutions of `puzzle`, in the engine's order (up to `limit`; all
    by default). The Python engine produces them lazily. The Prolog engine
    answers a search at a time, so it is asked for 1 solution, then 8, 64, ...
    (each search starting afresh and skipping those already given): the
    first solution costs one search, and any number costs at most about
    twice the searches of one. Raises TimeoutError when one search takes
    longer than `timeout` seconds. `strategy` and `seed` as for run()."""
    strategy = strategy or default_strategy(puzzle)
    check_strategy(puzzle, strategy)
    check_seed(strategy, seed)
    chosen = choose_engine(engine)
    if chosen == "prolog":
        yield from _prolog_batches(puzzle, strategy, timeout, limit, seed)
        return
    sites = find_sites(puzzle)
    proof, settled = _cheap_proof(puzzle, sites, True, timeout)
    if proof is not None:
        return
    counters = python_engine.Counters(deadline=_deadline(timeout))
    steps = _python_steps(puzzle, sites, strategy, counters, seed, settled)
    try:
        for n, words in enumerate(steps, start=1):
            yield make_solution(puzzle, sites, words)
            if limit is not None and n >= limit:
                return
    except python_engine.SearchTimeout:
        raise TimeoutError(f"no further solution found within {timeout} s") from None
    finally:
        steps.close()
