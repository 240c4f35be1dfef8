"""The orchestrator: solve a Puzzle with either engine - the proofs first,
then the search - and turn an engine's words-per-site into Solutions and an
Outcome. run() and solve() share one proof-then-search path (_prepare)."""

from __future__ import annotations

import bisect
import gc
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from decimal import Decimal, localcontext
from typing import Any

from pybridge import engines, proofs
from pybridge.bitsets import Settled
from pybridge.engines import ENGINES, choose_engine
from pybridge.errors import UsageError
from pybridge.layout import Layout, Site, layout_of
from pybridge.model import Placement, Puzzle, Solution
from pybridge.options import MAXIMIZE_SECONDS, SearchOptions
from pybridge.pictures import outcome_html
from pybridge.proofs import Proof
from pybridge.scores import ACCEPTABLE, EXACT, OBJECTIVES, Objective, Score, Scores, parse_score
from pybridge.search import engine as python_engine
from pybridge.search import registry
from pybridge.search.kernel import (
    Counters,
    Improvement,
    Request,
    Result,
    SearchTimeout,
    Status,
    Watch,
    deadline,
)
from pybridge.search.registry import (
    DEFAULT_LEXICON_STRATEGY,
    DEFAULT_STRATEGY,
    LEXICON_STRATEGIES,
    OPTIMISING_STRATEGY,
    SEEDED_STRATEGIES,
    STRATEGIES,
)

__all__ = [
    "DEFAULT_LEXICON_STRATEGY",
    "DEFAULT_STRATEGY",
    "ENGINES",
    "LEXICON_STRATEGIES",
    "OBJECTIVES",
    "OPTIMISING_STRATEGY",
    "SEEDED_STRATEGIES",
    "STRATEGIES",
    "BetterFill",
    "Outcome",
    "Stats",
    "Status",
    "Winner",
    "at_least",
    "check_seed",
    "check_strategy",
    "choose_engine",
    "default_strategy",
    "make_solution",
    "run",
    "search_options",
    "solve",
]


@dataclass
class Stats:
    engine: str
    strategy: str
    nodes: int = 0
    backtracks: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class Winner:
    """The stream of a portfolio (pybridge.portfolio) whose answer an
    Outcome is: its place (from 0) among the `jobs` streams, its strategy
    and seed (one process with these makes the same search), and the
    seconds it searched."""

    stream: int
    jobs: int
    strategy: str
    seed: int | None
    seconds: float


@dataclass(frozen=True)
class BetterFill:
    """A fill better than every one found before it (`maximize`): its value
    on the scale of the word list, the seconds since run() started and the
    nodes counted when it was found, and the fill."""

    value: Decimal
    seconds: float
    nodes: int
    solution: Solution


@dataclass
class Outcome:
    """What a search came to. `count` is set when counting, `reason` and
    `proof` when unsolvable, `unique` when uniqueness was asked and settled
    on a solvable puzzle (an unsolvable one leaves it None); `puzzle` is the
    puzzle searched (for its display). `score`: the first solution's scores
    when the words have scores (with `maximize`, whether it is optimal and
    the bound; without a fill, only these); `improvements` (with
    `maximize`): every better fill, in the order found; `winner` when a
    portfolio of several streams answered."""

    status: Status
    solutions: list[Solution] = field(default_factory=list)
    count: int | None = None
    reason: str | None = None
    stats: Stats = field(default_factory=lambda: Stats("python", DEFAULT_STRATEGY))
    proof: Proof | None = None
    unique: bool | None = None
    score: Score | None = None
    improvements: list[BetterFill] = field(default_factory=list)
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)
    winner: Winner | None = None

    def _repr_html_(self) -> str:
        """A notebook shows the verdict, the statistics and a picture: the
        first solution, or the framework with the proof's core shaded."""
        return outcome_html(self)


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
    return registry.default_strategy(puzzle.mode)


def check_strategy(puzzle: Puzzle, strategy: str | None, maximize: str | None = None) -> None:
    """Raise UsageError unless `strategy` (None: the default) can search
    `puzzle`, and find its best fill by `maximize` when one is asked for."""
    if maximize is not None:
        _check_objective(puzzle, strategy, maximize)
    if strategy is not None:
        registry.check(strategy, puzzle.mode)


def check_seed(strategy: str | None, seed: int | None) -> None:
    """Raise UsageError unless `seed` is None or an integer >= 0 that
    `strategy` takes (None, a default, takes one)."""
    registry.check_seed(seed)
    if strategy is not None:
        registry.check(strategy, seed=seed)


def _checked(
    puzzle: Puzzle, strategy: str | None, seed: int | None, maximize: str | None = None
) -> str:
    """The strategy to use (as asked, or the default), checked with the seed
    and the objective."""
    if maximize is not None:
        _check_objective(puzzle, strategy, maximize)
        strategy = strategy or OPTIMISING_STRATEGY
    strategy = strategy or default_strategy(puzzle)
    registry.check(strategy, puzzle.mode, seed)
    return strategy


