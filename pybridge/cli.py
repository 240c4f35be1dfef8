"""The `crossword` command: `solve` one puzzle, `check` whether it can be
solved (and prove it cannot), `compare` the two engines, `bench` a suite of
grids filled from a dictionary.

The JSON of `solve --output json` and the exit codes are a contract: scripts
rely on them, so they change only on purpose (see the --help epilogs).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import json
import math
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from typing import Any

from pybridge import bench, compare, proofs
from pybridge.errors import (
    CrosswordError,
    EngineError,
    InputError,
    MissingDependency,
    OutputError,
    UsageError,
    shown,
)
from pybridge.lexicon import GRID_FORMATS, Dictionary, load_dictionary, load_grid
from pybridge.model import Puzzle
from pybridge.readers import FORMATS, load, require_site
from pybridge.render import blocks_text, outcome_json
from pybridge.reports import require_matplotlib
from pybridge.solver import (
    DEFAULT_LEXICON_STRATEGY,
    DEFAULT_STRATEGY,
    ENGINES,
    LEXICON_STRATEGIES,
    SEEDED_STRATEGIES,
    STRATEGIES,
    Outcome,
    Stats,
    check_seed,
    check_strategy,
    run,
)
from pybridge.wording import plural

EXIT_SOLVED = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_TIMEOUT = 3
EXIT_INTERNAL_ERROR = 4  # an engine failed, or the program has a bug: no input explains it
EXIT_ENGINE_FAILED = EXIT_INTERNAL_ERROR  # the former name, kept for callers
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as the shell reports a program killed by it

_EXIT_BY_STATUS = {"solved": EXIT_SOLVED, "unsolvable": EXIT_UNSOLVABLE, "timeout": EXIT_TIMEOUT}

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

CHECK_EPILOG = """\
Proof layers, cheapest first: length (word and site lengths differ), no-fit
(a site no word fits, or a word that fits no site), hall (k sites that fit
fewer than k words between them), propagation (letters propagated through the
crossings leave a site or a cell with nothing), search (the exhaustive search
finds nothing). The core is a set of sites that cannot all be filled, shrunk
until dropping any one of them makes it fillable; it is drawn with * on its
open cells.

exit codes:
  0    solvable (one solution is printed)
  1    unsolvable (the proof is printed)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  3    the time limit (--timeout) was reached before a verdict
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
  141  the output pipe was closed early (e.g. by `| head`)
"""

COMPARE_EPILOG = """\
Fill-in puzzles need their word file: write PUZZLE:WORDS, or pass --words
FILE (used for every fill-in puzzle given without a pair), or keep the words
next to the grid as the corpus does: a grid named puzzleX pairs with wordsX in
the same folder (puzzle3 with words3, puzzle_t15 with words_t15).

Each repetition re-reads and re-parses the file, then searches; the median
time of the repetitions is shown. A cell that reaches the time limit is shown
as "timeout" and not repeated; when both engines time out there is nothing
to compare, when only one does it is a disagreement in status.

exit codes:
  0    the engines agree on every puzzle and strategy
  1    the engines disagree somewhere (lines starting with DISAGREE)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
  141  the output pipe was closed early (e.g. by `| head`)
"""

BENCH_EPILOG = """\
Each GRID is a grid file (every grid of an RP 2016 file is a row of its own)
or a folder, whose *.txt grid files are taken in name order (files that are
not grids to fill are skipped). Each run's seconds are its search time; the
dictionary is read and indexed once per process, both times reported apart.
Every fill found is verified; a wrong one is printed as WRONG.

exit codes:
  0    every run ended (solved, unsolvable or timeout) and every fill is right
  1    some fill failed verification (a WRONG cell; the problems are on stderr)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
