"""A portfolio: one puzzle searched by several streams at once, each in a
worker process of its own; the first stream to settle the puzzle wins.

A stream is a whole search, the very one that `crossword solve --strategy S
--seed N` makes in one process (streams() says which S and N each stream
takes): where one stream is stuck another often is not. The first stream to
settle the puzzle - with its fills, or with a proof that there is none -
wins, and the others are killed at once; when every stream reaches the time
limit, the answer is a time-out. Stream 0 starts at once and the others
only once it has searched STAGGER_SECONDS without an answer, so that the
many puzzles settled in a fraction of a second cost no other process. One
job spawns nothing: the search runs in this process, as pybridge.run does.

The streams run the engine asked for, else the Python engine when its
search is compiled (engines.choose_streams_engine: each stream's search is
the same in both engines, and sooner there). Workers are spawned, not
forked (a forked copy of a loaded SWI-Prolog is not safe to use), and each
ends when its parent does. A Portfolio keeps its workers from one puzzle
to the next, each holding the dictionary already indexed and sent to its
Prolog engine, so that a suite of grids pays for that once (bench); a
killed loser is replaced before the next puzzle.

What is reproducible with more than one job: each stream's search, node for
node (the answer names the winning stream's strategy and seed: one process
with those makes the same search), and every fill is as checked and every
proof as sound as with one job. Which stream wins first - and so which fill
comes back, after how many nodes and seconds - depends on how the machine
shares its cores, and is not.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pybridge.bitsets import tables
from pybridge.engines import choose_streams_engine
from pybridge.errors import CrosswordError, EngineError, InputError, UsageError
from pybridge.layout import layout_of
from pybridge.model import Puzzle
from pybridge.options import SearchOptions
from pybridge.proofs import Proof
from pybridge.scores import Objective, Score
from pybridge.search import registry
from pybridge.search.kernel import Watch
from pybridge.solver import (
    BetterFill,
    Outcome,
    Stats,
    Winner,
    check_strategy,
    make_solution,
    run,
    search_options,
)
from pybridge.solver import check_seed as _check_seed

if TYPE_CHECKING:  # multiprocessing loads when a second stream starts
    from multiprocessing.connection import Connection
    from multiprocessing.context import SpawnContext
    from multiprocessing.process import BaseProcess

PARENT_CHECK_SECONDS = 0.5  # how often a worker checks that its parent lives
EXIT_ORPHANED = 130  # a worker's status when it ends because its parent did
GRACE_SECONDS = 5.0  # past the time limit, how long a stream may take to say so
# The other streams start when stream 0 has searched this long without an
# answer: most grids are filled in a fraction of a second, by stream 0 alone,
# before the other streams would take CPU from it (on a busy machine, a
# second process of ours slows the first by up to half) or need replacing.
STAGGER_SECONDS = 0.5
# ---------------------------------------------------------------- streams


@dataclass(frozen=True)
class Stream:
    """One search of a portfolio: its place (from 0), strategy and seed."""

    index: int
    strategy: str
    seed: int | None


def streams(strategy: str, seed: int | None, jobs: int) -> list[Stream]:
    """The streams of a portfolio of `jobs`. Stream 0 is the search that
    one job makes (the strategy and seed as asked); stream i takes the seed
    `seed` + i x step (from 0 without a seed), the step being the number of
    seeds one search of the strategy draws from. A strategy without a seed
    makes the same search every time: it gets one stream, whatever `jobs`."""
    chosen = registry.strategy(strategy)
    if not chosen.seeded:
        return [Stream(0, strategy, seed)]
    step = chosen.seeds  # wdeg's search draws from seeds N and N + 1: its streams step by two
    first = seed or 0
    return [Stream(0, strategy, seed)] + [
        Stream(i, strategy, first + i * step) for i in range(1, jobs)
    ]


# ---------------------------------------------------------------- workers


def end_with_parent(parent: int) -> None:
    """Start a thread that ends this process when `parent` (its parent's
    pid) has ended: a worker left running would search on for nobody.
    A Prolog search runs in C with the interpreter lock released, so the
    thread looks even while one runs; an orphan's parent is another process."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(EXIT_ORPHANED)

    threading.Thread(target=watch, daemon=True).start()


