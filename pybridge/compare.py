"""`crossword compare`: time both engines on the same puzzles and check that
the pure-Python mirror agrees with the Prolog engine.

For every puzzle x strategy x engine, a cell is measured `repeat` times; each
time the file is read and parsed again, so the times include parsing, as the
P-99 reference times do. The engines must agree, per puzzle and strategy, on
the status, the solution grids (in order) and the node and backtrack counts.
Only when both reach the time limit is there nothing to compare.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pybridge.errors import InputError
from pybridge.exchange import EXCHANGE_FORMATS
from pybridge.gridfiles import load_grid, load_lexicon_puzzle
from pybridge.lexicon import load_dictionary
from pybridge.model import Puzzle
from pybridge.progress import Progress
from pybridge.readers import load, sniff_file
from pybridge.reports import aligned_line, column_widths, require_matplotlib
from pybridge.search.kernel import Watch
from pybridge.solver import LEXICON_STRATEGIES, run

DEFAULT_TIMEOUT = 10.0  # seconds per run: the given order runs for hours on some puzzles
COMPARED = ("status", "solutions", "nodes", "backtracks")

# ---------------------------------------------------------------- puzzles


@dataclass(frozen=True)
class Entry:
    """A puzzle to measure: its file, its word file (fill-in) or its
    dictionaries and grid number (construction mode), the name shown;
    `answers` for a .puz or .ipuz crossword filled with its own answers."""

    path: str
    words: str | None
    name: str
    dictionaries: tuple[str, ...] = ()
    grid: int | None = None
    answers: bool = False

    def load(self) -> Puzzle:
        """Read the puzzle (and its dictionaries) afresh: timings include it."""
        if not self.dictionaries:
            return load(self.path, answers=True) if self.answers else load(self.path, self.words)
        return load_lexicon_puzzle(self.path, self.dictionaries, grid=self.grid)

    def strategies(self, asked: Sequence[str]) -> list[str]:
        """The asked strategies that apply to this puzzle's mode."""
        return [s for s in asked if not self.dictionaries or s in LEXICON_STRATEGIES]


def sibling_words(path: str) -> str | None:
    """The corpus's word file for a grid named puzzleX: wordsX beside it, if it exists."""
    grid = Path(path)
    if not grid.name.startswith("puzzle"):
        return None
    words = grid.with_name("words" + grid.name.removeprefix("puzzle"))
    return str(words) if words.is_file() else None


def _split_pair(arg: str) -> tuple[str, str | None]:
    """PUZZLE:WORDS as its two paths; a lone path (which may hold a colon) as itself."""
    if ":" not in arg or Path(arg).exists():
        return arg, None
    puzzle, words = arg.rsplit(":", 1)
    return puzzle, words


def _entry(arg: str, words: str | None) -> tuple[str, str | None, bool]:
    """The puzzle's path, its word file, and whether it is a .puz or .ipuz
    crossword to fill with its own answers."""
    path, paired = _split_pair(arg)
    if paired is not None:
        return path, paired, False
    kind = sniff_file(path)
    if kind in EXCHANGE_FORMATS or kind == "p99":
        return path, None, kind != "p99"
    paired = words or sibling_words(path)
    if paired is None:
        message = (
            "a fill-in puzzle needs its word list: write PUZZLE:WORDS, pass --words FILE, "
            "or keep wordsX next to puzzleX"
        )
        raise InputError(message, path)
    return path, paired, False


def entries(
    args: Sequence[str], words: str | None = None, dictionaries: Sequence[str] = ()
) -> list[Entry]:
    """The puzzles named on the command line, each loaded once to catch bad
    input before any timing. Shown by file name, or by path if names clash.
    With `dictionaries`, every grid of every file is filled from them."""
    if dictionaries:
        return _grid_entries(args, tuple(dictionaries))
    found = [_entry(arg, words) for arg in args]
    names = [Path(path).name for path, _, _ in found]
    clash = len(set(names)) != len(names)
    chosen = [
        Entry(path, paired, path if clash else name, answers=answers)
        for (path, paired, answers), name in zip(found, names, strict=True)
    ]
    for entry in chosen:
        entry.load()
    return chosen


