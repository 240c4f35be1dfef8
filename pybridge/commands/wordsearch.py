"""The `wordsearch` command: `make` hides words in a grid of letters, and
`solve` finds words in one (docs/wordsearch.md)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from pybridge.commands.common import (
    EXIT_BY_STATUS,
    EXIT_SOLVED,
    EXIT_UNSOLVABLE,
    PICTURES,
    add_fields,
    add_output,
    check_writable,
    command_time_limit,
    out,
    out_json,
    positive_int,
    seed_number,
    written,
)
from pybridge.engines import ENGINES
from pybridge.errors import UsageError
from pybridge.options import DEFAULT_COMMAND_SECONDS, WordSearchOptions
from pybridge.service import fields, jobs
from pybridge.wordsearch.model import DEFAULT_LEVEL, DIRECTIONS, LEVELS, Made
from pybridge.wordsearch.render import (
    found_json,
    found_text,
    made_json,
    made_text,
    stats_text,
)

EXIT_CODES = """\
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
  141  the output pipe was closed early (e.g. by `| head`)
"""

LEVEL_HELP = ", ".join(f"{name} = {','.join(dirs)}" for name, dirs in LEVELS.items())

MAKE_EPILOG = f"""\
Directions: a level ({LEVEL_HELP}) or a list of
{",".join(DIRECTIONS)}. E reads left to right, S top to bottom, SE and NE the
diagonals left to right; W, N, NW and SW read backwards.

No listed word (and no word of --avoid) can be read anywhere in the grid,
along any of the 8 directions, except where it was placed; a word that holds
another (CATS holds CAT, STOP holds POTS backwards) shows it there too, and
the other is placed elsewhere as well.