def _check_objective(puzzle: Puzzle, strategy: str | None, maximize: str) -> None:
    if maximize not in OBJECTIVES:
        raise UsageError(f"maximize must be one of {', '.join(OBJECTIVES)}, got {maximize!r}")
    if strategy not in (None, OPTIMISING_STRATEGY):
        raise UsageError(
            f"--maximize searches with the {OPTIMISING_STRATEGY} strategy, not {strategy!r}"
        )
    if puzzle.scores is None:
        raise UsageError(
            "--maximize needs scores: a scored dictionary (WORD;score lines, see "
            "docs/formats.md) or a scored word list"
        )


def at_least(puzzle: Puzzle, min_score: object) -> Puzzle:
    """The puzzle with only the dictionary words that score `min_score` or
    more (a number, or its text); UsageError without a scored dictionary.
    The proofs then tell which sites the words left cannot fill."""
    least = _score_number(min_score)
    if puzzle.mode != "lexicon":
        raise UsageError("--min-score applies to a dictionary (--dict), not a word list")
    if puzzle.scores is None:
        raise UsageError(
            "--min-score needs a scored dictionary (WORD;score lines, see docs/formats.md)"
        )
    words = puzzle.scores.keeping(puzzle.words, least)
    return replace(puzzle, words=words, scores=puzzle.scores.with_floor(least))


def _score_number(value: object) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise UsageError(f"min_score must be a number, got {value!r}")
    number = parse_score(str(value).strip())
    if number is None:
        raise UsageError(f"min_score must be a number such as 40 or 0.5, got {value!r}")
    return number


def _check_timeout(timeout: float | None) -> None:
    if timeout is not None and not timeout > 0:
        raise UsageError("timeout must be a positive number of seconds")


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


_DEFAULTS = SearchOptions()


def search_options(
    options: SearchOptions | None,
    keywords: Mapping[str, Any],
    defaults: SearchOptions = _DEFAULTS,
) -> SearchOptions:
    """`options`, or `defaults` with the fields the `keywords` give (the
    keyword API of run and solve); UsageError when both are given, or for a
    min score that is not a number; TypeError for a keyword that is no
    field of SearchOptions."""
    if options is not None:
        if keywords:
            raise UsageError("give the search options as `options` or as keywords, not both")
        return options
    least = keywords.get("min_score")
    if least is not None:
        keywords = {**keywords, "min_score": _score_number(least)}
    return replace(defaults, **keywords)


@_no_collections()
def run(
    puzzle: Puzzle,
    options: SearchOptions | None = None,
    *,
    progress: Watch | None = None,
    on_better: Callable[[BetterFill], None] | None = None,
    **keywords: Any,
) -> Outcome:
    """Search `puzzle` as `options` say (a SearchOptions), or as the
    keywords say (engine, strategy, limit, count, unique, timeout, prove,
    seed, min_score, maximize: the fields of SearchOptions, the keyword
    API): up to `limit` solutions (None: all); with `count` count them all
    without keeping them; with `unique` stop at the second solution and say
    whether there is exactly one. With `prove` the cheap proofs of
    pybridge.proofs run before the search, so an unsolvable puzzle is
    answered without a search where they can show it (else only lengths
    are checked); only a search that quickly finds a solution on a small
    puzzle goes first, as no proof can apply then (see _quick_result). A
    `seed` (an integer >= 0) shuffles the domains and breaks site ties at
    random; the same seed gives the same answer in both engines. `strategy`
    None is default_strategy(puzzle). `timeout` (seconds) bounds the proofs
    and the search together. `progress` is called with a Tick (the counters
    so far) about every 0.2 s while an engine searches; it does not change
    the search. `jobs` is not read here: one search runs here
    (pybridge.portfolio runs several).

    With scores (a scored dictionary): `min_score` keeps only the words
    that score at least that much (see at_least); `maximize` ("min": the
    lowest word score, or "sum": the total) searches for the best fill with
    the valued strategy, calling `on_better` with each better fill as it is
    found; the outcome's solution is the best, `score` says whether it is
    optimal, `improvements` lists them all (docs/search.md#valued)."""
    return _run(puzzle, search_options(options, keywords), progress, on_better)


