"""What the runs of a suite show: the table (a row per grid, a column group
per engine and strategy, the footer), the CSV and JSON reports, the
difficulty estimate against the nodes searched, the peers' published
results and the cactus plot."""

from __future__ import annotations

import csv
import math
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pybridge.bench import qxw, runner, suite
from pybridge.difficulty import estimate, rank_correlation
from pybridge.lexicon import Dictionary
from pybridge.reports import aligned_line, require_matplotlib
from pybridge.scores import Objective

PEERS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "peers"


SHORTEST = 0.001  # seconds: a peer's 0.00 would vanish from a log scale


def by_difficulty(
    grids: Sequence[suite.Grid], words: Sequence[str]
) -> tuple[list[suite.Grid], dict[str, float | None]]:
    """The grids from the easiest to the hardest to fill from `words`, as
    pybridge.difficulty estimates it (those it finds unfillable last), and
    each grid's estimate by name."""
    rated = {grid.name: estimate(grid.puzzle, words).difficulty for grid in grids}
    ordered = sorted(grids, key=lambda g: (rated[g.name] is None, rated[g.name] or 0.0))
    return ordered, rated


def difficulty_agreement(
    runs: Sequence[runner.Run], difficulties: Mapping[str, float | None]
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


def columns(runs: Iterable[runner.Run]) -> list[str]:
    """The labels of the table's column groups, in the order first run."""
    return list(dict.fromkeys(r.label for r in runs))


def column_summary(runs: Sequence[runner.Run], maximize: Objective | None = None) -> dict[str, Any]:
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


def _gap(r: runner.Run, maximize: Objective) -> float | None:
    value = r.min if maximize == "min" else r.sum
    return None if value is None or r.bound is None else r.bound - value


def summary(
    runs: Sequence[runner.Run], maximize: Objective | None = None
) -> dict[str, dict[str, Any]]:
    return {
        name: column_summary([r for r in runs if r.label == name], maximize)
        for name in columns(runs)
    }


def _status(r: runner.Run) -> str:
    return "WRONG" if r.wrong else r.status


def _nodes(r: runner.Run) -> str:
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

    def row(self, grid: str, size: str, by_name: Mapping[str, runner.Run]) -> str:
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

    def foot(self, runs: Sequence[runner.Run]) -> list[str]:
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
    runs: Sequence[runner.Run],
    difficulties: Mapping[str, float | None] | None = None,
    maximize: Objective | None = None,
) -> str:
    """The whole table of `runs` (see Table)."""
    grids = list(dict.fromkeys((r.grid, r.size) for r in runs))
    fields = table_fields(any(r.min is not None for r in runs), maximize)
    table = Table(grids, columns(runs), difficulties, fields, maximize)
    by_grid: dict[tuple[str, str], dict[str, runner.Run]] = {}
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


def _run_record(r: runner.Run) -> dict[str, Any]:
    record = asdict(r)
    record["problems"] = list(r.problems)
    return record


def write_csv(runs: Sequence[runner.Run], path: str) -> None:
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
    runs: Sequence[runner.Run],
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


def cactus_lines(
    runs: Sequence[runner.Run], peers: Sequence[Peer], timeout: float
) -> list[tuple[str, list[float], bool]]:
    """The lines of the cactus plot: label, the seconds of each grid solved
    in increasing order, and whether it is a peer's. A peer's grids count
    only when solved within this run's `timeout`, as ours do; a peer that
    this run ran itself (--peer qxw) is drawn from this run alone."""
    lines = []
    for name in columns(runs):
        times = sorted(r.seconds for r in runs if r.label == name and r.status == "solved")
        label = f"{name} (wall time, incl dict load)" if name == qxw.QXW else name
        lines.append((label, times, False))
    ran = {r.engine for r in runs if r.engine == qxw.QXW}
    for peer in peers:
        if peer.name.lower() in ran:
            continue
        times = sorted(max(s, SHORTEST) for s in peer.seconds.values() if s <= timeout)
        lines.append((peer.label, times, True))
    return lines


def write_cactus(
    runs: Sequence[runner.Run], peers: Sequence[Peer], path: str, timeout: float
) -> None:
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
