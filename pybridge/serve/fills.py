"""Autofill in worker processes: started by POST /api/fill, watched by GET
/api/fill/ID, stopped by DELETE /api/fill/ID.

Each fill runs in a process of its own (spawned, not forked: a forked copy
of a loaded SWI-Prolog is not safe to use), so the server stays responsive,
and Cancel stops it at once, even deep inside a Prolog search: the process
is killed. Starting a Python process, loading SWI-Prolog and sending it a
big dictionary take seconds, so one worker is always started ahead and
does that while it waits for the next fill. A fill's time limit counts
from when a worker is handed it, the worker's warming included (on a loaded
machine a fill may so time out before it begins). A worker that crashes, or
does not stop at its time limit (plus GRACE_SECONDS; WARMING_GRACE_SECONDS
while still warming), only ends its own fill, as "failed". A page runs one
fill at a time; the server at most `most` at once. A finished fill's answer
is kept KEPT_SECONDS for the page to collect, then forgotten: nothing here
outlives a page reload but a fill's id.

The worker answers as /api/solve would (api.run_command), or with
region_outcome when a region is asked for: only the sites with a cell in the
region are filled, around the letters already in the grid. With `maximize`
(not for a region) it also sends each better fill's value as it is found:
the fill's view shows the best so far.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import secrets
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from pybridge import engines
from pybridge.curation import request_words
from pybridge.errors import CrosswordError, UsageError, shown
from pybridge.layout import layout_of
from pybridge.model import OPEN, Cell, Direction, Puzzle
from pybridge.options import DictionaryOptions, MakeOptions, SearchOptions
from pybridge.patterns import ImpossiblePattern, PatternNotFound
from pybridge.render import json_document, outcome_json
from pybridge.scores import Score
from pybridge.search.kernel import Request, Watch
from pybridge.serve.api import (
    Answer,
    Better,
    Page,
    Told,
    answered,
    failure,
    option_values,
    read_request,
    run_command,
    sources,
)
from pybridge.serve.files import Files, NotFound
from pybridge.service import jobs
from pybridge.service.answers import EXIT_BY_STATUS
from pybridge.service.puzzles import timeout_left
from pybridge.service.requests import make_options
from pybridge.solver import Outcome, Stats, default_strategy, make_solution
from pybridge.wording import plural

GRACE_SECONDS = 5.0  # past its time limit, a worker that has not answered is killed
# ... or, while it has not yet taken its job (still loading Prolog and the
# dictionaries, seconds on a loaded machine), this long past its time limit
WARMING_GRACE_SECONDS = 60.0
KEPT_SECONDS = 600.0  # how long a finished fill's answer waits to be collected
WATCH_SECONDS = 0.25  # how often the watcher reads the workers' news
MIN_SECONDS = 0.001  # the time limit of a fill whose time ran out while its worker warmed


class Busy(CrosswordError):
    """A fill cannot start now: the page runs one already (HTTP 409), or the
    server runs as many as it may (HTTP 429)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Job:
    """What a worker is asked: a /api/solve body (its `region`, if any, a
    list of cells), the files it may read and the time limit; `deadline`
    (on the monotonic clock, which every process reads alike) is set when
    a worker is handed the job: the time limit counts from then, the
    worker's warming included. `command` is "check" for a check run as a
    fill is (its progress seen, Cancel stopping it): the answer /api/check
    gives; "make" for `crossword make` (patterns filled until one fills);
    "suggest" for the words of one entry (`entry`: its row, column and
    direction) with which the grid fills (pybridge.serve.entryfill)."""

    body: Mapping[str, Any]
    files: Files
    time_limit: float
    region: tuple[Cell, ...] | None = None
    deadline: float | None = None
    command: str = "solve"
    entry: tuple[int, int, Direction] | None = None

    def time_left(self) -> float:
        """The time limit left to the worker (a little, when none is left:
        the fill then answers as timed out)."""
        if self.deadline is None:
            return self.time_limit
        return max(self.deadline - time.monotonic(), MIN_SECONDS)