def _run(
    puzzle: Puzzle,
    options: SearchOptions,
    progress: Watch | None,
    on_better: Callable[[BetterFill], None] | None,
    beat: Decimal | None = None,
    warm: _Warm | None = None,
) -> Outcome:
    """run()'s work; `beat` (the ascent's branch and bound): the value of a
    fill in hand, which the search need only beat (Request.beat); `warm`
    (the ascent's wdeg steps): the weights the search starts from, and
    where it leaves those it learned (Request.weights, Result.weights)."""
    if options.maximize is not None and options.timeout is None:
        options = replace(options, timeout=MAXIMIZE_TIMEOUT)  # never minutes unasked
    if _climbs(puzzle, options):
        return _ascend(puzzle, options, progress, on_better)
    if options.min_score is not None:
        puzzle = at_least(puzzle, options.min_score)
    maximize, count, unique, limit = options.maximize, options.count, options.unique, options.limit
    if maximize is not None and (count or unique or limit not in (1, None)):
        raise UsageError(
            "--maximize finds one best fill: leave out --all, --count, --limit and --unique"
        )
    timeout, seed, prove = options.timeout, options.seed, options.prove
    strategy = _checked(puzzle, options.strategy, seed, maximize)
    _check_timeout(timeout)
    chosen = choose_engine(options.engine)
    stats = Stats(chosen, strategy)
    started = time.perf_counter()
    try:
        layout = layout_of(puzzle, deadline(timeout))
    except SearchTimeout:  # a huge grid: finding its sites took the time
        stats.seconds = time.perf_counter() - started
        return Outcome("timeout", [], 0 if count else None, stats=stats)
    limit = 2 if unique else limit
    report = None if on_better is None else _reporter(puzzle, layout.sites, started, on_better)
    request = Request(
        layout,
        puzzle.words,
        strategy,
        limit,
        count,
        timeout,
        seed,
        progress=progress,
        scores=None if puzzle.scores is None else puzzle.scores.values(puzzle.words),
        objective=maximize,
        report=report,
        beat=None if beat is None or puzzle.scores is None else _scaled(beat, puzzle.scores),
        node_limit=options.node_limit,
        weights=None if warm is None else warm.start,
    )
    quick = prove and maximize is None  # better fills are reported once
    prepared = _prepare(puzzle, request, chosen, prove, started, quick=quick)
    if isinstance(prepared, Proof):
        stats.seconds = time.perf_counter() - started
        return Outcome(
            "unsolvable",
            count=0 if count else None,
            reason=_reason(prepared),
            stats=stats,
            proof=prepared,
            puzzle=puzzle,
        )
    searched_from = time.perf_counter() - started
    result = prepared if isinstance(prepared, Result) else engines.search(chosen, prepared)
    if warm is not None:
        warm.learned = result.weights
    stats.nodes, stats.backtracks = result.nodes, result.backtracks
    stats.seconds = time.perf_counter() - started
    solutions = [make_solution(puzzle, layout.sites, w) for w in result.solutions]
    outcome = Outcome(result.status, solutions, stats=stats, puzzle=puzzle)
    outcome.count = result.count if count else None
    if unique and result.status == "solved":  # no solution is neither unique nor not
        outcome.unique = result.count == 1
    if result.status == "unsolvable":
        outcome.proof = _exhausted(puzzle, layout.sites, result.nodes)
        outcome.reason = outcome.proof.reason
    _score(outcome, puzzle, result, maximize, layout.sites, searched_from)
    return outcome


def _scaled(value: Decimal, scores: Scores) -> int:
    """A value on the list's scale as the engines take it (Scores.value)."""
    with localcontext(EXACT):
        return int(value * scores.scale)


def _reporter(
    puzzle: Puzzle, sites: tuple[Site, ...], started: float, on_better: Callable[[BetterFill], None]
) -> Callable[[Improvement], None]:
    """What an engine calls with each better fill: on_better with the fill
    as a BetterFill."""
    scores = puzzle.scores
    assert scores is not None

    def report(better: Improvement) -> None:
        solution = make_solution(puzzle, sites, better.words)
        value = scores.unscaled(better.value)
        on_better(BetterFill(value, time.perf_counter() - started, better.nodes, solution))

    return report


def _score(
    outcome: Outcome,
    puzzle: Puzzle,
    result: Result,
    maximize: Objective | None,
    sites: tuple[Site, ...],
    searched_from: float,
) -> None:
    """The outcome's score and better fills, when the words have scores."""
    scores = puzzle.scores
    if scores is None:
        return
    if outcome.solutions:
        words = [p.word for p in outcome.solutions[0].placements]
        outcome.score = Score.of(words, scores)
    if maximize is None:
        return
    bound = None if result.bound is None else scores.unscaled(result.bound)
    optimal = result.status == "solved"
    if outcome.score is not None:
        outcome.score = replace(outcome.score, optimal=optimal, bound=bound)
    elif result.status == "timeout":
        outcome.score = Score(None, None, None, optimal=False, bound=bound)
    outcome.improvements = [
        BetterFill(
            scores.unscaled(better.value),
            searched_from + better.seconds,
            better.nodes,
            make_solution(puzzle, sites, better.words),
        )
        for better in result.improvements
    ]


