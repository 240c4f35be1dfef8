"""The Prolog engine: the one door to SWI-Prolog (via pyswip), taking the
same Request and giving the same Result as the Python engine
(pybridge.search.engine).

Only terms we write ourselves (integers, fixed atoms) are read as Prolog
text; the puzzle crosses as three Prolog strings made through the foreign
interface (see crossword:solve/8), and a dictionary for wdeg and valued as
one more, with its masks beside it as a list of integers put whole through GMP
(arcs:load_dictionary_text/3, once per process), so no puzzle text is ever
read as Prolog source, and one call loads, searches and forgets the puzzle. pyswip
is imported on first use, so `import pybridge` never loads libswipl. pyswip
cannot serve two threads at once; a lock makes callers take turns.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import os
import resource
import signal
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from functools import lru_cache
from typing import Any, cast

from pybridge.bitsets import line_joined, table_scores, tables
from pybridge.errors import EngineError, MissingDependency, ResourceLimit, UsageError
from pybridge.model import Cell
from pybridge.resources import prolog_path
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

INSTALL_HINT = (
    "SWI-Prolog is needed for --engine prolog: install it with "
    "'apt-get install swi-prolog-nox' (or run ./setup.sh), or use --engine python"
)

MASK_CHUNK = 1024  # bits per piece of a big mask sent to arcs.pl (see _mask)
_lock = threading.Lock()
_prolog: Any = None


def _engine() -> Any:
    """The Prolog instance with crossword.pl loaded; raises MissingDependency."""
    global _prolog
    if _prolog is None:
        try:
            from pyswip import Prolog
        except Exception as exc:  # pyswip raises several kinds when libswipl is absent
            raise MissingDependency(f"{INSTALL_HINT} ({exc})") from None
        prolog = Prolog()
        with _engine_errors():
            prolog.consult(str(prolog_path("crossword.pl")), catcherrors=True)
            # Ctrl-C stops a search: see _interrupts_stop_prolog. on_signal/3 also
            # takes SIGINT from the operating system, signals off or not. Where
            # SIGINT had its default action (the CLI's: Ctrl-C ends the process
            # at once), that action is put back: else a Ctrl-C would end the CLI
            # through Prolog's handler, or wait for a query while none runs.
            default_action = signal.getsignal(signal.SIGINT) is signal.SIG_DFL
            list(prolog.query("on_signal(int, _, crossword:interrupt_search)", catcherrors=True))
            if default_action and threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, signal.SIG_DFL)
            limit = _stack_limit()
            list(prolog.query(f"set_prolog_flag(stack_limit, {limit})", catcherrors=True))
            Prolog.register_foreign(_tick, WATCHER, 5, module="kernel")  # see _watching
        _prolog = prolog
    return _prolog


@contextmanager
def _engine_errors() -> Iterator[None]:
    """pyswip's PrologError as this package's EngineError, so that no pyswip
    exception reaches a caller."""
    try:
        yield
    except Exception as exc:
        if type(exc).__module__.startswith("pyswip"):  # PrologError and its like
            text = str(exc)
            if len(text) > ERROR_TEXT_MAX:
                text = text[: ERROR_TEXT_MAX - 3] + "..."
            raise EngineError(f"the Prolog engine failed: {text}") from None
        raise


def available() -> bool:
    """True when SWI-Prolog can be loaded (loads it as a side effect)."""
    try:
        _engine()
    except MissingDependency:
        return False
    return True


CELL_BASE = 256  # a coordinate n travels as the character U+(256 + n); see solve/8
_MAX_COORDINATE = 0xD800 - CELL_BASE - 1  # the surrogates are no characters


def _lines(words: Sequence[str]) -> str:
    """The words joined by line breaks; a ValueError if a word holds one."""
    joined = line_joined(words)
    if joined is None:
        broken = next(word for word in words if "\n" in word)
        raise ValueError(f"a word cannot hold a line break: {broken!r}")
    return joined


def _words_text(words: Sequence[str]) -> str:
    """One word per line."""
    return _lines(words) + "\n" if words else ""


def _end_to_end(words: Sequence[str]) -> str:
    """Words of one length on one line, with nothing between them."""
    return _lines(words).replace("\n", "")


class _CellTexts(dict[Cell, str]):
    """Each cell's two characters, made once: the same cells come again and
    again, and a plain dict lookup costs half an lru_cache call."""

    def __missing__(self, cell: Cell) -> str:
        r, c = cell
        if not (0 <= r <= _MAX_COORDINATE and 0 <= c <= _MAX_COORDINATE):
            raise UsageError(
                f"the Prolog engine takes rows and columns up to {_MAX_COORDINATE:,}"
                f" (counted from 0; this puzzle has cell {r},{c}): use --engine python"
            )
        if len(self) >= 1 << 16:  # bounded, as the cells of huge grids could be many
            self.clear()
        text = self[cell] = chr(CELL_BASE + r) + chr(CELL_BASE + c)
        return text


_cell_text = _CellTexts().__getitem__


def _sites_text(sites: Sequence[Sequence[Cell]]) -> str:
    return "".join(["".join(map(_cell_text, cells)) + "\n" for cells in sites])


def _givens_text(givens: Mapping[Cell, str]) -> str:
    return "".join(_cell_text(cell) + ch for cell, ch in givens.items())


def _mode(limit: int | None, count: bool) -> str:
    if count:
        return "count"
    return "all" if limit is None else f"first({int(limit)})"


def _seed(seed: int | None) -> str:
    return "none" if seed is None else str(int(seed))


def _time_limit(timeout: float | None) -> str:
    return "none" if timeout is None else repr(float(timeout))


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
    texts = [_sites_text(sites), _givens_text(layout.givens)]  # UsageError before the lock
    timeout = request.timeout
    if not _lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return Result("timeout", [], 0, 0, 0)
    try:
        with _engine_errors():
            prolog = _engine()
        # watching outside: an interrupt still pending when the search has
        # returned is then taken inside unwatch's query, not in the open
        with _engine_errors(), _watching(request.progress), _interrupts_stop_prolog():
            _attach_thread()
            strategy, listed = _strategy_term(prolog, chosen, request)
            words = _words_text(listed)  # before the clock is read: it takes a while
            if timeout is not None:
                timeout -= time.perf_counter() - started
                if timeout <= 0:
                    return Result("timeout", [], 0, 0, 0)
                timeout = max(timeout, MIN_TIME_LIMIT)
            controls = [
                strategy,
                _seed(request.seed),
                _mode(request.limit, request.count),
                _time_limit(timeout),
            ]
            answer = _call(b"crossword", b"solve", controls, [words, *texts, None])
    finally:
        _lock.release()
    head, *lines = answer.split("\n")
    status, n, nodes, backtracks = head.split()
    if status not in ("solved", "unsolvable", "timeout"):
        raise EngineError(f"the Prolog engine answered {head!r}")
    lengths = [len(cells) for cells in sites]
    return Result(
        status=cast(Status, status),
        solutions=[_split(joined, lengths) for joined in lines[:-1]],
        count=int(n),
        nodes=int(nodes),
        backtracks=int(backtracks),
    )


def _optimise(request: Request) -> Result:
    """The valued search for the best fill, with crossword:improve/7: each
    better fill is a solution of the query, read (and reported) as it
    comes; the last says how the search ended. The time limit is kept by
    the search itself, which reads the clock at every node."""
    started = time.perf_counter()
    chosen = registry.check(request.strategy, seed=request.seed)
    layout = request.layout
    lengths = [len(cells) for cells in layout.cells]
    texts: list[str | list[int] | None] = [
        _sites_text(layout.cells),
        _givens_text(layout.givens),
        None,
    ]
    timeout = request.timeout
    if not _lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return Result("timeout", [], 0, 0, 0)
    improvements: list[Improvement] = []
    try:
        with _engine_errors():
            prolog = _engine()
        with _engine_errors(), _interrupts_stop_prolog():
            _attach_thread()
            strategy, _ = _strategy_term(prolog, chosen, request)
            if timeout is not None:
                timeout = max(timeout - (time.perf_counter() - started), MIN_TIME_LIMIT)
            cap = valued.cap(request)
            controls = [
                strategy,
                str(request.objective),
                "none" if cap is None else str(cap),
                _time_limit(timeout),
            ]
            for line in _solutions(b"crossword", b"improve", controls, texts):
                kind, _, rest = line.partition(" ")
                if kind != "better":
                    end = rest.split()
                    break
                value, nodes, _, fill = rest.split(" ", 3)
                seconds = time.perf_counter() - started
                better = Improvement(int(value), int(nodes), seconds, _split(fill, lengths))
                improvements.append(better)
                if request.report is not None:
                    request.report(better)
            else:
                raise EngineError("the Prolog engine ended the valued search without a verdict")
    finally:
        _lock.release()
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
    with _lock, _engine_errors():
        _attach_thread()
        _ranked(_engine(), listed, values)


def _strategy_term(prolog: Any, strategy: Strategy, request: Request) -> tuple[str, Sequence[str]]:
    """The strategy as crossword:solve/8 and improve/7 take it, and the
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
    if request.scores is None:
        return f"{strategy.name}({key})", ()
    score_key = _scores(prolog, tuple(request.words), tuple(request.scores))
    return f"{strategy.name}({key}, {score_key})", ()


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
    score_key, text = _scores_text(words, scores)
    if not list(prolog.query(f"kernel:scores_loaded({score_key})", maxresult=1)):
        _call(b"kernel", b"load_scores_text", [str(score_key)], [text])
    return score_key


