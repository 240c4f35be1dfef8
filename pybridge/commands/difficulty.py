"""The `difficulty` command: how hard a grid is to fill, estimated before any
search, with the features behind the estimate (pybridge.difficulty)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from pybridge.commands.common import EXIT_SOLVED, EXIT_UNSOLVABLE, out
from pybridge.difficulty import Estimate
from pybridge.reports import aligned_line, column_widths
from pybridge.service import jobs
from pybridge.service.jobs import Listener
from pybridge.service.requests import dictionary_options

DIFFICULTY_EPILOG = """\
The difficulty is on the scale of log10 of the nodes the default strategy
(wdeg) needs to fill the grid: about log10(slots) for a grid filled without
a dead end, more as the expected number of fills per slot falls. Without
--dict only the grid's features count (slots, and the share of long ones).
docs/cli.md lists the features; docs/benchmarks.md how well the estimate
ranks grids.

exit codes:
  0    estimated
  1    the dictionary cannot fill the grid: a slot has no candidate word
       (the difficulty is none)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  4    an internal error (the program has a bug)
  130  interrupted (Ctrl-C)
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    parser = commands.add_parser(
        "difficulty",
        help=summary,
        description="Estimate how hard a grid is to fill from a dictionary, before any\n"
        "search, and print the features behind the estimate.",
        epilog=DIFFICULTY_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "grids",
        nargs="+",
        metavar="GRID",
        help="a grid file (plain, CS50 or RP 2016: every grid of it), or a folder of *.txt grids",
    )
    parser.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        metavar="FILE",
        help="the dictionary it is filled from (repeat to merge several); without it, "
        "the grid alone",
    )
    parser.add_argument(
        "--encoding", help="the dictionaries' encoding (default: UTF-8, else cp1252, per file)"
    )
    parser.add_argument(
        "--sort", action="store_true", help="list several grids from the easiest to the hardest"
    )
    parser.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help='text, or json: {"difficulty": number, "features": {...}} (a list of them, '
        "each with its source, for several grids); default: text",
    )
    parser.set_defaults(handler=difficulty_command)


def difficulty_command(args: argparse.Namespace) -> int:
    rated = jobs.difficulty(args.grids, dictionary_options(vars(args)), args.sort, Listener())
    if args.output == "json":
        docs = [{"source": r.grid.puzzle.source, **r.estimate.to_json()} for r in rated]
        out(json.dumps(rated[0].estimate.to_json() if len(rated) == 1 else docs, indent=2))
    elif len(rated) == 1:
        out(estimate_text(rated[0].estimate))
    else:
        out(table_text([(r.grid.name, r.estimate) for r in rated], bool(args.dicts)))
    unfillable = any(r.estimate.difficulty is None for r in rated)
    return EXIT_UNSOLVABLE if unfillable else EXIT_SOLVED


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, dict):
        return " ".join(f"{k}:{v}" for k, v in value.items())
    return f"{value:g}" if isinstance(value, float) else str(value)


def estimate_text(e: Estimate) -> str:
    """The difficulty, then one feature a line."""
    head = "difficulty: none (a slot has no candidate word)"
    if e.difficulty is not None:
        head = f"difficulty: {e.difficulty:.2f}"
    return "\n".join([head, *(f"{name}: {_value(v)}" for name, v in e.features.items())])


def table_text(rated: list[tuple[str, Estimate]], with_words: bool) -> str:
    """One grid a line: its difficulty and the features that weigh most."""
    header = ["grid", "difficulty", "slots", "longest", "complexity"]
    if with_words:
        header += ["log10 E", "kappa"]
    rows = []
    for name, e in rated:
        f = e.features
        shown = "none" if e.difficulty is None else f"{e.difficulty:.2f}"
        row = [name, shown, str(f["slots"]), str(f["longest"])]
        row.append(str(f["generation_complexity"]))
        if with_words:
            row += [_value(f.get("log10_expected_fills")), _value(f.get("kappa"))]
        rows.append(row)
    widths = column_widths(header, rows)
    return "\n".join(aligned_line(row, widths, lambda i: i > 0) for row in [header, *rows])