@dataclass(frozen=True)
class _Task:
    """A search for a worker: the puzzle (without its words when they are
    the dictionary the worker holds), the options of pybridge.run (the time
    limit apart), and the deadline on the monotonic clock, which every
    process reads alike."""

    puzzle: Puzzle
    held_words: bool
    options: SearchOptions
    deadline: float | None


@dataclass(frozen=True)
class _Answer:
    """What a stream came to: an Outcome without the puzzle (each solution
    as the word of every site, in site order), so that it travels light."""

    status: str
    solutions: list[list[str]]
    count: int | None
    reason: str | None
    stats: Stats
    proof: Proof | None
    unique: bool | None


def interrupt_as(ignored: bool) -> None:
    """A worker's SIGINT, set first thing: ignored when its parent ignores
    it (started with nohup or in the background, a group SIGINT must not
    end its searches), else the default action, so that Ctrl-C ends it at
    once, even inside a Prolog search. A spawned worker does not inherit
    the parent's Python handlers, so the parent says which."""
    signal.signal(signal.SIGINT, signal.SIG_IGN if ignored else signal.SIG_DFL)


def interrupt_ignored() -> bool:
    """Whether this process ignores SIGINT (what its workers are told)."""
    return signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def _serve(
    conn: Connection, words: tuple[str, ...], engine: str, parent: int, ignored: bool
) -> None:
    """A worker's life: hold the dictionary `words` (indexed, and sent to
    Prolog for the Prolog engine), then answer tasks until told to stop."""
    interrupt_as(ignored)
    end_with_parent(parent)
    if words:
        tables(words)
        if engine == "prolog":
            from pybridge import bridge  # the Prolog engine's start, in this worker alone

            bridge.load_dictionary(words)
    conn.send("ready")
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        conn.send(_answer(task, words))


def _answer(task: _Task, words: tuple[str, ...]) -> _Answer | BaseException:
    """The task's answer, or the error that stopped it (pickled back)."""
    puzzle = replace(task.puzzle, words=words) if task.held_words else task.puzzle
    timeout = None
    if task.deadline is not None:
        timeout = max(task.deadline - time.monotonic(), _LEAST_SECONDS)
    try:
        outcome = run(puzzle, replace(task.options, timeout=timeout))
    except CrosswordError as err:
        return err if not isinstance(err, InputError) else EngineError(str(err))
    except Exception as err:  # a bug: told to the parent, which stops every stream
        return EngineError(f"a portfolio worker failed: {type(err).__name__}: {err}")
    return _Answer(
        outcome.status,
        [[placement.word for placement in s.placements] for s in outcome.solutions],
        outcome.count,
        outcome.reason,
        outcome.stats,
        outcome.proof,
        outcome.unique,
    )


_LEAST_SECONDS = 0.001  # a task that arrives past its deadline still gets a look


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection


# ---------------------------------------------------------------- the portfolio