@lru_cache(maxsize=4)
def _scores_text(words: tuple[str, ...], scores: tuple[int, ...]) -> tuple[int, str]:
    """kernel:load_scores_text/2's text for the dictionary `words`, whose
    scores are `scores` (one per word; a word listed twice has the score
    of its first listing): per length, the scores of its words in table
    order. And a key for them."""
    lines = []
    for n, values in table_scores(words, scores).items():
        lines.append(f"{n} {len(values)}\n")
        lines.append(" ".join(map(str, values)) + "\n")
    text = "".join(lines)
    digest = hashlib.blake2b(text.encode("ascii"), digest_size=8).digest()
    return int.from_bytes(digest, "little") ^ dictionary_key(words), text


def call(
    module: str, name: str, controls: Sequence[str], texts: Sequence[str], timeout: float | None
) -> str | None:
    """module:name(Controls..., TimeLimit, Texts..., Answer) for the engine's
    other entry points (wordsearch.pl): the controls are terms we write
    ourselves, TimeLimit the seconds left of `timeout` once the engine is
    ours (or none), the texts go as strings, never read as terms; the string
    Answer is returned. None when the engine was not free within `timeout`."""
    started = time.perf_counter()
    if not _lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return None
    try:
        with _engine_errors():
            _engine()
        with _engine_errors(), _interrupts_stop_prolog():
            _attach_thread()
            if timeout is not None:
                timeout -= time.perf_counter() - started
                if timeout <= 0:
                    return None
                timeout = max(timeout, MIN_TIME_LIMIT)
            arguments = [*controls, _time_limit(timeout)]
            return _call(module.encode(), name.encode(), arguments, [*texts, None])
    finally:
        _lock.release()


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
    texts = [_sites_text(layout.cells), _givens_text(layout.givens)]
    if not _lock.acquire(timeout=-1 if timeout is None else max(timeout, 0.0)):
        return None
    try:
        with _engine_errors():
            prolog = _engine()
        with _engine_errors(), _interrupts_stop_prolog():
            _attach_thread()
            strategy, _ = _strategy_term(prolog, registry.strategy("wdeg"), request)
            if timeout is not None:
                timeout -= time.perf_counter() - started
                if timeout <= 0:
                    return None
                timeout = max(timeout, MIN_TIME_LIMIT)
            arguments = [strategy, *controls, _time_limit(timeout)]
            return _call(module.encode(), name.encode(), arguments, [*texts, None])
    finally:
        _lock.release()


