"""A crossword from nothing: a pattern (pybridge.patterns), then its fill
from a dictionary (pybridge.solver.run), verified (pybridge.verify).

A pattern whose fill is proved impossible, or runs out of its time, gives way
to another (the next seed), up to `tries` fills; each try is reported as it
ends. With a difficulty range, patterns whose estimate (pybridge.difficulty)
falls outside it are passed over before any fill, as are repeats, up to
PASSES of them.

From a scored dictionary, `min_score` leaves out the words below it (a
pattern left with a slot without a word is told by the proof that says so),
and `maximize` fills each pattern with the best fill found in its time:
optimal for that pattern when proved so, never compared across patterns.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from typing import Any, Literal

from pybridge import bridge, proofs
from pybridge.bitsets import tables
from pybridge.difficulty import estimate, parse_range
from pybridge.errors import EngineError, UsageError
from pybridge.model import Solution
from pybridge.options import (
    DEFAULT_MAKE_BLOCKS,
    DEFAULT_TRIES,
    DEFAULT_TRY_TIMEOUT,
    MakeOptions,
    SearchOptions,
)
from pybridge.patterns import DEFAULT_BLOCKS as PATTERN_BLOCKS
from pybridge.patterns import PATTERN_SECONDS, SEED_BOUND, Pattern, asked_rules, pattern_for
from pybridge.scores import ACCEPTABLE, Objective, Scores
from pybridge.search.kernel import Lcg, Status, Watch
from pybridge.solver import (
    DEFAULT_LEXICON_STRATEGY,
    OPTIMISING_STRATEGY,
    BetterFill,
    Outcome,
    Stats,
    at_least,
    check_strategy,
    choose_engine,
    run,
    search_options,
)
from pybridge.verify import solution_problems
from pybridge.wording import and_list, plural

DEFAULT_BLOCKS = DEFAULT_MAKE_BLOCKS  # None: make_blocks, by the size
NEWSPAPER_CELLS = 13 * 13  # from this many cells, make's blocks are grid's
SMALL_GRID_BLOCKS = 0.2
PASSES = 100  # patterns passed over (repeats, out of range) before make gives up
POOL = 8  # patterns drawn at a time, then tried easiest first
# Beyond a 15x15 (TRY_CELLS), a pool is bigger: the estimate picks the
# easiest of many for ~25 ms each, a 21x21 fill that runs out of its time
# costs 7.7 s (make 21x21, seeds 1-10: see docs/benchmarks.md#newspaper-patterns)
BIG_POOL = 64
EXTRA_POOLS = 2  # more pools drawn when an ascent can fill none of a pool above the line
BELOW_LINE_TRIES = 3  # patterns tried after a fill below the acceptable line, for one above
BELOW_LINE = "only below the acceptable line: another pattern is tried"
EASY = 2.5  # an estimated difficulty (log10 of wdeg's nodes) that needs no ranking
TRY_CELLS = 15 * 15  # up to this many cells a fill gets DEFAULT_TRY_TIMEOUT by default
LEAST_SHARE = 0.1  # of a core: by default a try lasts at most 10 times its processor time

__all__ = [
    "DEFAULT_BLOCKS",
    "DEFAULT_TRIES",
    "DEFAULT_TRY_TIMEOUT",
    "Construction",
    "Try",
    "construct",
    "make",
    "make_options",
    "parse_range",
    "try_seconds",
]


@dataclass(frozen=True)
class Try:
    """One pattern and what its fill came to: "solved", "unsolvable" or
    "timeout"."""

    pattern: Pattern
    difficulty: float | None
    status: str
    seconds: float = 0.0
    nodes: int = 0
    reason: str | None = None
    optimal: bool | None = None  # with an objective: whether the fill was proved the best

    def summary(self) -> str:
        pattern = self.pattern
        shown = "none" if self.difficulty is None else f"{self.difficulty:.2f}"
        head = f"pattern seed {pattern.seed} ({pattern.figures()}, difficulty {shown})"
        if self.status == "unsolvable":
            return f"{head}: no fill ({self.reason})"
        if self.status == "timeout":
            return f"{head}: no fill within {self.seconds:.1f} s ({plural(self.nodes, 'node')})"
        filled = f"{head}: filled in {self.seconds:.2f} s ({plural(self.nodes, 'node')})"
        if self.reason:
            filled += f", {self.reason}"
        if self.optimal is None:
            return filled
        return filled + (
            ", proved optimal" if self.optimal else ", the best found in its time (not proved)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.pattern.seed,
            "slots": self.pattern.slots,
            "blocks": self.pattern.blocks,
            "cheaters": self.pattern.cheaters,
            "mean_length": round(self.pattern.mean_length, 2),
            "difficulty": self.difficulty,
            "status": self.status,
            "seconds": self.seconds,
            "nodes": self.nodes,
            "reason": self.reason,
            "optimal": self.optimal,
        }


@dataclass
class Construction:
    """What `make` came to: "solved" with the verified fill of `pattern`;
    else "unsolvable" (every pattern tried was proved unfillable) or
    "timeout" (some fill ran out of time, or the whole time limit passed).
    `outcome` is the last fill's (None when no fill was tried)."""

    status: Status
    pattern: Pattern | None = None
    outcome: Outcome | None = None
    tries: list[Try] = field(default_factory=list)  # the patterns whose fill was tried
    passed_over: int = 0  # patterns not tried: repeats, or out of the difficulty range
    skipped_difficulties: list[float | None] = field(default_factory=list)
    exhausted: bool = False  # stopped for want of a new pattern in range
    last_seed: int | None = None

    @property
    def solution(self) -> Solution | None:
        if self.outcome is None or not self.outcome.solutions:
            return None
        return self.outcome.solutions[0]

    def summary(self) -> str:
        """One sentence on the tries, e.g. for stderr."""
        counts: dict[str, int] = {}
        for t in self.tries:
            counts[t.status] = counts.get(t.status, 0) + 1
        parts = [f"{n} {status}" for status, n in counts.items()]
        text = (
            f"{plural(len(self.tries), 'pattern')} tried ({and_list(parts) if parts else 'none'})"
        )
        if self.passed_over:
            text += f", {self.passed_over} passed over (repeats, or out of the difficulty range)"
        if self.exhausted:
            text += "; no new pattern came up"
        return text