@dataclass
class Fill:
    """One fill and what is known of it: `state` is running, done, failed or
    cancelled; `phase` what the worker said last."""

    id: str
    page: str
    process: BaseProcess
    news: Connection
    time_limit: float
    started: float = field(default_factory=time.monotonic)
    state: str = "running"
    phase: str = "starting the worker process"
    answer: Answer | None = None
    ended: float | None = None
    begun: float | None = None  # when the worker took the job (it told a phase)
    best: dict[str, Any] | None = None  # with maximize: the last better fill the worker told
    better_fills: int = 0

    def late(self, now: float) -> bool:
        """Whether the worker is past its time limit and its grace: counted
        from the limit, or from when it began, if that was later."""
        if self.begun is None:
            return now > self.started + self.time_limit + WARMING_GRACE_SECONDS
        return now > max(self.started + self.time_limit, self.begun) + GRACE_SECONDS

    def view(self) -> dict[str, Any]:
        """The fill as GET /api/fill/ID shows it."""
        end = self.ended if self.ended is not None else time.monotonic()
        view: dict[str, Any] = {
            "id": self.id,
            "state": self.state,
            "phase": self.phase,
            "elapsed": round(end - self.started, 3),
            "time_limit": self.time_limit,
        }
        if self.best is not None:
            view.update(best=self.best, better_fills=self.better_fills)
        if self.answer is not None:
            view.update(status=self.answer.status, exit_code=self.answer.exit_code)
            view["answer"] = self.answer.body
        return view


class Fills:
    """The fills of one server (thread-safe)."""

    def __init__(
        self, most: int = 2, files: Files | None = None, memory_mb: int | None = None
    ) -> None:
        self.most = most
        self.files = files or Files()
        self.memory_mb = memory_mb  # a worker's address space, at most (None: no limit)
        self._fills: dict[str, Fill] = {}
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context("spawn")
        self._watcher: threading.Thread | None = None
        self._closed = False
        self._spare: tuple[BaseProcess, Connection, Connection] | None = None
        # what a new worker loads while it waits: the last fill's words
        self._likely: dict[str, Any] | None = None

    def warm(self) -> None:
        """Start the worker that waits for the next fill."""
        with self._lock:
            if self._spare is None and not self._closed:
                self._spare = self._worker()

    def _worker(self) -> tuple[BaseProcess, Connection, Connection]:
        """A new worker process, and the ends of its pipes: jobs in, news out."""
        jobs, job_sender = self._context.Pipe(duplex=False)
        news, news_sender = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=worker,
            args=(jobs, news_sender, self.files, self.memory_mb, self._likely),
            daemon=True,
        )
        process.start()
        jobs.close()  # the worker holds these ends: EOF when it ends
        news_sender.close()
        return process, job_sender, news

    def start(self, page: str, job: Job) -> Fill:
        """Start a fill for `page`; Busy when it cannot start now."""
        with self._lock:
            self._look()
            running = [fill for fill in self._fills.values() if fill.state == "running"]
            if any(fill.page == page for fill in running):
                raise Busy("this page runs a fill already: wait for it, or cancel it", 409)
            if len(running) >= self.most:
                message = f"the server runs {plural(self.most, 'fill')} already: try again soon"
                raise Busy(message, 429)
            process, news = self._hand(job)
            fill = Fill(secrets.token_hex(8), page, process, news, job.time_limit)
            self._likely = likely_words(job.body) or self._likely
            self._spare = self._worker()
            self._fills[fill.id] = fill
            if self._watcher is None:
                self._watcher = threading.Thread(target=self._watch, name="fills", daemon=True)
                self._watcher.start()
            return fill

    def _hand(self, job: Job) -> tuple[BaseProcess, Connection]:
        """Give `job` to the spare worker (a new one if it is gone); its
        process and the end of its news pipe."""
        spare, self._spare = self._spare, None
        job = replace(job, deadline=time.monotonic() + job.time_limit)
        for _ in range(2):
            spare = spare if spare is not None and spare[0].is_alive() else self._worker()
            process, jobs, news = spare
            try:
                jobs.send(job)
            except OSError:  # it died just now: once more, with a new one
                _discard(spare)
                spare = None
                continue
            jobs.close()
            return process, news
        raise RuntimeError("no worker process would take the fill")

    def view(self, fill_id: str) -> dict[str, Any]:
        with self._lock:
            self._look()
            return self._get(fill_id).view()

    def cancel(self, fill_id: str) -> dict[str, Any]:
        """Stop a fill at once (a finished one stays as it ended)."""
        with self._lock:
            fill = self._get(fill_id)
            self._read(fill)
            if fill.state == "running":
                self._end(fill, "cancelled", "cancelled")
            return fill.view()

    def close(self) -> None:
        """Stop every fill (the server is stopping)."""
        with self._lock:
            self._closed = True
            if self._spare is not None:
                _discard(self._spare)
                self._spare = None
            for fill in self._fills.values():
                if fill.state == "running":
                    self._end(fill, "cancelled", "the server stopped")

    # ------------------------------------------------------------ inside the lock

    def _get(self, fill_id: str) -> Fill:
        fill = self._fills.get(fill_id)
        if fill is None:
            kept = f"finished fills are kept {KEPT_SECONDS:g} s"
            raise NotFound(f"no fill {shown(repr(fill_id))} ({kept})")
        return fill

    def _look(self) -> None:
        """Read every worker's news, stop those past their time, forget old fills."""
        now = time.monotonic()
        for fill in list(self._fills.values()):
            if fill.state == "running":
                self._read(fill)
            if fill.state == "running" and fill.late(now):
                late = f"the fill did not stop at its time limit of {fill.time_limit:g} s"
                self._end(fill, "failed", late, failure(UsageError(late)))
            if fill.ended is not None and now - fill.ended > KEPT_SECONDS:
                del self._fills[fill.id]

    def _read(self, fill: Fill) -> None:
        """Take in what the worker sent; notice when it ended without an answer."""
        try:
            while fill.state == "running" and fill.news.poll():
                kind, value = fill.news.recv()
                if kind == "phase":
                    fill.phase = value
                    if fill.begun is None:
                        fill.begun = time.monotonic()
                elif kind == "better":
                    fill.best = value
                    fill.better_fills += 1
                else:
                    self._end(fill, "done" if value.status < 400 else "failed", "done", value)
        except (EOFError, OSError):
            code = fill.process.exitcode
            if fill.state == "running":
                crashed = f"the fill's worker process ended unexpectedly (exit code {code})"
                self._end(fill, "failed", crashed, failure(RuntimeError(crashed)))

    def _end(self, fill: Fill, state: str, phase: str, answer: Answer | None = None) -> None:
        if fill.process.is_alive():
            fill.process.kill()
        fill.process.join(timeout=5)
        fill.news.close()
        fill.state, fill.phase, fill.answer = state, phase, answer
        fill.ended = time.monotonic()

    def _watch(self) -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            with self._lock:
                if self._closed:
                    return
                self._look()


