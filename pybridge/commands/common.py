"""What the commands share: exit codes, writing to stdout and to files,
argument types, the puzzle options of solve and check, and loading the
puzzles they name."""

from __future__ import annotations

import argparse
import codecs
import functools
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

from pybridge import acrosslite, ipuzfile
from pybridge.errors import (
    CrosswordError,
    EngineError,
    InputError,
    MissingDependency,
    OutputError,
    UsageError,
    shown,
)
from pybridge.exchange import EXCHANGE_FORMATS
from pybridge.lexicon import GRID_FORMATS, load_dictionary, load_grid
from pybridge.model import Cell, Puzzle
from pybridge.progress import Progress, shown_on
from pybridge.readers import FORMATS, load, require_site
from pybridge.render import outcome_json
from pybridge.scores import DEFAULT_SCORE, OBJECTIVES, parse_score, score_text
from pybridge.solver import (
    DEFAULT_LEXICON_STRATEGY,
    DEFAULT_STRATEGY,
    ENGINES,
    SEEDED_STRATEGIES,
    STRATEGIES,
    Outcome,
    at_least,
    check_seed,
    check_strategy,
)

T = TypeVar("T")

EXIT_SOLVED = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_TIMEOUT = 3
EXIT_INTERNAL_ERROR = 4  # an engine failed, or the program has a bug: no input explains it
EXIT_ENGINE_FAILED = EXIT_INTERNAL_ERROR  # the former name, kept for callers
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as the shell reports a program killed by it
EXIT_BY_STATUS = {"solved": EXIT_SOLVED, "unsolvable": EXIT_UNSOLVABLE, "timeout": EXIT_TIMEOUT}

# ---------------------------------------------------------------- messages


def error_text(err: CrosswordError) -> str:
    """The message of a CrosswordError as the commands print it (and the
    HTTP API returns it)."""
    # An InputError already starts with "file:line:col: error:" (and is made
    # safe to show by its __str__); other messages are escaped here.
    return str(err) if isinstance(err, InputError) else f"crossword: error: {shown(str(err), 1600)}"


def internal_error_text(err: BaseException) -> str:
    """One line for an exception no input explains: its kind and first line."""
    cause = str(err).strip().split("\n", 1)[0]
    if not isinstance(err, EngineError):
        cause = f"{type(err).__name__}: {cause}" if cause else type(err).__name__
    return f"crossword: internal error: {shown(cause, 300)} (please report it, with the command)"


# ---------------------------------------------------------------- output


def out(text: str) -> None:
    """Print `text` on stdout, UTF-8 whatever the locale or PYTHONIOENCODING
    say, flushed at once so that a full disk is told here; OutputError when
    it cannot be written (BrokenPipeError passes: the reader went away)."""
    stream = sys.stdout
    if stream is None:
        raise OutputError(CLOSED)
    try:
        # text and newline apart, as print writes them: a reader gone after
        # the text (`| head`) is then noticed at the newline
        buffer = getattr(stream, "buffer", None)
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if buffer is not None and _codec_name(encoding) != "utf-8":
            stream.flush()
            buffer.write(text.encode("utf-8"))
            buffer.write(b"\n")
            buffer.flush()
        else:
            stream.write(text)
            stream.write("\n")
            stream.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        raise OutputError(f"cannot write to standard output: {err.strerror or err}") from None


CLOSED = "standard output is closed: give the command somewhere to write (e.g. > FILE)"


