"""The `solve` command: fill one puzzle (or each grid of a file) and print
its solutions, count them, or say whether there is exactly one."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from pybridge.commands.common import (
    EXCHANGES,
    EXIT_BY_STATUS,
    PICTURES,
    SHEETS,
    add_maximize,
    add_progress_options,
    add_puzzle_arguments,
    check_picture_path,
    checked_puzzles,
    draw,
    drawn_lines,
    json_document,
    numbered,
    out,
    positive_int,
    progress_line,
    timeout_left,
    worst,
    write_crossword,
)
from pybridge.commands.publish import (
    Clueing,
    add_clue_options,
    add_sheet_options,
    clueing,
    publish,
    tell_clues,
    write_pdf,
)
from pybridge.errors import shown
from pybridge.model import Puzzle
from pybridge.portfolio import Portfolio
from pybridge.progress import Progress
from pybridge.render import blocks_text
from pybridge.scores import Score, score_text
from pybridge.search.kernel import Watch
from pybridge.solver import BetterFill, Outcome, Stats, run
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
    add_maximize(solve)
    solve.add_argument(
        "--stats", action="store_true", help="print search statistics to stderr (always in json)"
    )
    solve.add_argument(
        "--jobs",
        type=positive_int,
        default=1,
        metavar="N",
        help="search with N streams at once, each in a process of its own (a portfolio of "
        "seeds): the first to fill the puzzle or prove it unsolvable wins, the others stop; "
        "which one wins depends on timing (default: 1, one search, reproducible)",
    )
    add_clue_options(solve, suggest_default=False)
    add_sheet_options(solve)
    add_progress_options(solve)
    solve.set_defaults(handler=solve_command)


def solve_command(args: argparse.Namespace) -> int:
    check_picture_path(args)
    args.clueing = clueing(args, suggest_default=False, command="solve")
    puzzles = checked_puzzles(args)
    words = puzzles[0].words if puzzles[0].mode == "lexicon" else ()  # a dictionary: held once
    with Portfolio(args.jobs, args.engine, words) as portfolio:
        codes = [solve_one(portfolio, puzzle, args, many=len(puzzles) > 1) for puzzle in puzzles]
    return worst(codes)


def solve_one(portfolio: Portfolio, puzzle: Puzzle, args: argparse.Namespace, many: bool) -> int:
    if many and args.output[0] != "json":
        out(f"== {puzzle.source}")
    timeout = timeout_left(args)
    kind, path = args.output
    maximize = args.maximize
    with progress_line(args, f"solve {shown(puzzle.source)}", timeout=timeout) as line:
        told = None if kind == "json" or maximize is None else tell(maximize, line)
        outcome = solve_outcome(puzzle, args, timeout, line.watch, told, portfolio)
    how: Clueing = args.clueing
    if how.asked or kind in SHEETS:
        outcome = publish(outcome, how)
        if how.asked and kind != "json":
            tell_clues(outcome)
    scored = score_lines(outcome, maximize)
    if kind == "json":
        out(json.dumps(json_document(puzzle, outcome, many), ensure_ascii=False, indent=2))
    elif kind in EXCHANGES + SHEETS:
        target = numbered(path, puzzle) if many else path
        if kind in SHEETS and outcome.solutions:
            first = outcome.solutions[0]
            out(write_pdf(first.puzzle, first.grid, target, args.paper))
        else:
            out(write_crossword(kind, puzzle, outcome, target))
        verdict = [] if outcome.status == "solved" else verdict_lines(outcome, args.timeout)
        if lines := scored + verdict:
            out("\n".join(lines))
    elif kind in PICTURES:
        drawn = draw(puzzle, outcome, numbered(path, puzzle) if many else path, args.dpi)
        out("\n".join(drawn_lines(drawn) + scored + verdict_lines(outcome, args.timeout)))
    else:
        out(outcome_text(outcome, args.timeout, blocks=kind == "blocks", maximize=maximize))
    if args.stats and kind != "json":
        print(stats_text(outcome.stats), file=sys.stderr)
    return EXIT_BY_STATUS[outcome.status]


def solve_outcome(
    puzzle: Puzzle,
    args: argparse.Namespace,
    timeout: float | None,
    progress: Watch | None = None,
    on_better: Callable[[BetterFill], None] | None = None,
    portfolio: Portfolio | None = None,
) -> Outcome:
    """The search `args` ask for, within `timeout`: up to --limit solutions
    (1 by default), all, their count, or whether there is exactly one, or
    with --maximize the best fill (`on_better` hears of each better one);
    `progress` hears how the search goes. With a `portfolio`, its streams
    search (--jobs); without one, a single search runs here."""
    limit = None if args.all else (args.limit or 1)
    options = {
        "strategy": args.strategy,
        "limit": limit,
        "count": args.count,
        "unique": args.unique,
        "timeout": timeout,
        "seed": args.seed,
        "progress": progress,
        "maximize": getattr(args, "maximize", None),
        "on_better": on_better,
    }
    if portfolio is None:
        return run(puzzle, engine=args.engine, **options)
    return portfolio.run(puzzle, **options)


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


def outcome_text(
    outcome: Outcome, timeout: float | None, blocks: bool = False, maximize: str | None = None
) -> str:
    """What `solve` prints on stdout: the solutions, a blank line between two,
    then the score line, the count and the verdict, if any."""
    show = blocks_text if blocks else str
    parts = [show(solution) for solution in outcome.solutions]
    verdict = score_lines(outcome, maximize) + verdict_lines(outcome, timeout)
    if verdict:
        parts.append("\n".join(verdict))
    return "\n\n".join(parts)


def tell(objective: str, line: Progress) -> Callable[[BetterFill], None]:
    """Each better fill, told on stderr as it is found (above the progress line)."""

    def told(better: BetterFill) -> None:
        with line.paused():
            print(
                f"better: {objective} {score_text(better.value)} after {better.seconds:.2f} s, "
                f"{plural(better.nodes, 'node')}",
                file=sys.stderr,
                flush=True,
            )

    return told


SCORES = ("min", "sum", "mean")


def score_lines(outcome: Outcome, maximize: str | None) -> list[str]:
    """The score line of the first solution (when the words have scores),
    and with --maximize whether it is optimal, or how good a fill may be."""
    score = outcome.score
    if score is None:
        return []
    parts = []
    scored = [v for v in (score.min, score.sum, score.mean) if v is not None]
    if len(scored) == len(SCORES):
        values = [f"{name} {score_text(v)}" for name, v in zip(SCORES, scored, strict=True)]
        parts.append("score: " + ", ".join(values))
    if maximize is not None and score.optimal is not None:
        parts.append(_optimality(score, maximize))
    return [" ".join(parts)] if parts else []


def _optimality(score: Score, objective: str) -> str:
    if score.optimal:
        return f"(optimal {objective}: proved)"
    if score.bound is None:
        return "(not proved optimal: the time limit was reached)"
    if score.min is None:
        return f"score: no fill found yet ({objective} at most {score_text(score.bound)})"
    bound = score_text(score.bound)
    return f"({objective} at most {bound}: the time limit was reached before a proof)"


def stats_text(stats: Stats) -> str:
    return (
        f"stats: engine={stats.engine} strategy={stats.strategy} nodes={stats.nodes} "
        f"backtracks={stats.backtracks} seconds={stats.seconds:.6f}"
    )
