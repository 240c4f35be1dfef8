"""The exceptions a library user can catch: every one is a CrosswordError.

    CrosswordError        the base class
      InputError          bad input, located in its file (line, column)
      UsageError          a request that cannot be carried out as asked: an
                          unknown strategy, engine or format, a bad seed or
                          time limit (also a ValueError)
      MissingDependency   something the request needs is not installed
      OutputError         an output cannot be written (a missing folder, a full
                          disk, a closed standard output)
      EngineError         an engine failed in a way no input explains (a bug
                          or a resource limit of SWI-Prolog)
        ResourceLimit     the engine ran out of memory (Prolog's stack limit)
                          on a puzzle too large for it: not a bug

The CLI turns all but EngineError into a message and exit code 2, EngineError
(and any other exception, a bug) into an internal error, exit code 4. Every
message that quotes input goes through `shown` (control characters escaped,
long text shortened), so hostile input cannot drive the terminal. No pyswip
exception reaches a caller: the bridge turns them into EngineError.
"""

from __future__ import annotations

import re
import shlex
import sys

SHOWN_LENGTH = 80  # the most characters of quoted input a message shows

# What a terminal must never receive raw: C0 and C1 controls, DEL, line and
# paragraph separators, bidirectional and other format controls, surrogates.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escaped(text: str) -> str:
    """`text` with every control character written as an escape (ESC as \\x1b)."""
    return _UNSAFE.sub(_escape, text)


def shown(text: str, limit: int = SHOWN_LENGTH) -> str:
    """Input quoted in a message: control characters escaped, and at most
    `limit` characters, the last an ellipsis when it was cut."""
    if len(text) > limit:  # cut first: escaping a 5 MB line would cost
        return escaped(text[: limit - 1])[: limit - 1] + "\u2026"
    out = escaped(text)
    return out if len(out) <= limit else out[: limit - 1] + "\u2026"


def excerpt(text: str, column: int, limit: int = SHOWN_LENGTH) -> tuple[str, int]:
    """The part of the line `text` shown under an error, escaped, and the
    0-based column of its caret: a window of about `limit` characters around
    the 1-based `column`, with an ellipsis where the line is cut."""
    index = min(max(column - 1, 0), len(text))
    start = max(0, min(index - limit // 2, len(text) - limit))
    end = min(len(text), start + limit)
    before = ("\u2026" if start > 0 else "") + escaped(text[start:index])
    after = escaped(text[index:end]) + ("\u2026" if end < len(text) else "")
    return before + after, len(before)


class CrosswordError(Exception):
    """Base class of every error the CLI reports without a traceback."""


class InputError(CrosswordError):
    """Bad input, located in its file.

    `line` and `column` are 1-based; `text` is the offending line, shown with a
    caret under `column`.
    """

    def __init__(
        self,
        message: str,
        source: str,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.text = text

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        out = f"{escaped(where)}: error: {clipped(self.message)}"
        if self.text is not None and self.column is not None:
            line, caret = excerpt(self.text.replace("\t", " "), self.column)
            out += f"\n    {line}\n    {' ' * caret}^"
        return out


def clipped(message: str, limit: int = 20 * SHOWN_LENGTH) -> str:
    """A whole message made safe: escaped, and cut if absurdly long (each
    quoted piece is shortened by `shown` already; this is the backstop)."""
    return shown(message, limit)


class MissingDependency(CrosswordError):
    """Something the requested engine needs is not installed."""


def pip_hint(requirement: str) -> str:
    """The command that installs `requirement` (a Python package) where this
    program runs: the pip of its own interpreter, the same in a checkout's
    .venv and wherever a wheel was installed."""
    return f"{shlex.quote(sys.executable)} -m pip install {shlex.quote(requirement)}"


class UsageError(CrosswordError, ValueError):
    """A request that cannot be carried out as asked (e.g. a strategy that
    does not apply to the puzzle's mode)."""


class OutputError(CrosswordError):
    """An output cannot be written: a missing or unwritable folder, a full
    disk, a closed standard output."""


class EngineError(CrosswordError):
    """An engine failed unexpectedly; the message says how."""


class ResourceLimit(EngineError):
    """The engine ran out of memory on this puzzle (SWI-Prolog's stack
    limit): the message says which limit and what to do."""
