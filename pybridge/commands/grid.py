"""The `grid` command: a random grid pattern, symmetric and within the rules
of a crossword grid (pybridge.patterns), as text, JSON or a picture."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pybridge.commands.common import (
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    EXIT_UNSOLVABLE,
    PICTURES,
    add_output,
    argument_type,
    check_picture_path,
    out,
    positive_int,
    positive_seconds,
    seed_number,
    whole_number,
    written,
)
from pybridge.patterns import (
    DEFAULT_ATTEMPTS,
    DEFAULT_MIN_LENGTH,
    DEFAULT_SYMMETRY,
    PATTERN_SECONDS,
    SYMMETRIES,
    ImpossiblePattern,
    Pattern,
    PatternNotFound,
    generate,
    parse_blocks,
    parse_size,
)
from pybridge.render import BLOCK_GLYPH

GRID_EPILOG = """\
rules (unless --rp): every word (a run of two or more open cells) has at
least --min-length letters (and at most --max-length); every open cell is in
an across and a down word, unless --allow-unchecked (then in one at least);
the open cells are connected. --rp places exactly N random blocks and checks
no rule, as RP 2016's generator does.

exit codes:
  0    a pattern was made (printed on stdout)
  1    no pattern can meet the request: a bound, trying every choice, or
       a complete search shows it (the reason is on stderr)
  2    bad usage, or an output that cannot be written
  3    every attempt (--attempts) ended at a dead end and a complete search
       did not finish in its time (10 s), or the time limit (--timeout)
       passed: none was found, though one may exist (try fewer blocks,
       looser rules, or more attempts)
  4    an internal error (the program has a bug)
  130  interrupted (Ctrl-C)
"""


size = argument_type(parse_size)
blocks = argument_type(parse_blocks)


def add_pattern_arguments(parser: argparse.ArgumentParser, default_blocks: str) -> None:
    """The options of a pattern: shared by grid and make."""
    parser.add_argument(
        "--size",
        type=size,
        default=(15, 15),
        metavar="RxC",
        help="rows x columns (default: 15x15)",
    )
    parser.add_argument(
        "--blocks",
        type=blocks,
        metavar="N|F",
        help=f"blocked cells: a count, or a fraction below 1 of the cells (default: "
        f"{default_blocks}; rounded to a count the symmetry can make)",
    )
    parser.add_argument(
        "--symmetry",
        choices=SYMMETRIES,
        help=f"rot180 and rot90: rotations (rot90 needs a square); mirror-lr and mirror-tb: "
        f"reflections left-right and top-bottom (default: {DEFAULT_SYMMETRY}, none with --rp)",
    )
    parser.add_argument(
        "--min-length",
        type=whole_number(2),
        metavar="N",
        help=f"shortest word (default: {DEFAULT_MIN_LENGTH}, American style; 2 for RP style)",
    )
    parser.add_argument(
        "--allow-unchecked",
        action="store_true",
        help="let an open cell be in one word only (default: every cell in two)",
    )
    parser.add_argument(
        "--max-length", type=whole_number(2), metavar="N", help="longest word (default: any)"
    )
    parser.add_argument(
        "--rp",
        action="store_true",
        help="RP 2016 mode: exactly N random blocks, no rules (default symmetry: none)",
    )
    parser.add_argument(
        "--attempts",
        type=positive_int,
        default=DEFAULT_ATTEMPTS,
        metavar="N",
        help=f"attempts per pattern before giving up (default: {DEFAULT_ATTEMPTS})",
    )


def add_pattern_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=PATTERN_SECONDS,
        metavar="SECONDS",
        help=f"give up after this many seconds (exit code 3; default: {PATTERN_SECONDS:g})",
    )


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "grid",
        help="make a random grid pattern",
        description="Make a random crossword grid pattern: a size, a number of blocks, a\n"
        "symmetry and the rules of a grid. Print it as . (open) and # (blocked).",
        epilog=GRID_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_pattern_arguments(parser, "1/6")
    add_pattern_timeout(parser)
    parser.add_argument(
        "--seed",
        type=seed_number,
        metavar="N",
        help="the same seed makes the same pattern (default: a random one, told on stderr)",
    )
    add_output(
        parser,
        "text (rows of . and #), blocks (█ for blocks), json "
        '({"grid": [rows], "seed": N, "slots": n, "blocks": n, ...}), or png FILE / svg FILE '
        "(a picture with the slots numbered); default: text",
    )
    parser.set_defaults(handler=grid_command)


def pattern_from(args: argparse.Namespace, seed: int | None) -> Pattern:
    """The pattern the command line asks for (ImpossiblePattern and
    PatternNotFound pass to the caller)."""
    rows, cols = args.size
    return generate(
        rows,
        cols,
        args.blocks,
        symmetry=args.symmetry,
        min_length=args.min_length,
        allow_unchecked=args.allow_unchecked,
        max_length=args.max_length,
        seed=seed,
        rp=args.rp,
        attempts=args.attempts,
        timeout=args.timeout,
    )


def grid_command(args: argparse.Namespace) -> int:
    check_picture_path(args)
    try:
        pattern = pattern_from(args, args.seed)
    except ImpossiblePattern as err:
        print(f"crossword grid: {err}", file=sys.stderr)
        return EXIT_UNSOLVABLE
    except PatternNotFound as err:
        print(f"crossword grid: {err}", file=sys.stderr)
        return EXIT_TIMEOUT
    kind, path = args.output
    if args.seed is None and kind != "json":
        print(
            f"seed {pattern.seed} (--seed {pattern.seed} makes this pattern again)", file=sys.stderr
        )
    if kind == "json":
        out(json.dumps(pattern.to_json(), indent=2))
    elif kind in PICTURES:
        write_pattern_picture(pattern, path)
        out(f"wrote {path}")
    elif kind == "blocks":
        out(str(pattern).replace("#", BLOCK_GLYPH))
    else:
        out(str(pattern))
    return EXIT_SOLVED


def write_pattern_picture(pattern: Pattern, path: str) -> None:
    from pybridge import pictures

    puzzle = pattern.puzzle()
    written("the picture", path, lambda: pictures.write_picture(puzzle, puzzle.grid, Path(path)))
