"""The `crossword` command line: one module per command in
pybridge/commands/ (each registers its subcommand and handler with
`add_parser`), and here the entry point that runs one and turns every
failure into a message and an exit code. Only the module of the command
asked for is loaded (COMMANDS lists each with its summary, for --help), so
that a command pays for its own imports alone.

The JSON of `solve --output json` and the exit codes are a contract: scripts
rely on them, so they change only on purpose (see the --help epilogs and
docs/cli.md).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from pybridge.errors import CrosswordError, EngineError, OutputError, ResourceLimit
from pybridge.service.answers import (
    CLOSED,
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_ENGINE_FAILED,
    EXIT_INTERNAL_ERROR,
    EXIT_INTERRUPTED,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    EXIT_UNSOLVABLE,
    error_text,
    internal_error_text,
)

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_BROKEN_PIPE",
    "EXIT_ENGINE_FAILED",
    "EXIT_INTERNAL_ERROR",
    "EXIT_INTERRUPTED",
    "EXIT_SOLVED",
    "EXIT_TIMEOUT",
    "EXIT_UNSOLVABLE",
    "build_parser",
    "main",
]

# Each command: its module in pybridge.commands and its summary, in the
# order --help lists them. A module's add_parser(commands, summary) adds its
# subcommand, with the summary as its help.
COMMANDS = {
    "solve": "solve one puzzle",
    "check": "say whether a puzzle is solvable, and prove it when it is not",
    "compare": "time both engines and check that they agree",
    "bench": "fill a suite of grids from a dictionary and tabulate the runs",
    "grid": "make a random grid pattern",
    "make": "make a crossword: a pattern and its fill",
    "difficulty": "estimate how hard a grid is to fill",
    "wordsearch": "make a word search puzzle, or find words in one",
    "serve": "open the web workbench: edit, fill and check grids in a browser",
}

MAIN_EPILOG = """\
Run `crossword COMMAND --help` for the options and exit codes of a command.
In short: 0 success, 1 unsolvable (solve, make, wordsearch make), no such
pattern (grid), a word not found (wordsearch solve) or engines disagree
(compare), 2 bad input or usage, 3 time limit reached (solve, make,
wordsearch make) or no pattern found (grid), 4 internal error, 130 interrupted.
"""


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("crossword-pybridge")
    except metadata.PackageNotFoundError:
        return "(version unknown: the package is not installed)"


class _Version(argparse.Action):
    """--version: the version is looked up only when it is asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from pybridge import bridge, compiled

        try:
            prolog = bridge.revision_form()
        except CrosswordError as exc:  # no SWI-Prolog, or it failed to start
            prolog = f"no Prolog engine ({exc})"
        print(f"{parser.prog} {_version()}; {compiled.form()}; {prolog}")
        parser.exit()


ALL = "all"  # build_parser's default: every command's options


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size() finds it (COLUMNS,
    else the terminal of stdout, else 80), without importing shutil (it
    loads bz2, lzma and zlib: a few milliseconds of every command)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


_SIZED: dict[type[argparse.HelpFormatter], type[argparse.HelpFormatter]] = {}


