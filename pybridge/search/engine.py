"""The Python engine: a request searched by the registry's strategy, step
for step as the Prolog engine (pybridge.bridge) searches it.

The searches are generators nested one level (or a few) per site, so a
search of many sites is deeper than Python's recursion limit and than the C
stack of the main thread. Such a search runs on a thread of its own with a
stack to match, under a raised recursion limit (_on_deep_stack); the search
itself, its order and its counts, are the same either way.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Generator, Iterator

from pybridge.errors import UsageError
from pybridge.search import registry, valued
from pybridge.search.kernel import (
    Counters,
    Improvement,
    Request,
    Result,
    SearchTimeout,
    Status,
    counters_for,
)

FRAMES_PER_SITE = 4  # nested frames per site, with room (wdeg: chain, fill, branch)
FRAMES_SPARE = 200  # for the caller's frames and those a step calls
STACK_PER_FRAME = 2048  # bytes of C stack per nested generator, with room (measured: < 700)
MIN_STACK = 16 << 20
MAX_STACK = 4 << 30  # 4 GiB of address space: 500,000 sites


def solutions(request: Request, counters: Counters) -> Generator[list[str], None, None]:
    """Each solution as the word of every site, lazily; SearchTimeout when
    the counters' deadline passes. `request.limit` and `count` are not read."""
    strategy = registry.check(request.strategy, seed=request.seed)
    if strategy.crossings and request.layout.arcs_by(counters.deadline) is None:
        raise SearchTimeout  # millions of crossings: their finding counts against the limit
    yield from _stepped(registry.solutions(request, counters), request, counters)


def _stepped(
    steps: Iterator[list[str]], request: Request, counters: Counters
) -> Generator[list[str], None, None]:
    """`steps`, on a deep enough stack for the request's sites."""
    frames = FRAMES_PER_SITE * len(request.layout.cells) + FRAMES_SPARE
    if frames + _depth() < sys.getrecursionlimit():
        yield from steps
    else:
        yield from _on_deep_stack(steps, frames, counters)


def _depth() -> int:
    """The frames on the stack of the calling thread."""
    frame, n = sys._getframe(), 0
    while frame is not None:
        frame, n = frame.f_back, n + 1  # type: ignore[assignment]
    return n


_room_lock = threading.Lock()
_deep_searches = 0
_limit_before = 0


def _on_deep_stack(
    steps: Iterator[list[str]], frames: int, counters: Counters
) -> Generator[list[str], None, None]:
    """`steps`, each step taken (and the generator closed) on a thread with
    C stack for `frames` nested generators, under a recursion limit raised
    to match while any such search runs. Closing this generator, or an
    exception in the caller (KeyboardInterrupt), stops the search at its
    next node: the deadline is moved to the past."""
    stack = max(MIN_STACK, frames * STACK_PER_FRAME)
    if stack > MAX_STACK:
        raise UsageError(
            f"the Python engine searches up to {MAX_STACK // STACK_PER_FRAME // FRAMES_PER_SITE:,}"
            " sites at once"
        )
    asks: queue.SimpleQueue[bool] = queue.SimpleQueue()  # True: the next step; False: close
    answers: queue.SimpleQueue[tuple[bool, object]] = queue.SimpleQueue()

    def work() -> None:
        try:
            while asks.get():
                answers.put((True, next(steps)))
        except BaseException as exc:  # StopIteration at the end; passed to the caller
            answers.put((False, exc))
        try:
            close = getattr(steps, "close", None)
            if close is not None:
                close()
        except BaseException as exc:
            answers.put((False, exc))
        answers.put((False, None))

    worker = threading.Thread(target=work, name="deep search", daemon=True)
    _raise_limit(frames)
    try:
        with _room_lock:  # the size applies to the threads started until it is reset
            before = threading.stack_size(stack)
            try:
                worker.start()
            finally:
                threading.stack_size(before)
        while True:
            asks.put(True)
            more, value = answers.get()
            if more:
                yield value  # type: ignore[misc]
                continue
            if isinstance(value, StopIteration) or value is None:
                return
            assert isinstance(value, BaseException)
            raise value
    finally:
        if worker.is_alive():
            counters.deadline = float("-inf")  # a step under way stops at its next node
            asks.put(False)
            worker.join()
        _restore_limit()


def _raise_limit(frames: int) -> None:
    global _deep_searches, _limit_before
    with _room_lock:
        if _deep_searches == 0:
            _limit_before = sys.getrecursionlimit()
        _deep_searches += 1
        sys.setrecursionlimit(max(sys.getrecursionlimit(), frames + _limit_before))


def _restore_limit() -> None:
    global _deep_searches
    with _room_lock:
        _deep_searches -= 1
        if _deep_searches == 0:
            sys.setrecursionlimit(_limit_before)


def search(request: Request) -> Result:
    """The request's solutions (up to its limit) or their count, with the
    counters, within its time limit; with an objective, the better fills
    as they come and the best (see optimise)."""
    if request.objective is not None:
        return optimise(request)
    counters = counters_for(request)
    found: list[list[str]] = []
    n = 0
    timed_out = False
    steps = solutions(request, counters)
    try:
        for words in steps:
            n += 1
            counters.solutions = n
            if not request.count:
                found.append(words)
                if request.limit is not None and n >= request.limit:
                    break
    except SearchTimeout:
        timed_out = True
    finally:
        steps.close()
    if request.progress is not None and not timed_out:
        request.progress(counters.tick())  # the final counters, as the Prolog engine gives them
    status: Status = "timeout" if timed_out else ("solved" if n else "unsolvable")
    weights = counters.weights if n else None
    return Result(status, found, n, counters.nodes, counters.backtracks, weights=weights)


def optimise(request: Request) -> Result:
    """The valued search for the best fill (docs/search.md#valued): each
    better fill is reported as it is found; the result holds them all, the
    best as its solution, and the bound (the best's value once the search
    has ended, else the greatest value still possible)."""
    started = time.perf_counter()
    registry.check(request.strategy, seed=request.seed)
    counters = counters_for(request)
    if request.layout.arcs_by(counters.deadline) is None:  # see solutions
        return Result("timeout", [], 0, 0, 0)
    found = valued.Search(request, counters)
    improvements: list[Improvement] = []
    timed_out = False
    steps = _stepped(found.fills(), request, counters)
    try:
        for words in steps:
            assert found.incumbent is not None
            better = Improvement(
                found.incumbent, counters.nodes, time.perf_counter() - started, words
            )
            improvements.append(better)
            counters.solutions = len(improvements)
            if request.report is not None:
                request.report(better)
    except SearchTimeout:
        timed_out = True
    finally:
        steps.close()
    if request.progress is not None and not timed_out:
        request.progress(counters.tick())  # the final counters, as in search
    status: Status = "timeout" if timed_out else ("solved" if improvements else "unsolvable")
    best = [improvements[-1].words] if improvements else []
    return Result(
        status,
        best,
        len(best),
        counters.nodes,
        counters.backtracks,
        improvements,
        found.bound() if timed_out else found.incumbent,
    )