_PATTERN_KEYS = frozenset({"blocks", "symmetry", "rp", "attempts", "seed", "theme"})
_RULE_KEYS = frozenset({"min_length", "allow_unchecked", "max_length", "max_words", "max_cheaters"})
_SEARCH_KEYS = frozenset({"engine", "strategy", "timeout", "min_score", "maximize"})
_MAKE_KEYS = frozenset({"tries", "try_timeout", "difficulty"})


def make_options(rows: int, cols: int, **keywords: Any) -> MakeOptions:
    """The MakeOptions the keywords of make() give: the pattern's (blocks,
    symmetry, min_length, allow_unchecked, max_length, max_words,
    max_cheaters, rp, attempts, seed, theme),
    the fill's (engine, strategy, timeout, min_score, maximize) and make's
    own (tries, try_timeout, difficulty); TypeError for another keyword."""
    unknown = set(keywords) - _PATTERN_KEYS - _RULE_KEYS - _SEARCH_KEYS - _MAKE_KEYS
    if unknown:
        raise TypeError(f"make() got an unexpected keyword argument {sorted(unknown)[0]!r}")

    def picked(keys: frozenset[str]) -> dict[str, Any]:
        return {key: value for key, value in keywords.items() if key in keys}

    rules = asked_rules(**picked(_RULE_KEYS))
    shape = replace(MakeOptions().pattern, rows=rows, cols=cols, rules=rules)
    search = search_options(None, picked(_SEARCH_KEYS))
    pattern = picked(_PATTERN_KEYS)
    if "theme" in pattern:
        pattern["theme"] = tuple(pattern["theme"])
    return MakeOptions(replace(shape, **pattern), search, **picked(_MAKE_KEYS))