# ---------------------------------------------------------------- the ascent
#
# --maximize without --strategy on a grid filled from a dictionary: quality
# that comes fast. wdeg fills the grid with the words scoring at least a
# floor; each fill raises the floor above its lowest score, until a floor
# cannot be filled (a proof: the last fill's min is the best) or the time
# (or --node-limit) runs out. After the first fill a floor gets a slice,
# counted in nodes (Request.node_limit), and one not filled in it is tried
# again later with another seed (_Slices): how long a floor takes is
# heavy-tailed, so a floor given all the time left could waste it on one
# unlucky search. For min, once a floor above the best fill is proved
# unfillable with no missed floor below it, valued's branch and bound, in
# a slice of nodes of its own, settles the levels between in one search:
# it starts from the best fill's value (Request.beat: only better fills,
# no restart), finds any better fill and proves the best; if its slice
# runs out first, the floors climb on. For sum, the branch and bound, from
# the best fill's sum, gets the time kept for it at the end. Each floor's
# wdeg search starts from the crossing weights the last fill learned (_Warm).
# Every step is a run() of either engine (wdeg with a seed, or valued) and every slice is
# in nodes, so both engines climb alike at any load: same steps, same
# fills, same nodes; the clock only decides where the climb stops.

MAXIMIZE_TIMEOUT = MAXIMIZE_SECONDS  # seconds: --maximize's time limit when none is given
ASCENT = "ascent"  # the stats' strategy of an ascent (wdeg's fills, then valued's)
ASCENT_STRATEGY = DEFAULT_LEXICON_STRATEGY
BOUND_SHARE = 0.2  # sum: of the time left at the ascent's last step, kept for the bound
BOUND_SECONDS = 10.0  # ... at most this much
HANDOVER_FACTOR = 1  # min: the bound's slice, this many times the nodes the climb counted
FIRST_STRIDE = 2  # score levels from one floor to the next, at first
MAX_STRIDE = 8  # ... doubling after each fill up to this
SLICE_FACTOR = 4  # a later floor's nodes: this many times the most of a fill so far ...
STEP_NODES = 500  # ... each fill counted this many more (a step's own cost: its floor's tables)
SLICE_SHARE = 1 / 8  # ... and at least this share of the limit, in nodes (_Slices) ...
NODES_PER_SECOND = 4000  # ... a time limit counting as this many nodes a second
STREAMS_PER_SEED = 2  # wdeg's seed N searches in streams N and N + 1: a new try skips both
LEARNED_PER_CROSSING = 1  # dead ends a fill met per crossing, at least, for its weights to carry


def _climbs(puzzle: Puzzle, options: SearchOptions) -> bool:
    """Whether run() answers `options` by an ascent: --maximize on a grid
    filled from a scored dictionary, no strategy asked for, one fill."""
    if options.maximize is None or options.strategy is not None or puzzle.mode != "lexicon":
        return False
    _check_objective(puzzle, None, options.maximize)
    return not (options.count or options.unique or options.limit not in (1, None))


@dataclass
class _Climb:
    """An ascent under way: its clock, the best fill so far and its value,
    the better fills, the nodes and backtracks of its runs, (min) the
    lowest floor proved unfillable after a fill, and the least bound a
    branch and bound that ran out of time left; `budget`: the most nodes
    its runs may count together (--node-limit; None: no limit)."""

    puzzle: Puzzle
    objective: Objective
    started: float
    deadline: float | None
    on_better: Callable[[BetterFill], None] | None
    budget: int | None = None
    best: Outcome | None = None
    value: Decimal | None = None
    improvements: list[BetterFill] = field(default_factory=list)
    nodes: int = 0
    backtracks: int = 0
    ceiling: Decimal | None = None
    bound: Decimal | None = None  # the least bound a branch and bound left

    def left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.perf_counter()

    def nodes_left(self) -> int | None:
        return None if self.budget is None else self.budget - self.nodes

    def over(self) -> bool:
        """Whether the time or the node budget has run out."""
        left, nodes = self.left(), self.nodes_left()
        return (left is not None and left <= 0) or (nodes is not None and nodes <= 0)

    def within(self, nodes: int | None) -> int | None:
        """A step's node limit: `nodes` (None: none), within the budget left."""
        left = self.nodes_left()
        return left if nodes is None else nodes if left is None else min(nodes, left)

    def count(self, outcome: Outcome) -> None:
        self.nodes += outcome.stats.nodes
        self.backtracks += outcome.stats.backtracks

    def offer(self, solution: Solution, nodes: int) -> bool:
        """Keep `solution` if it beats the best so far; whether it did."""
        scores = self.puzzle.scores
        assert scores is not None
        value = Score.of([p.word for p in solution.placements], scores).objective(self.objective)
        assert value is not None
        if self.value is not None and value <= self.value:
            return False
        self.value = value
        better = BetterFill(value, time.perf_counter() - self.started, nodes, solution)
        self.improvements.append(better)
        if self.on_better is not None:
            self.on_better(better)
        return True


