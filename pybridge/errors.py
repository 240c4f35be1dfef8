"""Errors a user can act on: bad input (with file, line and column) and a
missing dependency. The CLI turns both into a message and exit code 2."""

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


class UsageError(CrosswordError):
    """A request that cannot be carried out as asked (e.g. a strategy that
    does not apply to the puzzle's mode)."""