"""

MAIN_EPILOG = """\
Run `crossword COMMAND --help` for the options and exit codes of a command.
In short: 0 success, 1 unsolvable (solve) or engines disagree (compare),
2 bad input or usage, 3 time limit reached (solve), 4 internal error,
130 interrupted.
"""


# ---------------------------------------------------------------- output


def _out(text: str) -> None:
    """Print `text` on stdout, UTF-8 whatever the locale or PYTHONIOENCODING
    say, flushed at once so that a full disk is told here; OutputError when
    it cannot be written (BrokenPipeError passes: the reader went away)."""
    stream = sys.stdout
    if stream is None:
        raise OutputError(_CLOSED)
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


_CLOSED = "standard output is closed: give the command somewhere to write (e.g. > FILE)"


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


def _written(what: str, path: str, write: Callable[[], object]) -> None:
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
    "json, or png FILE / svg FILE (a picture like a printed crossword; put the puzzle FILE "
    "before --output); default: text"
)
PICTURES = ("png", "svg")
STRATEGY_HELP = (
    "search order: given (words in listed order), sorted (rare lengths first), mrv (the site "
    "with the fewest fitting words next, forward checking), ac3 (mrv after arc consistency), "
    "lcv (mrv, least constraining word first), cs50 (ac3 + lcv), cbj (mrv with "
    "conflict-directed backjumping), wdeg (bitset domains, dom/wdeg with restarts, for big "
    "dictionaries); given and sorted need a word "
    f"list, not --dict (default: {DEFAULT_STRATEGY}, or {DEFAULT_LEXICON_STRATEGY} with --dict)"
)
SEED_HELP = (
    "random tie-breaks and shuffled domains; same seed, same answer in both engines "
    f"(an integer >= 0; for {', '.join(SEEDED_STRATEGIES)}; default: no randomness)"
)


def _add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=seed_number, metavar="N", help=SEED_HELP)


class OutputAction(argparse.Action):
    """--output text|blocks|json, or --output png|svg FILE: stored as (kind, file)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        kind, *rest = [str(v) for v in (values or [])]
        wanted = 1 if kind in PICTURES else 0
        if kind not in ("text", "blocks", "json", *PICTURES):
            parser.error(f"--output: unknown kind {kind!r}: text, blocks, json, png FILE, svg FILE")
        if len(rest) != wanted:
            what = f"{kind} takes one FILE" if wanted else f"{kind} takes no FILE"
            parser.error(f"--output {what}, got {len(rest)} (write the puzzle FILE first)")
        if rest and not rest[0].lower().endswith(f".{kind}"):
            parser.error(f"--output {kind}: the file name must end in .{kind}, got {rest[0]!r}")
        setattr(namespace, self.dest, (kind, rest[0] if rest else None))


# ---------------------------------------------------------------- the parser


def _version() -> str:
    try:
        return metadata.version("crossword-pybridge")
    except metadata.PackageNotFoundError:
        return "(version unknown: the package is not installed)"


def _add_puzzle_arguments(parser: argparse.ArgumentParser) -> None:
    """The puzzle, how to search it and what to print: shared by solve and check."""
    parser.add_argument(
        "file", metavar="FILE", help="the puzzle (P-99 .dat, fill-in grid, or a grid with --dict)"
    )
    parser.add_argument("--words", metavar="FILE", help="the word list of a fill-in puzzle")
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
    parser.add_argument(
        "--grid",
        type=positive_int,
        metavar="N",
        help="the N-th grid of an RP 2016 file (default: every grid in turn)",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS + GRID_FORMATS,
        help="the puzzle format (default: sniffed); cs50, rp2016 and grid go with --dict",
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
    _add_seed(parser)
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        metavar="SECONDS",
        help="give up after this many seconds (exit code 3)",
    )
    parser.add_argument(
        "--output",
        nargs="+",
        action=OutputAction,
        default=("text", None),
        metavar=("KIND", "FILE"),
        help=OUTPUT_HELP,
    )