def _ascend(
    puzzle: Puzzle,
    options: SearchOptions,
    progress: Watch | None,
    on_better: Callable[[BetterFill], None] | None,
) -> Outcome:
    objective, scores = options.maximize, puzzle.scores
    assert objective is not None
    assert scores is not None
    _check_timeout(options.timeout)
    started = time.perf_counter()
    deadline = None if options.timeout is None else started + options.timeout
    # the words of the grid's lengths only: each floor's list is then quicker to make
    lengths = {len(site.cells) for site in layout_of(puzzle).sites}
    puzzle = replace(puzzle, words=tuple(w for w in puzzle.words if len(w) in lengths))
    climb = _Climb(puzzle, objective, started, deadline, on_better, options.node_limit)
    floor = options.min_score
    if floor is not None:
        floor = _score_number(floor)
    elif scores.has_line:
        floor = ACCEPTABLE  # below it a fill is not worth showing, if another comes
    step = SearchOptions(options.engine, ASCENT_STRATEGY, options.seed, prove=options.prove)
    least = _least_slice(options.timeout, options.node_limit)
    proved, last = _climb(climb, puzzle, floor, options.min_score is None, step, progress, least)
    if not proved and climb.best is not None and objective == "sum":
        proved, last = _bound(climb, puzzle, options, progress, None) or (proved, last)
    return _climbed(climb, options, proved, last)


