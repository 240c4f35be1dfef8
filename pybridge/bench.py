"""`crossword bench`: fill a suite of grids from a dictionary with every
engine x strategy under a time limit, and tabulate what came of each run.

A *cell* is one grid run once by one engine with one strategy (or by a peer
solver, Qxw, on the same grid in the same run). The dictionary is read and
indexed once per process, both timed once and reported apart; a run's seconds are the search
time of `solver.run` (the proofs included, the grid and dictionary reading
not). Every solved grid is checked with pybridge.verify: a wrong one is a
loud error. With several jobs the cells run in worker processes, each with
its own Prolog (pyswip is not thread-safe) and its own copy of the words.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import csv
import math
import multiprocessing
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from pybridge import bridge
from pybridge.bitsets import tables
from pybridge.difficulty import estimate, rank_correlation
from pybridge.errors import InputError, MissingDependency, UsageError
from pybridge.layout import find_sites
from pybridge.lexicon import Dictionary, load_dictionary, load_grid
from pybridge.model import BLOCK, OPEN, Puzzle
from pybridge.portfolio import Portfolio, end_with_parent, interrupt_as, interrupt_ignored
from pybridge.progress import Progress
from pybridge.readers import NOTHING_TO_FILL, has_site
from pybridge.reports import aligned_line, require_matplotlib
from pybridge.scores import Objective, Scores, json_number
from pybridge.search import registry
from pybridge.search.kernel import Watch
from pybridge.solver import Outcome, run
from pybridge.verify import problems

DEFAULT_TIMEOUT = 10.0
DEFAULT_STRATEGIES = (registry.DEFAULT_LEXICON_STRATEGY,)
PEERS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "peers"
QXW = "qxw"
QXW_HINT = (
    "qxw is not installed (looked for qxw on PATH and /usr/games/qxw): "
    "install it with `apt-get install qxw` (Debian/Ubuntu) to run --peer qxw"
)
SHORTEST = 0.001  # seconds: a peer's 0.00 would vanish from a log scale
QXW_NO_FILL = 4  # qxw -b's exit status when it proves there is no fill

# ---------------------------------------------------------------- grids


@dataclass(frozen=True)
class Grid:
    """One grid of the suite: its puzzle (no words yet) and the name shown."""

    name: str
    puzzle: Puzzle

    @property
    def size(self) -> str:
        return f"{self.puzzle.height}x{self.puzzle.width}"


def _is_fillable(puzzle: Puzzle) -> bool:
    """Whether a grid has a site to fill: a word list or an answer read as a
    plain grid has only given letters, and a grid whose open cells are all
    single ones has no site."""
    return any(OPEN in row for row in puzzle.grid) and has_site(puzzle)


def _grid_name(source: str) -> str:
    """'dir/g05.01.txt' -> 'g05.01'; 'dir/grilles1.txt#3' -> 'grilles1#3'."""
    path, hash_, number = source.partition("#")
    return Path(path).stem + hash_ + number


def _file_grids(path: Path, named: bool) -> list[Puzzle]:
    """The grids of a file; a file met in a folder that is not a grid to
    fill is skipped, while a named one must be (its error stops the run)."""
    try:
        puzzles = load_grid(path)
    except InputError:
        if named:
            raise
        return []
    fillable = [puzzle for puzzle in puzzles if _is_fillable(puzzle)]
    if named and not fillable:
        raise InputError(NOTHING_TO_FILL, str(path))
    return fillable


def load_suite(args: Sequence[str]) -> list[Grid]:
    """Every grid of the files named, and of the *.txt files (sorted) in the
    folders named, in that order."""
    grids: list[Grid] = []
    for arg in args:
        folder = Path(arg)
        if folder.is_dir():
            found = [p for path in sorted(folder.glob("*.txt")) for p in _file_grids(path, False)]
            if not found:
                raise InputError("no grid file (*.txt) in this folder", arg)
        else:
            found = _file_grids(folder, True)
        grids += [Grid(_grid_name(p.source), p) for p in found]
    names = [grid.name for grid in grids]
    if len(set(names)) == len(names):
        return grids
    return [replace(grid, name=grid.puzzle.source) for grid in grids]  # names clash: paths


def by_difficulty(
    grids: Sequence[Grid], words: Sequence[str]
) -> tuple[list[Grid], dict[str, float | None]]:
    """The grids from the easiest to the hardest to fill from `words`, as
    pybridge.difficulty estimates it (those it finds unfillable last), and
    each grid's estimate by name."""
    rated = {grid.name: estimate(grid.puzzle, words).difficulty for grid in grids}
    ordered = sorted(grids, key=lambda g: (rated[g.name] is None, rated[g.name] or 0.0))
    return ordered, rated


