"""The Python engine: a request searched by the registry's strategy, step
for step as the Prolog engine (pybridge.bridge) searches it."""

from __future__ import annotations

from collections.abc import Generator

from pybridge.search import registry
from pybridge.search.kernel import Counters, Request, Result, SearchTimeout, Status, deadline


def solutions(request: Request, counters: Counters) -> Generator[list[str], None, None]:
    """Each solution as the word of every site, lazily; SearchTimeout when
    the counters' deadline passes. `request.limit` and `count` are not read."""
    registry.check(request.strategy, seed=request.seed)
    yield from registry.solutions(request, counters)


def search(request: Request) -> Result:
    """The request's solutions (up to its limit) or their count, with the
    counters, within its time limit."""
    counters = Counters(deadline=deadline(request.timeout))
    found: list[list[str]] = []
    n = 0
    timed_out = False
    steps = solutions(request, counters)
    try:
        for words in steps:
            n += 1
            if not request.count:
                found.append(words)
                if request.limit is not None and n >= request.limit:
                    break
    except SearchTimeout:
        timed_out = True
    finally:
        steps.close()
    status: Status = "timeout" if timed_out else ("solved" if n else "unsolvable")
    return Result(status, found, n, counters.nodes, counters.backtracks)
