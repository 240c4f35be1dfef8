"""The two engines behind one interface - a Request in, a Result out - and
the choice between them. Each engine loads when it is first asked for (the
Prolog engine's bridge imports pyswip then, and starts SWI-Prolog on its
first search)."""

from __future__ import annotations

import sys

from pybridge import compiled
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
    """The engine of a portfolio of `jobs` streams: as asked; with more
    than one job and the Python search compiled, python; else (one job:
    the search of `crossword solve`, in this process) as choose_engine
    decides. A stream makes the same search node for node in either
    engine, so the engine decides only how soon each stream gets there.
    Compiled, python is the faster per node on van Beek's grids: 3.4-4.4
    times with `wdeg` against arcs.pl in Prolog, 1.3-2.2 against its
    revision in C, 1.6-2.9 with `mrv` and `lcv`, 5 and more with `ac3` and
    `cs50`, about as fast with `cbj`; and its workers send no dictionary to
    SWI-Prolog. Interpreted, its `wdeg` is about as fast as arcs.pl's and
    2.4 times slower than the C revision (docs/benchmarks.md, "The
    portfolio's engine")."""
    if engine is not None or jobs == 1 or not compiled.in_use():
        return choose_engine(engine)
    return "python"


def search(engine: str, request: Request) -> Result:
    """The request searched by `engine` ("prolog" or "python")."""
    if engine == "prolog":
        from pybridge import bridge

        return bridge.search(request)
    from pybridge.search import engine as python_engine

    return python_engine.search(request)