# ---------------------------------------------------------------- progress

WATCHER = "python_watcher"  # the foreign predicate kernel:watch/2 is given
_watcher: Watch | None = None  # whom _tick tells: the request searched now


def _tick(nodes: int, backtracks: int, solutions: int, restarts: int, deepest: int) -> bool:
    """kernel:python_watcher/5, called by the alarm of kernel:limited/2 in
    the middle of a search: pass the counters on (a display that fails does
    not stop the search)."""
    watch = _watcher
    if watch is not None:
        with suppress(Exception):
            watch(Tick(int(nodes), int(backtracks), int(solutions), int(restarts), int(deepest)))
    return True


@contextmanager
def _watching(watch: Watch | None) -> Iterator[None]:
    """Within this block, searches are watched by `watch` (None: not at
    all, which costs nothing): kernel:watch/2 in this Prolog thread."""
    global _watcher
    if watch is None:
        yield
        return
    # through _call, which turns Ctrl-C landing here into KeyboardInterrupt
    _call(b"kernel", b"watch", [repr(TICK_SECONDS), f"kernel:{WATCHER}"], [])
    _watcher = watch
    try:
        yield
    finally:
        _watcher = None
        _call(b"kernel", b"unwatch", [], [])


class _Detach:
    """Kept in a thread's local data by _attach_thread: dropped when the
    thread ends, in that thread, it destroys the Prolog engine pyswip
    attached to it. Else SWI-Prolog, at exit, finds Prolog threads whose
    threads are gone and prints "Failed to stop Prolog threads"."""

    def __del__(self) -> None:
        from pyswip import core

        if core.PL_thread_self() > 1:  # 1: the thread that started Prolog
            core._lib.PL_thread_destroy_engine()


