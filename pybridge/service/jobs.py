"""The jobs: solve, check, make, pattern, difficulty and word search, each
taking its option objects and giving back the values that the command line
renders and the JSON API serialises. Who asked hears how a job goes through
a Listener (a progress line on the terminal, the page's progress bar).

A job is the library's work and nothing of its presentation: no argv, no
printing (notices go to the listener), no exit codes (those are
pybridge.service.answers')."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from pybridge import proofs
from pybridge.errors import UsageError, shown
from pybridge.lexicon import Dictionary
from pybridge.model import Puzzle
from pybridge.options import (
    DictionaryOptions,
    MakeOptions,
    PatternOptions,
    PuzzleOptions,
    SearchOptions,
    WordSearchOptions,
)
from pybridge.portfolio import Portfolio
from pybridge.progress import CubesProgress, Progress
from pybridge.service.puzzles import (
    Puzzles,
    or_shipped,
    read_dictionary,
    read_puzzles,
    timeout_left,
)
from pybridge.solver import BetterFill, Outcome, Status, run

if TYPE_CHECKING:  # patterns, make, the word search, bench and the difficulty load when used
    from pybridge.bench.suite import Grid
    from pybridge.construct import Construction, Try
    from pybridge.difficulty import Estimate
    from pybridge.patterns import Pattern
    from pybridge.wordsearch.model import Found, Made, Request


class Listener:
    """Who hears how a job goes. This one hears nothing and shows nothing
    but notices (on stderr); the command line and the workbench each have
    their own (a progress line on the terminal, the page's progress)."""

    def line(self, what: str, timeout: float | None) -> Progress:
        """The progress of one search or one make (a Progress: the job
        enters it, gives its `watch` to the engine and `start`s its phases),
        `what` naming it, `timeout` its time limit."""
        return Progress(False, what, timeout=timeout)

    def puzzle(self, puzzle: Puzzle, many: bool) -> None:
        """A puzzle's search begins (`many`: one grid of several)."""

    def better(self, found: BetterFill, line: Progress) -> None:
        """A better fill was found (maximize), during `line`."""

    def cubes_line(self, total: int, running: Callable[[], Mapping[int, float]]) -> CubesProgress:
        """The progress of a split search's `total` cubes (`running`: the
        cubes under way, each with when it started)."""
        return CubesProgress(False, total, running)

    def tried(self, number: int, trial: Try, line: Progress) -> None:
        """The fill of make's `number`-th pattern ended."""

    def notice(self, text: str) -> None:
        """Something the user should know (what a dictionary skipped...)."""
        print(text, file=sys.stderr)


QUIET = Listener()

# ---------------------------------------------------------------- solve and check


@dataclass(frozen=True)
class Solved:
    """A puzzle and what its search came to; `many`: one grid of several."""

    puzzle: Puzzle
    outcome: Outcome
    many: bool


def solve(
    source: PuzzleOptions, search: SearchOptions, listener: Listener = QUIET
) -> Iterator[Solved]:
    """`crossword solve`: each puzzle of `source`, searched as `search` says
    (with `jobs` > 1 by a portfolio), as it ends."""
    return solve_read(read_puzzles(source, search, listener.notice), search, listener)


def solve_read(
    read: Puzzles, search: SearchOptions, listener: Listener = QUIET, streams: bool = True
) -> Iterator[Solved]:
    """solve(), for puzzles read already; without `streams`, each search
    runs here, `jobs` unread (the workbench's requests, each in a thread)."""
    many = len(read.puzzles) > 1
    with contextlib.ExitStack() as stack:
        portfolio = None
        if streams:
            first = read.puzzles[0]
            words = first.words if first.mode == "lexicon" else ()  # a dictionary: held once
            portfolio = stack.enter_context(Portfolio(search.jobs, search.engine, words))
        for puzzle in read.puzzles:
            listener.puzzle(puzzle, many)
            timeout = timeout_left(read.budget)
            outcome = solve_puzzle(puzzle, search, timeout, listener, portfolio)
            yield Solved(puzzle, outcome, many)


def solve_puzzle(
    puzzle: Puzzle,
    search: SearchOptions,
    timeout: float | None,
    listener: Listener = QUIET,
    portfolio: Portfolio | None = None,
) -> Outcome:
    """The search `search` asks for, within `timeout`: up to its limit of
    solutions, all, their count, or whether there is exactly one, or with
    `maximize` the best fill (the listener hears of each better one). With
    a `portfolio`, its streams search; without one, a single search runs
    here. The min score was applied when the puzzle was read."""
    asked = replace(search, timeout=timeout, min_score=None)
    with listener.line(f"solve {shown(puzzle.source)}", timeout) as line:
        on_better = None if search.maximize is None else partial(listener.better, line=line)
        if portfolio is None:
            return run(puzzle, asked, progress=line.watcher, on_better=on_better)
        return portfolio.run(puzzle, asked, progress=line.watcher, on_better=on_better)


def check(
    source: PuzzleOptions, search: SearchOptions, listener: Listener = QUIET
) -> Iterator[Solved]:
    """`crossword check`: each puzzle of `source`, with a solution or the
    proof that there is none, as it ends."""
    return check_read(read_puzzles(source, search, listener.notice), search, listener)


def check_read(
    read: Puzzles, search: SearchOptions, listener: Listener = QUIET
) -> Iterator[Solved]:
    """check(), for puzzles read already."""
    many = len(read.puzzles) > 1
    for puzzle in read.puzzles:
        listener.puzzle(puzzle, many)
        with listener.line(f"check {shown(puzzle.source)}", search.timeout) as line:
            outcome = check_puzzle(puzzle, search, timeout_left(read.budget), line)
        yield Solved(puzzle, outcome, many)


def check_puzzle(
    puzzle: Puzzle, search: SearchOptions, timeout: float | None, line: Progress
) -> Outcome:
    """Search for one solution within `timeout`; when there is none, say
    why: the search's proof, its core shrunk for as long again as the
    verdict took (proofs.shrink_seconds), minimal if that was enough."""
    asked = SearchOptions(search.engine, search.strategy, search.seed, timeout)
    outcome = run(puzzle, asked, progress=line.watcher)
    if outcome.status != "unsolvable":
        return outcome
    # the verdict stands; the core is shrunk only within a budget (issue 34)
    line.start("unsolvable: shrinking the core")
    left = None if timeout is None else timeout - outcome.stats.seconds
    seconds = proofs.shrink_seconds(outcome.stats.seconds, left)
    assert outcome.proof is not None  # an unsolvable outcome always carries its proof
    proof = proofs.shrink(outcome.puzzle or puzzle, outcome.proof, seconds=seconds)
    outcome.proof = proof
    outcome.reason = proof.reason if proof.layer == "length" else proofs.proof_sentence(proof)
    return outcome


# ---------------------------------------------------------------- patterns and make


@dataclass(frozen=True)
class Patterned:
    """What a pattern request came to: "solved" with the pattern, else
    "unsolvable" (no pattern can meet it) or "timeout" (none found in the
    attempts or the time), with the reason."""

    status: Status
    pattern: Pattern | None
    reason: str | None = None


def pattern(options: PatternOptions) -> Patterned:
    """`crossword grid`: a random grid pattern."""
    from pybridge.patterns import ImpossiblePattern, PatternNotFound, pattern_for

    try:
        return Patterned("solved", pattern_for(options))
    except ImpossiblePattern as err:
        return Patterned("unsolvable", None, str(err))
    except PatternNotFound as err:
        return Patterned("timeout", None, str(err))


def make(
    options: MakeOptions, dictionary: DictionaryOptions, listener: Listener = QUIET
) -> Construction:
    """`crossword make`: patterns filled from the dictionaries until one
    fills (the listener hears of each try as it ends). ImpossiblePattern and
    PatternNotFound pass to the caller: no pattern could be tried."""
    from pybridge.construct import construct

    words = _dictionary(or_shipped(dictionary), listener)
    tried = 0
    # "auto": each try's time on the clock depends on the load (no countdown)
    each = None if options.try_timeout == "auto" else options.try_timeout
    with listener.line("make", each) as line:
        line.start("try 1")

        def report(trial: Try) -> None:
            nonlocal tried
            tried += 1
            listener.tried(tried, trial, line)
            line.start(f"try {tried + 1}")

        on_better = None if options.search.maximize is None else partial(listener.better, line=line)
        return construct(
            words.words,
            options,
            report=report,
            progress=line.watcher,
            scores=words.scores,
            on_better=on_better,
        )


# ---------------------------------------------------------------- difficulty


@dataclass(frozen=True)
class Rated:
    """A grid of a suite and its estimated difficulty."""

    grid: Grid
    estimate: Estimate


def difficulty(
    paths: Sequence[str],
    dictionary: DictionaryOptions,
    sort: bool = False,
    listener: Listener = QUIET,
) -> list[Rated]:
    """`crossword difficulty`: every grid the paths name (files, or folders
    of *.txt grids), estimated for the dictionaries (none: the grid alone),
    from the easiest to the hardest with `sort`."""
    from pybridge.bench.suite import load_suite
    from pybridge.difficulty import estimate

    grids = load_suite(paths)
    words: tuple[str, ...] = ()
    if dictionary.paths:
        words = _dictionary(dictionary, listener).words
    elif dictionary.encoding is not None:
        raise UsageError("--encoding goes with --dict")
    rated = [Rated(grid, estimate(grid.puzzle, words)) for grid in grids]
    if sort:
        rated.sort(
            key=lambda r: float("inf") if r.estimate.difficulty is None else r.estimate.difficulty
        )
    return rated


def _dictionary(options: DictionaryOptions, listener: Listener) -> Dictionary:
    words = read_dictionary(options)
    if words.skipped or words.weighted:
        listener.notice(f"dictionary: {words.summary()}")
    return words


# ---------------------------------------------------------------- word search


def wordsearch_request(options: WordSearchOptions) -> Request:
    """The word search `options` ask for, its files read and checked (a
    seed drawn when none is given)."""
    from pybridge.wordsearch import maker, reading
    from pybridge.wordsearch.model import Shape, directions_of

    words = reading.load_words(options.words)
    avoid = reading.load_words(options.avoid, "word to avoid") if options.avoid else ()
    shape = None
    if options.mask is not None:
        shape = reading.load_mask(options.mask)
    elif options.size is not None:
        shape = Shape.rectangle(*reading.parse_size(options.size))
    letters = reading.parse_letters(options.letters) if options.letters is not None else None
    return maker.request_of(
        words,
        shape,
        directions=directions_of(options.directions),
        overlap=options.overlap,
        seed=options.seed,
        avoid=avoid,
        letters=letters,
        timeout=options.timeout,
    )


def wordsearch_make(request: Request, engine: str | None = None) -> Made:
    """`crossword wordsearch make`: the word search of `request`."""
    from pybridge.wordsearch import maker

    return maker.make(request, engine)


@dataclass(frozen=True)
class Searched:
    """A word search's grid, the words looked for and where they were found."""

    grid: tuple[str, ...]
    words: tuple[str, ...]
    found: Found


def wordsearch_solve(grid_path: str, words_path: str) -> Searched:
    """`crossword wordsearch solve`: every occurrence of the words in the grid."""
    from pybridge.wordsearch import reading
    from pybridge.wordsearch.finder import find

    grid = reading.load_grid(grid_path)
    words = reading.load_words(words_path)
    return Searched(grid, tuple(words), find(grid, words))
