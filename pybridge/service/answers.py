"""What a job's answer means to its caller, the same for the command line
and the JSON API: the exit codes (the API gives them in a header and maps
them to HTTP statuses) and the messages of failures. They are contracts:
extend them, never change them (docs/cli.md, docs/serve.md). The JSON
document of a searched puzzle is pybridge.render's json_document."""

from __future__ import annotations

from collections.abc import Sequence

from pybridge.errors import CrosswordError, EngineError, InputError, shown

EXIT_SOLVED = 0
EXIT_UNSOLVABLE = 1
EXIT_BAD_INPUT = 2
EXIT_TIMEOUT = 3
EXIT_INTERNAL_ERROR = 4  # an engine failed, or the program has a bug: no input explains it
EXIT_ENGINE_FAILED = EXIT_INTERNAL_ERROR  # the former name, kept for callers
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as the shell reports a program killed by it
CLOSED = "standard output is closed: give the command somewhere to write (e.g. > FILE)"
EXIT_BY_STATUS = {"solved": EXIT_SOLVED, "unsolvable": EXIT_UNSOLVABLE, "timeout": EXIT_TIMEOUT}


def worst(codes: Sequence[int]) -> int:
    """One exit code for several grids: a time-out, else an unsolvable one, else 0."""
    for code in (EXIT_TIMEOUT, EXIT_UNSOLVABLE):
        if code in codes:
            return code
    return EXIT_SOLVED


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
