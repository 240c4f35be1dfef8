"""What the commands share: exit codes, writing to stdout and to files,
argument types, the puzzle options of solve and check, and loading the
puzzles they name."""

from __future__ import annotations

import argparse
import codecs
import functools
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from pybridge.construct import Try
from pybridge.errors import MissingDependency, OutputError, UsageError, shown
from pybridge.exchange import EXCHANGE_FORMATS
from pybridge.model import Cell, Puzzle
from pybridge.options import DefaultSeconds
from pybridge.progress import CubesProgress, Progress, shown_on
from pybridge.scores import score_text
from pybridge.service import fields
from pybridge.service.answers import (
    CLOSED,
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_BY_STATUS,
    EXIT_ENGINE_FAILED,
    EXIT_INTERNAL_ERROR,
    EXIT_INTERRUPTED,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    EXIT_UNSOLVABLE,
    error_text,
    internal_error_text,
    worst,
)
from pybridge.service.fields import Field
from pybridge.service.jobs import Listener
from pybridge.solver import BetterFill, Outcome
from pybridge.wording import plural

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BROKEN_PIPE",
    "EXIT_BY_STATUS",
    "EXIT_ENGINE_FAILED",
    "EXIT_INTERNAL_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_SOLVED",
    "EXIT_TIMEOUT",
    "EXIT_UNSOLVABLE",
    "error_text",
    "internal_error_text",
    "worst",
]

T = TypeVar("T")

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


def out_json(document: object) -> None:
    """Print a JSON document on stdout (see out), as --output json writes it."""
    import json  # only a command asked for JSON loads it

    out(json.dumps(document, ensure_ascii=False, indent=2))


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


def argument_type(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type from a reader of the library that raises UsageError
    (argparse then reports the message as a usage error, exit code 2)."""

    def parsed(text: str) -> T:
        try:
            return parse(text)
        except UsageError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parsed.__name__ = parse.__name__  # argparse names the type in its messages
    return parsed


def whole_number(least: int) -> Callable[[str], int]:
    """An argument type for a whole number of at least `least`."""
    return argument_type(fields.whole_number(least))


positive_int = argument_type(fields.positive_int)
seed_number = argument_type(fields.seed_number)


def default_bound(timeout: float | None) -> str:
    """What a verdict line adds when the time limit that ended the work was
    the commands' default (docs/cli.md#default-bounds)."""
    if not isinstance(timeout, DefaultSeconds):
        return ""
    return " (the default limit: --timeout SECONDS for longer, --timeout none for no limit)"


positive_seconds = argument_type(fields.positive_seconds)
command_time_limit = argument_type(fields.time_limit)


def add_fields(parser: argparse.ArgumentParser, options: Iterable[Field]) -> None:
    """The options (pybridge.service.fields), as argparse options of `parser`;
    those of one group exclude each other."""
    groups: dict[str, Any] = {}
    for field in options:
        target: Any = parser
        if field.group is not None:
            if field.group not in groups:
                groups[field.group] = parser.add_mutually_exclusive_group()
            target = groups[field.group]
        settings: dict[str, Any] = {"help": field.help, "dest": field.key}
        if field.read is None:
            settings["action"] = "store_true"
        else:
            settings.update(type=argument_type(field.read), metavar=field.metavar)
            settings.update(choices=field.choices, default=field.default)
            if field.repeat:
                settings["action"] = "extend" if field.many else "append"
            if field.many:
                settings["nargs"] = "+"
        if field.required:
            settings["required"] = True
        target.add_argument(f"--{field.name}", **settings)


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
CHECK_OUTPUT_HELP = (
    "text (the filled puzzle in its own notation), blocks (text with █ for blocked cells), "
    "json, png FILE / svg FILE (a picture like a printed crossword), or puz FILE / ipuz FILE "
    "(an Across Lite or ipuz crossword file); put the puzzle FILE before --output; "
    "default: text"
)
PUZZLE_FIRST = "write the puzzle FILE first: `crossword solve FILE --output KIND OUTFILE`"


PICTURES = ("png", "svg")
EXCHANGES = EXCHANGE_FORMATS  # --output kinds that write a crossword file
SHEETS = ("pdf",)  # --output kinds that write a printable sheet
FILE_OUTPUTS = PICTURES + EXCHANGES + SHEETS
TEXT_OUTPUTS = ("text", "blocks", "json")
SOLVE_OUTPUTS = TEXT_OUTPUTS + FILE_OUTPUTS  # solve, make and grid
CHECK_OUTPUTS = TEXT_OUTPUTS + PICTURES + EXCHANGES


def add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=seed_number, metavar="N", help=fields.SEED_HELP)


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
            known = kind in TEXT_OUTPUTS + FILE_OUTPUTS
            what = "this command cannot write" if known else "unknown kind"
            parser.error(f"--output: {what} {kind!r}: {named}")
        if len(rest) != wanted:
            what = f"{kind} takes one FILE" if wanted else f"{kind} takes no FILE"
            hint = f" ({self.after})" if self.after and wanted and len(rest) > wanted else ""
            if wanted and not rest:
                hint = f": say where to write it (--output {kind} OUTFILE.{kind})"
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


# ---------------------------------------------------------------- progress


def add_progress_options(parser: argparse.ArgumentParser) -> None:
    """--progress and --quiet: whether long work shows a progress line on stderr."""
    add_fields(parser, fields.PROGRESS)


def progress_line(
    args: argparse.Namespace, what: str, total: int | None = None, timeout: float | None = None
) -> Progress:
    """The command's progress line (see pybridge.progress), shown as
    --progress and --quiet say."""
    shown = shown_on(sys.stderr, args.progress, args.quiet)
    return Progress(shown, what, total=total, timeout=timeout)


class Terminal(Listener):
    """What the command line shows of a job under way: its progress line on
    stderr (as --progress and --quiet say), each better fill found (with
    `objective`, --maximize) and each pattern make tried, told above the
    line; and with `headers` the source of each of several grids, on
    stdout before its answer."""

    def __init__(
        self, args: argparse.Namespace, objective: str | None = None, headers: bool = False
    ) -> None:
        self.args = args
        self.objective = objective
        self.headers = headers

    def line(self, what: str, timeout: float | None) -> Progress:
        return progress_line(self.args, what, timeout=timeout)

    def cubes_line(self, total: int, running: Callable[[], Mapping[int, float]]) -> CubesProgress:
        shown = shown_on(sys.stderr, self.args.progress, self.args.quiet)
        return CubesProgress(shown, total, running)

    def puzzle(self, puzzle: Puzzle, many: bool) -> None:
        if many and self.headers:
            out(f"== {puzzle.source}")

    def better(self, found: BetterFill, line: Progress) -> None:
        if self.objective is None:
            return
        with line.paused():
            print(
                f"better: {self.objective} {score_text(found.value)} after "
                f"{found.seconds:.2f} s, {plural(found.nodes, 'node')}",
                file=sys.stderr,
                flush=True,
            )

    def tried(self, number: int, trial: Try, line: Progress) -> None:
        with line.paused():
            print(f"try {number}: {trial.summary()}", file=sys.stderr)


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
    add_fields(parser, fields.PUZZLE)
    add_output(parser, OUTPUT_HELP if "pdf" in kinds else CHECK_OUTPUT_HELP, kinds, PUZZLE_FIRST)


def check_picture_path(args: argparse.Namespace) -> None:
    kind, path = args.output
    if kind in FILE_OUTPUTS:
        check_writable(path, f"--output {kind}")


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
    from pybridge import acrosslite, ipuzfile

    first = outcome.solutions[0]  # its puzzle publishes its clues (pybridge.clues)
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
