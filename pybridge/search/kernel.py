"""What every search shares: the request and its result, the counters and
the time limit, the letters on the board, the random draws, and the
description a strategy family gives of each of its strategies.

prolog/kernel.pl is the twin of the counters and the draws. The counters and
the draws are defined in docs/search.md (Counters, Seeds).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeVar

from pybridge.model import Cell, Mode
from pybridge.scores import Objective

if TYPE_CHECKING:  # a request holds them; the kernel needs no more of them
    from pybridge.bitsets import Settled
    from pybridge.layout import Layout

Status = Literal["solved", "unsolvable", "timeout"]
EXACT_ONLY: frozenset[Mode] = frozenset({"exact"})  # the modes a strategy can search
EVERY_MODE: frozenset[Mode] = frozenset({"exact", "lexicon"})
T = TypeVar("T")


Reads = Literal["listed", "dictionary", "ranked"]


@dataclass(frozen=True)
class Strategy:
    """A strategy as its family registers it, describing itself: its name,
    the family (the module in pybridge.search and its twin in prolog/), the
    puzzle modes it can search, whether it takes a seed, its summary (the
    CLI's help says it), and whether it reads the crossings (the layout's
    arcs, found before its search starts).

    `reads`: what it searches with, which says how the Prolog engine gets
    the words - "listed": the puzzle's words, sent with each search;
    "dictionary": the words as bitset tables, sent once per process and
    named by a key (and their scores, when there are some, by another);
    "ranked": the words ranked by score, and the scores, sent once.
    `optimises`: it finds the best fill (--maximize) by branch and bound.
    `default_in`: the modes whose puzzles it searches when none is asked
    for. `seeds`: how many seeds one search draws from (N, N + 1, ...), so
    that a portfolio's streams step by that many (docs/search.md#portfolio)."""

    name: str
    family: str
    modes: frozenset[Mode]
    seeded: bool
    summary: str
    crossings: bool = True
    reads: Reads = "listed"
    optimises: bool = False
    default_in: frozenset[Mode] = frozenset()
    seeds: int = 1

    @property
    def reads_dictionary(self) -> bool:
        """Whether the Prolog engine holds its words from one search to the next."""
        return self.reads != "listed"


class Tick(NamedTuple):
    """A look at a search under way, for a progress display: the counters
    so far (solutions: found so far; restarts: wdeg's runs that reached
    their node limit; deepest: the most choices deep any of those runs
    went, 0 before the first restart)."""

    nodes: int
    backtracks: int
    solutions: int
    restarts: int
    deepest: int


Watch = Callable[[Tick], None]
TICK_SECONDS = 0.2  # how often an engine reports a search under way to its Watch
NO_NODE_LIMIT = 2**50  # the node limit of a search without one (kernel.pl's no_node_limit)


@dataclass(frozen=True)
class Request:
    """One search, as either engine takes it: the words (listed or a
    dictionary) for the layout's sites, the strategy, how many solutions
    (`limit`, None for all; `count` counts them without keeping them), the
    time limit in seconds and the seed. `settled` (wdeg in the Python engine
    only): the root's letter fixpoint, when the proofs found it. `progress`:
    called with a Tick about every TICK_SECONDS while the search runs, and
    with the final counters when it ends within its time limit (the search
    itself, its order and its counts, are the same with or without).

    `scores`: per word of `words`, its score as an integer (pybridge.scores;
    None: every word 0). `objective` ("min" or "sum", the valued strategy
    only): find a fill of the greatest value, reporting each better fill to
    `report` as it is found (docs/search.md#valued). `beat` (with an
    objective): a value a fill already has (the ascent's best): only better
    fills are searched, and, a fill being in hand, the search never
    restarts.

    `node_limit`: the most nodes the search may count (None: no limit);
    reached, the search ends as at its time limit (status timeout), at the
    same node in both engines (Counters.node).

    `weights` (wdeg only): the weights its crossings start from, one per
    crossing of the layout in order, as a Result's `weights` gave them for
    the same sites: what an earlier search learned (the ascent's warm
    start, docs/search.md#warm-start). None: each weight 1, or drawn
    (a seed past the default's)."""

    layout: Layout
    words: Sequence[str]
    strategy: str
    limit: int | None = 1
    count: bool = False
    timeout: float | None = None
    seed: int | None = None
    settled: Settled | None = None
    progress: Watch | None = field(default=None, compare=False)
    scores: Sequence[int] | None = None
    objective: Objective | None = None
    report: Callable[[Improvement], None] | None = field(default=None, compare=False)
    beat: int | None = None
    node_limit: int | None = None
    weights: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Improvement:
    """A fill better than every one before it: its value, the nodes counted
    and the seconds since the search started when it was found, its words."""

    value: int
    nodes: int
    seconds: float
    words: list[str] = field(compare=False)


@dataclass(frozen=True)
class Result:
    """What a search came to: each solution is the word of every site, in
    site order; `count` the solutions found (all of them with `count`).
    With an objective: the better fills in the order found, the best the
    only solution, and `bound` the greatest value a fill can have, as far
    as the search got (the best fill's value once it ends: then that fill
    is optimal; None without a fill and without a bound). `weights` (wdeg,
    with a fill): its crossings' weights when its first fill was found, in
    crossing order (what it learned: Request.weights)."""

    status: Status
    solutions: list[list[str]]
    count: int
    nodes: int
    backtracks: int
    improvements: list[Improvement] = field(default_factory=list)
    bound: int | None = None
    weights: tuple[int, ...] | None = None