def _codec_name(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return encoding


def check_writable(path: str, option: str) -> None:
    """OutputError unless a file can be written at `path` (for `option`),
    checked before any work so that a long run is not lost at its end."""
    target = Path(path)
    where = f"{option} {shown(path)}"
    if target.is_dir():
        raise OutputError(f"cannot write {where}: it is a folder, not a file")
    folder = target.parent
    if not folder.is_dir():
        missing = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(f"cannot write {where}: the folder {shown(str(folder))} {missing}")
    if target.exists():
        if not os.access(target, os.W_OK):
            raise OutputError(f"cannot write {where}: permission denied")
    elif not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {where}: permission denied in {shown(str(folder))}")


def written(what: str, path: str, write: Callable[[], object]) -> None:
    """Run `write`, turning an OSError (a full disk...) into OutputError."""
    try:
        write()
    except OSError as err:
        raise OutputError(f"cannot write {what} {shown(path)}: {err.strerror or err}") from None


# ---------------------------------------------------------------- argument types


def whole_number(least: int) -> Callable[[str], int]:
    """An argument type for a whole number of at least `least`."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
        return value

    return parse


positive_int = whole_number(1)


seed_number = whole_number(0)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def score_number(text: str) -> Decimal:
    """An argument type for a score (--min-score): a number, as in a scored list."""
    number = parse_score(text.strip())
    if number is None:
        raise argparse.ArgumentTypeError(f"expected a score such as 40 or 0.5, got {text!r}")
    return number


def choice_list(allowed: Sequence[str]) -> Callable[[str], tuple[str, ...]]:
    """An argument type for a comma-separated selection from `allowed`."""

    def parse(text: str) -> tuple[str, ...]:
        chosen = tuple(part.strip() for part in text.split(","))
        unknown = [part for part in chosen if part not in allowed]
        if unknown:
            raise argparse.ArgumentTypeError(
                f"unknown {', '.join(map(repr, unknown))}: choose from {','.join(allowed)}"
            )
        if len(set(chosen)) != len(chosen):
            raise argparse.ArgumentTypeError(f"{text!r} names something twice")
        return chosen

    return parse


def plot_file(text: str) -> str:
    if not text.lower().endswith((".png", ".svg")):
        raise argparse.ArgumentTypeError(f"the plot file must end in .png or .svg, got {text!r}")
    return text


OUTPUT_HELP = (
    "text (the filled puzzle in its own notation), blocks (text with █ for blocked cells), "
    "json, png FILE / svg FILE (a picture like a printed crossword), puz FILE / ipuz FILE "
    "(an Across Lite or ipuz crossword file), or pdf FILE (a sheet to print: the puzzle "
    "with its clues, then the solution); put the puzzle FILE before --output; default: text"
)
CHECK_OUTPUT_HELP = OUTPUT_HELP.replace(
    ", or pdf FILE (a sheet to print: the puzzle with its clues, then the solution)", ""
).replace("), puz FILE", "), or puz FILE")
PUZZLE_FIRST = "write the puzzle FILE first: `crossword solve FILE --output KIND OUTFILE`"


PICTURES = ("png", "svg")
EXCHANGES = EXCHANGE_FORMATS  # --output kinds that write a crossword file
SHEETS = ("pdf",)  # --output kinds that write a printable sheet
FILE_OUTPUTS = PICTURES + EXCHANGES + SHEETS
TEXT_OUTPUTS = ("text", "blocks", "json")
SOLVE_OUTPUTS = TEXT_OUTPUTS + FILE_OUTPUTS
CHECK_OUTPUTS = TEXT_OUTPUTS + PICTURES + EXCHANGES


STRATEGY_HELP = (
    "search order: given (words in listed order), sorted (rare lengths first), mrv (the site "
    "with the fewest fitting words next, forward checking), ac3 (mrv after arc consistency), "
    "lcv (mrv, least constraining word first), cs50 (ac3 + lcv), cbj (mrv with "
    "conflict-directed backjumping), wdeg (bitset domains, dom/wdeg with restarts, for big "
    "dictionaries), valued (best-scored words first; branch and bound with --maximize); "
    "given and sorted need a word list, not --dict (default: "
    f"{DEFAULT_STRATEGY}, or {DEFAULT_LEXICON_STRATEGY} with --dict, valued with --maximize)"
)


MAXIMIZE_HELP = (
    "find the best fill from a scored dictionary: min (its lowest word score) or sum "
    "(their total), by branch and bound with the valued strategy; each better fill is "
    "told on stderr as it is found, and whether the last is optimal"
)


SEED_HELP = (
    "random tie-breaks and shuffled domains; same seed, same answer in both engines "
    f"(an integer >= 0; for {', '.join(SEEDED_STRATEGIES)}; default: no randomness)"
)


def add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=seed_number, metavar="N", help=SEED_HELP)


def add_min_score(parser: argparse.ArgumentParser) -> None:
    """--min-score N: the quality floor of solve, check and make."""
    parser.add_argument(
        "--min-score",
        type=score_number,
        metavar="N",
        help="leave out the dictionary words scoring below N (a scored dictionary: "
        f"WORD;score lines; a word without a score counts {score_text(DEFAULT_SCORE)})",
    )


def add_maximize(parser: argparse.ArgumentParser, help: str = MAXIMIZE_HELP) -> None:
    """--maximize min|sum: the objective of solve and make."""
    parser.add_argument("--maximize", choices=OBJECTIVES, help=help)


class OutputAction(argparse.Action):
    """--output text|blocks|json, or --output png|svg|puz|ipuz|pdf FILE: stored
    as (kind, file); `kinds` are those the command writes, `after` (when
    the command reads a puzzle FILE) says to put that FILE first."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str,
        kinds: Sequence[str] = SOLVE_OUTPUTS,
        after: str = "",
        **rest: Any,
    ) -> None:
        super().__init__(option_strings, dest, **rest)
        self.kinds = tuple(kinds)
        self.after = after

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        kind, *rest = [str(v) for v in (values or [])]
        wanted = 1 if kind in FILE_OUTPUTS else 0
        if kind not in self.kinds:
            named = ", ".join(k + (" FILE" if k in FILE_OUTPUTS else "") for k in self.kinds)
            what = (
                "unknown kind"
                if kind not in TEXT_OUTPUTS + FILE_OUTPUTS
                else "this command cannot write"
            )
            parser.error(f"--output: {what} {kind!r}: {named}")
        if len(rest) != wanted:
            what = f"{kind} takes one FILE" if wanted else f"{kind} takes no FILE"
            hint = f" ({self.after})" if self.after and wanted else ""
            parser.error(f"--output {what}, got {len(rest)}{hint}")
        if rest and not rest[0].lower().endswith(f".{kind}"):
            parser.error(f"--output {kind}: the file name must end in .{kind}, got {rest[0]!r}")
        setattr(namespace, self.dest, (kind, rest[0] if rest else None))


