"""Running a suite: each cell (a grid by an engine with a strategy, or by
the peer) once, in this process, in worker processes (--jobs) or as a
portfolio (--portfolio); every fill verified; the dictionary read, indexed
and sent to Prolog once per process, apart from the timed runs."""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from pybridge import bridge
from pybridge.bench import qxw, suite
from pybridge.bitsets import tables
from pybridge.errors import UsageError
from pybridge.lexicon import Dictionary, load_dictionary
from pybridge.options import BenchOptions, SearchOptions
from pybridge.portfolio import Portfolio, end_with_parent, interrupt_as, interrupt_ignored
from pybridge.progress import Progress
from pybridge.scores import Scores, json_number
from pybridge.search import registry
from pybridge.search.kernel import Watch
from pybridge.solver import Outcome, run
from pybridge.verify import problems

DEFAULT_TIMEOUT = 10.0


DEFAULT_STRATEGIES = (registry.DEFAULT_LEXICON_STRATEGY,)


@dataclass(frozen=True)
class Cell:
    """A run to make: a grid by an engine with a strategy (engine "qxw": the peer)."""

    grid: suite.Grid
    engine: str
    strategy: str

    @property
    def label(self) -> str:
        return label(self.engine, self.strategy)


def label(engine: str, strategy: str) -> str:
    return engine if engine == qxw.QXW else f"{engine} {strategy}"


@dataclass(frozen=True)
class Run:
    """What one cell came to. `problems` lists why a claimed fill is wrong;
    nodes and backtracks are None for a peer, which does not count them."""

    grid: str
    size: str
    engine: str
    strategy: str
    status: str  # solved, unsolvable, timeout
    seconds: float
    nodes: int | None
    backtracks: int | None
    problems: tuple[str, ...] = ()
    stream: int | None = None  # with --portfolio: the stream that answered (from 0)
    # with a scored dictionary: the fill's lowest word score and total, and
    # with --maximize the best value a fill can have (equal when optimal)
    min: float | None = None
    sum: float | None = None
    bound: float | None = None

    @property
    def label(self) -> str:
        return label(self.engine, self.strategy)

    @property
    def wrong(self) -> bool:
        return bool(self.problems)


# The words and dictionary files of this process: set once, before any run,
# in the main process or by each worker's initializer.
_WORDS: tuple[str, ...] = ()


_SCORES: Scores | None = None


_DICTIONARIES: tuple[str, ...] = ()


# The dictionary as the verifier sees it: read afresh from the files, never
# from the cache, so a damaged or edited cache entry cannot vouch for a fill.
_SOURCE_WORDS: tuple[str, ...] | None = None


def _source_words() -> tuple[str, ...]:
    global _SOURCE_WORDS
    if _SOURCE_WORDS is None:
        _SOURCE_WORDS = load_dictionary(_DICTIONARIES, cached=False).words
    return _SOURCE_WORDS


def _start_worker(paths: Sequence[str], parent: int, ignored: bool) -> None:
    """A `--jobs` worker: it ends with its parent (a worker left running
    after an interrupted bench would search on for nobody), at once on
    Ctrl-C even inside a Prolog search (unless the parent ignores SIGINT:
    then so does it), then loads the dictionary."""
    interrupt_as(ignored)
    end_with_parent(parent)
    use_dictionary(paths)


def use_dictionary(paths: Sequence[str], read: Dictionary | None = None) -> None:
    """Make the dictionary `paths` (already `read`, or read now) the one
    every run in this process fills from."""
    global _WORDS, _SCORES, _DICTIONARIES, _SOURCE_WORDS
    _DICTIONARIES = tuple(paths)
    _SOURCE_WORDS = None
    dictionary = read if read is not None else load_dictionary(paths)
    _WORDS, _SCORES = dictionary.words, dictionary.scores


def index(words: Sequence[str]) -> None:
    """Build the bitset tables of `words` (kept for the runs of this process):
    part of loading a dictionary, which bench times apart from the runs."""
    tables(tuple(words))


def send_dictionary(cells: Sequence[Cell], dictionary: Dictionary) -> float | None:
    """Send the dictionary to Prolog now if a cell needs it there (the Prolog
    engine's wdeg and valued), and the seconds that took; None if none does.
    Part of loading the dictionary, reported with it; a worker of --jobs
    sends its own."""
    needed = sorted({cell.strategy for cell in cells if _needs_prolog_dictionary(cell)})
    if not needed:
        return None
    started = time.perf_counter()
    for strategy in needed:
        _send(strategy, dictionary.words, dictionary.scores)
    return time.perf_counter() - started


def _needs_prolog_dictionary(cell: Cell) -> bool:
    return cell.engine == "prolog" and registry.strategy(cell.strategy).reads_dictionary


def _send(strategy: str, words: Sequence[str], scores: Scores | None) -> None:
    bridge.preload(strategy, words, None if scores is None else scores.values(words))


def _prepare(cell: Cell) -> None:
    """Index the dictionary in this process (for the proofs and wdeg) and send
    it to Prolog for wdeg and valued before the first run is timed: that is
    part of loading it, not of a search, and happens once per process."""
    index(_WORDS)
    if _needs_prolog_dictionary(cell):
        _send(cell.strategy, _WORDS, _SCORES)