def _grid_entries(paths: Sequence[str], dictionaries: tuple[str, ...]) -> list[Entry]:
    load_dictionary(dictionaries)  # bad input stops the command before any timing
    found = []
    for path in paths:
        grids = load_grid(path)
        for number, grid in enumerate(grids, start=1):
            name = Path(grid.source).name
            found.append(Entry(path, None, name, dictionaries, number if len(grids) > 1 else None))
    return found


# ---------------------------------------------------------------- measuring


@dataclass(frozen=True)
class Measurement:
    """One cell of the table: a puzzle solved by one engine with one strategy."""

    entry: Entry
    engine: str
    strategy: str
    status: str
    solutions: list[list[str]]  # the grids found, in order, rows padded with '#'
    nodes: int
    backtracks: int
    seconds: list[float]  # one per repetition, parsing included

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def measure(
    entry: Entry,
    engine: str,
    strategy: str,
    *,
    repeat: int,
    limit: int,
    timeout: float | None,
    seed: int | None = None,
    watch: Watch | None = None,
) -> Measurement:
    seconds: list[float] = []
    for _ in range(repeat):
        started = time.perf_counter()
        outcome = run(
            entry.load(),
            engine=engine,
            strategy=strategy,
            limit=limit,
            timeout=timeout,
            seed=seed,
            progress=watch,
        )
        seconds.append(time.perf_counter() - started)
        if outcome.status == "timeout":
            break  # each further run would only take the whole limit again
    return Measurement(
        entry,
        engine,
        strategy,
        outcome.status,
        [list(solution.grid) for solution in outcome.solutions],
        outcome.stats.nodes,
        outcome.stats.backtracks,
        seconds,
    )


@dataclass(frozen=True)
class Disagreement:
    puzzle: str
    strategy: str
    field: str  # one of COMPARED
    prolog: Any
    python: Any

    def __str__(self) -> str:
        where = f"DISAGREE {self.puzzle} {self.strategy}: {self.field}"
        if self.field == "solutions":
            return f"{where} differ (prolog found {len(self.prolog)}, python {len(self.python)})"
        text = f"{where} prolog={self.prolog} python={self.python}"
        if "timeout" in (self.prolog, self.python):
            text += " (only one engine reached the time limit: a longer --timeout may settle it)"
        return text


def disagreements(prolog: Measurement, python: Measurement) -> list[Disagreement]:
    """How the two engines' cells for one puzzle and strategy differ."""
    if prolog.status == python.status == "timeout":
        return []
    if "timeout" in (prolog.status, python.status):
        fields: Sequence[str] = ("status",)  # counts and grids stop wherever the clock hit
    else:
        fields = COMPARED
    name, strategy = prolog.entry.name, prolog.strategy
    return [
        Disagreement(name, strategy, field, getattr(prolog, field), getattr(python, field))
        for field in fields
        if getattr(prolog, field) != getattr(python, field)
    ]


def time_ratio(prolog: Measurement, python: Measurement) -> float | None:
    """Python's median time over Prolog's; None when either reached the limit."""
    if "timeout" in (prolog.status, python.status):
        return None
    return python.median / prolog.median


@dataclass(frozen=True)
class Ratio:
    puzzle: str
    strategy: str
    python_over_prolog: float | None


@dataclass(frozen=True)
class Report:
    measurements: list[Measurement]
    ratios: list[Ratio]
    disagreements: list[Disagreement]

    def summary(self) -> dict[str, float | None]:
        """Per strategy, the median python/prolog ratio over the puzzles."""
        summary: dict[str, float | None] = {}
        for ratio in self.ratios:
            summary.setdefault(ratio.strategy, None)
        for strategy in summary:
            known = [
                r.python_over_prolog
                for r in self.ratios
                if r.strategy == strategy and r.python_over_prolog is not None
            ]
            summary[strategy] = statistics.median(known) if known else None
        return summary


