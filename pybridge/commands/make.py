"""The `make` command: a crossword from nothing - a pattern (as `grid` makes
it) filled from a dictionary (as `solve --dict` fills it), trying other
patterns when a fill is proved impossible or runs out of time."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from pybridge.commands.common import (
    EXCHANGES,
    EXIT_BY_STATUS,
    EXIT_TIMEOUT,
    EXIT_UNSOLVABLE,
    PICTURES,
    SHEETS,
    SOLVE_OUTPUTS,
    STRATEGY_HELP,
    add_maximize,
    add_min_score,
    add_output,
    add_progress_options,
    argument_type,
    check_picture_path,
    draw,
    drawn_lines,
    out,
    positive_int,
    positive_seconds,
    progress_line,
    seed_number,
    write_crossword,
)
from pybridge.commands.grid import add_pattern_arguments
from pybridge.commands.publish import (
    add_clue_options,
    add_sheet_options,
    clueing,
    publish,
    tell_clues,
    write_pdf,
)
from pybridge.commands.solve import score_lines, stats_text, tell
from pybridge.construct import (
    DEFAULT_BLOCKS,
    DEFAULT_TRIES,
    DEFAULT_TRY_TIMEOUT,
    Construction,
    Try,
    make,
    parse_range,
)
from pybridge.lexicon import Dictionary, load_dictionary
from pybridge.patterns import ImpossiblePattern, PatternNotFound
from pybridge.progress import Progress
from pybridge.render import blocks_text, outcome_json
from pybridge.solver import ENGINES, LEXICON_STRATEGIES, Outcome

MAKE_EPILOG = """\
Each pattern tried is reported on stderr as its fill ends: its seed, slots,
blocks and estimated difficulty (see `crossword difficulty`), and what came
of it. The fill is verified before it is printed.

From a scored dictionary the fill's score is printed after it. With
--maximize each pattern gets the best fill found within --try-timeout:
"optimal" means the best fill of that pattern (proved), not of every
pattern; make stops at the first pattern it fills.