def make(
    rows: int,
    cols: int,
    words: Sequence[str],
    *,
    report: Callable[[Try], None] | None = None,
    progress: Watch | None = None,
    scores: Scores | None = None,
    on_better: Callable[[BetterFill], None] | None = None,
    **keywords: Any,
) -> Construction:
    """construct() with the options as keywords (those of make_options):
    `rows` x `cols` patterns filled from `words`."""
    options = make_options(rows, cols, **keywords)
    return construct(
        words, options, report=report, progress=progress, scores=scores, on_better=on_better
    )


def construct(
    words: Sequence[str],
    options: MakeOptions,
    *,
    report: Callable[[Try], None] | None = None,
    progress: Watch | None = None,
    scores: Scores | None = None,
    on_better: Callable[[BetterFill], None] | None = None,
) -> Construction:
    """A pattern (as pybridge.patterns.pattern_for makes it from
    `options.pattern`, from its seed, then seeds drawn from it) filled from
    `words`, trying up to `options.tries` patterns, each fill given
    `try_timeout` seconds (None: no limit; "auto": try_seconds of
    processor time) and all of it the search's `timeout`. `difficulty`
    (low, high) passes over patterns estimated outside it. `report` is
    called with each Try as it ends, `progress` watches each fill's search
    (see solver.run). The fill is verified.

    `scores` are the words' scores (a scored dictionary's): each fill then
    has its score. The search's `min_score` keeps only the words scoring at
    least that much; its `maximize` ("min" or "sum") fills each pattern with
    the best fill the valued strategy finds within its time (proved optimal
    for that pattern when the search ends first), `on_better` hearing of
    each better fill, as solver.run does; its engine and strategy fill."""
    search = options.search
    tries, try_timeout, timeout = options.tries, options.try_timeout, search.timeout
    difficulty, seed = options.difficulty, options.pattern.seed
    strategy, maximize, min_score = search.strategy, search.maximize, search.min_score
    if tries < 1:
        raise UsageError(f"tries must be at least 1, got {tries}")
    for name, limit in (("try_timeout", try_timeout), ("timeout", timeout)):
        if limit is not None and limit != "auto" and not limit > 0:
            raise UsageError(f"{name} must be a positive number of seconds")
    words = tuple(words)
    if not words:
        raise UsageError("a crossword is filled from a dictionary: no word was given")

    shape = options.pattern
    if shape.blocks is None:
        shape = replace(shape, blocks=make_blocks(shape.rows, shape.cols))

    def pattern_of(seed: int | None, timeout: float) -> Pattern:
        return pattern_for(replace(shape, seed=seed, timeout=timeout))

    # the options and the cheap bounds are checked here, before the dictionary is indexed
    first = pattern_of(seed=seed, timeout=_pattern_seconds(time.perf_counter(), timeout))
    if min_score is not None:  # solve's rules and messages, once for every pattern
        kept = at_least(first.puzzle(words, scores), min_score)
        words, scores = kept.words, kept.scores
    words, scores = _with_theme(words, scores, first)
    check_strategy(first.puzzle(words[:1], scores), strategy, maximize)
    engine = choose_engine(search.engine)  # once: a notice, if any, is printed once
    # From a list on the 0-100 scale, with nothing else asked, each pattern
    # gets the best fill an ascent finds in its time (solver's --maximize
    # min): a fill an editor would print, not the first that fits.
    climb = (maximize, min_score, strategy) == (None, None, None) and bool(
        scores is not None and scores.has_line
    )
    fill = _Fill(words, scores, engine, strategy, maximize, on_better, progress, climb)
    fill.prepare()
    started = time.perf_counter()
    clock = _Clock()
    made = Construction("unsolvable")
    size = pool_size(shape.rows, shape.cols)
    draw = _Draw(first, pattern_of, fill, difficulty, timeout, started, size)
    below = _Below()
    pending: list[_Ranked] = []
    at_line: _Ranked | None = None  # the first pattern proved unfillable from the line up
    fills = 0
    while fills < tries:
        if not pending:
            if made.passed_over >= PASSES:
                if not made.tries and difficulty is not None:
                    raise UsageError(_no_pattern_in_range(made, difficulty))
                made.exhausted = True  # no new pattern: the rest are repeats or out of range
                return below.taken(made)
            pending = draw.pool(made)
            continue
        limit = _try_limit(try_timeout, shape.rows, shape.cols, clock)
        last = _last_try(fills, tries, limit, timeout, started)
        ranked = pending.pop(0)
        attempt = fill.attempt(ranked, limit, timeout, started, below=last)
        if at_line is None and not last and fill.climb and attempt.trial.status == "unsolvable":
            at_line = ranked  # unfillable from the line up: maybe below it
        fills += 1
        late = timeout is not None and time.perf_counter() - started >= timeout
        passed = fill.climb and below.passes(attempt, fills < tries and not late)
        trial = replace(attempt.trial, reason=BELOW_LINE) if passed else attempt.trial
        made.tries.append(trial)
        if report is not None:
            report(trial)
        if passed:
            continue
        if attempt.outcome is not None:
            made.outcome = attempt.outcome
        if attempt.trial.status == "solved":
            return below.taken(made, attempt)
        if attempt.trial.status == "timeout":
            made.status = "timeout"
        if late:
            made.status = "timeout"
            return below.taken(made)
    if below.best is None and at_line is not None:  # no fill at all: that one, below the line
        limit = _try_limit(try_timeout, shape.rows, shape.cols, clock)
        attempt = fill.attempt(at_line, limit, timeout, started, below=True)
        made.tries.append(attempt.trial)
        if report is not None:
            report(attempt.trial)
        if attempt.trial.status == "solved":
            return below.taken(made, attempt)
    return below.taken(made)