def _add_solve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    solve = commands.add_parser(
        "solve",
        help="solve one puzzle",
        description="Fill a P-99 or fill-in puzzle; print its solutions.",
        epilog=SOLVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_puzzle_arguments(solve)
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
    solve.set_defaults(handler=solve_command)


def _add_check(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = commands.add_parser(
        "check",
        help="say whether a puzzle is solvable, and prove it when it is not",
        description=(
            "Decide whether a puzzle has a solution. If it has, print one; if not,\n"
            "print why: the proof layer, the reason, and a minimal core of sites."
        ),
        epilog=CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_puzzle_arguments(check)
    check.set_defaults(handler=check_command)


def _add_compare(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bench = commands.add_parser(
        "compare",
        help="time both engines and check that they agree",
        description=(
            "Solve every puzzle with every engine and strategy, time it, and check that the\n"
            "Prolog engine and its pure-Python mirror find the same solutions with the same\n"
            "node and backtrack counts."
        ),
        epilog=COMPARE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    bench.add_argument(
        "files", nargs="+", metavar="FILE", help="a puzzle, or PUZZLE:WORDS for a fill-in puzzle"
    )
    bench.add_argument(
        "--words", metavar="FILE", help="word list for fill-in puzzles given without one"
    )
    bench.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        metavar="FILE",
        help="fill every grid of every FILE from this dictionary (construction mode; "
        "repeat to merge); only the strategies that apply to it are run",
    )
    bench.add_argument(
        "--engines",
        type=choice_list(ENGINES),
        default=ENGINES,
        help=f"comma-separated (default: {','.join(ENGINES)})",
    )
    bench.add_argument(
        "--strategies",
        type=choice_list(STRATEGIES),
        help=f"comma-separated (default: {','.join(STRATEGIES)}; "
        f"with --seed: {','.join(SEEDED_STRATEGIES)})",
    )
    _add_seed(bench)
    bench.add_argument(
        "--repeat",
        type=positive_int,
        default=5,
        metavar="N",
        help="runs per cell; the median time is shown (default: 5)",
    )
    bench.add_argument(
        "--timeout",
        type=positive_seconds,
        default=compare.DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time limit of each run (default: {compare.DEFAULT_TIMEOUT:g}; the given order "
        "can take hours on the larger puzzles)",
    )
    bench.add_argument(
        "--limit",
        type=positive_int,
        default=1,
        metavar="N",
        help="solutions to find per run (default: 1)",
    )
    bench.add_argument(
        "--plot",
        type=plot_file,
        metavar="FILE",
        help="also draw the median times to FILE.png or FILE.svg (needs matplotlib)",
    )
    bench.add_argument(
        "--output",
        choices=("text", "json"),
        default="text",
        help="text (tables) or json (default: text)",
    )
    bench.set_defaults(handler=compare_command)


def _add_bench(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "bench",
        help="fill a suite of grids from a dictionary and tabulate the runs",
        description=(
            "Fill every grid from the dictionary with every engine and strategy under a time\n"
            "limit; print one row per grid and the solved count and median time per column."
        ),
        epilog=BENCH_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("grids", nargs="+", metavar="GRID", help="a grid file or a folder of them")
    parser.add_argument(
        "--dict",
        action="append",
        dest="dicts",
        required=True,
        metavar="FILE",
        help="the dictionary to fill from (repeat to merge several)",
    )
    parser.add_argument(
        "--engines",
        type=choice_list(ENGINES),
        default=("python", "prolog"),
        help="comma-separated (default: python,prolog)",
    )
    parser.add_argument(
        "--strategies",
        type=choice_list(LEXICON_STRATEGIES),
        default=bench.DEFAULT_STRATEGIES,
        help=f"comma-separated, from {','.join(LEXICON_STRATEGIES)} (default: "
        f"{','.join(bench.DEFAULT_STRATEGIES)})",
    )
    parser.add_argument(
        "--timeout",
        type=positive_seconds,
        default=bench.DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time limit of each run (default: {bench.DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=1, metavar="N", help="runs at once (default: 1)"
    )
    _add_seed(parser)
    parser.add_argument("--csv", metavar="FILE", help="also write one line per run to FILE")
    parser.add_argument("--json", metavar="FILE", help="also write the runs and summary to FILE")
    parser.add_argument(
        "--plot",
        type=plot_file,
        metavar="FILE",
        help="draw a cactus plot (grids solved against time) to FILE.png or FILE.svg, "
        "with the peers' figures (needs matplotlib)",
    )
    parser.add_argument(
        "--peers-dir",
        type=Path,
        default=bench.PEERS_DIR,
        metavar="DIR",
        help="peers' measured figures for the plot (default: ../shared/bench/peers, if there)",
    )
    parser.add_argument(
        "--peer",
        choices=(bench.QXW,),
        help="also run this solver on the same grids (qxw: Qxw's batch fill, `qxw -b`)",
    )
    parser.set_defaults(handler=bench_command)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="crossword",
        description="Fill crossword puzzles by backtracking, in SWI-Prolog or in Python.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    _add_solve(commands)
    _add_check(commands)
    _add_compare(commands)
    _add_bench(commands)
    return parser


# ---------------------------------------------------------------- solve


def _verdict(outcome: Outcome, timeout: float | None) -> list[str]:
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
    verdict = _verdict(outcome, timeout)
    if verdict:
        parts.append("\n".join(verdict))
    return "\n\n".join(parts)


def stats_text(stats: Stats) -> str:
    return (
        f"stats: engine={stats.engine} strategy={stats.strategy} nodes={stats.nodes} "
        f"backtracks={stats.backtracks} seconds={stats.seconds:.6f}"
    )


def load_puzzles(args: argparse.Namespace) -> list[Puzzle]:
    """The puzzle named on the command line; with --dict, every grid of the
    file (or the --grid one) with the merged dictionaries as its words."""
    if not args.dicts:
        if args.grid is not None or args.encoding is not None:
            raise UsageError("--grid and --encoding go with --dict")
        if args.format in GRID_FORMATS:
            raise UsageError(f"a {args.format} grid is filled from a dictionary: add --dict FILE")
        return [require_site(load(args.file, args.words, args.format))]
    if args.words is not None:
        raise UsageError("--words (words to place exactly once) and --dict exclude each other")
    if args.format in FORMATS:
        raise UsageError(
            f"--dict fills a grid ({', '.join(GRID_FORMATS)}), not a {args.format} file"
        )
    dictionary = load_dictionary(args.dicts, args.encoding)
    if dictionary.skipped or dictionary.weighted:
        print(f"dictionary: {dictionary.summary()}", file=sys.stderr)
    grids = [
        require_site(grid) for grid in load_grid(args.file, grid=args.grid, format=args.format)
    ]
    return [replace(grid, words=dictionary.words) for grid in grids]


def _check_picture_path(args: argparse.Namespace) -> None:
    kind, path = args.output
    if kind in PICTURES:
        check_writable(path, f"--output {kind}")


def solve_command(args: argparse.Namespace) -> int:
    _check_picture_path(args)
    puzzles = load_puzzles(args)
    for puzzle in puzzles:
        check_strategy(puzzle, args.strategy)
    check_seed(args.strategy, args.seed)
    codes = [solve_one(puzzle, args, many=len(puzzles) > 1) for puzzle in puzzles]
    return _worst(codes)


def _worst(codes: Sequence[int]) -> int:
    """One exit code for several grids: a time-out, else an unsolvable one, else 0."""
    for code in (EXIT_TIMEOUT, EXIT_UNSOLVABLE):
        if code in codes:
            return code
    return EXIT_SOLVED


def solve_one(puzzle: Puzzle, args: argparse.Namespace, many: bool) -> int:
    if many and args.output[0] != "json":
        _out(f"== {puzzle.source}")
    limit = None if args.all else (args.limit or 1)
    outcome = run(
        puzzle,
        engine=args.engine,
        strategy=args.strategy,
        limit=limit,
        count=args.count,
        unique=args.unique,
        timeout=args.timeout,
        seed=args.seed,
    )
    kind, path = args.output
    if kind == "json":
        _out(json.dumps(_json(puzzle, outcome, many), ensure_ascii=False, indent=2))
    elif kind in PICTURES:
        _out(f"wrote {draw(puzzle, outcome, _numbered(path, puzzle) if many else path)}")
        if outcome.status != "solved":
            _out("\n".join(_verdict(outcome, args.timeout)))
    else:
        _out(outcome_text(outcome, args.timeout, blocks=kind == "blocks"))
    if args.stats and kind != "json":
        print(stats_text(outcome.stats), file=sys.stderr)
    return _EXIT_BY_STATUS[outcome.status]


def _json(puzzle: Puzzle, outcome: Outcome, many: bool) -> dict[str, Any]:
    """The JSON contract; with several grids, one document each (JSON lines
    would break `json.load`, so each is printed whole, tagged by source)."""
    doc = outcome_json(outcome)
    if many:
        doc = {"source": puzzle.source, **doc}
    return doc


def _numbered(path: str, puzzle: Puzzle) -> str:
    """'out.png' -> 'out-2.png' for the second grid of a file."""
    number = puzzle.source.rpartition("#")[2]
    stem, dot, suffix = path.rpartition(".")
    return f"{stem}-{number}{dot}{suffix}"


def draw(puzzle: Puzzle, outcome: Outcome, path: str) -> Path:
    """A picture of the first solution, or of the framework with the proof's
    core marked when there is none."""
    from pybridge import pictures

    grid, marked = puzzle.grid, frozenset[tuple[int, int]]()
    if outcome.solutions:
        grid = outcome.solutions[0].grid
    elif outcome.proof:
        marked = frozenset(c for site in outcome.proof.core for c in site.cells)
    check_writable(path, "--output")  # a numbered picture of several grids
    _written("the picture", path, lambda: pictures.write_picture(puzzle, grid, Path(path), marked))
    return Path(path)


# ---------------------------------------------------------------- check


def check_outcome(puzzle: Puzzle, args: argparse.Namespace) -> Outcome:
    """Search for one solution; when there is none, explain why with a
    minimal core (in the time the search left over)."""
    outcome = run(
        puzzle, engine=args.engine, strategy=args.strategy, timeout=args.timeout, seed=args.seed
    )
    if outcome.status != "unsolvable":
        return outcome
    left = None if args.timeout is None else max(args.timeout - outcome.stats.seconds, 0.05)
    proof = proofs.explain(puzzle, timeout=left, engine=outcome.stats.engine)
    if proof is not None:
        outcome.proof = proof
        outcome.reason = proof.reason if proof.layer == "length" else proofs.proof_sentence(proof)
    return outcome


def check_text(
    puzzle: Puzzle, outcome: Outcome, timeout: float | None, blocks: bool = False
) -> str:
    if outcome.status == "solved":
        first = outcome.solutions[0]
        return f"solvable\n{blocks_text(first) if blocks else first}"
    if outcome.status == "timeout":
        return f"time limit of {timeout:g} s reached before a verdict"
    proof = outcome.proof
    assert proof is not None  # an unsolvable outcome always carries its proof
    lines = [f"unsolvable (layer: {proof.layer})", proofs.proof_sentence(proof)]
    if proof.layer != "length" and not proof.minimal:
        lines.append("(the core may not be minimal: the time ran out while shrinking it)")
    marked = replace(puzzle, grid=proofs.core_grid(puzzle, proof))
    lines += [f"core ({proofs.CORE_MARK} marks its open cells):", str(marked)]
    return "\n".join(lines)


def check_command(args: argparse.Namespace) -> int:
    _check_picture_path(args)
    puzzles = load_puzzles(args)
    for puzzle in puzzles:
        check_strategy(puzzle, args.strategy)
    check_seed(args.strategy, args.seed)
    return _worst([check_one(puzzle, args, many=len(puzzles) > 1) for puzzle in puzzles])


def check_one(puzzle: Puzzle, args: argparse.Namespace, many: bool) -> int:
    kind, path = args.output
    if many and kind != "json":
        _out(f"== {puzzle.source}")
    outcome = check_outcome(puzzle, args)
    if kind == "json":
        _out(json.dumps(_json(puzzle, outcome, many), ensure_ascii=False, indent=2))
    elif kind in PICTURES:
        _out(f"wrote {draw(puzzle, outcome, _numbered(path, puzzle) if many else path)}")
        _out(check_text(puzzle, outcome, args.timeout).splitlines()[0])
    else:
        _out(check_text(puzzle, outcome, args.timeout, blocks=kind == "blocks"))
    return _EXIT_BY_STATUS[outcome.status]


# ---------------------------------------------------------------- compare


def _usable_engines(engines: Sequence[str], command: str = "compare") -> tuple[str, ...]:
    """`engines` without prolog when SWI-Prolog cannot be loaded (with a notice)."""
    from pybridge import bridge

    if "prolog" not in engines or bridge.available():
        return tuple(engines)
    print(f"crossword {command}: SWI-Prolog not found: skipping the prolog cells", file=sys.stderr)
    usable = tuple(engine for engine in engines if engine != "prolog")
    if not usable:
        raise MissingDependency(bridge.INSTALL_HINT)
    return usable


def compare_command(args: argparse.Namespace) -> int:
    if args.plot:
        require_matplotlib()
        check_writable(args.plot, "--plot")
    if args.words and args.dicts:
        raise UsageError("--words (words to place exactly once) and --dict exclude each other")
    strategies = args.strategies or (STRATEGIES if args.seed is None else SEEDED_STRATEGIES)
    for strategy in strategies:
        check_seed(strategy, args.seed)
    entries = compare.entries(args.files, args.words, args.dicts or ())
    engines = _usable_engines(args.engines)
    report = compare.benchmark(
        entries,
        engines,
        strategies,
        repeat=args.repeat,
        limit=args.limit,
        timeout=args.timeout,
        seed=args.seed,
    )
    if args.output == "json":
        _out(json.dumps(compare.report_json(report), ensure_ascii=False, indent=2))
    else:
        _out(compare.report_text(report))
    if args.plot:
        _written("the plot", args.plot, lambda: compare.write_plot(report, args.plot))
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 1 if report.disagreements else 0


# ---------------------------------------------------------------- bench


def _bench_checks(args: argparse.Namespace, grids: Sequence[bench.Grid]) -> None:
    """What must hold before any run: matplotlib for --plot, Qxw for --peer."""
    if args.plot:
        require_matplotlib()
    for option in ("csv", "json", "plot"):
        if getattr(args, option):
            check_writable(getattr(args, option), f"--{option}")
    if args.peer == bench.QXW:
        if bench.qxw_program() is None:
            raise MissingDependency(bench.QXW_HINT)
        given = [grid.name for grid in grids if not bench.blank_grid(grid.puzzle)]
        if given:
            raise UsageError(f"--peer qxw fills blank grids only; these have letters: {given}")


def bench_command(args: argparse.Namespace) -> int:
    grids = bench.load_suite(args.grids)
    _bench_checks(args, grids)
    started = time.perf_counter()
    dictionary = load_dictionary(args.dicts)
    loaded = time.perf_counter()
    bench.index(dictionary.words)
    load_seconds, index_seconds = loaded - started, time.perf_counter() - loaded
    engines = _usable_engines(args.engines, "bench")
    todo = bench.cells(grids, engines, args.strategies, args.peer == bench.QXW)
    send_seconds = bench.send_dictionary(todo, dictionary.words)
    done = bench.progress_printer(len(todo), sys.stderr) if sys.stderr.isatty() else None
    runs = bench.run_suite(
        todo, dictionary, timeout=args.timeout, seed=args.seed, jobs=args.jobs, done=done
    )
    sent = "" if send_seconds is None else f", sent to Prolog in {send_seconds:.2f} s"
    _out(
        f"dictionary: {dictionary.summary()}; loaded in {load_seconds:.2f} s, "
        f"indexed in {index_seconds:.2f} s{sent}"
    )
    _out(bench.table_text(runs))
    for run_ in runs:
        for problem in run_.problems:
            print(f"WRONG {run_.grid} {run_.label}: {problem}", file=sys.stderr)
    _bench_files(args, runs, dictionary, (load_seconds, index_seconds, send_seconds))
    return EXIT_UNSOLVABLE if any(run_.wrong for run_ in runs) else 0


def _bench_files(
    args: argparse.Namespace,
    runs: Sequence[bench.Run],
    dictionary: Dictionary,
    seconds: tuple[float, float, float | None],
) -> None:
    if args.csv:
        _written("the CSV file", args.csv, lambda: bench.write_csv(runs, args.csv))
    if args.json:
        settings = {
            "engines": list(args.engines),
            "strategies": list(args.strategies),
            "timeout": args.timeout,
            "jobs": args.jobs,
            "seed": args.seed,
            "peer": args.peer,
        }
        report = bench.report_json(runs, dictionary, seconds, settings)
        text = json.dumps(report, ensure_ascii=False, indent=2) + "\n"
        _written(
            "the JSON file", args.json, lambda: Path(args.json).write_text(text, encoding="utf-8")
        )
    if args.plot:
        peers = bench.relevant_peers(args.peers_dir, (run_.grid for run_ in runs))
        _written(
            "the plot", args.plot, lambda: bench.write_cactus(runs, peers, args.plot, args.timeout)
        )
        print(f"plot written to {args.plot}", file=sys.stderr)


# ---------------------------------------------------------------- entry point


def _error_text(err: CrosswordError) -> str:
    # An InputError already starts with "file:line:col: error:" (and is made
    # safe to show by its __str__); other messages are escaped here.
    return str(err) if isinstance(err, InputError) else f"crossword: error: {shown(str(err), 1600)}"


def _internal_error_text(err: BaseException) -> str:
    """One line for an exception no input explains: its kind and first line."""
    cause = str(err).strip().split("\n", 1)[0]
    if not isinstance(err, EngineError):
        cause = f"{type(err).__name__}: {cause}" if cause else type(err).__name__
    return f"crossword: internal error: {shown(cause, 300)} (please report it, with the command)"


def _debugging() -> bool:
    """CROSSWORD_DEBUG=1: let unexpected exceptions through, with their traceback."""
    return os.environ.get("CROSSWORD_DEBUG", "") not in ("", "0")


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's last flush of
    what could not be written does not fail again at exit."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _interrupt_ends_the_process() -> None:
    """Let Ctrl-C end the command at once, even in the middle of a Prolog search.

    pyswip starts SWI-Prolog with --nosignals, so Python's handler (and with it
    KeyboardInterrupt) would only run once the search returned, maybe hours
    later. The default action ends the process quietly with status 130 in the
    shell. An ignored SIGINT (a background job) stays ignored.
    """
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.SIG_DFL)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line `argv` (default: sys.argv[1:]); return the exit code.

    Without `argv` this is the `crossword` process itself, so Ctrl-C ends it at
    once; called with a list (tests, notebooks) an interrupt returns 130."""
    if argv is None:
        _interrupt_ends_the_process()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error (code 2)
        return done.code if isinstance(done.code, int) else EXIT_BAD_INPUT
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        if sys.stdout is None:
            raise OutputError(_CLOSED)
        return handler(args)
    except EngineError as err:
        if _debugging():
            raise
        print(_internal_error_text(err), file=sys.stderr)
        return EXIT_INTERNAL_ERROR
    except CrosswordError as err:
        if isinstance(err, OutputError):
            _quiet_stdout()
        print(_error_text(err), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as err:  # a bug: no traceback for the user, exit code 4
        if _debugging():
            raise
        print(_internal_error_text(err), file=sys.stderr)
        return EXIT_INTERNAL_ERROR
