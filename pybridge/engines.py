"""The two engines behind one interface - a Request in, a Result out - and
the choice between them."""

from __future__ import annotations

import sys
from collections.abc import Callable

from pybridge import bridge
from pybridge.errors import UsageError
from pybridge.search import engine as python_engine
from pybridge.search.kernel import Request, Result

ENGINES = ("prolog", "python")
_SEARCH: dict[str, Callable[[Request], Result]] = {
    "prolog": bridge.search,
    "python": python_engine.search,
}


def choose_engine(engine: str | None) -> str:
    """The engine to use: as asked, or prolog when SWI-Prolog loads, else
    python (with a notice on stderr); UsageError for an unknown name."""
    if engine is not None:
        if engine not in ENGINES:
            raise UsageError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
        return engine
    if bridge.available():
        return "prolog"
    print("crossword: SWI-Prolog not found, using --engine python", file=sys.stderr)
    return "python"


def search(engine: str, request: Request) -> Result:
    """The request searched by `engine` ("prolog" or "python")."""
    return _SEARCH[engine](request)