exit codes:
  0    a crossword was made (printed on stdout)
  1    no crossword: every pattern tried was proved unfillable, or no
       pattern can meet the request (the reasons are on stderr)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  3    no crossword: a fill ran out of its time (--try-timeout, --timeout),
       or no pattern was found within --attempts
  4    an internal error: an engine failed, a fill failed verification, or
       the program has a bug (CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
"""


difficulty_range = argument_type(parse_range)


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "make",
        help="make a crossword: a pattern and its fill",
        description="Make a crossword from nothing: a random pattern (see `crossword grid`)\n"
        "filled from a dictionary, trying other patterns until one fills.",
        epilog=MAKE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        required=True,
        metavar="FILE",
        help="fill from this dictionary (repeat to merge several)",
    )
    parser.add_argument(
        "--encoding", help="the dictionaries' encoding (default: UTF-8, else cp1252, per file)"
    )
    add_min_score(parser)
    add_pattern_arguments(parser, f"{DEFAULT_BLOCKS:g}, more than `grid`'s: quicker fills")
    parser.add_argument(
        "--seed",
        type=seed_number,
        metavar="N",
        help="the first pattern's seed, then N+1, ... (default: a random one); the same seed "
        "makes the same crossword unless a fill's time runs out",
    )
    parser.add_argument(
        "--difficulty",
        type=difficulty_range,
        metavar="LOW:HIGH",
        help="fill only patterns whose estimated difficulty is in this range (e.g. 2:2.5, "
        ":2.5, 3:); others are passed over",
    )
    parser.add_argument(
        "--tries",
        type=positive_int,
        default=DEFAULT_TRIES,
        metavar="N",
        help=f"patterns to try filling (default: {DEFAULT_TRIES})",
    )
    parser.add_argument(
        "--try-timeout",
        type=positive_seconds,
        default=DEFAULT_TRY_TIMEOUT,
        metavar="SECONDS",
        help=f"time for each fill, then the next pattern (default: {DEFAULT_TRY_TIMEOUT:g})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="time for the whole command (default: none)",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        help="search engine (default: prolog when SWI-Prolog loads, else python)",
    )
    parser.add_argument("--strategy", choices=LEXICON_STRATEGIES, help=STRATEGY_HELP)
    add_maximize(parser)
    add_output(
        parser,
        "text (the filled grid), blocks (█ for blocks), json (solve's document with "
        "the pattern, the tries and the clues), png FILE / svg FILE (a picture of the fill), "
        "puz FILE / ipuz FILE (the crossword: a blank grid, its clues and its solution), or "
        "pdf FILE (a sheet to print: the puzzle with its clues, then the solution); "
        "default: text",
        SOLVE_OUTPUTS,
    )
    add_clue_options(parser, suggest_default=True)
    add_sheet_options(parser)
    parser.add_argument(
        "--stats", action="store_true", help="print the fill's statistics to stderr"
    )
    add_progress_options(parser)
    parser.set_defaults(handler=make_command)


def make_command(args: argparse.Namespace) -> int:
    check_picture_path(args)
    how = clueing(args, suggest_default=True, command="make")
    dictionary = load_dictionary(args.dicts, args.encoding)
    if dictionary.skipped or dictionary.weighted:
        print(f"dictionary: {dictionary.summary()}", file=sys.stderr)
    rows, cols = args.size
    line = progress_line(args, "make", timeout=args.try_timeout)
    try:
        with line:
            made = _make(args, rows, cols, dictionary, line)
    except ImpossiblePattern as err:
        print(f"crossword make: {err}", file=sys.stderr)
        return EXIT_UNSOLVABLE
    except PatternNotFound as err:
        print(f"crossword make: {err}", file=sys.stderr)
        return EXIT_TIMEOUT
    if made.status == "solved" or args.output[0] == "json":  # else stdout says it
        print(f"crossword make: {made.summary()}", file=sys.stderr)
    outcome = made.outcome
    if made.status == "solved" and outcome is not None:
        outcome = publish(outcome, how)
        if args.output[0] != "json":
            tell_clues(outcome)
    _show(made, outcome, args)
    return EXIT_BY_STATUS[made.status]


def _make(
    args: argparse.Namespace, rows: int, cols: int, dictionary: Dictionary, line: Progress
) -> Construction:
    told = None if args.output[0] == "json" or args.maximize is None else tell(args.maximize, line)
    return make(
        rows,
        cols,
        dictionary.words,
        blocks=DEFAULT_BLOCKS if args.blocks is None else args.blocks,
        symmetry=args.symmetry,
        min_length=args.min_length,
        allow_unchecked=args.allow_unchecked,
        max_length=args.max_length,
        rp=args.rp,
        attempts=args.attempts,
        seed=args.seed,
        engine=args.engine,
        strategy=args.strategy,
        tries=args.tries,
        try_timeout=args.try_timeout,
        timeout=args.timeout,
        difficulty=args.difficulty,
        report=_reporter(line),
        progress=line.watch,
        scores=dictionary.scores,
        min_score=args.min_score,
        maximize=args.maximize,
        on_better=told,
    )


def _reporter(line: Progress) -> Callable[[Try], None]:
    """Each try's line on stderr (the progress line cleared meanwhile)."""
    count = 0
    line.start("try 1")

    def report(trial: Try) -> None:
        nonlocal count
        count += 1
        with line.paused():
            print(f"try {count}: {trial.summary()}", file=sys.stderr)
        line.start(f"try {count + 1}")

    return report


def _show(made: Construction, outcome: Outcome | None, args: argparse.Namespace) -> None:
    """What make prints and writes: `outcome` is the last fill's, its
    solution publishing its clues."""
    kind, path = args.output
    if kind == "json":
        doc: dict[str, Any] = {"status": made.status}
        if outcome is not None:
            doc.update(outcome_json(outcome))
            doc["status"] = made.status
        doc["pattern"] = made.pattern.to_json() if made.pattern else None
        doc["tries"] = [t.to_json() for t in made.tries]
        out(json.dumps(doc, ensure_ascii=False, indent=2))
        return
    if made.status != "solved" or outcome is None:
        out("no crossword: " + made.summary())
        return
    scored = score_lines(outcome, args.maximize)  # the score, and whether it is optimal
    first = outcome.solutions[0]
    if kind in PICTURES:
        out("\n".join(drawn_lines(draw(first.puzzle, outcome, path, args.dpi)) + scored))
    elif kind in EXCHANGES:
        out("\n".join([write_crossword(kind, first.puzzle, outcome, path), *scored]))
    elif kind in SHEETS:
        out("\n".join([write_pdf(first.puzzle, first.grid, path, args.paper), *scored]))
    else:
        show = blocks_text if kind == "blocks" else str
        out("\n\n".join([show(outcome.solutions[0]), *(["\n".join(scored)] if scored else [])]))
    if args.stats:
        print(stats_text(outcome.stats), file=sys.stderr)