def _try_limit(
    try_timeout: float | Literal["auto"] | None, rows: int, cols: int, clock: _Clock
) -> float | None:
    """The next fill's time on the clock: `try_timeout`, or for "auto"
    try_seconds of processor time, more on a loaded machine."""
    if try_timeout == "auto":
        return try_seconds(rows, cols) / clock.share()
    return try_timeout


def _last_try(
    fills: int, tries: int, limit: float | None, timeout: float | None, started: float
) -> bool:
    """Whether the next fill is make's last: the last of `tries`, or one
    that starts with less than two fills' time (`limit`) left of `timeout`.
    Only then may an ascent fill below the acceptable line: before it, a
    pattern that the words from the line up cannot fill (the crossings of
    theme entries, often: 8 of the 24 patterns ranked easiest at 21x21 with
    a two-entry theme were proved so, many within 2,000 nodes) gives way
    to the next at once, not after a whole try's fill below the line."""
    if fills + 1 >= tries:
        return True
    if timeout is None or limit is None:
        return False
    return started + timeout - time.perf_counter() < 2 * limit


@dataclass
class _Below:
    """The fills an ascent found only below the acceptable line (the words
    from 25 up cannot fill the pattern: theme entries' crossings, often; on
    make's last tries only, see _last_try): up to BELOW_LINE_TRIES other
    patterns are tried for a fill above it while tries are left, and the
    best of these fills makes the crossword if none comes."""

    best: _Attempt | None = None
    passed: int = 0

    def passes(self, attempt: _Attempt, more: bool) -> bool:
        """Whether another pattern is tried rather than this fill taken."""
        lowest = _lowest(attempt)
        if lowest is None or lowest >= ACCEPTABLE:
            return False
        if self.best is None or lowest > (_lowest(self.best) or 0):
            self.best = attempt
        if more and self.passed < BELOW_LINE_TRIES:
            self.passed += 1
            return True
        return False

    def taken(self, made: Construction, attempt: _Attempt | None = None) -> Construction:
        """`made` filled by `attempt` (a fill), or by the best fill below the
        line when `attempt` is one or none came; verified."""
        chosen = attempt
        if self.best is not None and (chosen is None or self._below(chosen)):
            chosen = self.best
        if chosen is None:
            return made
        made.status, made.pattern, made.outcome = "solved", chosen.trial.pattern, chosen.outcome
        _verify(made)
        return made

    @staticmethod
    def _below(attempt: _Attempt) -> bool:
        lowest = _lowest(attempt)
        return lowest is not None and lowest < ACCEPTABLE