def difficulty_agreement(
    runs: Sequence[Run], difficulties: Mapping[str, float | None]
) -> dict[str, dict[str, Any]]:
    """Per column, Spearman's rho between the estimated difficulty and the
    nodes searched, over the grids the search decided or ran out of time on
    (a timeout ranks hardest); left out: grids proved unfillable before any
    node, grids estimated unfillable, and peers, which count no nodes."""
    found = {}
    for name in columns(runs):
        kept = [
            r
            for r in runs
            if r.label == name
            and r.nodes is not None
            and not (r.status == "unsolvable" and r.nodes == 0)
            and difficulties.get(r.grid) is not None
        ]
        if not kept:
            continue
        effort = [math.inf if r.status == "timeout" else float(r.nodes or 0) for r in kept]
        rated = [float(difficulties[r.grid] or 0.0) for r in kept]
        found[name] = {"rho": rank_correlation(rated, effort), "grids": len(kept)}
    return found


def agreement_text(agreement: Mapping[str, Mapping[str, Any]]) -> str:
    return "\n".join(
        f"difficulty vs nodes ({name}): Spearman rho {_rho(a['rho'])} over {a['grids']} grids"
        for name, a in agreement.items()
    )


def _rho(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


# ---------------------------------------------------------------- one run


@dataclass(frozen=True)
class Cell:
    """A run to make: a grid by an engine with a strategy (engine "qxw": the peer)."""

    grid: Grid
    engine: str
    strategy: str

    @property
    def label(self) -> str:
        return label(self.engine, self.strategy)


def label(engine: str, strategy: str) -> str:
    return engine if engine == QXW else f"{engine} {strategy}"


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
    timeout: float,
    seed: int | None,
    watch: Watch | None = None,
    portfolios: Mapping[str, Portfolio] | None = None,
    maximize: Objective | None = None,
) -> Run:
    """One cell's run; an engine of `portfolios` runs as that portfolio (its
    workers started before the clock starts, so a run's seconds are from the
    grid sent to its streams to the first answer). With `maximize`, the run
    searches for the best fill (in one stream: see Portfolio.run)."""
    puzzle = replace(cell.grid.puzzle, words=_WORDS, scores=_SCORES)
    outcome = None
    stream = None
    portfolio = None if portfolios is None else portfolios.get(cell.engine)
    if cell.engine == QXW:
        status, seconds, grid = run_qxw(puzzle, _DICTIONARIES, timeout)
        nodes: int | None = None
        backtracks: int | None = None
    else:
        if portfolio is not None:
            portfolio.start()
            outcome = portfolio.run(
                puzzle, strategy=cell.strategy, timeout=timeout, seed=seed, maximize=maximize
            )
            stream = None if outcome.winner is None else outcome.winner.stream
        else:
            _prepare(cell)
            outcome = run(
                puzzle,
                engine=cell.engine,
                strategy=cell.strategy,
                timeout=timeout,
                seed=seed,
                progress=watch,
                maximize=maximize,
            )
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


# ---------------------------------------------------------------- the peer: Qxw


def qxw_program() -> str | None:
    """Qxw's batch program: Debian installs it as /usr/games/qxw."""
    return shutil.which("qxw") or shutil.which("qxw", path="/usr/games")


def blank_grid(puzzle: Puzzle) -> bool:
    """Whether every non-blocked cell is open (no given letter): what Qxw's deck can say."""
    return all(ch in (OPEN, BLOCK) for row in puzzle.grid for ch in row)