def cells(
    entries: Sequence[Entry], engines: Sequence[str], strategies: Sequence[str]
) -> list[tuple[Entry, str, str]]:
    """Every (puzzle, strategy, engine) to measure, in the order measured."""
    return [
        (entry, strategy, engine)
        for entry in entries
        for strategy in entry.strategies(strategies)
        for engine in engines
    ]


def measurements(
    todo: Sequence[tuple[Entry, str, str]],
    *,
    repeat: int = 5,
    limit: int = 1,
    timeout: float | None = DEFAULT_TIMEOUT,
    seed: int | None = None,
    progress: Progress | None = None,
) -> Iterator[Measurement]:
    """Measure each cell of `todo` in turn, yielding each as it is done;
    `progress` hears of each cell begun and ended, and watches its searches."""
    for entry, strategy, engine in todo:
        if progress is not None:
            progress.start(f"{entry.name} {strategy} {engine}")
        yield measure(
            entry,
            engine,
            strategy,
            repeat=repeat,
            limit=limit,
            timeout=timeout,
            seed=seed,
            watch=None if progress is None else progress.watch,
        )
        if progress is not None:
            progress.advance()


def report(found: Sequence[Measurement]) -> Report:
    """The report of the cells measured (all of them, or those done when
    the work was interrupted): each puzzle and strategy that both engines
    have measured gives a time ratio and is checked for disagreements."""
    by_cell = {(m.entry, m.strategy, m.engine): m for m in found}
    ratios: list[Ratio] = []
    disagreeing: list[Disagreement] = []
    for entry, strategy in dict.fromkeys((m.entry, m.strategy) for m in found):
        prolog, python = (
            by_cell.get((entry, strategy, "prolog")),
            by_cell.get((entry, strategy, "python")),
        )
        if prolog is not None and python is not None:
            ratios.append(Ratio(entry.name, strategy, time_ratio(prolog, python)))
            disagreeing.extend(disagreements(prolog, python))
    return Report(list(found), ratios, disagreeing)


def benchmark(
    entries: Sequence[Entry],
    engines: Sequence[str],
    strategies: Sequence[str],
    *,
    repeat: int = 5,
    limit: int = 1,
    timeout: float | None = DEFAULT_TIMEOUT,
    seed: int | None = None,
) -> Report:
    """Measure every cell and report on them all."""
    todo = cells(entries, engines, strategies)
    return report(list(measurements(todo, repeat=repeat, limit=limit, timeout=timeout, seed=seed)))


# ---------------------------------------------------------------- text and JSON


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


HEADER = ("puzzle", "strategy", "engine", "status", "solutions", "nodes", "backtracks", "median ms")
# The least widths of the columns after the first two, so that the rows can be
# printed as they are measured: "unsolvable", 10-digit counts, 7-digit times.
LEAST_WIDTHS = (6, 10, 9, 10, 10, 10)


class Table:
    """The table of measurements, its columns as wide as the puzzle names and
    strategies to come need (known before any is measured), so that each
    row can be printed as soon as it is measured."""

    def __init__(self, puzzles: Sequence[str], strategies: Sequence[str]) -> None:
        first = [max(map(len, ("puzzle", *puzzles))), max(map(len, ("strategy", *strategies)))]
        rest = (max(w, len(h)) for w, h in zip(LEAST_WIDTHS, HEADER[2:], strict=True))
        self.widths = [*first, *rest]

    def line(self, cells: Sequence[str]) -> str:
        return aligned_line(cells, self.widths, lambda i: i >= 4)

    def header(self) -> str:
        return self.line(HEADER)

    def row(self, m: Measurement) -> str:
        return self.line(
            (
                m.entry.name,
                m.strategy,
                m.engine,
                m.status,
                str(len(m.solutions)),
                str(m.nodes),
                str(m.backtracks),
                f"{m.median * 1000:.2f}",
            )
        )


def table_for(todo: Sequence[tuple[Entry, str, str]]) -> Table:
    return Table([entry.name for entry, _, _ in todo], [strategy for _, strategy, _ in todo])


