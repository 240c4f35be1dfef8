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
from typing import Any

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
from pybridge.patterns import PATTERN_SECONDS, SEED_BOUND, Pattern, asked_rules, pattern_for
from pybridge.scores import Objective, Scores
from pybridge.search.kernel import Status, Watch
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

DEFAULT_BLOCKS = DEFAULT_MAKE_BLOCKS
PASSES = 100  # patterns passed over (repeats, out of range) before make gives up

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
]


@dataclass(frozen=True)
class Try:
    """One pattern and what its fill came to: "solved", "unsolvable" or
    "timeout" ("skipped", inside make, for a difficulty out of range)."""

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
        head = (
            f"pattern seed {pattern.seed} ({pattern.slots} slots, {pattern.blocks} blocks, "
            f"difficulty {shown})"
        )
        if self.status == "unsolvable":
            return f"{head}: no fill ({self.reason})"
        if self.status == "timeout":
            return f"{head}: no fill within {self.seconds:.1f} s ({plural(self.nodes, 'node')})"
        filled = f"{head}: filled in {self.seconds:.2f} s ({plural(self.nodes, 'node')})"
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


_PATTERN_KEYS = frozenset({"blocks", "symmetry", "rp", "attempts", "seed"})
_RULE_KEYS = frozenset({"min_length", "allow_unchecked", "max_length"})
_SEARCH_KEYS = frozenset({"engine", "strategy", "timeout", "min_score", "maximize"})
_MAKE_KEYS = frozenset({"tries", "try_timeout", "difficulty"})


def make_options(rows: int, cols: int, **keywords: Any) -> MakeOptions:
    """The MakeOptions the keywords of make() give: the pattern's (blocks,
    symmetry, min_length, allow_unchecked, max_length, rp, attempts, seed),
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
    return MakeOptions(replace(shape, **picked(_PATTERN_KEYS)), search, **picked(_MAKE_KEYS))


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
    `options.pattern`, from its seed, then seed + 1, ...) filled from
    `words`, trying up to `options.tries` patterns, each fill given
    `try_timeout` seconds (None: no limit) and all of it the search's
    `timeout`. `difficulty` (low, high) passes over patterns estimated
    outside it. `report` is called with each Try as it ends, `progress`
    watches each fill's search (see solver.run). The fill is verified.

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
        if limit is not None and not limit > 0:
            raise UsageError(f"{name} must be a positive number of seconds")
    words = tuple(words)
    if not words:
        raise UsageError("a crossword is filled from a dictionary: no word was given")

    def pattern_of(seed: int | None, timeout: float) -> Pattern:
        return pattern_for(replace(options.pattern, seed=seed, timeout=timeout))

    # the options and the cheap bounds are checked here, before the dictionary is indexed
    first = pattern_of(seed=seed, timeout=_pattern_seconds(time.perf_counter(), timeout))
    if min_score is not None:  # solve's rules and messages, once for every pattern
        kept = at_least(first.puzzle(words, scores), min_score)
        words, scores = kept.words, kept.scores
    check_strategy(first.puzzle(words[:1], scores), strategy, maximize)
    engine = choose_engine(search.engine)  # once: a notice, if any, is printed once
    fill = _Fill(words, scores, engine, strategy, maximize, on_better, progress)
    fill.prepare()
    started = time.perf_counter()
    made = Construction("unsolvable")
    seen: set[tuple[str, ...]] = set()
    pattern: Pattern | None = first
    fills = 0
    while fills < tries:
        if made.passed_over >= PASSES:
            if not made.tries and difficulty is not None:
                raise UsageError(_no_pattern_in_range(made, difficulty))
            made.exhausted = True  # no new pattern: the rest are repeats or out of range
            return made
        if pattern is None:
            last = made.last_seed if made.last_seed is not None else first.seed
            left = _pattern_seconds(started, timeout)
            pattern = pattern_of(seed=(last + 1) % SEED_BOUND, timeout=left)
        made.last_seed = pattern.seed
        attempt = None
        if pattern.grid not in seen:
            seen.add(pattern.grid)
            attempt = fill.attempt(pattern, difficulty, try_timeout, timeout, started)
        pattern = None
        if attempt is None or attempt.trial.status == "skipped":
            made.passed_over += 1
            if attempt is not None:
                made.skipped_difficulties.append(attempt.trial.difficulty)
            continue
        fills += 1
        made.tries.append(attempt.trial)
        if report is not None:
            report(attempt.trial)
        if attempt.outcome is not None:
            made.outcome = attempt.outcome
        if attempt.trial.status == "solved":
            made.status, made.pattern = "solved", attempt.trial.pattern
            _verify(made)
            return made
        if attempt.trial.status == "timeout":
            made.status = "timeout"
        if timeout is not None and time.perf_counter() - started >= timeout:
            made.status = "timeout"
            return made
    return made


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

    def prepare(self) -> None:
        """Index the dictionary, and send it to Prolog for wdeg or valued,
        once before any fill is timed: that is loading it, not filling a
        pattern."""
        tables(self.words)
        if self.engine != "prolog":
            return
        scores = None if self.scores is None else self.scores.values(self.words)
        default = OPTIMISING_STRATEGY if self.maximize else DEFAULT_LEXICON_STRATEGY
        bridge.preload(self.strategy or default, self.words, scores)

    def attempt(
        self,
        pattern: Pattern,
        difficulty: tuple[float, float] | None,
        try_timeout: float | None,
        timeout: float | None,
        started: float,
    ) -> _Attempt:
        """Estimate the pattern, and fill it unless its difficulty is out of range."""
        puzzle = pattern.puzzle(self.words, self.scores)
        estimated = estimate(puzzle, self.words).difficulty
        if estimated is None:  # a slot without a word, or a crossing no two words agree on
            proof = proofs.prove(puzzle)  # says which: no search needed
            if proof is not None:
                trial = Try(pattern, None, "unsolvable", reason=proofs.proof_sentence(proof))
                return _Attempt(trial, None)
        if difficulty is not None and (
            estimated is None or not difficulty[0] <= estimated <= difficulty[1]
        ):
            return _Attempt(Try(pattern, estimated, "skipped"), None)
        limit = try_timeout
        if timeout is not None:
            left = max(started + timeout - time.perf_counter(), 0.001)
            limit = left if limit is None else min(limit, left)
        fill = SearchOptions(self.engine, self.strategy, timeout=limit, maximize=self.maximize)
        outcome = run(puzzle, options=fill, progress=self.progress, on_better=self.on_better)
        stats: Stats = outcome.stats
        # with an objective, the best fill found in the time fills the pattern
        status = "solved" if outcome.solutions else outcome.status
        optimal = None if outcome.score is None else outcome.score.optimal
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