def qxw_deck(puzzle: Puzzle) -> str:
    """Qxw's batch input: one line per light (our site), the numbers of its
    cells; lights that cross share the number of the crossing cell."""
    numbers: dict[tuple[int, int], int] = {}
    lines = []
    for site in find_sites(puzzle):
        cells = [numbers.setdefault(cell, len(numbers)) for cell in site.cells]
        lines.append(" ".join(f"{n:02d}" for n in cells))
    return "\n".join(lines) + "\n"


def _qxw_grid(puzzle: Puzzle, output: str) -> tuple[str, ...] | None:
    """The grid filled with the words of Qxw's `W<light> WORD` lines; None if
    a light is missing."""
    words = {}
    for line in output.splitlines():
        tag, _, word = line.partition(" ")
        if tag[:1] == "W" and tag[1:].isdigit():
            words[int(tag[1:])] = word.strip().upper()
    rows = [list(row) for row in puzzle.grid]
    for index, site in enumerate(find_sites(puzzle)):
        placed = words.get(index)
        if placed is None or len(placed) != site.length:
            return None
        for (r, c), letter in zip(site.cells, placed, strict=True):
            rows[r][c] = letter
    return tuple("".join(row) for row in rows)


def run_qxw(
    puzzle: Puzzle, dictionaries: Sequence[str], timeout: float
) -> tuple[str, float, tuple[str, ...] | None]:
    """Qxw's batch fill of `puzzle` from the same dictionary files: status,
    wall seconds (Qxw reads its dictionary inside them) and the grid filled.
    Qxw keeps the words of a fill distinct by itself."""
    program = qxw_program()
    if program is None:
        raise MissingDependency(QXW_HINT)
    dictionary_args = [arg for path in dictionaries for arg in ("-d", path)]
    with _deck_file(qxw_deck(puzzle)) as deck:
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [program, "-b", *dictionary_args, deck],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - started, None
        seconds = time.perf_counter() - started
    if done.returncode == QXW_NO_FILL:
        return "unsolvable", seconds, None
    grid = _qxw_grid(puzzle, done.stdout)
    if done.returncode != 0 or grid is None:
        raise UsageError(f"qxw -b failed (status {done.returncode}): {done.stderr.strip()}")
    return "solved", seconds, grid


@contextlib.contextmanager
def _deck_file(text: str) -> Iterator[str]:
    """A temporary deck file holding `text`, removed afterwards."""
    handle, path = tempfile.mkstemp(suffix=".qxd", prefix="crossword-bench-")
    try:
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(text)
        yield path
    finally:
        os.unlink(path)


# ---------------------------------------------------------------- the suite


def cells(
    grids: Sequence[Grid], engines: Sequence[str], strategies: Sequence[str], peer: bool
) -> list[Cell]:
    """Every run of the suite, grid by grid."""
    found = []
    for grid in grids:
        found += [Cell(grid, e, s) for e in engines for s in strategies]
        if peer:
            found.append(Cell(grid, QXW, ""))
    return found


def run_suite(
    todo: Sequence[Cell],
    dictionary: Dictionary,
    *,
    timeout: float,
    seed: int | None = None,
    jobs: int = 1,
    portfolio: int = 1,
    progress: Progress | None = None,
    maximize: Objective | None = None,
) -> list[Run]:
    """The runs of `todo`, in its order."""
    found = dict(
        runs(
            todo,
            dictionary,
            timeout=timeout,
            seed=seed,
            jobs=jobs,
            portfolio=portfolio,
            progress=progress,
            maximize=maximize,
        )
    )
    return [found[k] for k in range(len(todo))]