def _lowest(attempt: _Attempt) -> Decimal | None:
    """The lowest score of the attempt's fill (None: no fill, or no scores)."""
    outcome = attempt.outcome
    if attempt.trial.status != "solved" or outcome is None or outcome.score is None:
        return None
    return outcome.score.min


@dataclass(frozen=True)
class _Ranked:
    """A pattern, its estimated difficulty, and the try that a proof settles
    before any search (a slot no word fits), if one does."""

    pattern: Pattern
    difficulty: float | None
    settled: Try | None = None
    below_line: bool = False  # an ascent's first floor cannot fill it (a proof says so)

    def order(self) -> tuple[int, float]:
        """Easiest first, but all those estimated EASY or easier alike (in
        the order drawn, the seed's own pattern first: a small grid has few
        patterns, and other seeds should not all pick its easiest one);
        then those an ascent can fill only below the acceptable line (easy
        with every word, but with junk: theme entries' crossings often
        are), then patterns without an estimate, and those proved
        unfillable last."""
        if self.settled is not None:
            return 3, 0.0
        if self.difficulty is None:
            return 2, 0.0
        return int(self.below_line), max(self.difficulty, EASY)


@dataclass
class _Draw:
    """The patterns make tries, drawn `size` at a time (pool_size) and each pool tried
    easiest first by the estimated difficulty with the words the fill starts
    from (the dictionary, or its acceptable words for an ascent): a
    pattern estimated easy is far likelier to fill in its time (21x21 with
    the shipped list's acceptable words: the 5 easiest of 40 patterns
    filled, 1 of 4 drawn at random). The first pattern's seed is make's;
    the others are drawn from it, so that other seeds try other patterns
    (with seeds N, N+1, ... two seeds would share most of a pool, and
    often its easiest pattern)."""

    first: Pattern
    pattern_of: Callable[..., Pattern]
    fill: _Fill
    difficulty: tuple[float, float] | None
    timeout: float | None
    started: float
    size: int = POOL
    seen: set[tuple[str, ...]] = field(default_factory=set)
    drawn: int = 0
    seeds: Lcg = field(init=False)

    def __post_init__(self) -> None:
        self.seeds = Lcg(self.first.seed)  # the other patterns' seeds

    def pool(self, made: Construction) -> list[_Ranked]:
        """The next `size` patterns, new ones only, easiest first; repeats
        and patterns out of the difficulty range are passed over. When an
        ascent could fill none of them above the acceptable line, up to
        EXTRA_POOLS more are drawn first (theme entries' crossings: a whole
        pool below the line happens)."""
        found = self._drawn(made)
        for _ in range(EXTRA_POOLS):
            if made.passed_over >= PASSES or not all(r.below_line for r in found):
                break
            found += self._drawn(made)
        return sorted(found, key=_Ranked.order)

    def _drawn(self, made: Construction) -> list[_Ranked]:
        found = []
        for _ in range(self.size):
            pattern = self._next()
            made.last_seed = pattern.seed
            if pattern.letters in self.seen:
                made.passed_over += 1
                continue
            self.seen.add(pattern.letters)
            ranked = self.fill.rank(pattern)
            if self.difficulty is not None and ranked.settled is None:
                low, high = self.difficulty
                if ranked.difficulty is None or not low <= ranked.difficulty <= high:
                    made.passed_over += 1
                    made.skipped_difficulties.append(ranked.difficulty)
                    continue
            found.append(ranked)
            if made.passed_over >= PASSES:
                break
        return found

    def _next(self) -> Pattern:
        self.drawn += 1
        if self.drawn == 1:
            return self.first
        seed = self.seeds.below(SEED_BOUND)
        return self.pattern_of(seed=seed, timeout=_pattern_seconds(self.started, self.timeout))