def run_cell(
    cell: Cell,
    options: BenchOptions,
    watch: Watch | None = None,
    portfolios: Mapping[str, Portfolio] | None = None,
) -> Run:
    """One cell's run, within `options.timeout`, with its seed; an engine of
    `portfolios` runs as that portfolio (its workers started before the
    clock starts, so a run's seconds are from the grid sent to its streams
    to the first answer). With `maximize`, the run searches for the best
    fill (in one stream: see Portfolio.run)."""
    timeout, seed, maximize = options.timeout, options.seed, options.maximize
    puzzle = replace(cell.grid.puzzle, words=_WORDS, scores=_SCORES)
    outcome = None
    stream = None
    portfolio = None if portfolios is None else portfolios.get(cell.engine)
    if cell.engine == qxw.QXW:
        status, seconds, grid = qxw.run_qxw(puzzle, _DICTIONARIES, timeout)
        nodes: int | None = None
        backtracks: int | None = None
    else:
        search = SearchOptions(cell.engine, cell.strategy, seed, timeout, maximize=maximize)
        if portfolio is not None:
            portfolio.start()
            outcome = portfolio.run(puzzle, search)
            stream = None if outcome.winner is None else outcome.winner.stream
        else:
            _prepare(cell)
            outcome = run(puzzle, search, progress=watch)
        status, seconds = outcome.status, outcome.stats.seconds
        grid = outcome.solutions[0].grid if outcome.solutions else None
        nodes, backtracks = outcome.stats.nodes, outcome.stats.backtracks
    wrong: tuple[str, ...] = ()
    if grid is not None and (status == "solved" or maximize is not None):
        judged = puzzle if not _DICTIONARIES else replace(puzzle, words=_source_words())
        wrong = tuple(problems(judged, grid))
    name, size = cell.grid.name, cell.grid.size
    ran = Run(
        name, size, cell.engine, cell.strategy, status, seconds, nodes, backtracks, wrong, stream
    )
    return ran if outcome is None else _scored(ran, outcome)


def _scored(ran: Run, outcome: Outcome) -> Run:
    """The run with its fill's scores and bound, when the words have scores."""
    score = outcome.score
    if score is None:
        return ran

    def number(value: Decimal | None) -> float | None:
        return None if value is None else float(json_number(value))

    return replace(ran, min=number(score.min), sum=number(score.sum), bound=number(score.bound))


def cells(
    grids: Sequence[suite.Grid], engines: Sequence[str], strategies: Sequence[str], peer: bool
) -> list[Cell]:
    """Every run of the suite, grid by grid."""
    found = []
    for grid in grids:
        found += [Cell(grid, e, s) for e in engines for s in strategies]
        if peer:
            found.append(Cell(grid, qxw.QXW, ""))
    return found


def runs(
    todo: Sequence[Cell],
    dictionary: Dictionary,
    options: BenchOptions,
    progress: Progress | None = None,
) -> Iterator[tuple[int, Run]]:
    """Each run of `todo` as it ends, with its place in `todo` (with several
    jobs they end in any order); `progress` hears of each run begun and
    ended, and watches the searches of this process. `jobs` cells run at
    once, or (`portfolio` > 1) one at a time, each engine's searched by a
    portfolio of that many streams (pybridge.portfolio). With `maximize`,
    each run searches for the best fill."""
    jobs, portfolio = options.jobs, options.portfolio
    if jobs > 1:
        if portfolio > 1:
            raise UsageError("--jobs runs cells at once, --portfolio one cell at a time: not both")
        yield from _run_parallel(todo, dictionary.sources, options, progress)
        return
    use_dictionary(dictionary.sources, dictionary)
    with contextlib.ExitStack() as stack:
        portfolios: dict[str, Portfolio] = {}
        if portfolio > 1:
            for engine in dict.fromkeys(cell.engine for cell in todo if cell.engine != qxw.QXW):
                pool = Portfolio(portfolio, engine, dictionary.words)
                portfolios[engine] = stack.enter_context(pool)
        for k, cell in enumerate(todo):
            if progress is not None:
                progress.start(f"{cell.grid.name} {cell.label}")
            watch = None if progress is None else progress.watch
            yield k, run_cell(cell, options, watch, portfolios)
            if progress is not None:
                progress.advance()


def _run_parallel(
    todo: Sequence[Cell],
    dictionaries: Sequence[str],
    options: BenchOptions,
    progress: Progress | None,
) -> Iterator[tuple[int, Run]]:
    jobs = options.jobs
    # spawn, not fork: a forked copy of a loaded SWI-Prolog is not safe to use
    context = multiprocessing.get_context("spawn")
    pool = concurrent.futures.ProcessPoolExecutor(
        jobs,
        mp_context=context,
        initializer=_start_worker,
        initargs=(tuple(dictionaries), os.getpid(), interrupt_ignored()),
    )
    interrupted = False
    try:
        futures = {
            pool.submit(run_cell, cell, options, None, None): i for i, cell in enumerate(todo)
        }
        if progress is not None:
            progress.start(f"{jobs} jobs")
        for future in concurrent.futures.as_completed(futures):
            yield futures[future], future.result()
            if progress is not None:
                progress.advance()
    except BaseException:  # Ctrl-C, or the caller stopped: the runs under way are
        interrupted = True  # for nobody now (a SIGINT to bench alone left them
        _kill_workers(pool)  # running, and the exit waited for them: ~75 s)
        raise
    finally:
        pool.shutdown(wait=not interrupted, cancel_futures=True)


def _kill_workers(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """End `pool`'s worker processes now, whatever they are running (the
    pool then counts as broken, and shutting it down waits for nothing).
    Python 3.14 has ProcessPoolExecutor.kill_workers; before it, the pool's
    processes are reached through its `_processes` table."""
    kill = getattr(pool, "kill_workers", None)
    if kill is not None:
        kill()
        return
    processes: Mapping[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError):  # gone already
            process.kill()