class Portfolio:
    """Up to `jobs` workers searching with `engine` (None: python with more
    than one job and the Python search compiled, else as
    pybridge.choose_engine decides: engines.choose_streams_engine), each
    holding the dictionary `words` (the words of the lexicon puzzles to
    come; () for none). Use it as a context manager, or close() it: its
    workers end then."""

    def __init__(self, jobs: int, engine: str | None = None, words: Sequence[str] = ()) -> None:
        if jobs < 1:
            raise ValueError("a portfolio needs at least one job")
        self.jobs = jobs
        self.engine = choose_streams_engine(engine, jobs)
        self.words = tuple(words)
        self._workers: list[_Worker] = []
        self._spawning: SpawnContext | None = None

    @property
    def _context(self) -> SpawnContext:
        """How workers start (spawned: see the module's docstring)."""
        if self._spawning is None:
            import multiprocessing

            self._spawning = multiprocessing.get_context("spawn")
        return self._spawning

    def __enter__(self) -> Portfolio:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def start(self, count: int | None = None) -> None:
        """Have `count` workers (default: jobs) ready: spawn the missing ones
        and wait until each holds the dictionary (bench calls this before it
        starts a grid's clock)."""
        count = self.jobs if count is None else count
        fresh = []
        while len(self._workers) < count:
            ours, theirs = self._context.Pipe()
            process = self._context.Process(
                target=_serve,
                args=(theirs, self.words, self.engine, os.getpid(), interrupt_ignored()),
                name=f"crossword portfolio worker {len(self._workers)}",
                daemon=True,
            )
            process.start()
            theirs.close()
            worker = _Worker(process, ours)
            self._workers.append(worker)
            fresh.append(worker)
        for worker in fresh:
            if _receive(worker) != "ready":
                raise EngineError("a portfolio worker did not start")

    def close(self) -> None:
        """End every worker: those idle when told, the others killed."""
        for worker in self._workers:
            with contextlib.suppress(OSError):  # a worker gone already
                worker.conn.send(None)
        for worker in self._workers:
            worker.process.join(timeout=1.0)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self._workers = []

    def run(
        self,
        puzzle: Puzzle,
        options: SearchOptions | None = None,
        *,
        progress: Watch | None = None,
        on_better: Callable[[BetterFill], None] | None = None,
        **keywords: Any,
    ) -> Outcome:
        """pybridge.run's answer for `puzzle`, from the first of the
        streams to settle it (see streams()); its `winner` names that
        stream. The options (a SearchOptions, or keywords as for
        pybridge.run) are read but for the engine, the portfolio's own, and
        the jobs, its streams. `timeout` counts from this call, workers'
        start included. One stream (one job, or a strategy without a seed)
        runs here, and only then is `progress` told of the search's
        counters (the workers' searches tell no one). With `maximize` one
        stream runs here too: a branch and bound's better fills and bound
        belong to one search."""
        started = time.perf_counter()
        options = search_options(options, keywords)
        seed, timeout = options.seed, options.timeout
        chosen = _strategy(puzzle, options.strategy, seed, options.maximize)
        if timeout is not None and not timeout > 0:
            raise UsageError("timeout must be a positive number of seconds")
        todo = streams(chosen, seed, self.jobs)
        if len(todo) == 1:  # with --maximize too: one search (run() picks it)
            asked = options.strategy if options.maximize else chosen
            here = replace(options, engine=self.engine, strategy=asked, jobs=1)
            outcome = run(puzzle, here, progress=progress, on_better=on_better)
            return outcome if self.jobs == 1 else _won(outcome, todo[0], 1, started)
        deadline = None if timeout is None else time.monotonic() + timeout
        self.start(len(todo))
        held = bool(self.words) and (puzzle.words is self.words or puzzle.words == self.words)
        sent = replace(puzzle, words=()) if held else puzzle
        each = replace(options, engine=self.engine, timeout=None, jobs=1)
        tasks = [
            _Task(sent, held, replace(each, strategy=s.strategy, seed=s.seed), deadline)
            for s in todo
        ]
        index, answer = self._first(tasks, deadline)
        layout = layout_of(puzzle)
        outcome = Outcome(
            answer.status,  # type: ignore[arg-type]
            [make_solution(puzzle, layout.sites, words) for words in answer.solutions],
            answer.count,
            answer.reason,
            answer.stats,
            answer.proof,
            answer.unique,
            puzzle=puzzle,
        )
        if puzzle.scores is not None and outcome.solutions:
            placed = [p.word for p in outcome.solutions[0].placements]
            outcome.score = Score.of(placed, puzzle.scores)
        return _won(outcome, todo[index], len(todo), started)

    def _first(self, tasks: list[_Task], deadline: float | None) -> tuple[int, _Answer]:
        """The first stream to settle the puzzle (stream i searching task i)
        and its answer, else the first stream's time-out. Stream 0 starts at
        once, the others after STAGGER_SECONDS if it has not answered by
        then; every stream still searching at the end is killed."""
        end = None if deadline is None else deadline + GRACE_SECONDS  # past it: a time-out
        busy: dict[int, int] = {}  # id of a worker's connection -> its stream
        timed_out: dict[int, _Answer] = {}

        def send(index: int) -> None:
            self._workers[index].conn.send(tasks[index])
            busy[id(self._workers[index].conn)] = index

        try:
            send(0)
            stagger = time.monotonic() + STAGGER_SECONDS
            found = self._answer(busy, timed_out, stagger if end is None else min(stagger, end))
            if found is None and busy and (end is None or time.monotonic() < end):
                for index in range(1, len(tasks)):
                    send(index)
                found = self._answer(busy, timed_out, end)
        finally:
            self._kill(sorted(busy.values()))
        if found is not None:
            return found
        if timed_out:
            first = min(timed_out)
            return first, timed_out[first]
        stats = Stats(self.engine, str(tasks[0].options.strategy))
        return 0, _Answer("timeout", [], None, None, stats, None, None)

    def _answer(
        self, busy: dict[int, int], timed_out: dict[int, _Answer], until: float | None
    ) -> tuple[int, _Answer] | None:
        """The first of the `busy` streams to settle the puzzle by `until`
        (the monotonic clock; None: no end), and its answer; None if none
        did. A stream that answers leaves `busy`; a time-out joins `timed_out`."""
        from multiprocessing import connection

        while busy:
            left = None if until is None else until - time.monotonic()
            if left is not None and left <= 0:
                return None
            ready = connection.wait([self._workers[i].conn for i in busy.values()], left)
            for conn in ready:
                index = busy.pop(id(conn))
                answer = _receive(self._workers[index])
                if isinstance(answer, BaseException):
                    raise answer
                assert isinstance(answer, _Answer)
                if answer.status != "timeout":
                    return index, answer
                timed_out[index] = answer
        return None

    def _kill(self, indices: list[int]) -> None:
        """Kill the workers at `indices` at once; start() replaces them."""
        for i in indices:
            self._workers[i].process.kill()
        for i in indices:
            self._workers[i].process.join()
            self._workers[i].conn.close()
        self._workers = [w for i, w in enumerate(self._workers) if i not in indices]