def report_text(report: Report) -> str:
    """The table of measurements, then what follows it (report_tail)."""
    table = Table(
        [m.entry.name for m in report.measurements], [m.strategy for m in report.measurements]
    )
    lines = [table.header(), *map(table.row, report.measurements)]
    tail = report_tail(report)
    return "\n".join(lines + (["", *tail] if tail else []))


def report_tail(report: Report) -> list[str]:
    """The lines after the table: the time ratios, the verdict and the
    median ratio per strategy (nothing when no puzzle has both engines)."""
    if not report.ratios:
        return []
    ratio_rows = [(r.puzzle, r.strategy, _ratio(r.python_over_prolog)) for r in report.ratios]
    lines = _table(("puzzle", "strategy", "python/prolog"), ratio_rows, left=2)
    verdict = [str(d) for d in report.disagreements] or [
        "the engines agree on every puzzle and strategy"
    ]
    lines += ["", *verdict]
    lines += ["", "median python/prolog time ratio over the puzzles:"]
    lines += [f"  {strategy}: {_ratio(v)}" for strategy, v in report.summary().items()]
    return lines


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int) -> list[str]:
    """Columns padded to fit; the first `left` columns left-aligned, the rest right."""
    widths = column_widths(header, rows)
    return [aligned_line(row, widths, lambda i: i >= left) for row in [header, *rows]]


def _measurement_json(m: Measurement) -> dict[str, Any]:
    return {
        "puzzle": m.entry.name,
        "path": m.entry.path,
        "words": m.entry.words,
        "engine": m.engine,
        "strategy": m.strategy,
        "status": m.status,
        "solutions": m.solutions,
        "nodes": m.nodes,
        "backtracks": m.backtracks,
        "median_seconds": m.median,
        "seconds": m.seconds,
    }


def report_json(report: Report) -> dict[str, Any]:
    return {
        "records": [_measurement_json(m) for m in report.measurements],
        "ratios": [
            {"puzzle": r.puzzle, "strategy": r.strategy, "python_over_prolog": r.python_over_prolog}
            for r in report.ratios
        ],
        "summary": report.summary(),
        "disagreements": [
            {
                "puzzle": d.puzzle,
                "strategy": d.strategy,
                "field": d.field,
                "prolog": d.prolog,
                "python": d.python,
                "message": str(d),
            }
            for d in report.disagreements
        ],
    }


# ---------------------------------------------------------------- plot


def write_plot(report: Report, path: str) -> None:
    """A grouped bar chart of the median seconds per puzzle (log scale), one
    bar per engine x strategy, the legend beside the axes; cells that
    reached the time limit are hatched."""
    require_matplotlib()
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    puzzles = list(dict.fromkeys(m.entry.name for m in report.measurements))
    series = list(dict.fromkeys((m.engine, m.strategy) for m in report.measurements))
    cells = {(m.entry.name, m.engine, m.strategy): m for m in report.measurements}
    figure = Figure(figsize=(max(6.0, 1.5 * len(puzzles) + 2), 4.5))
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    width = 0.8 / len(series)
    for k, (engine, strategy) in enumerate(series):
        shown = [
            (i, cells[p, engine, strategy])
            for i, p in enumerate(puzzles)
            if (p, engine, strategy) in cells
        ]
        bars = axes.bar(
            [i + (k - (len(series) - 1) / 2) * width for i, _ in shown],
            [m.median for _, m in shown],
            width,
            label=f"{engine} {strategy}",
        )
        for bar, (_, m) in zip(bars, shown, strict=True):
            if m.status == "timeout":
                bar.set_hatch("//")
    axes.set_yscale("log")
    axes.set_xticks(range(len(puzzles)), puzzles)
    axes.set_ylabel("median seconds (parsing included)")
    axes.set_title(plot_title(report))
    axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    figure.tight_layout()
    figure.savefig(path, bbox_inches="tight")


def plot_title(report: Report) -> str:
    """The plot's title; it explains the hatching only when a bar has it."""
    if any(m.status == "timeout" for m in report.measurements):
        return "crossword compare (hatched: time limit reached)"
    return "crossword compare"