def add_output(
    parser: argparse.ArgumentParser,
    help: str = OUTPUT_HELP,
    kinds: Sequence[str] = SOLVE_OUTPUTS,
    after: str = "",
) -> None:
    """--output KIND [FILE] (see OutputAction), default text."""
    parser.add_argument(
        "--output",
        nargs="+",
        action=OutputAction,
        default=("text", None),
        metavar=("KIND", "FILE"),
        help=help,
        kinds=kinds,
        after=after,
    )


def argument_type(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type from a parser of the library that raises UsageError
    (argparse then reports the message as a usage error, exit code 2)."""

    def parsed(text: str) -> T:
        try:
            return parse(text)
        except UsageError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parsed.__name__ = parse.__name__  # argparse names the type in its messages
    return parsed


# ---------------------------------------------------------------- progress


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """--progress and --quiet: whether long work shows a progress line on stderr."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--progress",
        action="store_true",
        help="show the progress line on stderr even when it is not a terminal "
        "(by default it is shown on a terminal, once the work has lasted half a second)",
    )
    group.add_argument(
        "--quiet", action="store_true", help="no progress line (errors are still printed)"
    )


def progress_line(
    args: argparse.Namespace, what: str, total: int | None = None, timeout: float | None = None
) -> Progress:
    """The command's progress line (see pybridge.progress), shown as
    --progress and --quiet say."""
    shown = shown_on(sys.stderr, args.progress, args.quiet)
    return Progress(shown, what, total=total, timeout=timeout)


# ---------------------------------------------------------------- puzzles