# ---------------------------------------------------------------- the clock


class SearchTimeout(Exception):
    """The deadline passed (while finding the layout, proving or searching),
    or the search reached its node limit (Counters.node)."""


def deadline(timeout: float | None) -> float | None:
    """The clock reading at which `timeout` seconds from now have passed."""
    return None if timeout is None else time.perf_counter() + timeout


def late(at: float | None) -> bool:
    """Whether the clock reading `at` (None: never) has passed."""
    return at is not None and time.perf_counter() > at


def check_clock(at: float | None, step: int) -> None:
    """SearchTimeout if `at` has passed, looked at every 1024th `step` of a
    long loop (a clock reading costs as much as a few steps)."""
    if step & 1023 == 0 and late(at):
        raise SearchTimeout


@dataclass
class Counters:
    """The two counters (nodes: words placed; backtracks: dead ends), and the
    deadline: node() raises SearchTimeout once it has passed. The clock is
    read at every node (well under a microsecond): a node's cost ranges from
    microseconds with a word list to many milliseconds with a large
    dictionary, so no fixed number of nodes between looks keeps a time limit.
    The solutions found, the restarts and the deepest run are kept for a
    progress display (Tick) only. `most_nodes`: the node limit; node()
    raises SearchTimeout at it, counting nothing (kernel.pl's count_node:
    a search stops at the same node in both engines). `weights`: a wdeg
    search's crossing weights at its first fill (Result.weights)."""

    nodes: int = 0
    backtracks: int = 0
    deadline: float | None = field(default=None, repr=False)
    solutions: int = 0
    restarts: int = 0
    deepest: int = 0
    most_nodes: int = field(default=NO_NODE_LIMIT, repr=False)
    weights: tuple[int, ...] | None = field(default=None, repr=False)

    def node(self) -> None:
        if self.nodes >= self.most_nodes:
            raise SearchTimeout
        self.nodes += 1
        self.check_clock()

    def check_clock(self) -> None:
        """Raise SearchTimeout if the deadline has passed (for work outside
        the nodes: the domains before the search, arc consistency)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchTimeout

    def dead_end(self) -> None:
        self.backtracks += 1

    def restart(self, depth: int) -> None:
        """A run reached its node limit, `depth` choices deep at its deepest."""
        self.restarts += 1
        self.deepest = max(self.deepest, depth)

    def tick(self) -> Tick:
        return Tick(self.nodes, self.backtracks, self.solutions, self.restarts, self.deepest)


@dataclass
class WatchedCounters(Counters):
    """Counters that also hand a Tick to `watch` every `every` seconds, at a
    node or a look at the clock: a subclass, so that a search nobody watches
    pays nothing for it."""

    watch: Watch | None = field(default=None, repr=False)
    every: float = TICK_SECONDS
    next_tick: float = field(default=0.0, repr=False)

    def check_clock(self) -> None:
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise SearchTimeout
        if now >= self.next_tick and self.watch is not None:
            self.next_tick = now + self.every
            self.watch(self.tick())


def counters_for(request: Request) -> Counters:
    """The counters of a search of `request`, with its time and node
    limits: watched when it asks for progress."""
    at = deadline(request.timeout)
    most = NO_NODE_LIMIT if request.node_limit is None else request.node_limit
    if request.progress is None:
        return Counters(deadline=at, most_nodes=most)
    now = time.perf_counter()
    return WatchedCounters(
        deadline=at, most_nodes=most, watch=request.progress, every=TICK_SECONDS, next_tick=now
    )


class Lcg:
    """Knuth's MMIX linear congruential generator (docs/search.md, Seeds)."""

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**64

    def draw(self) -> int:
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 2**64
        return self.state >> 33

    def below(self, bound: int) -> int:
        return self.draw() % bound

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place: position i swaps with below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


class Board:
    """Letters written into cells, with the writes of each placement undoable
    (where Prolog binds the cells' variables and backtracking unbinds them)."""

    def __init__(self, givens: Mapping[Cell, str]) -> None:
        self.letters: dict[Cell, str] = dict(givens)

    def fits(self, word: str, cells: Sequence[Cell]) -> bool:
        letters = self.letters
        for ch, cell in zip(word, cells, strict=True):
            got = letters.get(cell)
            if got is not None and got != ch:
                return False
        return True

    def place(self, word: str, cells: Sequence[Cell]) -> list[Cell] | None:
        """Write `word` into `cells`; the cells newly written, or None on a clash."""
        return self.write(word, cells) if self.fits(word, cells) else None

    def write(self, word: str, cells: Sequence[Cell]) -> list[Cell]:
        """Write `word`, known to fit, into `cells`; the cells newly written."""
        letters = self.letters
        written = [cell for cell in cells if cell not in letters]
        letters.update(zip(cells, word, strict=True))
        return written

    def erase(self, written: list[Cell]) -> None:
        for cell in written:
            del self.letters[cell]

    def read(self, cells: Sequence[Cell]) -> str:
        return "".join(self.letters[cell] for cell in cells)