def _receive(worker: _Worker) -> object:
    try:
        return worker.conn.recv()
    except (EOFError, OSError):
        worker.process.join(timeout=1.0)
        code = worker.process.exitcode
        raise EngineError(f"a portfolio worker ended unexpectedly (exit code {code})") from None


def _strategy(
    puzzle: Puzzle, strategy: str | None, seed: int | None, maximize: Objective | None
) -> str:
    """The strategy to use, checked with the seed and the objective as
    pybridge.run checks them."""
    _check_seed(strategy, seed)
    check_strategy(puzzle, strategy, maximize)
    default = registry.OPTIMISING_STRATEGY if maximize else registry.default_strategy(puzzle.mode)
    name = strategy or default
    if maximize and strategy is None and puzzle.mode == "lexicon":
        registry.check(registry.DEFAULT_LEXICON_STRATEGY, puzzle.mode, seed)  # the ascent's fills
        return name
    registry.check(name, puzzle.mode, seed)
    return name


def _won(outcome: Outcome, stream: Stream, jobs: int, started: float) -> Outcome:
    own = outcome.stats.seconds
    outcome.stats.seconds = time.perf_counter() - started
    outcome.winner = Winner(stream.index, jobs, stream.strategy, stream.seed, own)
    return outcome


def solve(
    puzzle: Puzzle,
    *,
    jobs: int,
    engine: str | None = None,
    **options: Any,
) -> Outcome:
    """One puzzle searched by a portfolio of `jobs` (see Portfolio.run)."""
    with Portfolio(jobs, engine, puzzle.words if puzzle.mode == "lexicon" else ()) as portfolio:
        return portfolio.run(puzzle, **options)
