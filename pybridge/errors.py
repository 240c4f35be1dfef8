"""The exceptions a library user can catch: every one is a CrosswordError.

    CrosswordError        the base class
      InputError          bad input, located in its file (line, column)
      UsageError          a request that cannot be carried out as asked: an
                          unknown strategy, engine or format, a bad seed or
                          time limit (also a ValueError)
      MissingDependency   something the request needs is not installed
      EngineError         an engine failed in a way no input explains (a bug
                          or a resource limit of SWI-Prolog)

The CLI turns the first three into a message and exit code 2. No pyswip
exception reaches a caller: the bridge turns them into EngineError.
"""

from __future__ import annotations


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
        out = f"{where}: error: {self.message}"
        if self.text is not None and self.column is not None:
            shown = self.text.replace("\t", " ")
            out += f"\n    {shown}\n    {' ' * (self.column - 1)}^"
        return out


class MissingDependency(CrosswordError):
    """Something the requested engine needs is not installed."""


class UsageError(CrosswordError, ValueError):
    """A request that cannot be carried out as asked (e.g. a strategy that
    does not apply to the puzzle's mode)."""


class EngineError(CrosswordError):
    """An engine failed unexpectedly; the message says how."""