def runs(
    todo: Sequence[Cell],
    dictionary: Dictionary,
    *,
    timeout: float,
    seed: int | None = None,
    jobs: int = 1,
    portfolio: int = 1,
    progress: Progress | None = None,
    maximize: Objective | None = None,
) -> Iterator[tuple[int, Run]]:
    """Each run of `todo` as it ends, with its place in `todo` (with several
    jobs they end in any order); `progress` hears of each run begun and
    ended, and watches the searches of this process. `jobs` cells run at
    once, or (`portfolio` > 1) one at a time, each engine's searched by a
    portfolio of that many streams (pybridge.portfolio). With `maximize`,
    each run searches for the best fill."""
    if jobs > 1:
        if portfolio > 1:
            raise UsageError("--jobs runs cells at once, --portfolio one cell at a time: not both")
        yield from _run_parallel(todo, dictionary.sources, timeout, seed, jobs, progress, maximize)
        return
    use_dictionary(dictionary.sources, dictionary)
    with contextlib.ExitStack() as stack:
        portfolios: dict[str, Portfolio] = {}
        if portfolio > 1:
            for engine in dict.fromkeys(cell.engine for cell in todo if cell.engine != QXW):
                pool = Portfolio(portfolio, engine, dictionary.words)
                portfolios[engine] = stack.enter_context(pool)
        for k, cell in enumerate(todo):
            if progress is not None:
                progress.start(f"{cell.grid.name} {cell.label}")
            watch = None if progress is None else progress.watch
            yield k, run_cell(cell, timeout, seed, watch, portfolios, maximize)
            if progress is not None:
                progress.advance()


def _run_parallel(
    todo: Sequence[Cell],
    dictionaries: Sequence[str],
    timeout: float,
    seed: int | None,
    jobs: int,
    progress: Progress | None,
    maximize: Objective | None,
) -> Iterator[tuple[int, Run]]:
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
            pool.submit(run_cell, cell, timeout, seed, None, None, maximize): i
            for i, cell in enumerate(todo)
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
    processes: dict[int, multiprocessing.process.BaseProcess] = (
        getattr(pool, "_processes", None) or {}
    )
    for process in list(processes.values()):
        with contextlib.suppress(OSError, ValueError):  # gone already
            process.kill()


# ---------------------------------------------------------------- summary


def columns(runs: Iterable[Run]) -> list[str]:
    """The labels of the table's column groups, in the order first run."""
    return list(dict.fromkeys(r.label for r in runs))


def column_summary(runs: Sequence[Run], maximize: Objective | None = None) -> dict[str, Any]:
    """Counts per status, and the median seconds on the grids solved; with
    `maximize`, the runs that found a fill without proving it optimal and
    the median gap (bound - value) over them."""
    solved = [r.seconds for r in runs if r.status == "solved" and not r.wrong]
    found = {
        "engine": runs[0].engine,
        "strategy": runs[0].strategy,
        "runs": len(runs),
        "solved": len(solved),
        "unsolvable": sum(r.status == "unsolvable" for r in runs),
        "timeout": sum(r.status == "timeout" for r in runs),
        "wrong": sum(r.wrong for r in runs),
        "median_seconds": statistics.median(solved) if solved else None,
        "slowest_seconds": max(solved) if solved else None,
    }
    if maximize is not None:
        gaps = [g for r in runs if r.status == "timeout" and (g := _gap(r, maximize)) is not None]
        found["filled_not_proved"] = len(gaps)
        found["median_gap"] = statistics.median(gaps) if gaps else None
    return found


def _gap(r: Run, maximize: Objective) -> float | None:
    value = r.min if maximize == "min" else r.sum
    return None if value is None or r.bound is None else r.bound - value


def summary(runs: Sequence[Run], maximize: Objective | None = None) -> dict[str, dict[str, Any]]:
    return {
        name: column_summary([r for r in runs if r.label == name], maximize)
        for name in columns(runs)
    }


# ---------------------------------------------------------------- text, CSV and JSON


def _status(r: Run) -> str:
    return "WRONG" if r.wrong else r.status


def _nodes(r: Run) -> str:
    return "-" if r.nodes is None else str(r.nodes)


# The least widths of a group's columns, so that the rows can be printed as
# the runs end: "unsolvable", "9999.99", 9-digit counts, scores up to 6 digits.
LEAST_WIDTHS = {"status": 10, "s": 7, "nodes": 9, "min": 5, "sum": 6, "bound": 6}
FIELDS = ("status", "s", "nodes")
FOOTER = ("solved", "unsolvable", "timeout", "median", "slowest", "not proved", "median gap")