def pool_size(rows: int, cols: int) -> int:
    """The patterns make draws at a time: POOL up to a 15x15, BIG_POOL beyond."""
    return POOL if rows * cols <= TRY_CELLS else BIG_POOL


def try_seconds(rows: int, cols: int) -> float:
    """make's processor time per fill by default: DEFAULT_TRY_TIMEOUT up to
    a 15x15, then growing with the square of the cells (17x17: 3.3 s,
    21x21: 7.7 s), as a first fill's nodes grow faster than the grid (the
    easiest of make's first 8 21x21 patterns, from the shipped list's words
    of 25 and up, seeds 1-8: 0.8k to 72k nodes, 7 of 8 within 12.8k)."""
    return DEFAULT_TRY_TIMEOUT * max(1.0, rows * cols / TRY_CELLS) ** 2


@dataclass
class _Clock:
    """The share of a core this process got since the last look: a try's
    processor time divided by it is the try's time on the clock."""

    wall: float = field(default_factory=time.perf_counter)
    cpu: float = field(default_factory=time.process_time)

    def share(self) -> float:
        """The share since the last look (LEAST_SHARE to 1), and look now."""
        wall, cpu = time.perf_counter(), time.process_time()
        spent, used = wall - self.wall, cpu - self.cpu
        self.wall, self.cpu = wall, cpu
        got = used / spent if spent > 0 else 1.0
        return min(1.0, max(LEAST_SHARE, got))


def make_blocks(rows: int, cols: int) -> float:
    """make's blocks by default: grid's 1/6 from 13x13 up (newspaper sizes,
    whose limit on words it meets), 0.2 below: a small grid has few patterns
    with 1/6 (7x7: one), and make draws several."""
    return SMALL_GRID_BLOCKS if rows * cols < NEWSPAPER_CELLS else PATTERN_BLOCKS


def _with_theme(
    words: tuple[str, ...], scores: Scores | None, pattern: Pattern
) -> tuple[tuple[str, ...], Scores | None]:
    """The words, and after them the theme entries the dictionary lacks: a
    theme entry is a word of this crossword whatever the dictionary says.
    Scored, a theme entry counts as the list's top score: the constructor
    chose it, so it never bounds the fill's min nor keeps an ascent below
    its floor."""
    if not pattern.theme:
        return words, scores
    known = set(words)
    words += tuple(entry.word for entry in pattern.theme if entry.word not in known)
    if scores is not None:
        top = scores.levels[-1]
        chosen = dict.fromkeys((entry.word for entry in pattern.theme), top)
        scores = replace(scores, written={**scores.written, **chosen})
    return words, scores


def _pattern_seconds(started: float, timeout: float | None) -> float:
    """The time a pattern may take: PATTERN_SECONDS, or what is left of `timeout`."""
    if timeout is None:
        return PATTERN_SECONDS
    return max(min(PATTERN_SECONDS, started + timeout - time.perf_counter()), 0.001)


@dataclass(frozen=True)
class _Attempt:
    trial: Try
    outcome: Outcome | None


