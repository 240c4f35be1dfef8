"""The `bench` command: fill a suite of grids from a dictionary with each
engine and strategy, verify every fill, and tabulate the runs."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from pybridge import bench
from pybridge.commands.common import (
    EXIT_INTERRUPTED,
    EXIT_UNSOLVABLE,
    add_progress_options,
    add_seed,
    check_writable,
    choice_list,
    out,
    plot_file,
    positive_int,
    positive_seconds,
    progress_line,
    usable_engines,
    written,
)
from pybridge.errors import MissingDependency, UsageError
from pybridge.lexicon import Dictionary, load_dictionary
from pybridge.options import BenchOptions
from pybridge.progress import interruptible
from pybridge.reports import require_matplotlib
from pybridge.scores import OBJECTIVES
from pybridge.solver import ENGINES, LEXICON_STRATEGIES, OPTIMISING_STRATEGY

BENCH_EPILOG = """\
Each GRID is a grid file (every grid of an RP 2016 file is a row of its own)
or a folder, whose *.txt grid files are taken in name order (files that are
not grids to fill are skipped). Each run's seconds are its search time; the
dictionary is read and indexed once per process, both times reported apart.
Every fill found is verified; a wrong one is printed as WRONG. The dictionary
line comes first, then each grid's row as soon as its runs have ended; Ctrl-C
stops the work and prints the footer of the runs done (exit code 130).

exit codes:
  0    every run ended (solved, unsolvable or timeout) and every fill is right
  1    some fill failed verification (a WRONG cell; the problems are on stderr)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    parser = commands.add_parser(
        "bench",
        help=summary,
        description=(
            "Fill every grid from the dictionary with every engine and strategy under a time\n"
            "limit; print one row per grid and the solved count and median time per column."
        ),
        epilog=BENCH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("grids", nargs="+", metavar="GRID", help="a grid file or a folder of them")
    parser.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        required=True,
        metavar="FILE",
        help="the dictionary to fill from (repeat to merge several)",
    )
    parser.add_argument(
        "--engines",
        type=choice_list(ENGINES),
        default=("python", "prolog"),
        help="comma-separated (default: python,prolog)",
    )
    parser.add_argument(
        "--strategies",
        type=choice_list(LEXICON_STRATEGIES),
        default=bench.DEFAULT_STRATEGIES,
        help=f"comma-separated, from {','.join(LEXICON_STRATEGIES)} (default: "
        f"{','.join(bench.DEFAULT_STRATEGIES)})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=bench.DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time limit of each run (default: {bench.DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=1, metavar="N", help="runs at once (default: 1)"
    )
    parser.add_argument(
        "--portfolio",
        type=positive_int,
        default=1,
        metavar="N",
        help="run each grid as `solve --jobs N` does: N streams at once, each in a process of "
        "its own, the first to answer winning (one grid at a time; default: 1)",
    )
    parser.add_argument(
        "--maximize",
        choices=OBJECTIVES,
        help=f"search each grid for its best fill (strategy {OPTIMISING_STRATEGY}, a scored "
        "dictionary): min or sum, as for solve; adds the bound column, the fills not proved "
        "optimal and their median gap",
    )
    add_seed(parser)
    parser.add_argument(
        "--sort",
        choices=("files", "difficulty"),
        default="files",
        help="run the grids in the order given (files), or from the easiest to the hardest "
        "as `crossword difficulty` estimates them with the dictionary, shown in a column, "
        "with Spearman's rho between the estimate and the nodes (default: files)",
    )
    parser.add_argument("--csv", metavar="FILE", help="also write one line per run to FILE")
    parser.add_argument("--json", metavar="FILE", help="also write the runs and summary to FILE")
    parser.add_argument(
        "--plot",
        type=plot_file,
        metavar="FILE",
        help="draw a cactus plot (grids solved against time) to FILE.png or FILE.svg, "
        "with the peers' figures (needs matplotlib)",
    )
    parser.add_argument(
        "--peers-dir",
        type=Path,
        default=bench.PEERS_DIR,
        metavar="DIR",
        help="peers' measured figures for the plot (default: ../shared/bench/peers, if there)",
    )
    parser.add_argument(
        "--peer",
        choices=(bench.QXW,),
        help="also run this solver on the same grids (qxw: Qxw's batch fill, `qxw -b`)",
    )
    add_progress_options(parser)
    parser.set_defaults(handler=bench_command)


def _checks(args: argparse.Namespace, grids: Sequence[bench.Grid]) -> None:
    """What must hold before any run: matplotlib for --plot, Qxw for --peer,
    the valued strategy for --maximize."""
    if args.jobs > 1 and args.portfolio > 1:
        raise UsageError("--jobs runs cells at once, --portfolio one cell at a time: not both")
    if args.maximize is not None:
        if args.strategies == bench.DEFAULT_STRATEGIES:
            args.strategies = (OPTIMISING_STRATEGY,)
        if args.strategies != (OPTIMISING_STRATEGY,):
            raise UsageError(f"--maximize searches with --strategies {OPTIMISING_STRATEGY} only")
    if args.plot:
        require_matplotlib()
    for option in ("csv", "json", "plot"):
        if getattr(args, option):
            check_writable(getattr(args, option), f"--{option}")
    if args.peer == bench.QXW:
        if bench.qxw_program() is None:
            raise MissingDependency(bench.QXW_HINT)
        given = [grid.name for grid in grids if not bench.blank_grid(grid.puzzle)]
        if given:
            raise UsageError(f"--peer qxw fills blank grids only; these have letters: {given}")


