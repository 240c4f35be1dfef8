"""The `make` command: a crossword from nothing - a pattern (as `grid` makes
it) filled from a dictionary (as `solve --dict` fills it), trying other
patterns when a fill is proved impossible or runs out of time."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Any

from pybridge.commands.common import (
    EXCHANGES,
    EXIT_BY_STATUS,
    EXIT_TIMEOUT,
    EXIT_UNSOLVABLE,
    PICTURES,
    SHEETS,
    SOLVE_OUTPUTS,
    Terminal,
    add_fields,
    add_output,
    add_progress_options,
    check_picture_path,
    draw,
    drawn_lines,
    out,
    out_json,
    write_crossword,
)
from pybridge.commands.publish import tell_clues, write_pdf
from pybridge.commands.solve import score_lines, stats_text
from pybridge.construct import Construction
from pybridge.errors import UsageError
from pybridge.options import MakeOptions, OutputOptions
from pybridge.patterns import ImpossiblePattern, PatternNotFound
from pybridge.render import blocks_text, construction_json
from pybridge.service import fields, jobs
from pybridge.service.clueing import clueing, publish
from pybridge.service.requests import (
    clue_options,
    dictionary_options,
    make_options,
    output_options,
)
from pybridge.solver import Outcome

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
  2    bad input, bad usage (also: theme entries no symmetric pattern can
       hold) or a missing dependency (the message is on stderr)
  3    no crossword: a fill ran out of its time (--try-timeout, --timeout),
       or no pattern was found within --attempts
  4    an internal error: an engine failed, a fill failed verification, or
       the program has a bug (CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    parser = commands.add_parser(
        "make",
        help=summary,
        description="Make a crossword from nothing: a random pattern (see `crossword grid`)\n"
        "filled from a dictionary, trying other patterns until one fills.",
        epilog=MAKE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_fields(parser, fields.MAKE)
    add_output(
        parser,
        "text (the filled grid), blocks (█ for blocks), json (solve's document with "
        "the pattern, the tries and the clues), png FILE / svg FILE (a picture of the fill), "
        "puz FILE / ipuz FILE (the crossword: a blank grid, its clues and its solution), or "
        "pdf FILE (a sheet to print: the puzzle with its clues, then the solution); "
        "default: text",
        SOLVE_OUTPUTS,
    )
    add_fields(parser, (*fields.MAKE_CLUES, fields.PAPER, fields.DPI))
    add_fields(parser, [replace(fields.STATS, help="print the fill's statistics to stderr")])
    add_progress_options(parser)
    parser.set_defaults(handler=make_command)


def make_command(args: argparse.Namespace) -> int:
    values = vars(args)
    output = output_options(values)
    check_picture_path(args)
    options = make_options(values)
    if values.get("count") is not None:
        return make_batch(values, options)
    for key in ("folder", "scheduler"):
        if values.get(key):
            raise UsageError(f"--{key} goes with --count")
    maximize = options.search.maximize
    listener = Terminal(args, maximize if output.kind != "json" else None)
    how = clueing(clue_options(values), True, "make", listener)
    try:
        made = jobs.make(options, dictionary_options(values), listener)
    except ImpossiblePattern as err:
        print(f"crossword make: {err}", file=sys.stderr)
        return EXIT_UNSOLVABLE
    except PatternNotFound as err:
        print(f"crossword make: {err}", file=sys.stderr)
        return EXIT_TIMEOUT
    if made.status == "solved" or output.kind == "json":  # else stdout says it
        print(f"crossword make: {made.summary()}", file=sys.stderr)
    outcome = made.outcome
    if made.status == "solved" and outcome is not None:
        outcome = publish(outcome, how)
        if output.kind != "json":
            tell_clues(outcome)
    _show(made, outcome, output, maximize)
    return EXIT_BY_STATUS[made.status]


def _show(
    made: Construction, outcome: Outcome | None, output: OutputOptions, maximize: str | None
) -> None:
    """What make prints and writes: `outcome` is the last fill's, its
    solution publishing its clues."""
    kind, path = output.kind, output.path
    if kind == "json":
        out_json(construction_json(made, outcome))
        return
    if made.status != "solved" or outcome is None:
        out("no crossword: " + made.summary())
        return
    scored = score_lines(outcome, maximize)  # the score, and whether it is optimal
    first = outcome.solutions[0]
    if kind in PICTURES:
        assert path is not None
        out("\n".join(drawn_lines(draw(first.puzzle, outcome, path, output.dpi)) + scored))
    elif kind in EXCHANGES:
        assert path is not None
        out("\n".join([write_crossword(kind, first.puzzle, outcome, path), *scored]))
    elif kind in SHEETS:
        assert path is not None
        out("\n".join([write_pdf(first.puzzle, first.grid, path, output.paper), *scored]))
    else:
        show = blocks_text if kind == "blocks" else str
        out("\n\n".join([show(outcome.solutions[0]), *(["\n".join(scored)] if scored else [])]))
    if output.stats:
        print(stats_text(outcome.stats), file=sys.stderr)


def make_batch(values: dict[str, Any], options: MakeOptions) -> int:
    """make --count N: N crosswords on a Dask cluster, each verified,
    written to --folder with an index (docs/cli.md#batches)."""
    from pybridge.commands.batch import folder_for, told_seed, write_batch
    from pybridge.service import batch
    from pybridge.service.puzzles import read_dictionary

    folder = folder_for(values.get("folder"))
    words = read_dictionary(dictionary_options(values), lambda text: print(text, file=sys.stderr))
    count = values["count"]
    seed = told_seed(options.pattern.seed, "crossword make")
    orders = batch.crossword_orders(count, seed)

    def checked(made: Construction) -> list[str]:
        return batch.crossword_problems(words.words, made)

    def entry(order: batch.Order, made: Construction) -> tuple[dict[str, Any], str | None, Any]:
        row: dict[str, Any] = {"status": made.status, "summary": made.summary()}
        if made.pattern is not None:
            row |= {"pattern_seed": made.pattern.seed, "slots": made.pattern.slots}
        text = None
        if made.status == "solved" and made.outcome is not None and made.outcome.solutions:
            scored = score_lines(made.outcome, options.search.maximize)
            text = "\n\n".join([str(made.outcome.solutions[0]), *scored])
        return row, text, construction_json(made)

    made = batch.run_batch(
        batch.make_one,
        (words, options),
        orders,
        values["workers"],
        values.get("scheduler"),
        checked,
    )
    settings = {"seed": seed, "size": f"{options.pattern.rows}x{options.pattern.cols}"}
    return write_batch(
        folder, ("crossword", "crossword", "crosswords"), made, entry, settings, count
    )
