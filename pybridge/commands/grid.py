"""The `grid` command: a random grid pattern, symmetric and within the rules
of a crossword grid (pybridge.patterns), as text, JSON or a picture."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pybridge.commands.common import (
    EXCHANGES,
    EXIT_BY_STATUS,
    EXIT_SOLVED,
    PICTURES,
    SHEETS,
    SOLVE_OUTPUTS,
    add_fields,
    add_output,
    check_picture_path,
    out,
    written,
)
from pybridge.commands.publish import write_pdf
from pybridge.patterns import Pattern
from pybridge.render import BLOCK_GLYPH
from pybridge.service import fields, jobs
from pybridge.service.requests import output_options, pattern_options

GRID_EPILOG = """\
rules (unless --rp): every word (a run of two or more open cells) has at
least --min-length letters (and at most --max-length); every open cell is in
an across and a down word, unless --allow-unchecked (then in one at least);
the open cells are connected; at most --max-words words and --max-cheaters
cheater blocks (blocks that do not change the word count; by default a
newspaper's limits for the size). --theme entries are placed first, in
symmetric slots of their lengths. --rp places exactly N random blocks and
checks no rule, as RP 2016's generator does.

exit codes:
  0    a pattern was made (printed on stdout)
  1    no pattern can meet the request: a bound, trying every choice, or
       a complete search shows it (the reason is on stderr)
  2    bad usage (also: theme entries no symmetric pattern of the size can
       hold), or an output that cannot be written
  3    every attempt (--attempts) ended at a dead end and a complete search
       did not finish in its time (10 s), or the time limit (--timeout)
       passed: none was found, though one may exist (try fewer blocks,
       looser rules, or more attempts)
  4    an internal error (the program has a bug)
  130  interrupted (Ctrl-C)
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    parser = commands.add_parser(
        "grid",
        help=summary,
        description="Make a random crossword grid pattern: a size, a number of blocks, a\n"
        "symmetry and the rules of a grid. Print it as . (open) and # (blocked).",
        epilog=GRID_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_fields(parser, fields.GRID)
    add_output(
        parser,
        "text (rows of . and #), blocks (█ for blocks), json "
        '({"grid": [rows], "seed": N, "slots": n, "blocks": n, ...}), png FILE / svg FILE '
        "(a picture with the slots numbered), puz FILE / ipuz FILE (the empty grid as a "
        "crossword file, its clues to write) or pdf FILE (the numbered grid to print); "
        "default: text",
        SOLVE_OUTPUTS,
    )
    add_fields(parser, (fields.PAPER, fields.DPI))
    parser.set_defaults(handler=grid_command)


def grid_command(args: argparse.Namespace) -> int:
    values = vars(args)
    output = output_options(values)
    check_picture_path(args)
    made = jobs.pattern(pattern_options(values))
    if made.pattern is None:
        print(f"crossword grid: {made.reason}", file=sys.stderr)
        return EXIT_BY_STATUS[made.status]
    pattern, kind, path = made.pattern, output.kind, output.path
    if args.seed is None and kind != "json":
        print(
            f"seed {pattern.seed} (--seed {pattern.seed} makes this pattern again)", file=sys.stderr
        )
    if kind != "json":
        print(f"pattern: {pattern.figures()}", file=sys.stderr)
    if kind == "json":
        out(json.dumps(pattern.to_json(), indent=2))
    elif kind in PICTURES:
        assert path is not None
        write_pattern_picture(pattern, path, output.dpi)
        out(f"wrote {path}")
    elif kind in EXCHANGES + SHEETS:
        assert path is not None
        out(write_pattern_file(pattern, kind, path, output.paper))
    elif kind == "blocks":
        out(str(pattern).replace("#", BLOCK_GLYPH))
    else:
        out(str(pattern))
    return EXIT_SOLVED


def write_pattern_picture(pattern: Pattern, path: str, dpi: int | None = None) -> None:
    from pybridge import pictures

    puzzle = pattern.puzzle()
    draw = lambda: pictures.write_picture(puzzle, puzzle.grid, Path(path), dpi=dpi)  # noqa: E731
    written("the picture", path, draw)


def write_pattern_file(pattern: Pattern, kind: str, path: str, paper: str) -> str:
    """The empty pattern as a .puz, an ipuz (no letters in its solution, a
    placeholder clue per entry) or a PDF sheet (the numbered grid)."""
    from pybridge import acrosslite, ipuzfile

    puzzle = pattern.puzzle()
    if kind == "pdf":
        return write_pdf(puzzle, puzzle.grid, path, paper, solved=False)
    if kind == "puz":
        data = acrosslite.puz_bytes(puzzle, puzzle.grid)
    else:
        data = ipuzfile.ipuz_text(puzzle, puzzle.grid).encode("utf-8")
    written(f"the {kind} file", path, lambda: Path(path).write_bytes(data))
    return f"wrote {path}"
