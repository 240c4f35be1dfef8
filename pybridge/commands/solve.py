"""The `solve` command: fill one puzzle (or each grid of a file) and print
its solutions, count them, or say whether there is exactly one."""

from __future__ import annotations

import argparse
import json
import sys

from pybridge.commands.common import (
    EXCHANGES,
    EXIT_BY_STATUS,
    PICTURES,
    add_progress_options,
    add_puzzle_arguments,
    check_picture_path,
    draw,
    drawn_lines,
    json_document,
    load_puzzles,
    numbered,
    out,
    positive_int,
    progress_line,
    timeout_left,
    worst,
    write_crossword,
)
from pybridge.errors import shown
from pybridge.model import Puzzle
from pybridge.render import blocks_text
from pybridge.solver import Outcome, Stats, check_seed, check_strategy, run
from pybridge.wording import plural

SOLVE_EPILOG = """\
exit codes:
  0    solved: at least one solution (with --count: a count of at least 1)
  1    proven unsolvable: a proof layer (length, no-fit, hall, propagation)
       or the exhausted search shows it (the reason is printed)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  3    the time limit (--timeout) was reached before the search finished
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
  141  the output pipe was closed early (e.g. by `| head`)

Results and verdicts go to stdout; errors, notices and --stats to stderr.
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    solve = commands.add_parser(
        "solve",
        help="solve one puzzle",
        description="Fill a P-99 or fill-in puzzle; print its solutions.",
        epilog=SOLVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(solve)
    how_many = solve.add_mutually_exclusive_group()
    how_many.add_argument("--all", action="store_true", help="print every solution")
    how_many.add_argument("--count", action="store_true", help="count the solutions")
    how_many.add_argument(
        "--limit", type=positive_int, metavar="N", help="print up to N solutions (default: 1)"
    )
    how_many.add_argument(
        "--unique",
        action="store_true",
        help="stop at the second solution and say whether exactly one exists",
    )
    solve.add_argument(
        "--stats", action="store_true", help="print search statistics to stderr (always in json)"
    )
    add_progress_options(solve)
    solve.set_defaults(handler=solve_command)


def solve_command(args: argparse.Namespace) -> int:
    check_picture_path(args)
    puzzles = load_puzzles(args)
    for puzzle in puzzles:
        check_strategy(puzzle, args.strategy)
    check_seed(args.strategy, args.seed)
    codes = [solve_one(puzzle, args, many=len(puzzles) > 1) for puzzle in puzzles]
    return worst(codes)


def solve_one(puzzle: Puzzle, args: argparse.Namespace, many: bool) -> int:
    if many and args.output[0] != "json":
        out(f"== {puzzle.source}")
    limit = None if args.all else (args.limit or 1)
    timeout = timeout_left(args)
    with progress_line(args, f"solve {shown(puzzle.source)}", timeout=timeout) as line:
        outcome = run(
            puzzle,
            engine=args.engine,
            strategy=args.strategy,
            limit=limit,
            count=args.count,
            unique=args.unique,
            timeout=timeout,
            seed=args.seed,
            progress=line.watch,
        )
    kind, path = args.output
    if kind == "json":
        out(json.dumps(json_document(puzzle, outcome, many), ensure_ascii=False, indent=2))
    elif kind in EXCHANGES:
        out(write_crossword(kind, puzzle, outcome, numbered(path, puzzle) if many else path))
        if outcome.status != "solved":
            out("\n".join(verdict_lines(outcome, args.timeout)))
    elif kind in PICTURES:
        drawn = draw(puzzle, outcome, numbered(path, puzzle) if many else path)
        out("\n".join(drawn_lines(drawn) + verdict_lines(outcome, args.timeout)))
    else:
        out(outcome_text(outcome, args.timeout, blocks=kind == "blocks"))
    if args.stats and kind != "json":
        print(stats_text(outcome.stats), file=sys.stderr)
    return EXIT_BY_STATUS[outcome.status]


def verdict_lines(outcome: Outcome, timeout: float | None) -> list[str]:
    found = outcome.count if outcome.count is not None else len(outcome.solutions)
    if outcome.status == "timeout":
        return [f"time limit of {timeout:g} s reached after {plural(found, 'solution')}"]
    lines = [] if outcome.count is None else [plural(found, "solution")]
    if outcome.unique is not None:
        lines.append(
            "unique: exactly one solution"
            if outcome.unique
            else "not unique: at least two solutions (both shown)"
        )
    if outcome.status == "unsolvable":
        lines.append(f"no solution: {outcome.reason}")
    return lines


def outcome_text(outcome: Outcome, timeout: float | None, blocks: bool = False) -> str:
    """What `solve` prints on stdout: the solutions, a blank line between two,
    then the count and the verdict, if any."""
    show = blocks_text if blocks else str
    parts = [show(solution) for solution in outcome.solutions]
    verdict = verdict_lines(outcome, timeout)
    if verdict:
        parts.append("\n".join(verdict))
    return "\n\n".join(parts)


def stats_text(stats: Stats) -> str:
    return (
        f"stats: engine={stats.engine} strategy={stats.strategy} nodes={stats.nodes} "
        f"backtracks={stats.backtracks} seconds={stats.seconds:.6f}"
    )