def _climb(
    climb: _Climb,
    puzzle: Puzzle,
    floor: Decimal | None,
    floor_chosen: bool,
    step: SearchOptions,
    progress: Watch | None,
    least: int | None,
) -> tuple[bool, Outcome | None]:
    """wdeg's fills at rising floors: from the last fill's min, the next
    floor is `stride` score levels higher; the stride doubles after each
    fill, up to MAX_STRIDE, and halves after a floor not filled, bisecting
    towards the lowest floor not filled. The first floor gets all the time;
    each later one a slice of nodes (_Slices, at least `least`): a floor
    not filled in its slice is tried again, when the climb comes back to
    it, with another seed and twice the slice. For min, the first floor
    proved unfillable above the best fill (climb.ceiling) hands over to the
    branch and bound (see above). Whether the best is proved, and the last
    run's outcome."""
    scores = climb.puzzle.scores
    assert scores is not None
    levels = scores.levels
    last = None
    stride = FIRST_STRIDE
    ceiling = len(levels)  # the lowest level proved not to be filled
    handed = False  # to the branch and bound
    slices = _Slices(least, step.seed)
    at = None if floor is None else bisect.bisect_left(levels, floor)
    if at == len(levels):  # no word scores so much
        at = None if floor_chosen else at
    base = -1  # the level of the best fill's min
    warm = _Warm()
    while True:
        if climb.over():
            return False, last
        left = climb.left()
        asked = puzzle if at is None else at_least(puzzle, floor if base < 0 else levels[at])
        if climb.best is None:
            limit, nodes, seed = left, None, step.seed
        else:
            assert at is not None
            limit, (nodes, seed) = _share(left, climb.objective), slices.next(at)
        search = replace(step, timeout=limit, seed=seed, node_limit=climb.within(nodes))
        last = _run(asked, search, progress, None, warm=warm)
        climb.count(last)
        if last.status == "solved":
            warm.carry()  # the next floor's search starts where this one ended
            solution = last.solutions[0]
            if climb.offer(solution, climb.nodes):
                climb.best = last
            fill_min = Score.of([p.word for p in solution.placements], scores).min
            assert fill_min is not None
            base = bisect.bisect_left(levels, fill_min)
            stride = min(stride * 2, MAX_STRIDE)
            slices.filled(last.stats.nodes)
        elif climb.best is None:
            if last.status == "unsolvable" and floor_chosen and at is not None:
                at = None  # nothing reaches the acceptable line: the best fill below it
                continue
            return False, last
        else:
            assert at is not None  # a floor failed after a fill: an ascent's floor
            if last.status == "unsolvable":
                ceiling = at
            else:
                slices.missed(at)
            stride = max(1, stride // 2)
        if base + 1 >= ceiling:  # nothing left between the best and what is proved unfillable
            return climb.objective == "min", last
        if ceiling == at and climb.objective == "min":
            climb.ceiling = levels[ceiling]
            # the branch and bound, once, when no floor below the one proved was missed
            settled = None
            if not handed and slices.missed_from(base, len(levels)) >= ceiling:
                handed = True
                handover = max(HANDOVER_FACTOR * climb.nodes, least or 0)
                settled = _bound(climb, puzzle, step, progress, handover)
            if settled is not None:
                proved, last = settled
                if proved:
                    return True, last
                assert climb.value is not None
                base = bisect.bisect_left(levels, climb.value)  # it may have found better
                if base + 1 >= ceiling:
                    return True, last
        top = min(ceiling, slices.missed_from(base, len(levels)))
        at = min(base + stride, (base + top) // 2) if top < len(levels) else base + stride
        at = min(max(at, base + 1), len(levels) - 1)


@dataclass
class _Warm:
    """wdeg's crossing weights carried from one floor's fill to the next
    floor's search (docs/search.md#warm-start): the crossings where the
    fill at f met its dead ends are, most often, where f + 1 meets its
    own, so the next search chooses them first from its first node, not
    after relearning them. `start`: the weights the next step starts from
    (None: a fresh search's); `learned`: those of the last step's search
    at its fill (None without one)."""

    start: tuple[int, ...] | None = None
    learned: tuple[int, ...] | None = None

    def carry(self) -> None:
        """After a fill: the next step starts from what its search learned,
        if it learned enough (LEARNED_PER_CROSSING); else afresh. A fill
        with fewer dead ends than crossings (tens of nodes on van Beek's
        5x5 grids) leaves weights that only break ties another way: that
        moves the climb without guiding it (there, onto floors costlier
        to prove: docs/benchmarks.md, "Issue 35, seventh pass")."""
        learned = self.learned
        enough = learned is not None and (
            sum(learned) - len(learned) >= LEARNED_PER_CROSSING * len(learned)
        )
        self.start = learned if enough else None


@dataclass
class _Slices:
    """The node limit and the seed of each floor after the first fill: a
    slice of SLICE_FACTOR times the most nodes of a fill so far, each fill
    counted STEP_NODES more (what a step costs besides its nodes, so that
    after a quick first fill the slices are not too small to pay for their
    steps; at least `least`), doubled at each new try of a floor not filled in its slice,
    which also draws another seed (wdeg's streams from 2 on past the last:
    a different search of the same floor). A floor's fill is heavy-tailed:
    the same floor may take 10 times more nodes than the next one up, or
    than itself with another seed, so no floor may take all that is left
    while others could still be tried (docs/benchmarks.md, "Issue 35, fifth
    pass"). In nodes, not seconds: the climb is the same in both engines
    and at any load (docs/benchmarks.md, "Issue 35, sixth pass")."""

    least: int | None
    seed: int | None
    most: int = 0
    tries: dict[int, int] = field(default_factory=dict)

    def next(self, level: int) -> tuple[int | None, int | None]:
        """The node limit (None: none) and the seed of a try at `level`."""
        tries = self.tries.get(level, 0)
        seed = self.seed if tries == 0 else (self.seed or 0) + STREAMS_PER_SEED * tries
        if self.least is None and self.most == 0:
            return None, seed  # nothing to measure a slice by
        return max(self.least or 0, SLICE_FACTOR * (self.most + STEP_NODES)) * 2**tries, seed

    def filled(self, nodes: int) -> None:
        self.most = max(self.most, nodes)

    def missed(self, level: int) -> None:
        self.tries[level] = self.tries.get(level, 0) + 1

    def missed_from(self, base: int, none: int) -> int:
        """The lowest level above `base` not filled in its slice (`none`: none)."""
        return min((level for level in self.tries if level > base), default=none)


def _least_slice(timeout: float | None, node_limit: int | None) -> int | None:
    """The least slice of a floor after the first, in nodes: SLICE_SHARE of
    the node limit, or of the time limit at NODES_PER_SECOND, the smaller
    (None without either)."""
    limits = [] if node_limit is None else [node_limit]
    if timeout is not None:
        limits.append(int(timeout * NODES_PER_SECOND))
    return None if not limits else max(1, int(min(limits) * SLICE_SHARE))


def _share(left: float | None, objective: Objective) -> float | None:
    """The time of one floor's fill after the first: all that is left
    (sum: but the bound's share)."""
    if left is None or objective == "min":
        return left
    return max(left - min(left * BOUND_SHARE, BOUND_SECONDS), 0.001)


def _bound(
    climb: _Climb,
    puzzle: Puzzle,
    options: SearchOptions,
    progress: Watch | None,
    nodes: int | None,
) -> tuple[bool, Outcome] | None:
    """valued's branch and bound in the time left and at most `nodes`
    nodes (None: no limit but the budget's), from the best fill's value
    (only better fills are searched): for min, on the words scoring more
    than the best fill's min; for sum, on every word (or those of
    --min-score). Whether it proved the best, and its outcome; None when
    no time was left."""
    left = climb.left()
    if (left is not None and left <= 0.001) or climb.over():
        return None
    scores = puzzle.scores
    assert scores is not None
    assert climb.value is not None
    asked = puzzle
    if climb.objective == "min":
        floor = scores.above(climb.value)
        if floor is None:
            return True, climb.best  # type: ignore[return-value]
        asked = at_least(puzzle, floor)
    elif options.min_score is not None:
        asked = at_least(puzzle, options.min_score)
    before = climb.nodes

    def told(better: BetterFill) -> None:
        climb.offer(better.solution, before + better.nodes)

    search = SearchOptions(
        options.engine,
        OPTIMISING_STRATEGY,
        timeout=left,
        maximize=climb.objective,
        node_limit=climb.within(nodes),
    )
    outcome = _run(asked, search, progress, told, beat=climb.value)
    climb.count(outcome)
    if outcome.status == "solved" and outcome.solutions:
        if climb.offer(outcome.solutions[0], climb.nodes):
            climb.best = outcome
        return True, outcome
    if outcome.status == "unsolvable":  # no fill better than the best: it is optimal
        return True, outcome
    for better in outcome.improvements:
        if climb.value is not None and better.value >= climb.value:
            climb.best = outcome  # its best fill is the best so far
    if outcome.score is not None and outcome.score.bound is not None:
        bound = outcome.score.bound
        climb.bound = bound if climb.bound is None else min(bound, climb.bound)
    return False, outcome


def _climbed(climb: _Climb, options: SearchOptions, proved: bool, last: Outcome | None) -> Outcome:
    """The ascent's outcome: its best fill (status solved when proved the
    best, else timeout, with the most a fill could score), or the last
    run's verdict when nothing filled."""
    assert options.maximize is not None
    chosen = choose_engine(options.engine)
    stats = Stats(
        chosen, ASCENT, climb.nodes, climb.backtracks, time.perf_counter() - climb.started
    )
    scores = climb.puzzle.scores
    assert scores is not None
    if climb.best is None or climb.value is None:
        if last is None:
            return Outcome("timeout", stats=stats, puzzle=climb.puzzle)
        outcome = replace(last, stats=stats, puzzle=climb.puzzle, solutions=[])
        outcome.score = Score(None, None, None, optimal=False, bound=None)
        if last.status == "unsolvable":
            outcome.score = None
        return outcome
    solution = climb.improvements[-1].solution
    score = Score.of([p.word for p in solution.placements], scores)
    bound = climb.value if proved else _bound_of(climb)
    score = replace(score, optimal=proved, bound=bound)
    status: Status = "solved" if proved else "timeout"
    return Outcome(
        status,
        [solution],
        stats=stats,
        score=score,
        improvements=list(climb.improvements),
        puzzle=climb.puzzle,
    )


def _bound_of(climb: _Climb) -> Decimal:
    """The most a fill could score, never less than the best found: the
    least of the grid's own most (each site's best word), the bound a
    branch and bound left, and for min the level below the lowest floor
    proved unfillable."""
    assert climb.value is not None
    scores = climb.puzzle.scores
    assert scores is not None
    bound = _most(climb.puzzle, climb.objective)
    if climb.bound is not None:
        bound = min(bound, climb.bound)
    if climb.ceiling is not None:
        below = bisect.bisect_left(scores.levels, climb.ceiling) - 1
        bound = min(bound, scores.levels[below])
    return max(bound, climb.value)


def _most(puzzle: Puzzle, objective: Objective) -> Decimal:
    """The most any fill of `puzzle` could score, site by site: the best
    word of the site's length that fits its given letters (min: the least
    of these; sum: their total)."""
    scores = puzzle.scores
    assert scores is not None
    layout = layout_of(puzzle)
    patterns = ["".join(layout.givens.get(cell, ".") for cell in s.cells) for s in layout.sites]
    by_length: dict[int, dict[str, Decimal]] = {}
    for pattern in patterns:
        by_length.setdefault(len(pattern), {})[pattern] = Decimal(-1)
    for word in puzzle.words:
        for pattern, most in by_length.get(len(word), {}).items():
            if all(p in (".", c) for p, c in zip(pattern, word, strict=True)):
                by_length[len(word)][pattern] = max(most, scores.score(word))
    values = [by_length[len(p)][p] for p in patterns]
    return min(values) if objective == "min" else sum(values, Decimal(0))


def _prepare(
    puzzle: Puzzle, request: Request, engine: str, prove: bool, started: float, quick: bool
) -> Proof | Result | Request:
    """The proof-then-search path up to the search: a Proof when the puzzle
    is shown unsolvable, the Result of a quick search (with `quick`) that
    settled it, else the request to search, with the time left and the
    proofs' letter fixpoint."""
    if quick:
        result = _quick_result(puzzle, request, engine, started)
        if result is not None:
            return result
    # the time limit is for the whole run, proofs included
    proof, settled = _cheap_proof(
        puzzle, request.layout, prove, _time_left(started, request.timeout)
    )
    if proof is not None:
        return proof
    return replace(request, timeout=_time_left(started, request.timeout), settled=settled)


def _cheap_proof(
    puzzle: Puzzle, layout: Layout, prove: bool, timeout: float | None
) -> tuple[Proof | None, Settled | None]:
    """A cheap proof, else None; and the propagation's root fixpoint, if found."""
    if prove:
        return proofs.prove_settling(puzzle, layout=layout, timeout=timeout)
    if puzzle.mode == "lexicon":  # most words stay unused: lengths need not match
        return None, None
    return proofs.length_proof(puzzle, layout.sites), None


def _reason(proof: Proof) -> str:
    return proof.reason if proof.layer == "length" else proofs.proof_sentence(proof)


def _exhausted(puzzle: Puzzle, sites: tuple[Site, ...], nodes: int) -> Proof:
    reason = f"the search space is exhausted after {nodes} node{'s' * (nodes != 1)}"
    reason += proofs.cut_words(puzzle)
    words = tuple(puzzle.words) if puzzle.mode == "exact" else ()  # not a whole dictionary
    return Proof("search", reason, sites, words, nodes, minimal=False)


# A search of a small puzzle that finds a solution this fast settles it
# before the proofs run: the proofs are sound, so none could have applied,
# and the search gives the same answer after them as before them. On small
# puzzles the proofs cost as much as such a search; a longer search waits for
# them (which may spare it), and so does a large word list, which each call
# sends to the engine again.
_QUICK_SECONDS = 0.005
_QUICK_WORDS = 2000


def _quick_result(puzzle: Puzzle, request: Request, engine: str, started: float) -> Result | None:
    """The search's result if it finds a solution within _QUICK_SECONDS
    (and half the time limit), else None: then the proofs go first."""
    if len(puzzle.words) > _QUICK_WORDS or (
        puzzle.mode == "exact" and proofs.length_mismatch(puzzle, request.layout.sites) is not None
    ):
        return None  # no search needed to show this one unsolvable
    budget = _QUICK_SECONDS
    if request.timeout is not None:
        budget = min(budget, (started + request.timeout - time.perf_counter()) / 2)
    if budget <= 0:
        return None
    result = engines.search(engine, replace(request, timeout=budget))
    return result if result.status == "solved" else None


# The least time a search is given when the proofs used up the limit: it
# then stops at its first look at the clock, with status "timeout".
_LEAST_SECONDS = 0.001


def _time_left(started: float, timeout: float | None) -> float | None:
    if timeout is None:
        return None
    return max(started + timeout - time.perf_counter(), _LEAST_SECONDS)


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


def _prolog_better(
    puzzle: Puzzle, strategy: str, timeout: float | None, limit: int | None, maximize: Objective
) -> Iterator[Solution]:
    outcome = run(puzzle, engine="prolog", strategy=strategy, timeout=timeout, maximize=maximize)
    better = [b.solution for b in outcome.improvements]
    yield from better if limit is None else better[:limit]
    if outcome.status == "timeout":
        raise TimeoutError(f"no further solution found within {timeout} s")


_SOLVE_KEYWORDS = frozenset(
    {"engine", "strategy", "timeout", "limit", "seed", "min_score", "maximize"}
)


def solve(
    puzzle: Puzzle, options: SearchOptions | None = None, **keywords: Any
) -> Iterator[Solution]:
    """The solutions of `puzzle`, in the engine's order (up to `limit`; all
    by default). The Python engine produces them lazily. The Prolog engine
    answers a search at a time, so it is asked for 1 solution, then 8, 64, ...
    (each search starting afresh and skipping those already given): the
    first solution costs one search, and any number costs at most about
    twice the searches of one. Raises TimeoutError when one search takes
    longer than `timeout` seconds. `strategy`, `seed` and `min_score` as for
    run(); with `maximize`, each better fill in turn, the last the best (the
    Prolog engine gives them when its search ends). The options are a
    SearchOptions (its engine, strategy, timeout, limit, seed, min_score and
    maximize are read), or keywords of those names."""
    unknown = set(keywords) - _SOLVE_KEYWORDS
    if unknown:
        raise TypeError(f"solve() got an unexpected keyword argument {sorted(unknown)[0]!r}")
    options = search_options(options, keywords, SearchOptions(limit=None))
    if _climbs(puzzle, replace(options, limit=1)):  # an ascent: its better fills in turn
        outcome = run(puzzle, replace(options, limit=1))
        better = [b.solution for b in outcome.improvements]
        yield from better if options.limit is None else better[: options.limit]
        if outcome.status == "timeout":
            raise TimeoutError(f"no further solution found within {options.timeout} s")
        return
    if options.min_score is not None:
        puzzle = at_least(puzzle, options.min_score)
    timeout, limit, seed, maximize = options.timeout, options.limit, options.seed, options.maximize
    strategy = _checked(puzzle, options.strategy, seed, maximize)
    _check_timeout(timeout)
    chosen = choose_engine(options.engine)
    if chosen == "prolog" and maximize is not None:
        yield from _prolog_better(puzzle, strategy, timeout, limit, maximize)
        return
    if chosen == "prolog":
        yield from _prolog_batches(puzzle, strategy, timeout, limit, seed)
        return
    started = time.perf_counter()
    try:
        layout = layout_of(puzzle, deadline(timeout))
    except SearchTimeout:
        raise TimeoutError(f"no solution found within {timeout} s") from None
    scores = None if puzzle.scores is None else puzzle.scores.values(puzzle.words)
    request = Request(
        layout,
        puzzle.words,
        strategy,
        limit,
        False,
        timeout,
        seed,
        scores=scores,
        objective=maximize,
    )
    prepared = _prepare(puzzle, request, chosen, True, started, quick=False)
    if isinstance(prepared, Proof):
        return
    assert isinstance(prepared, Request)  # no quick search was asked for
    counters = Counters(deadline=deadline(timeout))
    steps = python_engine.solutions(prepared, counters)
    try:
        for n, words in enumerate(steps, start=1):
            yield make_solution(puzzle, layout.sites, words)
            if limit is not None and n >= limit:
                return
    except SearchTimeout:
        raise TimeoutError(f"no further solution found within {timeout} s") from None
    finally:
        steps.close()