def table_fields(scored: bool, maximize: Objective | None = None) -> tuple[str, ...]:
    """A group's columns: status, seconds and nodes; with a scored dictionary
    the fill's min and sum too, and with --maximize the bound."""
    return FIELDS + (("min", "sum") if scored else ()) + (("bound",) if maximize else ())


class Table:
    """The table of runs: a row per grid, a group of columns (`fields`:
    status, seconds, nodes, and see table_fields) per engine x strategy
    (`names`), and a footer; with `difficulties` (by grid name), a column
    of them after the size. Its columns are as wide as the grids and names
    to come need, known before any run, so that each row can be printed as
    soon as its runs have ended. With `maximize` the footer also counts the
    fills not proved optimal and their median gap."""

    def __init__(
        self,
        grids: Sequence[tuple[str, str]],
        names: Sequence[str],
        difficulties: Mapping[str, float | None] | None = None,
        fields: Sequence[str] = FIELDS,
        maximize: Objective | None = None,
    ) -> None:
        self.names = list(names)
        self.difficulties = difficulties
        self.fields = tuple(fields)
        self.maximize = maximize
        self.widths = [
            max(map(len, ("grid", *FOOTER, *(name for name, _ in grids)))),
            max(map(len, ("size", *(size for _, size in grids)))),
        ]
        if difficulties is not None:
            self.widths.append(len("difficulty"))
        self.lead = len(self.widths)
        size = len(self.fields)
        for name in self.names:
            group = [LEAST_WIDTHS[field] for field in self.fields]
            group[1] += max(0, len(name) - (sum(group) + 2 * (size - 1)))  # as wide as its name
            self.widths += group

    def _line(self, cells: Sequence[str]) -> str:
        lead, size = self.lead, len(self.fields)

        def right(i: int) -> bool:
            return (i >= lead and (i - lead) % size != 0) or i == 2 < lead  # the difficulty too

        return aligned_line(cells, self.widths, right)

    def head(self) -> list[str]:
        """The line naming each group, and the header."""
        lead, widths, size = self.lead, self.widths, len(self.fields)
        groups = "  ".join(
            [" " * widths[k] for k in range(lead)]
            + [
                name.ljust(sum(widths[lead + size * g : lead + size * (g + 1)]) + 2 * (size - 1))
                for g, name in enumerate(self.names)
            ]
        )
        first = ["grid", "size"] + (["difficulty"] if self.difficulties is not None else [])
        header = first + [h for _ in self.names for h in self.fields]
        return [groups.rstrip(), self._line(header)]

    def row(self, grid: str, size: str, by_name: Mapping[str, Run]) -> str:
        """The row of one grid, from its run for each name."""
        cells = [grid, size]
        if self.difficulties is not None:
            cells.append(_difficulty(self.difficulties.get(grid)))
        for name in self.names:
            r = by_name[name]
            shown = {
                "status": _status(r),
                "s": f"{r.seconds:.2f}",
                "nodes": _nodes(r),
                "min": _value(r.min),
                "sum": _value(r.sum),
                "bound": _value(r.bound),
            }
            cells += [shown[field] for field in self.fields]
        return self._line(cells)

    def foot(self, runs: Sequence[Run]) -> list[str]:
        """The solved count, the counts proved unsolvable and timed out
        (when there are any), and the median and greatest seconds of the
        grids solved, of each group, over `runs`; with --maximize, the fills
        not proved optimal and their median gap."""
        every = summary(runs, self.maximize)
        totals = [every.get(name) for name in self.names]
        blank = [""] * (self.lead - 1)
        rest = [""] * (len(self.fields) - 2)

        def line(label: str, show: Callable[[dict[str, Any]], tuple[str, str]]) -> str:
            groups = [[*show(t), *rest] if t else ["", "", *rest] for t in totals]
            return self._line([label, *blank] + [c for group in groups for c in group])

        def count(key: str) -> Callable[[dict[str, Any]], tuple[str, str]]:
            return lambda t: (str(t[key]), "")

        lines = [line("solved", lambda t: (f"{t['solved']}/{t['runs']}", ""))]
        for kind in ("unsolvable", "timeout"):  # proved to have no fill (decided), or undecided
            if any(t and t[kind] for t in totals):
                lines.append(line(kind, count(kind)))
        lines.append(line("median", lambda t: ("", _median(t["median_seconds"]))))
        lines.append(line("slowest", lambda t: ("", _median(t["slowest_seconds"]))))
        if self.maximize is not None:
            lines.append(line("not proved", lambda t: (str(t["filled_not_proved"]), "")))
            lines.append(line("median gap", lambda t: ("", _value(t["median_gap"]))))
        return lines


