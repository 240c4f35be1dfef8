"""The Prolog engine, taking the same Request and giving the same Result as
the Python engine (pybridge.search.engine): one call of crossword:solve/8
per search (crossword:improve/8 for the best fill, read as each better fill
comes), the words as Strategy.reads says (listed with the search, or a
dictionary sent once per process and named by its key), watched by the
request's progress; and the engine's other entry points (call, for
wordsearch.pl) and what it holds (dictionaries, the strategies it knows).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from typing import Any, cast

from pybridge.bridge import ffi, session, wire
from pybridge.errors import EngineError
from pybridge.search import registry, valued
from pybridge.search.kernel import (
    TICK_SECONDS,
    Improvement,
    Request,
    Result,
    Status,
    Strategy,
    Tick,
    Watch,
)

MIN_TIME_LIMIT = 0.001  # seconds: a search that got the lock gets at least this


def search(request: Request) -> Result:
    """Search the request with crossword:solve/8, in one call: the control
    arguments are terms we write ourselves, the puzzle goes as strings.
    The time spent waiting for another thread's search counts against the
    request's time limit: a request that cannot have the engine in time
    times out without searching. With an objective, see _optimise."""
    if request.objective is not None:
        return _optimise(request)
    started = time.perf_counter()
    chosen = registry.check(request.strategy, seed=request.seed)
    layout = request.layout
    sites = layout.cells
    texts = [wire.sites_text(sites), wire.givens_text(layout.givens)]  # UsageError before the lock
    timeout = request.timeout
    if not session.lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return Result("timeout", [], 0, 0, 0)
    try:
        with session.engine_errors():
            prolog = session.engine()
            session.load_module(chosen.family)
        # watching outside: an interrupt still pending when the search has
        # returned is then taken inside unwatch's query, not in the open
        with session.engine_errors(), watching(request.progress), session.interrupts_stop_prolog():
            session.attach_thread()
            strategy, listed = _strategy_term(prolog, chosen, request)
            words = wire.words_text(listed)  # before the clock is read: it takes a while
            if timeout is not None:
                timeout -= time.perf_counter() - started
                if timeout <= 0:
                    return Result("timeout", [], 0, 0, 0)
                timeout = max(timeout, MIN_TIME_LIMIT)
            controls = [
                strategy,
                wire.seed(request.seed),
                wire.mode(request.limit, request.count),
                wire.limits(timeout, request.node_limit),
            ]
            with session.sized_stacks(prolog, [len(cells) for cells in sites], request.words):
                answer = ffi.once(b"crossword", b"solve", controls, [words, *texts, None])
            learned = _learned(chosen, answer)
    finally:
        session.lock.release()
    head, *lines = answer.split("\n")
    status, n, nodes, backtracks = head.split()
    if status not in ("solved", "unsolvable", "timeout"):
        raise EngineError(f"the Prolog engine answered {head!r}")
    lengths = [len(cells) for cells in sites]
    return Result(
        status=cast(Status, status),
        solutions=[wire.split(joined, lengths) for joined in lines[:-1]],
        count=int(n),
        nodes=int(nodes),
        backtracks=int(backtracks),
        weights=learned,
    )


def _learned(strategy: Strategy, answer: str) -> tuple[int, ...] | None:
    """The crossing weights a wdeg search had at its last fill
    (wdeg:learned_weights/1; Result.weights), None for another strategy
    or without a fill."""
    if strategy.family != "wdeg" or answer.split(maxsplit=2)[1] == "0":
        return None  # "Status Count ...": no fill
    text = ffi.once(b"wdeg", b"learned_weights", [], [None])
    return tuple(map(int, text.split())) if text else None


def _optimise(request: Request) -> Result:
    """The valued search for the best fill, with crossword:improve/8: each
    better fill is a solution of the query, read (and reported) as it
    comes; the last says how the search ended. The time limit is kept by
    the search itself, which reads the clock at every node."""
    started = time.perf_counter()
    chosen = registry.check(request.strategy, seed=request.seed)
    layout = request.layout
    lengths = [len(cells) for cells in layout.cells]
    texts: list[str | list[int] | None] = [
        wire.sites_text(layout.cells),
        wire.givens_text(layout.givens),
        None,
    ]
    timeout = request.timeout
    if not session.lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return Result("timeout", [], 0, 0, 0)
    improvements: list[Improvement] = []
    try:
        with session.engine_errors():
            prolog = session.engine()
            session.load_module(chosen.family)
        with session.engine_errors(), session.interrupts_stop_prolog():
            session.attach_thread()
            strategy, _ = _strategy_term(prolog, chosen, request)
            if timeout is not None:
                timeout = max(timeout - (time.perf_counter() - started), MIN_TIME_LIMIT)
            cap = valued.cap(request)
            controls = [
                strategy,
                str(request.objective),
                "none" if cap is None else str(cap),
                "none" if request.beat is None else str(request.beat),
                wire.limits(timeout, request.node_limit),
            ]
            with (
                session.sized_stacks(prolog, lengths, request.words),
                closing(ffi.solutions(b"crossword", b"improve", controls, texts)) as lines,
            ):
                for line in lines:
                    kind, _, rest = line.partition(" ")
                    if kind != "better":
                        end = rest.split()
                        break
                    value, nodes, _, fill = rest.split(" ", 3)
                    seconds = time.perf_counter() - started
                    better = Improvement(int(value), int(nodes), seconds, wire.split(fill, lengths))
                    improvements.append(better)
                    if request.report is not None:
                        request.report(better)
                else:
                    raise EngineError("the Prolog engine ended the valued search without a verdict")
    finally:
        session.lock.release()
    status, nodes, backtracks, bound = end
    if status not in ("solved", "unsolvable", "timeout"):
        raise EngineError(f"the Prolog engine answered {line!r}")
    if request.progress is not None and status != "timeout":  # the final counters
        request.progress(Tick(int(nodes), int(backtracks), len(improvements), 0, 0))
    best = [improvements[-1].words] if improvements else []
    return Result(
        cast(Status, status),
        best,
        len(best),
        int(nodes),
        int(backtracks),
        improvements,
        None if bound == "none" else int(bound),
    )


def preload(strategy: str, words: Sequence[str], scores: Sequence[int] | None) -> None:
    """Send what `strategy` reads from one search to the next (its
    dictionary, or its words ranked by their `scores`: Strategy.reads) to
    Prolog now, if it does not hold it yet, so that the first search is not
    charged for it (bench and make do this before timing a fill). Nothing
    for a strategy that reads the listed words."""
    reads = registry.strategy(strategy).reads
    if reads == "dictionary":
        load_dictionary(words, scores)
    elif reads == "ranked":
        load_ranked(words, scores)


def load_ranked(words: Sequence[str], scores: Sequence[int] | None) -> None:
    """Send the ranked dictionary (`words` ranked by their `scores`,
    integers as pybridge.scores makes them) and the scores to Prolog now, if
    it does not hold them yet."""
    listed = tuple(words)
    values = (0,) * len(listed) if scores is None else tuple(scores)
    with session.lock, session.engine_errors():
        session.attach_thread()
        _ranked(session.engine(), listed, values)


def _strategy_term(prolog: Any, strategy: Strategy, request: Request) -> tuple[str, Sequence[str]]:
    """The strategy as crossword:solve/8 and improve/8 take it, and the
    words to send with the search, as Strategy.reads says: the name and the
    listed words; or Name(Key) for a dictionary, sent first if this Prolog
    thread does not hold it (Name(Key, ScoreKey) with scores: they break its
    ties), or Name(Key, ScoreKey) for the words ranked by score, and no
    words with the search."""
    if strategy.reads == "listed":
        return strategy.name, request.words
    if strategy.reads == "ranked":
        return _ranked(prolog, *valued.listed(request), name=strategy.name), ()
    key = _dictionary(prolog, request.words)
    if request.scores is None and request.weights is None:
        return f"{strategy.name}({key})", ()
    scores = request.scores or (0,) * len(request.words)  # none: every word 0, the same order
    score_key = _scores(prolog, tuple(request.words), tuple(scores))
    if request.weights is None or strategy.family != "wdeg":
        return f"{strategy.name}({key}, {score_key})", ()
    return f"{strategy.name}({key}, {score_key}, {_weights(prolog, request.weights)})", ()


def _weights(prolog: Any, weights: tuple[int, ...]) -> int:
    """The key under which wdeg.pl keeps `weights` as a search's start
    weights (wdeg:load_weights/2), sending them first if this thread does
    not hold them."""
    key = wire.integers_key(weights)
    if not list(prolog.query(f"kernel:remembered(wdeg_weights, {key})", maxresult=1)):
        ffi.once(b"wdeg", b"load_weights", [str(key)], [list(weights)])
    return key


def _ranked(
    prolog: Any, words: tuple[str, ...], scores: tuple[int, ...], name: str = "valued"
) -> str:
    """Name(Key, ScoreKey): the words ranked by score and the scores, sent
    to Prolog first if this thread does not hold them yet."""
    ranked, ranked_scores, _ = valued.ranked(words, scores)
    return f"{name}({_dictionary(prolog, ranked)}, {_scores(prolog, ranked, ranked_scores)})"


def _scores(prolog: Any, words: tuple[str, ...], scores: tuple[int, ...]) -> int:
    """The key under which kernel.pl keeps the scores of the dictionary
    `words` (`scores`: one per word), loading them first if this thread
    does not have them yet."""
    score_key, text = wire.scores_text(words, scores)
    if not list(prolog.query(f"kernel:scores_loaded({score_key})", maxresult=1)):
        ffi.once(b"kernel", b"load_scores_text", [str(score_key)], [text])
    return score_key


def _dictionary(prolog: Any, words: Sequence[str]) -> int:
    """The key of `words` as arcs.pl keeps them, loading them first if this
    Prolog thread does not have them yet (the tables go over once, not per grid)."""
    key = wire.dictionary_key(words)
    session.load_module("arcs")
    if not list(prolog.query(f"arcs:dictionary_loaded({key})", maxresult=1)):
        masks: list[int] | None = None if ffi.whole_integers() is None else []  # None: hex text
        text = wire.dictionary_text(words, masks)
        texts: list[str | list[int] | None] = [text] if masks is None else [text, masks]
        ffi.once(b"arcs", b"load_dictionary_text", [str(key)], texts)
    return key


KERNEL_FORM = "Prolog revision in C"  # revision_form() when arcs.pl's C kernel runs


def revision_form() -> str:
    """Which form revises in the Prolog engine (arcs:kernel_form/1), in a
    few words: KERNEL_FORM, or "Prolog revision in Prolog" and why."""
    with session.lock, session.engine_errors():
        session.attach_thread()
        prolog = session.engine()
        session.load_module("arcs")
        if list(prolog.query("arcs:kernel_form(c)", maxresult=1)):
            return KERNEL_FORM
        [answer] = list(prolog.query("arcs:kernel_form(prolog(Why))", maxresult=1))
        return f"Prolog revision in Prolog ({ffi.text(str(answer['Why']))})"


def load_dictionary(words: Sequence[str], scores: Sequence[int] | None = None) -> None:
    """Send `words` (and their `scores`, integers as pybridge.scores makes
    them) to arcs.pl now, if it does not hold them yet, so that the first
    wdeg search with them is not charged for it (bench does this)."""
    with session.lock, session.engine_errors():
        session.attach_thread()
        prolog = session.engine()
        _dictionary(prolog, words)
        if scores is not None:
            _scores(prolog, tuple(words), tuple(scores))


def call(
    module: str, name: str, controls: Sequence[str], texts: Sequence[str], timeout: float | None
) -> str | None:
    """module:name(Controls..., TimeLimit, Texts..., Answer) for the engine's
    other entry points (wordsearch.pl): the controls are terms we write
    ourselves, TimeLimit the seconds left of `timeout` once the engine is
    ours (or none), the texts go as strings, never read as terms; the string
    Answer is returned. None when the engine was not free within `timeout`."""
    started = time.perf_counter()
    if not session.lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return None
    try:
        with session.engine_errors():
            session.load_module(module)
        with session.engine_errors(), session.interrupts_stop_prolog():
            session.attach_thread()
            if timeout is not None:
                timeout -= time.perf_counter() - started
                if timeout <= 0:
                    return None
                timeout = max(timeout, MIN_TIME_LIMIT)
            arguments = [*controls, wire.time_limit(timeout)]
            return ffi.once(module.encode(), name.encode(), arguments, [*texts, None])
    finally:
        session.lock.release()


def call_wdeg(
    module: str, name: str, request: Request, controls: Sequence[str], timeout: float | None
) -> str | None:
    """module:name(Strategy, Controls..., TimeLimit, SitesText, GivensText,
    Answer) for an entry point that searches as wdeg does (prolog/cubes.pl):
    Strategy is wdeg(Key) or wdeg(Key, ScoreKey), the request's dictionary
    (and scores) sent first if this thread does not have them; the layout
    goes as solve/8's texts. None when the engine was not free within
    `timeout`."""
    started = time.perf_counter()
    layout = request.layout
    texts = [wire.sites_text(layout.cells), wire.givens_text(layout.givens)]
    if not session.lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return None
    try:
        wdeg = registry.strategy("wdeg")
        with session.engine_errors():
            prolog = session.engine()
            session.load_module(wdeg.family)
            session.load_module(module)
        with session.engine_errors(), session.interrupts_stop_prolog():
            session.attach_thread()
            strategy, _ = _strategy_term(prolog, wdeg, request)
            if timeout is not None:
                timeout -= time.perf_counter() - started
                if timeout <= 0:
                    return None
                timeout = max(timeout, MIN_TIME_LIMIT)
            arguments = [strategy, *controls, wire.time_limit(timeout)]
            return ffi.once(module.encode(), name.encode(), arguments, [*texts, None])
    finally:
        session.lock.release()


@contextmanager
def watching(watch: Watch | None) -> Iterator[None]:
    """Within this block, searches are watched by `watch` (None: not at
    all, which costs nothing): kernel:watch/2 in this Prolog thread."""
    if watch is None:
        yield
        return
    # through ffi.once, which turns Ctrl-C landing here into KeyboardInterrupt
    ffi.once(b"kernel", b"watch", [repr(TICK_SECONDS), f"kernel:{session.WATCHER}"], [])
    session.watched_by(watch)
    try:
        yield
    finally:
        session.watched_by(None)
        ffi.once(b"kernel", b"unwatch", [], [])


def strategies() -> list[str]:
    """The strategies crossword.pl knows (its strategies/1), in its order."""
    with session.lock, session.engine_errors():
        session.attach_thread()
        answer = list(session.engine().query("crossword:strategies(Names)", maxresult=1))
    return [str(name) for name in answer[0]["Names"]] if answer else []
