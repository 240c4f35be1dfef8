"""The `compare` command: time both engines on puzzles and check that they
agree, solution for solution and node for node."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pybridge import compare
from pybridge.commands.common import (
    EXIT_INTERRUPTED,
    add_progress_options,
    add_seed,
    check_writable,
    choice_list,
    out,
    out_json,
    plot_file,
    positive_int,
    positive_seconds,
    progress_line,
    usable_engines,
    written,
)
from pybridge.errors import UsageError
from pybridge.progress import interruptible
from pybridge.reports import require_matplotlib
from pybridge.solver import ENGINES, SEEDED_STRATEGIES, STRATEGIES, check_seed

COMPARE_EPILOG = """\
Fill-in puzzles need their word file: write PUZZLE:WORDS, or pass --words
FILE (used for every fill-in puzzle given without a pair), or keep the words
next to the grid as the corpus does: a grid named puzzleX pairs with wordsX in
the same folder (puzzle3 with words3, puzzle_t15 with words_t15). A .puz or
.ipuz crossword is filled with its own answers (as solve --answers), or from
--dict.

Each repetition re-reads and re-parses the file, then searches; the median
time of the repetitions is shown. The rows of the text table are printed as
they are measured; Ctrl-C stops the work and prints what the cells done so
far show (exit code 130). A cell that reaches the time limit is shown
as "timeout" and not repeated; when both engines time out there is nothing
to compare, when only one does it is a disagreement in status.

exit codes:
  0    the engines agree on every puzzle and strategy
  1    the engines disagree somewhere (lines starting with DISAGREE)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
  141  the output pipe was closed early (e.g. by `| head`)
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    parser = commands.add_parser(
        "compare",
        help=summary,
        description=(
            "Solve every puzzle with every engine and strategy, time it, and check that the\n"
            "Prolog engine and its pure-Python mirror find the same solutions with the same\n"
            "node and backtrack counts."
        ),
        epilog=COMPARE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "files", nargs="+", metavar="FILE", help="a puzzle, or PUZZLE:WORDS for a fill-in puzzle"
    )
    parser.add_argument(
        "--words", metavar="FILE", help="word list for fill-in puzzles given without one"
    )
    parser.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        metavar="FILE",
        help="fill every grid of every FILE from this dictionary (construction mode; "
        "repeat to merge); only the strategies that apply to it are run",
    )
    parser.add_argument(
        "--engines",
        type=choice_list(ENGINES),
        default=ENGINES,
        help=f"comma-separated (default: {','.join(ENGINES)})",
    )
    parser.add_argument(
        "--strategies",
        type=choice_list(STRATEGIES),
        help=f"comma-separated (default: {','.join(STRATEGIES)}; "
        f"with --seed: {','.join(SEEDED_STRATEGIES)})",
    )
    add_seed(parser)
    parser.add_argument(
        "--repeat",
        type=positive_int,
        default=5,
        metavar="N",
        help="runs per cell; the median time is shown (default: 5)",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=compare.DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time limit of each run (default: {compare.DEFAULT_TIMEOUT:g}; the given order "
        "can take hours on the larger puzzles)",
    )
    parser.add_argument(
        "--limit",
        type=positive_int,
        default=1,
        metavar="N",
        help="solutions to find per run (default: 1)",
    )
    parser.add_argument(
        "--plot",
        type=plot_file,
        metavar="FILE",
        help="also draw the median times to FILE.png or FILE.svg (needs matplotlib)",
    )
    parser.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help="text (tables) or json (default: text)",
    )
    add_progress_options(parser)
    parser.set_defaults(handler=compare_command)


def compare_command(args: argparse.Namespace) -> int:
    if args.plot:
        require_matplotlib()
        check_writable(args.plot, "--plot")
    if args.words and args.dicts:
        raise UsageError("--words (words to place exactly once) and --dict exclude each other")
    strategies = args.strategies or (STRATEGIES if args.seed is None else SEEDED_STRATEGIES)
    for strategy in strategies:
        check_seed(strategy, args.seed)
    entries = compare.entries(args.files, args.words, args.dicts or ())
    engines = usable_engines(args.engines)
    todo = compare.cells(entries, engines, strategies)
    found, interrupted = _measure(args, todo)
    report = compare.report(found)
    if args.output == "json":
        doc = compare.report_json(report)
        if interrupted:
            doc["interrupted"] = {"cells_done": len(found), "cells": len(todo)}
        out_json(doc)
    else:
        tail = compare.report_tail(report)
        if interrupted:
            tail = [*tail, *([""] if tail else []), _interrupted(len(found), len(todo))]
        if tail:
            out("\n".join(["", *tail]))
    if args.plot and found:
        written("the plot", args.plot, lambda: compare.write_plot(report, args.plot))
        print(f"plot written to {args.plot}", file=sys.stderr)
    if interrupted:
        return EXIT_INTERRUPTED
    return 1 if report.disagreements else 0


def _measure(
    args: argparse.Namespace, todo: Sequence[tuple[compare.Entry, str, str]]
) -> tuple[list[compare.Measurement], bool]:
    """Measure the cells, printing each row of the text table as it is
    done; Ctrl-C stops the work and keeps the cells done."""
    found: list[compare.Measurement] = []
    table = compare.table_for(todo)
    text = args.output == "text"
    with progress_line(args, "compare", total=len(todo)) as line, interruptible():
        try:
            if text:
                out(table.header())
            for measurement in compare.measurements(
                todo,
                repeat=args.repeat,
                limit=args.limit,
                timeout=args.timeout,
                seed=args.seed,
                progress=line,
            ):
                found.append(measurement)
                if text:
                    with line.paused():
                        out(table.row(measurement))
        except KeyboardInterrupt:
            return found, True
    return found, False


def _interrupted(done: int, total: int) -> str:
    return f"interrupted (Ctrl-C) after {done} of {total} cells: the figures above are partial"