exit codes:
  0    a puzzle was made
  1    no puzzle can be made (the proof's layer and reason are printed)
  3    the time limit (--timeout) was reached first
{EXIT_CODES}"""

SOLVE_EPILOG = f"""\
GRID is a letter per cell ('#' a hole; spaces between letters are ignored),
WORDS one word per line. Each word is looked for along all 8 directions.

exit codes:
  0    every word was found
  1    a word was not found (it is named)
{EXIT_CODES}"""

OUTPUT_HELP = (
    "text, json, or png FILE / svg FILE (the puzzle sheet, and its answer key in "
    "FILE-key.png or .svg; for solve the grid with the words found outlined); default: text"
)
MAKE_OUTPUT_HELP = (
    "text, json, png FILE / svg FILE (the puzzle sheet, and its answer key in "
    "FILE-key.png or .svg), or pdf FILE (a sheet to print: the title, what to look for, "
    "the grid and the word list, then the answer key); default: text"
)
MAKE_OUTPUTS = ("text", "json", *PICTURES, "pdf")
SOLVE_OUTPUTS = ("text", "json", *PICTURES)


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    wordsearch = commands.add_parser(
        "wordsearch",
        help=summary,
        description="Make word search puzzles (make) and find words in them (solve).",
    )
    actions = wordsearch.add_subparsers(title="actions", metavar="ACTION", required=True)
    _add_make(actions)
    _add_solve(actions)


def _add_make(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    make = actions.add_parser(
        "make",
        help="hide words in a grid of letters",
        description=(
            "Place every word of WORDS once in a grid, along the directions asked for,\n"
            "then fill the other cells with letters that spell no listed word anywhere."
        ),
        epilog=MAKE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    make.add_argument("words", metavar="WORDS", help="the words to hide, one per line")
    shape = make.add_mutually_exclusive_group()
    shape.add_argument(
        "--size",
        metavar="RxC",
        help="rows x columns, or N for a square (default: a square with about twice as many "
        "cells as letters, and room for the longest word)",
    )
    shape.add_argument(
        "--mask", metavar="FILE", help="the grid's shape: '.' a cell, '#' a hole, a row per line"
    )
    make.add_argument(
        "--directions",
        default=DEFAULT_LEVEL,
        metavar="LEVEL|LIST",
        help=f"easy, medium, hard, or a list such as E,S,SE (default: {DEFAULT_LEVEL}, all 8)",
    )
    make.add_argument(
        "--overlap",
        choices=("allow", "forbid"),
        default="allow",
        help="allow: words may cross where their letters agree; forbid: no cell is shared "
        "(default: allow)",
    )
    make.add_argument(
        "--avoid", metavar="FILE", help="words that must appear nowhere, one per line"
    )
    make.add_argument(
        "--letters",
        metavar="LETTERS",
        help="the filler's letters (default: the letters of the words)",
    )
    make.add_argument(
        "--seed",
        type=seed_number,
        metavar="N",
        help="the same seed makes the same puzzle, in either engine (default: a random "
        "seed, printed on stderr)",
    )
    make.add_argument(
        "--engine",
        choices=ENGINES,
        help="search engine (default: prolog when SWI-Prolog loads, else python)",
    )
    make.add_argument(
        "--timeout",
        type=command_time_limit,
        default=DEFAULT_COMMAND_SECONDS,
        metavar="SECONDS",
        help=f"give up after this many seconds (exit code 3; default: "
        f"{DEFAULT_COMMAND_SECONDS:g}; none: no limit)",
    )
    add_output(make, MAKE_OUTPUT_HELP, MAKE_OUTPUTS)
    make.add_argument(
        "--title", metavar="TEXT", help="the title of the PDF sheet (default: Word search)"
    )
    add_fields(make, (fields.PAPER, fields.DPI))
    make.add_argument(
        "--stats", action="store_true", help="print search statistics to stderr (always in json)"
    )
    make.add_argument(
        "--count",
        type=positive_int,
        metavar="N",
        help="make a batch of N puzzles (seeds S, S+1, ...) on a Dask cluster (see --workers, "
        "--scheduler), each verified, written to --folder with an index",
    )
    make.add_argument("--folder", metavar="DIR", help="with --count: the folder to write to")
    make.add_argument(
        "--workers",
        type=positive_int,
        default=2,
        metavar="N",
        help="with --count: worker processes of the local Dask cluster (default: 2)",
    )
    make.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="with --count: use the Dask cluster whose scheduler is at this address "
        "(tcp://HOST:8786)",
    )
    make.set_defaults(handler=make_command)


def _add_solve(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    solve = actions.add_parser(
        "solve",
        help="find every occurrence of words in a grid of letters",
        description="Find every occurrence of each word of WORDS in GRID, along 8 directions.",
        epilog=SOLVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    solve.add_argument("grid", metavar="GRID", help="the letter grid, a row per line")
    solve.add_argument("words", metavar="WORDS", help="the words to find, one per line")
    add_output(solve, OUTPUT_HELP, SOLVE_OUTPUTS)
    add_fields(solve, [fields.DPI])
    solve.set_defaults(handler=solve_command)


def _output(args: argparse.Namespace) -> tuple[str, str | None]:
    kind, path = args.output
    if kind in (*PICTURES, "pdf"):
        check_writable(path, f"--output {kind}")
    return kind, path


def make_command(args: argparse.Namespace) -> int:
    kind, path = _output(args)
    if kind in PICTURES and path is not None:
        from pybridge.wordsearch.pictures import key_path

        check_writable(str(key_path(path)), f"--output {kind} (the answer key)")
    options = WordSearchOptions(
        args.words,
        args.size,
        args.mask,
        args.directions,
        args.overlap,
        args.avoid,
        args.letters,
        args.seed,
        args.engine,
        args.timeout,
    )
    if args.count is not None:
        return word_search_batch(args, options)
    if args.folder is not None or args.scheduler is not None:
        raise UsageError("--folder and --scheduler go with --count")
    request = jobs.wordsearch_request(options)
    if args.seed is None and kind != "json":
        again = f"--seed {request.seed} makes this puzzle again"
        print(f"seed {request.seed} ({again})", file=sys.stderr)
    made = jobs.wordsearch_make(request, options.engine)
    if kind == "json":
        _print_json(made_json(made))
    elif kind in (*PICTURES, "pdf") and path is not None:
        if made.status != "solved":
            out(made_text(made))
        elif kind == "pdf":
            _sheet(made, path, args.title or "Word search", args.paper)
        else:
            _pictures(made.grid, made.request.words, path, made.placements, args.dpi)
    else:
        out(made_text(made))
    if args.stats and kind != "json":
        print(stats_text(made), file=sys.stderr)
    return EXIT_BY_STATUS[made.status]


def _pictures(
    grid: tuple[str, ...], words: tuple[str, ...], path: str, answers: Any, dpi: int | None
) -> None:
    from pybridge.wordsearch.pictures import key_path, write_picture

    key = key_path(path)
    written("the picture", path, lambda: write_picture(grid, words, path, dpi=dpi))
    written("the answer key", str(key), lambda: write_picture(grid, words, key, answers, dpi))
    out(f"wrote {path}\nwrote {key}")


def _sheet(made: Any, path: str, title: str, paper: str) -> None:
    """--output pdf FILE: the puzzle page and the answer key page."""
    from pybridge.sheets import wordsearch_pdf

    data = wordsearch_pdf(
        made.grid,
        made.request.words,
        made.placements,
        made.request.directions,
        title,
        "a4" if paper == "a4" else "letter",
    )
    written("the pdf file", path, lambda: Path(path).write_bytes(data))
    out(f"wrote {path}")


def solve_command(args: argparse.Namespace) -> int:
    kind, path = _output(args)
    searched = jobs.wordsearch_solve(args.grid, args.words)
    grid, words, found = searched.grid, searched.words, searched.found
    if kind == "json":
        _print_json(found_json(found))
    elif kind in PICTURES and path is not None:
        from pybridge.wordsearch.pictures import write_picture

        written(
            "the picture", path, lambda: write_picture(grid, words, path, found.found, args.dpi)
        )
        out(f"wrote {path}")
        if found.missing:
            out(f"missing: {', '.join(found.missing)}")
    else:
        out(found_text(found))
    return EXIT_UNSOLVABLE if found.missing else EXIT_SOLVED


def _print_json(doc: dict[str, Any]) -> None:
    out_json(doc)


def word_search_batch(args: argparse.Namespace, options: WordSearchOptions) -> int:
    """wordsearch make --count N: N puzzles on a Dask cluster, each checked
    by the finder (every word once), written to --folder with an index
    (docs/cli.md#batches)."""
    from pybridge.commands.batch import folder_for, told_seed, write_batch
    from pybridge.service import batch

    folder = folder_for(args.folder)
    seed = told_seed(args.seed, "crossword wordsearch make")
    request = jobs.wordsearch_request(replace(options, seed=seed))
    orders = batch.word_search_orders(args.count, seed)

    def entry(order: batch.Order, made: Made) -> tuple[dict[str, Any], str | None, Any]:
        summary = f"seed {order.seed}: {made.status} ({made.stats.nodes} nodes)"
        if made.reason:
            summary += f": {made.reason}"
        row = {"status": made.status, "summary": summary}
        text = made_text(made) if made.status == "solved" else None
        return row, text, made_json(made)

    made = batch.run_batch(
        batch.word_search_one,
        request,
        orders,
        args.workers,
        args.scheduler,
        batch.word_search_problems,
    )
    settings = {"seed": seed, "size": f"{request.shape.rows}x{request.shape.cols}"}
    kind = ("wordsearch", "word search", "word searches")
    return write_batch(folder, kind, made, entry, settings, args.count)