def add_puzzle_arguments(
    parser: argparse.ArgumentParser, kinds: Sequence[str] = SOLVE_OUTPUTS
) -> None:
    """The puzzle, how to search it and what to print: shared by solve and check."""
    parser.add_argument(
        "file",
        metavar="FILE",
        help="the puzzle (P-99 .dat, fill-in grid, a grid with --dict, or a .puz or .ipuz "
        "crossword with --answers or --dict)",
    )
    parser.add_argument("--words", metavar="FILE", help="the word list of a fill-in puzzle")
    parser.add_argument(
        "--answers",
        action="store_true",
        help="fill a .puz or .ipuz crossword with its own solution's entries, each placed once",
    )
    parser.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        metavar="FILE",
        help="fill the grid from this dictionary (lexicon mode: each site a different word, "
        "most unused); repeat to merge several",
    )
    parser.add_argument(
        "--encoding", help="the dictionaries' encoding (default: UTF-8, else cp1252, per file)"
    )
    add_min_score(parser)
    parser.add_argument(
        "--grid",
        type=positive_int,
        metavar="N",
        help="the N-th grid of an RP 2016 file (default: every grid in turn)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS + GRID_FORMATS + EXCHANGE_FORMATS,
        help="the puzzle format (default: sniffed); cs50, rp2016 and grid go with --dict, "
        "puz and ipuz with --answers or --dict",
    )
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        help="search engine (default: prolog when SWI-Prolog loads, else python)",
    )
    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        help=STRATEGY_HELP,
    )
    add_seed(parser)
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="give up after this many seconds (exit code 3)",
    )
    help = OUTPUT_HELP if "pdf" in kinds else CHECK_OUTPUT_HELP
    add_output(parser, help, kinds, after=PUZZLE_FIRST)


def load_puzzles(args: argparse.Namespace) -> list[Puzzle]:
    """The puzzle named on the command line; with --dict, every grid of the
    file (or the --grid one) with the merged dictionaries as its words.
    The time it takes counts against --timeout (see timeout_left)."""
    started = time.perf_counter()
    puzzles = _read_puzzles(args)
    args.reading_seconds = time.perf_counter() - started
    return puzzles


LEAST_SECONDS = 0.001  # a search left no time still starts, to time out at once


def timeout_left(args: argparse.Namespace) -> float | None:
    """The time limit of the next puzzle's run: --timeout, less the time the
    files took to read for the first one (each later grid of a file gets the
    whole limit)."""
    if args.timeout is None:
        return None
    spent: float = getattr(args, "reading_seconds", 0.0)
    args.reading_seconds = 0.0
    limit: float = args.timeout
    return max(limit - spent, LEAST_SECONDS)


def _read_puzzles(args: argparse.Namespace) -> list[Puzzle]:
    if not args.dicts:
        if args.grid is not None or args.encoding is not None or args.min_score is not None:
            raise UsageError("--grid, --encoding and --min-score go with --dict")
        if args.format in GRID_FORMATS:
            raise UsageError(f"a {args.format} grid is filled from a dictionary: add --dict FILE")
        answers = getattr(args, "answers", False)
        return [require_site(load(args.file, args.words, args.format, answers))]
    if args.words is not None:
        raise UsageError("--words (words to place exactly once) and --dict exclude each other")
    if getattr(args, "answers", False):
        raise UsageError("--answers (the file's own answers) and --dict exclude each other")
    if args.format in FORMATS:
        raise UsageError(
            f"--dict fills a grid ({', '.join(GRID_FORMATS)}), not a {args.format} file"
        )
    dictionary = load_dictionary(args.dicts, args.encoding)
    if dictionary.skipped:
        print(f"dictionary: {dictionary.summary()}", file=sys.stderr)
    grids = [
        require_site(grid) for grid in load_grid(args.file, grid=args.grid, format=args.format)
    ]
    puzzles = [replace(grid, words=dictionary.words, scores=dictionary.scores) for grid in grids]
    if args.min_score is not None:
        puzzles = [at_least(puzzle, args.min_score) for puzzle in puzzles]
    return puzzles


def checked_puzzles(args: argparse.Namespace) -> list[Puzzle]:
    """load_puzzles, with the strategy and seed checked against every puzzle:
    what solve and check do before any search."""
    puzzles = load_puzzles(args)
    for puzzle in puzzles:
        check_strategy(puzzle, args.strategy)
    check_seed(args.strategy, args.seed)
    return puzzles