def bench_command(args: argparse.Namespace) -> int:
    grids = bench.load_suite(args.grids)
    _checks(args, grids)
    started = time.perf_counter()
    dictionary = load_dictionary(args.dicts)
    if args.maximize is not None and dictionary.scores is None:
        raise UsageError("--maximize needs a scored dictionary (WORD;score lines)")
    loaded = time.perf_counter()
    bench.index(dictionary.words)
    load_seconds, index_seconds = loaded - started, time.perf_counter() - loaded
    difficulties = None
    if args.sort == "difficulty":
        grids, difficulties = bench.by_difficulty(grids, dictionary.words)
    engines = usable_engines(args.engines, "bench")
    todo = bench.cells(grids, engines, args.strategies, args.peer == bench.QXW)
    # a portfolio's workers send it themselves
    send_seconds = None if args.portfolio > 1 else bench.send_dictionary(todo, dictionary)
    sent = "" if send_seconds is None else f", sent to Prolog in {send_seconds:.2f} s"
    out(
        f"dictionary: {dictionary.summary()}; loaded in {load_seconds:.2f} s, "
        f"indexed in {index_seconds:.2f} s{sent}"
    )
    runs, interrupted = _run(args, dictionary, todo, difficulties)
    if difficulties is not None and runs:
        out(bench.agreement_text(bench.difficulty_agreement(runs, difficulties)))
    if interrupted:
        out(f"interrupted (Ctrl-C) after {len(runs)} of {len(todo)} runs: the figures are partial")
    for run_ in runs:
        for problem in run_.problems:
            print(f"WRONG {run_.grid} {run_.label}: {problem}", file=sys.stderr)
    if runs:
        _files(args, runs, dictionary, (load_seconds, index_seconds, send_seconds), difficulties)
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_UNSOLVABLE if any(run_.wrong for run_ in runs) else 0


def _run(
    args: argparse.Namespace,
    dictionary: Dictionary,
    todo: Sequence[bench.Cell],
    difficulties: Mapping[str, float | None] | None,
) -> tuple[list[bench.Run], bool]:
    """Make the runs, printing the table a row at a time, each grid's row
    once its runs have ended (in the grids' order), and the footer; Ctrl-C
    stops the work: the footer then sums up the runs done. The runs, in
    the order of `todo`, and whether the work was interrupted."""
    grids = list(dict.fromkeys((cell.grid.name, cell.grid.size) for cell in todo))
    names = list(dict.fromkeys(cell.label for cell in todo))
    fields = bench.table_fields(dictionary.scores is not None, args.maximize)
    table = bench.Table(grids, names, difficulties, fields, args.maximize)
    per_grid = len(todo) // len(grids)  # every grid has a run of each name
    found: dict[int, bench.Run] = {}
    printed = 0  # the grids whose row is printed
    interrupted = False
    out("\n".join(table.head()))
    line = progress_line(args, "bench", total=len(todo), timeout=args.timeout)
    with line, interruptible():
        try:
            options = BenchOptions(
                args.timeout, args.seed, args.jobs, args.portfolio, args.maximize
            )
            for k, run_ in bench.runs(todo, dictionary, options, line):
                found[k] = run_
                while printed < len(grids) and all(k in found for k in _of_grid(printed, per_grid)):
                    by_name = {found[k].label: found[k] for k in _of_grid(printed, per_grid)}
                    with line.paused():
                        out(table.row(*grids[printed], by_name))
                    printed += 1
        except KeyboardInterrupt:
            interrupted = True
    runs = [found[k] for k in sorted(found)]
    out("\n".join(table.foot(runs)))
    return runs, interrupted


def _of_grid(grid: int, per_grid: int) -> range:
    return range(grid * per_grid, (grid + 1) * per_grid)


def _files(
    args: argparse.Namespace,
    runs: Sequence[bench.Run],
    dictionary: Dictionary,
    seconds: tuple[float, float, float | None],
    difficulties: Mapping[str, float | None] | None = None,
) -> None:
    if args.csv:
        written("the CSV file", args.csv, lambda: bench.write_csv(runs, args.csv))
    if args.json:
        settings = {
            "engines": list(args.engines),
            "strategies": list(args.strategies),
            "timeout": args.timeout,
            "jobs": args.jobs,
            "portfolio": args.portfolio,
            "seed": args.seed,
            "peer": args.peer,
            "sort": args.sort,
            "maximize": args.maximize,
        }
        report = bench.report_json(runs, dictionary, seconds, settings, difficulties, args.maximize)
        text = json.dumps(report, ensure_ascii=False, indent=2) + "\n"
        written(
            "the JSON file", args.json, lambda: Path(args.json).write_text(text, encoding="utf-8")
        )
    if args.plot:
        peers = bench.relevant_peers(args.peers_dir, (run_.grid for run_ in runs))
        written(
            "the plot", args.plot, lambda: bench.write_cactus(runs, peers, args.plot, args.timeout)
        )
        print(f"plot written to {args.plot}", file=sys.stderr)