_attached = threading.local()


def _attach_thread() -> None:
    """Have this thread's Prolog engine destroyed when the thread ends (not
    the main thread's: SWI-Prolog's own, ended by pyswip at exit). When
    Prolog was started from another thread than the main one, that thread
    is Prolog's main thread and the warning stays: start the engine from
    the main thread (available() does) before searching from threads."""
    if threading.current_thread() is not threading.main_thread() and not hasattr(
        _attached, "detach"
    ):
        _attached.detach = _Detach()


def strategies() -> list[str]:
    """The strategies crossword.pl knows (its strategies/1), in its order."""
    with _lock, _engine_errors():
        _attach_thread()
        answer = list(_engine().query("crossword:strategies(Names)", maxresult=1))
    return [str(name) for name in answer[0]["Names"]] if answer else []


def load_dictionary(words: Sequence[str], scores: Sequence[int] | None = None) -> None:
    """Send `words` (and their `scores`, integers as pybridge.scores makes
    them) to arcs.pl now, if it does not hold them yet, so that the first
    wdeg search with them is not charged for it (bench does this)."""
    with _lock, _engine_errors():
        _attach_thread()
        prolog = _engine()
        _dictionary(prolog, words)
        if scores is not None:
            _scores(prolog, tuple(words), tuple(scores))


def _dictionary(prolog: Any, words: Sequence[str]) -> int:
    """The key of `words` as arcs.pl keeps them, loading them first if this
    Prolog thread does not have them yet (the tables go over once, not per grid)."""
    key = dictionary_key(words)
    if not list(prolog.query(f"arcs:dictionary_loaded({key})", maxresult=1)):
        masks: list[int] | None = None if _whole_integers() is None else []  # None: hex text
        text = _dictionary_text(words, masks)
        texts: list[str | list[int] | None] = [text] if masks is None else [text, masks]
        _call(b"arcs", b"load_dictionary_text", [str(key)], texts)
    return key


def dictionary_key(words: Sequence[str]) -> int:
    """A 64-bit digest of the word list (order and repeats included)."""
    return _digest(tuple(words))


@lru_cache(maxsize=4)  # a big dictionary takes milliseconds to digest, once per grid
def _digest(words: tuple[str, ...]) -> int:
    joined = line_joined(words)
    if joined is not None:  # the words can be told apart
        count = len(words).to_bytes(8, "little")  # () and ("",) join alike
        data = b"j" + count + joined.encode("utf-8", "surrogatepass")  # 5 times faster
    else:
        data = b"p" + b"".join(
            len(word).to_bytes(4, "little") + word.encode("utf-8", "surrogatepass")
            for word in words
        )
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def _dictionary_text(words: Sequence[str], whole: list[int] | None = None) -> str:
    """The tables as arcs:load_dictionary_text/2,3 take them (see there): a
    string, split by string functions, so no word is read as Prolog source.
    The masks are appended to `whole` when given (to be put as integers,
    in the order of their letters in the text), else written in hex."""
    lines = []
    for n, table in tables(tuple(words)).items():
        lines.append(f"{n} {len(table.words)}\n{_end_to_end(table.words)}\n")
        every_once = all(c == 1 for c in table.copies)
        lines.append("\n" if every_once else " ".join(map(str, table.copies)) + "\n")
        for position in table.masks:
            if whole is None:
                pairs = (f"{ord(c)}={_mask(m)}" for c, m in position.items())
            else:
                pairs = (str(ord(c)) for c in position)
                whole.extend(position.values())
            lines.append(" ".join(pairs) + "\n")
    return "".join(lines)