def _sized(formatter: type[argparse.HelpFormatter]) -> type[argparse.HelpFormatter]:
    """`formatter`, given the terminal's width (_columns) when it is made
    without one, as argparse gives it from shutil."""
    if formatter not in _SIZED:

        class Sized(formatter):  # type: ignore[valid-type,misc]
            def __init__(
                self,
                prog: str,
                indent_increment: int = 2,
                max_help_position: int = 24,
                width: int | None = None,
            ) -> None:
                width = _columns() - 2 if width is None else width
                super().__init__(prog, indent_increment, max_help_position, width)

        _SIZED[formatter] = Sized
    return _SIZED[formatter]


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose help formatters find the terminal's width
    without shutil (see _columns); the subcommands' parsers are of its
    class too (add_subparsers makes them so)."""

    def __init__(
        self,
        *,
        formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter,
        **kwargs: Any,
    ) -> None:
        super().__init__(formatter_class=_sized(formatter_class), **kwargs)


def build_parser(only: str | None = ALL) -> argparse.ArgumentParser:
    """The parser of the command line: every command's options, or with
    `only` that command's alone (None: no command's), the others listed
    with their summaries (as --help shows them, and an unknown command's
    message)."""
    parser = _Parser(
        prog="crossword",
        description="Fill crossword puzzles by backtracking, in SWI-Prolog or in Python.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, help="show program's version number and exit")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for name, summary in COMMANDS.items():
        if only in (ALL, name):
            importlib.import_module(f"pybridge.commands.{name}").add_parser(commands, summary)
        else:
            commands.add_parser(name, help=summary)
    for subparser in commands.choices.values():
        subparser.set_defaults(command_parser=subparser)
        for nested in _subparsers(subparser):  # wordsearch make, wordsearch solve
            for inner in nested.choices.values():
                inner.set_defaults(command_parser=inner)
    return parser


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse._SubParsersAction[Any]]:
    return [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """parser.parse_args, but an option the command does not know is told by
    the command's own parser (its usage, not the top level's), with the
    nearest option it has: `solve … --dictt` asks "did you mean --dict?"."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        import difflib

        command: argparse.ArgumentParser = getattr(args, "command_parser", parser)
        known = [name for name in command._option_string_actions if name.startswith("--")]
        guesses = []
        for extra in extras:
            if extra.startswith("-"):
                near = difflib.get_close_matches(extra.split("=", 1)[0], known, n=1, cutoff=0.6)
                guesses += [f"did you mean {near[0]}?"] if near else []
        message = f"unrecognized arguments: {' '.join(extras)}"
        command.error(f"{message} ({'; '.join(guesses)})" if guesses else message)
    return args


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
    once, and once the command is done the process ends there (_end_process);
    called with a list (tests, notebooks) an interrupt returns 130 and the
    code is returned."""
    if argv is None:
        _interrupt_ends_the_process()
        return _end_process(_command(None))
    return _command(argv)


def _end_process(code: int) -> int:
    """End the `crossword` process with `code` now that its command is done:
    what would run at exit has run (the atexit callbacks: multiprocessing's
    clean-up of a portfolio's workers, weakref finalizers such as a
    temporary folder's, a coverage run's data) and its output is flushed,
    then os._exit, without the interpreter's teardown: freeing every module
    and object one by one (a big dictionary's words, the modules' tables)
    and a last full garbage collection, about 0.03 s of processor time
    after a proof, for nothing the operating system would not do. Every
    file the commands write is closed by then (each is written in a `with`
    block or whole), and the Prolog engine needs no clean-up (see
    bridge.session._no_cleanup_at_exit). While a thread that is not a
    daemon still runs (a server's), or in an interactive session
    (`python -i`), the interpreter ends as usual: the code is returned."""
    threading = sys.modules.get("threading")  # no thread was started without it
    if sys.flags.interactive or (
        threading is not None
        and any(
            thread.is_alive() and not thread.daemon
            for thread in threading.enumerate()
            if thread is not threading.main_thread()
        )
    ):
        return code
    import atexit

    atexit._run_exitfuncs()
    try:
        for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
            if stream is not None:
                stream.flush()
    except BrokenPipeError:  # the reader went away (`| head`): as in main
        _quiet_stdout()
        code = EXIT_BROKEN_PIPE
    except (OSError, ValueError):  # nowhere left to say so: end all the same
        pass
    os._exit(code)


def _command(argv: Sequence[str] | None) -> int:
    """main's work: run the command line `argv` (None: sys.argv[1:]) and
    turn every failure into a message and an exit code."""
    given = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(given[0] if given and given[0] in COMMANDS else None)
    try:
        args = _parse(parser, given)
    except SystemExit as done:  # --help, --version, or a usage error (code 2)
        return done.code if isinstance(done.code, int) else EXIT_BAD_INPUT
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        if sys.stdout is None:
            raise OutputError(CLOSED)
        return handler(args)
    except ResourceLimit as err:  # not a bug: the puzzle is too large for the engine
        print(error_text(err), file=sys.stderr)
        return EXIT_INTERNAL_ERROR
    except EngineError as err:
        if _debugging():
            raise
        print(internal_error_text(err), file=sys.stderr)
        return EXIT_INTERNAL_ERROR
    except CrosswordError as err:
        if isinstance(err, OutputError):
            _quiet_stdout()
        print(error_text(err), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as err:  # a bug: no traceback for the user, exit code 4
        if _debugging():
            raise
        print(internal_error_text(err), file=sys.stderr)
        return EXIT_INTERNAL_ERROR