@dataclass(frozen=True)
class _Fill:
    """How every pattern is filled: from which words (and scores), by which
    engine and strategy, for which objective."""

    words: tuple[str, ...]
    scores: Scores | None
    engine: str
    strategy: str | None
    maximize: Objective | None
    on_better: Callable[[BetterFill], None] | None
    progress: Watch | None
    climb: bool = False  # the best fill in the time, though no objective was asked for

    def prepare(self) -> None:
        """Index the dictionary, and send it to Prolog for wdeg or valued,
        once before any fill is timed: that is loading it, not filling a
        pattern."""
        tables(self.words)
        if self.engine != "prolog" or self.climb:  # an ascent sends each floor's words
            return
        scores = None if self.scores is None else self.scores.values(self.words)
        default = OPTIMISING_STRATEGY if self.maximize else DEFAULT_LEXICON_STRATEGY
        bridge.preload(self.strategy or default, self.words, scores)

    @cached_property
    def first_words(self) -> tuple[str, ...]:
        """The words the fill starts from: an ascent's first floor is the
        acceptable line (solver._ascend), else all of them."""
        if not self.climb or self.scores is None:
            return self.words
        return self.scores.keeping(self.words, ACCEPTABLE)

    def rank(self, pattern: Pattern) -> _Ranked:
        """The pattern with its estimated difficulty with the words its fill
        starts from, or the try a proof settles when a slot has no word at
        all (no search needed)."""
        first = self.first_words
        below_line = False
        if first is not self.words:  # an ascent's first floor: estimated there
            # (no word at all: estimate would judge the pattern alone)
            puzzle = pattern.puzzle(first, self.scores)
            estimated = estimate(puzzle, first).difficulty if first else None
            # with theme entries, the cheap proofs too: their crossings often
            # leave a slot no word fits once letters are propagated
            if estimated is not None and not (pattern.theme and proofs.prove(puzzle)):
                return _Ranked(pattern, estimated)
            below_line = True  # the ascent goes below the line at once: its fill has junk
        puzzle = pattern.puzzle(self.words, self.scores)
        estimated = estimate(puzzle, self.words).difficulty
        if estimated is None:  # a slot without a word, or a crossing no two words agree on
            proof = proofs.prove(puzzle)  # says which: no search needed
            if proof is not None:
                trial = Try(pattern, None, "unsolvable", reason=proofs.proof_sentence(proof))
                return _Ranked(pattern, None, trial)
        return _Ranked(pattern, estimated, below_line=below_line)

    def attempt(
        self,
        ranked: _Ranked,
        try_timeout: float | None,
        timeout: float | None,
        started: float,
        below: bool = True,
    ) -> _Attempt:
        """Fill the pattern (unless a proof settled it); an ascent's fill
        below the acceptable line only when `below` (else a pattern that the
        words from the line up cannot fill is told unsolvable, as soon as
        the search proves it)."""
        if ranked.settled is not None:
            return _Attempt(ranked.settled, None)
        pattern, estimated = ranked.pattern, ranked.difficulty
        puzzle = pattern.puzzle(self.words, self.scores)
        limit = try_timeout
        if timeout is not None:
            left = max(started + timeout - time.perf_counter(), 0.001)
            limit = left if limit is None else min(limit, left)
        objective: Objective | None = "min" if self.climb else self.maximize
        floor = None if below or not self.climb else ACCEPTABLE
        fill = SearchOptions(
            self.engine, self.strategy, timeout=limit, min_score=floor, maximize=objective
        )
        outcome = run(puzzle, options=fill, progress=self.progress, on_better=self.on_better)
        if self.climb and outcome.score is not None:  # no objective was asked for
            unfilled = outcome.score.min is None
            outcome.score = None if unfilled else replace(outcome.score, optimal=None, bound=None)
            outcome.improvements = []
        stats: Stats = outcome.stats
        # with an objective, the best fill found in the time fills the pattern
        status = "solved" if outcome.solutions else outcome.status
        optimal = None if outcome.score is None or not self.maximize else outcome.score.optimal
        trial = Try(pattern, estimated, status, stats.seconds, stats.nodes, outcome.reason, optimal)
        return _Attempt(trial, outcome)


def _no_pattern_in_range(made: Construction, difficulty: tuple[float, float]) -> str:
    found = [d for d in made.skipped_difficulties if d is not None]
    low, high = difficulty
    seen = f"; theirs ranged from {min(found):.2f} to {max(found):.2f}" if found else ""
    return (
        f"no pattern with a difficulty from {low:g} to {high:g} among "
        f"{plural(made.passed_over, 'pattern')}{seen}: widen the range, or change the size, "
        "blocks or rules"
    )


def _verify(made: Construction) -> None:
    """The fill checked by the verifier, which trusts neither engine."""
    solution = made.solution
    if solution is None:
        raise EngineError("the fill reported no grid")
    problems = solution_problems(solution)
    if problems:
        raise EngineError(f"the fill failed verification: {problems[0]}")