def _mask(mask: int) -> str:
    """A bitset as hex pieces of MASK_CHUNK bits, most significant first:
    Prolog takes time quadratic in the digits of one number."""
    low = (1 << MASK_CHUNK) - 1
    pieces = [f"0x{mask & low:x}"]
    while mask := mask >> MASK_CHUNK:
        pieces.append(f"0x{mask & low:x}")
    return ",".join(reversed(pieces))


class _Mpz(ctypes.Structure):
    """GMP's mpz_t, the integer that PL_unify_mpz copies from."""

    _fields_ = [("alloc", ctypes.c_int), ("size", ctypes.c_int), ("limbs", ctypes.c_void_p)]


LIMB_BYTES = 8


@lru_cache(maxsize=1)
def _whole_integers() -> tuple[Any, Any] | None:
    """SWI-Prolog's PL_unify_mpz and PL_cons_list (with the int results
    pyswip's own bindings drop), when libswipl has PL_unify_mpz (it is built
    with GMP, as Debian's is) and GMP's limbs are 64 bits; else None.  They
    put a mask in time linear in its bits, where the text path parses hex."""
    from pyswip import core

    gmp = ctypes.util.find_library("gmp")
    try:
        unify, cons = core._lib["PL_unify_mpz"], core._lib["PL_cons_list"]
        bits = ctypes.c_int.in_dll(ctypes.CDLL(gmp), "__gmp_bits_per_limb").value if gmp else 0
    except (AttributeError, OSError, ValueError):
        return None
    if bits != 8 * LIMB_BYTES:
        return None
    unify.argtypes = [core.term_t, ctypes.POINTER(_Mpz)]
    cons.argtypes = [core.term_t, core.term_t, core.term_t]
    unify.restype = cons.restype = ctypes.c_int
    return unify, cons