def table_text(
    runs: Sequence[Run],
    difficulties: Mapping[str, float | None] | None = None,
    maximize: Objective | None = None,
) -> str:
    """The whole table of `runs` (see Table)."""
    grids = list(dict.fromkeys((r.grid, r.size) for r in runs))
    fields = table_fields(any(r.min is not None for r in runs), maximize)
    table = Table(grids, columns(runs), difficulties, fields, maximize)
    by_grid: dict[tuple[str, str], dict[str, Run]] = {}
    for r in runs:
        by_grid.setdefault((r.grid, r.size), {})[r.label] = r
    rows = [table.row(grid, size, by_name) for (grid, size), by_name in by_grid.items()]
    return "\n".join([*table.head(), *rows, *table.foot(runs)])


def _value(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def _difficulty(value: float | None) -> str:
    return "none" if value is None else f"{value:.2f}"


def _median(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"  # a median near 0.1 s needs the third digit


CSV_FIELDS = (
    "grid",
    "size",
    "engine",
    "strategy",
    "status",
    "seconds",
    "nodes",
    "backtracks",
    "min",
    "sum",
    "bound",
)


def _run_record(r: Run) -> dict[str, Any]:
    record = asdict(r)
    record["problems"] = list(r.problems)
    return record


def write_csv(runs: Sequence[Run], path: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow((*CSV_FIELDS, "problems"))
        for r in runs:
            record = _run_record(r)
            writer.writerow([record[f] for f in CSV_FIELDS] + ["; ".join(r.problems)])


def dictionary_json(
    dictionary: Dictionary, seconds: tuple[float, float, float | None]
) -> dict[str, Any]:
    """The dictionary's part of the report; `seconds`: to read it, to index
    it, and to send it to Prolog (None when no run needed it there)."""
    return {
        "sources": list(dictionary.sources),
        "encodings": list(dictionary.encodings),
        "words": len(dictionary.words),
        "skipped": dict(dictionary.skipped),
        "summary": dictionary.summary(),
        "load_seconds": seconds[0],
        "index_seconds": seconds[1],
        "send_seconds": seconds[2],
    }


def report_json(
    runs: Sequence[Run],
    dictionary: Dictionary,
    seconds: tuple[float, float, float | None],
    settings: dict[str, Any],
    difficulties: Mapping[str, float | None] | None = None,
    maximize: Objective | None = None,
) -> dict[str, Any]:
    report = {
        "dictionary": dictionary_json(dictionary, seconds),
        "settings": settings,
        "runs": [_run_record(r) for r in runs],
        "summary": summary(runs, maximize),
    }
    if difficulties is not None:
        report["difficulty"] = dict(difficulties)
        report["difficulty_vs_nodes"] = difficulty_agreement(runs, difficulties)
    return report


# ---------------------------------------------------------------- peers' figures


@dataclass(frozen=True)
class Peer:
    """A solver measured elsewhere: the seconds it took on the grids it
    filled, every grid it was run on, and what its seconds include beyond
    the search, as its figures say (e.g. "incl dict load"; "" if nothing)."""

    name: str
    seconds: dict[str, float]
    grids: frozenset[str]
    includes: str = ""

    @property
    def label(self) -> str:
        return f"{self.name} (peer{', ' + self.includes if self.includes else ''})"


def _peer_columns(header: Sequence[str]) -> list[tuple[str, int, int, str]]:
    """(name, status column, seconds column, what the seconds include) for
    each NAME_status column followed by a NAME_s... column, as in
    combined_vanbeek_scowl55.tsv: "qxw_s(incl dict load)" says "incl dict load"."""
    found = []
    for i, column in enumerate(header):
        name = column.removesuffix("_status")
        if name != column and i + 1 < len(header) and header[i + 1].startswith(f"{name}_s"):
            includes = header[i + 1].partition("(")[2].rstrip(")").strip()
            found.append((name, i, i + 1, includes))
    return found


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def read_peers(directory: Path) -> list[Peer]:
    """The solvers of every *.tsv in `directory` that has a `grid` column and
    NAME_status / NAME_s... pairs; SAT is a fill, anything else is not."""
    peers: list[Peer] = []
    for path in sorted(directory.glob("*.tsv")):
        lines = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
        if not lines or "grid" not in lines[0]:
            continue
        where = lines[0].index("grid")
        body = [row for row in lines[1:] if len(row) == len(lines[0])]
        for name, status, seconds, includes in _peer_columns(lines[0]):
            times = {
                row[where]: value
                for row in body
                if row[status] == "SAT" and (value := _number(row[seconds])) is not None
            }
            peers.append(Peer(name, times, frozenset(row[where] for row in body), includes))
    return peers


def relevant_peers(directory: Path | None, grids: Iterable[str]) -> list[Peer]:
    """The peers measured on some of the grids run, limited to those grids."""
    if directory is None or not directory.is_dir():
        return []
    ran = set(grids)
    return [
        Peer(p.name, {g: s for g, s in p.seconds.items() if g in ran}, p.grids & ran, p.includes)
        for p in read_peers(directory)
        if p.grids & ran
    ]


# ---------------------------------------------------------------- cactus plot


def cactus_lines(
    runs: Sequence[Run], peers: Sequence[Peer], timeout: float
) -> list[tuple[str, list[float], bool]]:
    """The lines of the cactus plot: label, the seconds of each grid solved
    in increasing order, and whether it is a peer's. A peer's grids count
    only when solved within this run's `timeout`, as ours do; a peer that
    this run ran itself (--peer qxw) is drawn from this run alone."""
    lines = []
    for name in columns(runs):
        times = sorted(r.seconds for r in runs if r.label == name and r.status == "solved")
        label = f"{name} (wall time, incl dict load)" if name == QXW else name
        lines.append((label, times, False))
    ran = {r.engine for r in runs if r.engine == QXW}
    for peer in peers:
        if peer.name.lower() in ran:
            continue
        times = sorted(max(s, SHORTEST) for s in peer.seconds.values() if s <= timeout)
        lines.append((peer.label, times, True))
    return lines


def write_cactus(runs: Sequence[Run], peers: Sequence[Peer], path: str, timeout: float) -> None:
    """Grids solved (x) against the time it took to solve that many (y, log
    scale): a line per engine x strategy, the peers dashed beside them, the
    legend beside the axes (where it covers no line)."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9.0, 4.5))
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    lines = cactus_lines(runs, peers, timeout)
    for label, times, peer in lines:
        style = {"linestyle": "--"} if peer else {"marker": "."}
        axes.plot(range(1, len(times) + 1), times, label=label, **style)  # type: ignore[arg-type]
    grids = len(dict.fromkeys(r.grid for r in runs))
    axes.set_yscale("log")
    axes.set_xlim(0, grids + 1)
    axes.set_xlabel(f"grids solved (of {grids})")
    axes.set_ylabel("seconds")
    axes.set_title(f"crossword bench: time limit {timeout:g} s per grid")
    if any(peer for _, _, peer in lines):
        figure.text(
            0.01,
            0.01,
            "peers (dashed): figures measured elsewhere, wall time of the whole program "
            "(which may include loading its dictionary or its JVM), up to the time limit",
            fontsize="x-small",
        )
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    figure.tight_layout(rect=(0, 0.04, 1, 1))
    figure.savefig(path, bbox_inches="tight")