def check_picture_path(args: argparse.Namespace) -> None:
    kind, path = args.output
    if kind in FILE_OUTPUTS:
        check_writable(path, f"--output {kind}")


def worst(codes: Sequence[int]) -> int:
    """One exit code for several grids: a time-out, else an unsolvable one, else 0."""
    for code in (EXIT_TIMEOUT, EXIT_UNSOLVABLE):
        if code in codes:
            return code
    return EXIT_SOLVED


def json_document(puzzle: Puzzle, outcome: Outcome, many: bool) -> dict[str, Any]:
    """The JSON contract; with several grids, one document each (JSON lines
    would break `json.load`, so each is printed whole, tagged by source)."""
    doc = outcome_json(outcome)
    if many:
        doc = {"source": puzzle.source, **doc}
    return doc


def numbered(path: str, puzzle: Puzzle) -> str:
    """'out.png' -> 'out-2.png' for the second grid of a file."""
    return with_number(path, puzzle.source.rpartition("#")[2])


def with_number(path: str, number: int | str) -> str:
    """'out.png' -> 'out-3.png'."""
    stem, dot, suffix = path.rpartition(".")
    return f"{stem}-{number}{dot}{suffix}"


def draw(puzzle: Puzzle, outcome: Outcome, path: str, dpi: int | None = None) -> list[Path]:
    """The pictures of `outcome`: one per solution (numbered out-1.png,
    out-2.png, ... when there are several), or, when there is none, the
    framework with the proof's core shaded and a legend saying so."""
    from pybridge import pictures

    todo: list[tuple[tuple[str, ...], str, frozenset[Cell], str | None]]
    if outcome.solutions:
        several = len(outcome.solutions) > 1
        todo = [
            (solution.grid, with_number(path, k) if several else path, frozenset[Cell](), None)
            for k, solution in enumerate(outcome.solutions, start=1)
        ]
    else:
        marked, legend = pictures.core_cells(outcome), pictures.core_legend(outcome)
        todo = [(puzzle.grid, path, marked, legend)]
    drawn = []
    for grid, target, cells, caption in todo:
        check_writable(target, "--output")  # a numbered picture
        write = functools.partial(
            pictures.write_picture, puzzle, grid, target, cells, caption, dpi=dpi
        )
        written("the picture", target, write)
        drawn.append(Path(target))
    return drawn


def drawn_lines(paths: Sequence[Path]) -> list[str]:
    """What stdout says of the pictures written."""
    lines = [f"wrote {path}" for path in paths]
    if len(paths) > 1:
        lines.insert(0, f"{len(paths)} solutions, a picture each, numbered from 1:")
    return lines


def write_crossword(kind: str, puzzle: Puzzle, outcome: Outcome, path: str) -> str:
    """--output puz|ipuz FILE: the first solution as a crossword file, with
    the clues of pybridge.exchange.written_clues; what to print about it."""
    if not outcome.solutions:
        return f"nothing written to {path}: there is no solution to write"
    first = outcome.solutions[0]
    grid = first.grid
    if kind == "puz":
        data = acrosslite.puz_bytes(first.puzzle, grid)
    else:
        data = ipuzfile.ipuz_text(first.puzzle, grid).encode("utf-8")
    check_writable(path, f"--output {kind}")  # a numbered file of several grids
    written(f"the {kind} file", path, lambda: Path(path).write_bytes(data))
    found = len(outcome.solutions)
    return f"wrote {path}" + (f" (the first of {found} solutions)" if found > 1 else "")


def usable_engines(engines: Sequence[str], command: str = "compare") -> tuple[str, ...]:
    """`engines` without prolog when SWI-Prolog cannot be loaded (with a notice)."""
    from pybridge import bridge

    if "prolog" not in engines or bridge.available():
        return tuple(engines)
    print(f"crossword {command}: SWI-Prolog not found: skipping the prolog cells", file=sys.stderr)
    usable = tuple(engine for engine in engines if engine != "prolog")
    if not usable:
        raise MissingDependency(bridge.INSTALL_HINT)
    return usable