def _put_integers(term: int, numbers: Sequence[int]) -> None:
    """Put the list of the nonnegative `numbers` in `term`, big ones whole
    (only when _whole_integers() is not None)."""
    from pyswip import core

    functions = _whole_integers()
    if functions is None:
        raise RuntimeError("this SWI-Prolog cannot take integers whole: send them as text")
    unify, cons = functions
    bits = 8 * LIMB_BYTES
    pieces = [n.to_bytes(-(-n.bit_length() // bits) * LIMB_BYTES, "little") for n in numbers]
    limbs = ctypes.create_string_buffer(b"".join(pieces))  # one buffer, GMP reads from inside
    end = ctypes.addressof(limbs) + sum(map(len, pieces))
    mpz, head = _Mpz(), core.PL_new_term_ref()
    core.PL_put_nil(term)
    for piece in reversed(pieces):  # the list is built from its last element
        end -= len(piece)
        mpz.alloc = mpz.size = len(piece) // LIMB_BYTES
        mpz.limbs = end
        core.PL_put_variable(head)
        if not unify(head, ctypes.byref(mpz)) or not cons(term, head, term):
            raise MemoryError("SWI-Prolog could not take a mask")


@contextmanager
def _opened(
    module: bytes, name: bytes, controls: list[str], texts: list[str | list[int] | None]
) -> Iterator[tuple[int, int, int]]:
    """The query module:name(Controls..., Texts...) opened through
    SWI-Prolog's foreign interface, as (query, args, arity): the controls
    are terms we write ourselves, each text is put as a string object,
    never read as a term (pyswip's query would read the whole goal as
    text), or as a list of integers; a None text is an output. The query
    is cut and its frame discarded on the way out."""
    from pyswip import core
    from pyswip.prolog import Prolog

    Prolog._init_prolog_thread()
    frame = core.PL_open_foreign_frame()
    try:
        arity = len(controls) + len(texts)
        args = core.PL_new_term_refs(arity)
        for k, term in enumerate(controls):
            if not core.PL_chars_to_term(term, args + k):
                raise ValueError(f"not a term: {term!r}")
        for k, text in enumerate(texts, start=len(controls)):
            if isinstance(text, list):
                _put_integers(args + k, text)
            elif text is not None:
                data = text.encode("utf-8")
                core.PL_put_chars(args + k, core.PL_STRING | core.REP_UTF8, len(data), data)
        predicate = core.PL_predicate(name, arity, module)
        flags = core.PL_Q_NODEBUG | core.PL_Q_CATCH_EXCEPTION
        query = core.PL_open_query(None, flags, predicate, args)
        try:
            yield query, args, arity
        finally:
            core.PL_cut_query(query)
            _interrupt.drain()
    finally:
        core.PL_discard_foreign_frame(frame)


def _call(
    module: bytes, name: bytes, controls: list[str], texts: list[str | list[int] | None]
) -> str:
    """module:name(Controls..., Texts...) once (see _opened): the last
    text's string when it is an output (None), else ""."""
    from pyswip import core
    from pyswip.easy import getString

    with _opened(module, name, controls, texts) as (query, args, arity):
        if not _next_solution(query):
            _raise_failure(core.PL_exception(query), module, name, arity)
        return _text(getString(args + arity - 1)) if texts and texts[-1] is None else ""


def _solutions(
    module: bytes, name: bytes, controls: list[str], texts: list[str | list[int] | None]
) -> Iterator[str]:
    """The last text's string (an output) at each solution of
    module:name(Controls..., Texts...) (see _opened), as they come."""
    from pyswip import core
    from pyswip.easy import getString

    with _opened(module, name, controls, texts) as (query, args, arity):
        while _next_solution(query):
            yield _text(getString(args + arity - 1))
        error = core.PL_exception(query)
        if error:
            _raise_failure(error, module, name, arity)


def _next_solution(query: int) -> bool:
    """PL_next_solution, with Ctrl-C let into Prolog while it runs (see
    _Interrupt): KeyboardInterrupt if Ctrl-C came already."""
    from pyswip import core

    _interrupt.enter_query()
    try:
        return bool(core.PL_next_solution(query))
    finally:
        _interrupt.leave_query()


def _raise_failure(error: int, module: bytes, name: bytes, arity: int) -> None:
    """Why a query failed, raised: KeyboardInterrupt when Ctrl-C stopped it
    (see _interrupts_stop_prolog), ResourceLimit when Prolog ran out of
    memory, else PrologError."""
    from pyswip.prolog import PrologError

    if _is_atom(error, b"crossword_interrupted"):
        raise KeyboardInterrupt
    text = _error_text(error)
    if text.startswith("resource_error("):
        raise ResourceLimit(
            f"the Prolog engine ran out of memory on this puzzle ({text}; its "
            f"stack limit is {_stack_limit() >> 20:,} MiB): use --engine python"
        )
    goal = f"{module.decode()}:{name.decode()}/{arity}"
    raise PrologError(f"{goal} failed: {text}")


def _is_atom(term: int, name: bytes) -> bool:
    from pyswip import core

    atom = core.atom_t()
    return (
        bool(term)
        and bool(core.PL_get_atom(term, ctypes.byref(atom)))
        and (core.PL_atom_chars(atom) == name)
    )


@contextmanager
def _interrupts_stop_prolog() -> Iterator[None]:
    """Let Ctrl-C stop a Prolog search at once, in the main thread.

    A search runs inside one C call, and Python runs its SIGINT handler
    only once that call returns: a KeyboardInterrupt would wait for the
    search to end. Meanwhile Python's own signal handler still writes the
    signal's number to the wakeup file descriptor, so a watcher thread
    reading it raises int in the Prolog thread (PL_thread_raise), whose
    handler (crossword:interrupt_search/1) throws; the query then raises
    KeyboardInterrupt (see _call). Python's handler is swapped for one that
    notes the signal meanwhile, so that no KeyboardInterrupt lands between
    opening and closing the query; one noted is raised on the way out.
    Nothing is done off the main thread, where Python takes no signals,
    nor where SIGINT is not Python's to handle, nor where another wakeup
    descriptor is set (an event loop's)."""
    if threading.current_thread() is not threading.main_thread() or not callable(
        signal.getsignal(signal.SIGINT)
    ):
        yield
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    if signal.set_wakeup_fd(write_end, warn_on_full_buffer=False) != -1:
        signal.set_wakeup_fd(-1)  # it was not ours to take; put nothing back but its absence
        os.close(read_end)
        os.close(write_end)
        yield
        return
    noted: list[int] = []
    handler = signal.signal(signal.SIGINT, lambda number, frame: noted.append(number))
    _interrupt.start(_prolog_thread())
    watcher = threading.Thread(target=_watch, args=(read_end,), daemon=True)
    watcher.start()
    failed = True
    try:
        yield
        failed = False
    finally:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGINT, handler)
        os.close(write_end)  # the watcher reads the end of the file and stops
        watcher.join()
        os.close(read_end)
        _interrupt.stop()
    if noted and not failed:
        raise KeyboardInterrupt


class _Interrupt:
    """Whether Ctrl-C was pressed during an _interrupts_stop_prolog block,
    and whether a query is open to take it. int is raised in Prolog only
    while a query is open (a signal taken outside one, while a term is
    read, would go unhandled); one that comes before the query opens stops
    it from running, and one raised just as the query returned is drained
    (taken and dropped) once the query is closed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.thread: int | None = None  # Prolog's thread, while a block runs
        self.requested = False
        self.querying = False

    def start(self, thread: int) -> None:
        with self._lock:
            self.thread, self.requested, self.querying = thread, False, False

    def stop(self) -> None:
        with self._lock:
            self.thread = None

    def press(self) -> None:
        """Ctrl-C (from the watcher thread)."""
        from pyswip import core

        with self._lock:
            self.requested = True
            if self.querying and self.thread is not None:
                core._lib.PL_thread_raise(ctypes.c_int(self.thread), ctypes.c_int(signal.SIGINT))

    def enter_query(self) -> None:
        with self._lock:
            if self.requested and self.thread is not None:
                raise KeyboardInterrupt
            self.querying = True

    def leave_query(self) -> None:
        with self._lock:
            self.querying = False

    def drain(self) -> None:
        """Take a pending int (raised as the query returned) and drop the
        exception its handler throws."""
        from pyswip import core

        if self.requested and core._lib.PL_handle_signals() < 0:
            core._lib.PL_clear_exception()


_interrupt = _Interrupt()


def _prolog_thread() -> int:
    from pyswip import core

    return int(core._lib.PL_thread_self())


def _watch(read_end: int) -> None:
    """Tell _interrupt of each SIGINT read, until the end of the file."""
    while True:
        try:
            numbers = os.read(read_end, 64)
        except OSError:
            return
        if not numbers:
            return
        if signal.SIGINT in numbers:
            _interrupt.press()


ERROR_TEXT_MAX = 300  # characters of a Prolog exception kept in an EngineError
STACK_SHARE = 4  # Prolog's stacks may take a quarter of the machine's memory
MIN_STACK_LIMIT = 1 << 30  # SWI-Prolog's own default: never less


@lru_cache(maxsize=1)
def _stack_limit() -> int:
    """The bytes SWI-Prolog's stacks may take: a share of the physical
    memory (the default of 1 GiB overflows on a wdeg search of 3,000 sites,
    whose state holds every site's domain at every level)."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return MIN_STACK_LIMIT
    limit = max(MIN_STACK_LIMIT, memory // STACK_SHARE)
    # a process whose address space is limited (a server's worker) keeps
    # half of it for its stacks: past that, a resource error, not a crash
    room, _ = resource.getrlimit(resource.RLIMIT_AS)
    return limit if room == resource.RLIM_INFINITY else min(limit, room // 2)


def _error_text(error: int) -> str:
    """The exception term `error` as Prolog writes it (error(Formal, _):
    Formal alone, as the context can be a huge term, such as the stack of
    a resource error), cut to ERROR_TEXT_MAX characters."""
    from pyswip import core

    if not error:
        return "no exception"
    term = error
    name, arity = core.atom_t(), ctypes.c_int()
    if core.PL_get_name_arity(error, ctypes.byref(name), ctypes.byref(arity)) and arity.value == 2:
        formal = core.PL_new_term_ref()
        if core.PL_atom_chars(name) == b"error" and core.PL_get_arg(1, error, formal):
            term = formal
    chars = ctypes.c_char_p()
    flags = core.CVT_WRITEQ | core.BUF_DISCARDABLE | core.REP_UTF8
    if not core._lib.PL_get_chars(term, ctypes.byref(chars), flags) or chars.value is None:
        return "an exception that cannot be written"
    text = chars.value.decode("utf-8", "replace")
    return text if len(text) <= ERROR_TEXT_MAX else text[: ERROR_TEXT_MAX - 3] + "..."


def _text(value: bytes | str) -> str:
    """pyswip hands SWI strings over as UTF-8 bytes."""
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _split(joined: str, lengths: Sequence[int]) -> list[str]:
    """The words of a solution, from their concatenation in site order."""
    words, start = [], 0
    for n in lengths:
        words.append(joined[start : start + n])
        start += n
    return words