def _discard(worker: tuple[BaseProcess, Connection, Connection]) -> None:
    """Stop a worker that has no fill, and close its pipes."""
    process, jobs, news = worker
    process.kill()
    process.join(timeout=5)
    jobs.close()
    news.close()


# ---------------------------------------------------------------- in the worker


def worker(
    jobs: Connection,
    news: Connection,
    files: Files,
    memory_mb: int | None = None,
    likely: Mapping[str, Any] | None = None,
) -> None:
    """The worker process: limit its memory, load the engines and the
    dictionaries (those `likely` names: see warm), wait for a job, tell its
    phases, then send its answer. Ctrl-C in the server's terminal reaches
    its workers too: the server ends them itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if memory_mb is not None:
        limit_memory(memory_mb)
    warm(files, likely)
    try:
        job = jobs.recv()
    except EOFError:  # the server stopped
        return

    def tell(phase: str) -> None:
        news.send(("phase", phase))

    def better(found: dict[str, Any]) -> None:
        news.send(("better", found))

    try:
        news.send(("answer", fill_answer(job, tell, better)))
    finally:
        news.close()


def limit_memory(memory_mb: int) -> None:
    """Limit this process's address space to `memory_mb` MiB (where the
    system allows it): an allocation past it fails, as MemoryError in
    Python and as a resource error in SWI-Prolog (whose stacks are sized
    from it: pybridge.bridge)."""
    wanted = memory_mb << 20
    with suppress(ValueError, OSError):
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))


WARM_KEYS = ("dict", "min-score", "ban", "prefer")  # what a fill's words depend on


def likely_words(body: Mapping[str, Any]) -> dict[str, Any] | None:
    """What of a fill's body says the words it sends the engines (its
    dictionaries, min score and curation), to warm the next worker with;
    None for a fill with a word list."""
    if not isinstance(body.get("dict"), list) or body.get("words") is not None:
        return None
    return {key: body[key] for key in WARM_KEYS if body.get(key) is not None}


def warm(files: Files, likely: Mapping[str, Any] | None = None) -> None:
    """Load SWI-Prolog, if it is there, and send it the words the next fill
    most likely uses (those of `likely`: a fill's dictionaries, min score
    and curation; at first the first served dictionary, the page's choice by
    default), as a wdeg fill from them would, before the job comes."""
    from pybridge import bridge
    from pybridge.serve.grids import page_puzzle

    if not bridge.available():
        return
    if likely is None:
        likely = {"dict": list(files.dictionaries)[:1]}
    if not likely.get("dict"):
        return
    with suppress(CrosswordError):  # a fill from them will say what is wrong
        puzzle = page_puzzle({**likely, "grid": ["..."]}, files)
        words, scores = puzzle.words, puzzle.scores
        values = None if scores is None else scores.values(words)
        bridge.load_dictionary(words, values)
        if values is not None:  # for the best fill (maximize), by valued
            bridge.load_ranked(words, values)


def fill_answer(job: Job, tell: Callable[[str], None], better: Better | None = None) -> Answer:
    """The fill's answer: /api/solve's, or the region's fill. `better`
    hears of each better fill (with maximize)."""
    if job.command == "make":
        tell(f"making a crossword (time limit {job.time_limit:g} s)")
        return answered(lambda: make_answer(job.body, job.files, job.time_left(), tell))
    if job.command == "suggest":
        tell(f"trying the entry's words (time limit {job.time_limit:g} s)")
        return answered(lambda: _entry_answer(job, tell))
    if job.command == "check":
        tell(f"checking (time limit {job.time_limit:g} s)")
        return run_command("check", job.body, job.files, job.time_left(), tell)
    if job.region is None:
        tell(f"filling (time limit {job.time_limit:g} s)")
        return run_command("solve", job.body, job.files, job.time_left(), tell, better)
    return answered(lambda: _region_answer(job, tell))


def fill_time_limit(body: Mapping[str, Any], server_limit: float, command: str = "solve") -> float:
    """A fill's time limit: the body's `timeout` when it is below the
    server's, else the server's (so a fill's view shows the one chosen)."""
    timeout = option_values(command, body).get("timeout")
    return server_limit if timeout is None or timeout >= server_limit else float(timeout)


def make_request(
    body: Mapping[str, Any], files: Files, time_limit: float
) -> tuple[MakeOptions, DictionaryOptions]:
    """What a make request (the options of `crossword make` by their long
    names, `dict` the served dictionaries) asks for; its time limit at most
    `time_limit`."""
    values = option_values("make", body)
    timeout = values.get("timeout")
    values["timeout"] = time_limit if timeout is None else min(timeout, time_limit)
    paths = tuple(os.fspath(path) for path in files.dictionary_paths(body.get("dict", [])))
    if not paths:
        raise UsageError('choose a dictionary: "dict" names none (served: see /api/info)')
    encoding = values.get("encoding") or files.encoding
    banned = files.banned + request_words(body.get("ban"), "ban")
    preferred = files.preferred + request_words(body.get("prefer"), "prefer")
    dictionary = DictionaryOptions(paths, encoding, banned=banned, preferred=preferred)
    return make_options(values), dictionary


def make_answer(
    body: Mapping[str, Any], files: Files, time_limit: float, tell: Callable[[str], None]
) -> Answer:
    """`crossword make --output json`'s document: the fill (as solve's
    document has it) of the pattern that filled, the pattern, the tries."""
    options, dictionary = make_request(body, files, time_limit)
    try:
        made = jobs.make(options, dictionary, Page(tell))
    except (ImpossiblePattern, PatternNotFound) as err:
        status = "unsolvable" if isinstance(err, ImpossiblePattern) else "timeout"
        refused: dict[str, Any] = {"status": status, "reason": str(err), "pattern": None}
        return Answer(200, {**refused, "tries": []}, EXIT_BY_STATUS[status])
    doc: dict[str, Any] = {"status": made.status}
    if made.outcome is not None:
        doc.update(outcome_json(made.outcome))
        doc["status"] = made.status
    doc["pattern"] = made.pattern.to_json() if made.pattern else None
    doc["tries"] = [t.to_json() for t in made.tries]
    doc["summary"] = made.summary()
    return Answer(200, doc, EXIT_BY_STATUS[made.status])


REGION_OBJECTIVE = (
    'a region is filled around the letters of the grid, not optimised: leave out "maximize" '
    "(or fill the whole grid)"
)


def check_job(job: Job) -> None:
    """UsageError for a job no worker should start: a region with an
    objective, a check of a region, suggestions with an objective or
    without their entry."""
    if job.region is not None and job.body.get("maximize") is not None:
        raise UsageError(REGION_OBJECTIVE)
    if job.region is not None and job.command != "solve":
        raise UsageError(f'a {job.command} is of the whole grid: leave out "region"')
    if job.command == "suggest" and job.body.get("maximize") is not None:
        raise UsageError(
            'suggestions look for a fill with each word, not the best: leave out "maximize"'
        )
    if (job.command == "suggest") != (job.entry is not None):
        raise UsageError('"row", "col" and "direction" name the entry of the suggestions')


def _entry_answer(job: Job, tell: Callable[[str], None]) -> Answer:
    """The words of the job's entry with which the whole grid fills."""
    from pybridge.serve.entryfill import entry_suggestions

    assert job.entry is not None
    row, col, direction = job.entry
    with sources(job.body, job.files) as found:
        tell("reading the puzzle")
        read, search = read_request("solve", job.body, found, job.files, job.time_left())
        if len(read.puzzles) != 1:
            raise UsageError('suggestions are for one grid: say which with "grid"')
        left = timeout_left(read.budget)
        timeout = job.time_left() if left is None else left
        doc = entry_suggestions(read.puzzles[0], (row, col), direction, search, timeout, tell)
        return Answer(200, doc, EXIT_BY_STATUS[doc["status"]])


def _region_answer(job: Job, tell: Callable[[str], None]) -> Answer:
    assert job.region is not None
    check_job(job)
    with sources(job.body, job.files) as found:
        tell("reading the puzzle")
        read, search = read_request("solve", job.body, found, job.files, job.time_left())
        if len(read.puzzles) != 1:
            raise UsageError('a region is filled in one grid: say which with "grid"')
        tell(f"filling the selected region (time limit {search.timeout:g} s)")
        line = Told(tell, "filling the selected region")
        with line:
            timeout = timeout_left(read.budget)
            outcome = region_outcome(read.puzzles[0], job.region, search, timeout, line.watch)
        code = EXIT_BY_STATUS[outcome.status]
        return Answer(200, json_document(read.puzzles[0], outcome, False), code)


def region_outcome(
    puzzle: Puzzle,
    region: Iterable[Cell],
    search: SearchOptions,
    timeout: float | None,
    progress: Watch | None = None,
) -> Outcome:
    """Fill only the sites with a cell in `region`, around the letters the
    grid holds; the words other sites hold whole are not used again. From a
    scored dictionary, the score is that of the words the region's sites get."""
    layout = layout_of(puzzle)
    cells = set(region)
    kept = [site.index for site in layout.sites if not cells.isdisjoint(site.cells)]
    if not kept:
        raise UsageError("the selected region holds no site to fill")
    held = Counter(
        word
        for site in layout.sites
        if site.index not in kept
        and OPEN not in (word := "".join(puzzle.grid[r][c] for r, c in site.cells))
    )
    words = list(puzzle.words)
    if held:
        left = Counter(words) - held
        words = [w for w in dict.fromkeys(words) for _ in range(left[w])]
    chosen = engines.choose_engine(search.engine)
    strategy = search.strategy or default_strategy(puzzle)
    started = time.perf_counter()
    sub = layout.restricted(kept)
    scores = puzzle.scores
    request = Request(
        sub,
        words,
        strategy,
        1,
        False,
        timeout,
        search.seed,
        progress=progress,
        scores=None if scores is None else scores.values(words),
    )
    result = engines.search(chosen, request)
    stats = Stats(chosen, strategy, result.nodes, result.backtracks)
    stats.seconds = time.perf_counter() - started
    outcome = Outcome(
        result.status, [make_solution(puzzle, sub.sites, w) for w in result.solutions]
    )
    outcome.stats = stats
    if scores is not None and outcome.solutions:
        outcome.score = Score.of([p.word for p in outcome.solutions[0].placements], scores)
    if result.status == "unsolvable":
        outcome.reason = (
            f"the {plural(len(kept), 'site')} of the selected region cannot be filled: "
            f"the search space is exhausted after {plural(result.nodes, 'node')}"
        )
    return outcome
