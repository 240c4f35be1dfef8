"""The two engines behind one interface - a Request in, a Result out - and
the choice between them. Each engine loads when it is first asked for (the
Prolog engine's bridge imports pyswip then, and starts SWI-Prolog on its
first search)."""

from __future__ import annotations

import sys

from pybridge.errors import UsageError
from pybridge.search.kernel import Request, Result

ENGINES = ("prolog", "python")


def choose_engine(engine: str | None) -> str:
    """The engine to use: as asked, or prolog when SWI-Prolog loads, else
    python (with a notice on stderr); UsageError for an unknown name."""
    if engine is not None:
        if engine not in ENGINES:
            raise UsageError(f"unknown engine {engine!r}: choose from {', '.join(ENGINES)}")
        return engine
    from pybridge import bridge

    if bridge.available():
        return "prolog"
    print("crossword: SWI-Prolog not found, using --engine python", file=sys.stderr)
    return "python"


def choose_streams_engine(engine: str | None, jobs: int) -> str:
    """The engine of a portfolio of `jobs` streams: as asked; with one job
    (the search of `crossword solve`, in this process) as choose_engine
    decides; with more, python. A stream makes the same search node for
    node in either engine, so the engine decides only how soon each stream
    gets there. On van Beek's grids python is 3.4-4.4 times faster per node
    than prolog with `wdeg` (compiled; about as fast interpreted), 1.6-2.9
    times with `mrv` and `lcv`, 5 and more with `ac3` and `cs50`, about as
    fast with `cbj`; and its workers start without sending the dictionary
    to SWI-Prolog (docs/benchmarks.md, "The portfolio's engine")."""
    if engine is not None or jobs == 1:
        return choose_engine(engine)
    return "python"


def search(engine: str, request: Request) -> Result:
    """The request searched by `engine` ("prolog" or "python")."""
    if engine == "prolog":
        from pybridge import bridge

        return bridge.search(request)
    from pybridge.search import engine as python_engine

    return python_engine.search(request)
