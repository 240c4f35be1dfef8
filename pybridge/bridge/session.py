"""The session with SWI-Prolog: the one engine of the process, started on
first use (pyswip is imported then, so `import pybridge` never loads
libswipl) with crossword.pl loaded, its stack limit and Ctrl-C handler;
the lock that makes callers take turns (pyswip cannot serve two threads at
once); the threads that attach to it; the interrupts that stop a search
under way; and whom the engine tells of a search's progress.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import Any

from pybridge.errors import EngineError, MissingDependency
from pybridge.resources import prolog_path
from pybridge.search.kernel import Tick, Watch

INSTALL_HINT = (
    "SWI-Prolog is needed for --engine prolog: install it with "
    "'apt-get install swi-prolog-nox' (or run ./setup.sh), or use --engine python"
)


ERROR_TEXT_MAX = 300  # characters of a Prolog exception kept in an EngineError


STACK_SHARE = 4  # Prolog's stacks may take a quarter of the machine's memory


# A search of at least BIG_SEARCH sites has its stacks sized for it (see
# sized_stacks); smaller ones keep the engine's settings untouched.
BIG_SEARCH = 500
BIG_STACK_SHARE = 2  # the most a big search's stacks may take: half the memory
LOCAL_CELLS_PER_SITE = 64  # local stack kept free per site (a level takes ~13 cells)
BIG_GC_FACTOR = 1  # collect once the global stack is full (SWI-Prolog's default: 3x the live)


MIN_STACK_LIMIT = 1 << 30  # SWI-Prolog's own default: never less


lock = threading.Lock()


_prolog: Any = None


def engine() -> Any:
    """The Prolog instance with crossword.pl loaded; raises MissingDependency."""
    global _prolog
    if _prolog is None:
        remembered = _remembered_location()
        started = _start_from_the_state(remembered or _given_location())
        try:
            with _told(remembered):
                from pyswip import Prolog  # starts Prolog, unless it runs already
        except Exception as exc:  # pyswip raises several kinds when libswipl is absent
            raise MissingDependency(f"{INSTALL_HINT} ({exc})") from None
        if remembered is None:
            _remember_location()
        _no_cleanup_at_exit()
        prolog = Prolog()
        with engine_errors():
            # named without its extension, as crossword.pl names the modules
            # it loads: SWI-Prolog then loads a module's .qlf (made by
            # setup.sh) while it is newer than the .pl, else the .pl
            # (docs/search.md#the-prolog-files-precompiled)
            if not started:  # else it is loaded already
                prolog.consult(str(prolog_path("crossword")), catcherrors=True)
            # Ctrl-C stops a search: see interrupts_stop_prolog. on_signal/3 also
            # takes SIGINT from the operating system, signals off or not. Where
            # SIGINT had its default action (the CLI's: Ctrl-C ends the process
            # at once) or was ignored (started with nohup, or in the background),
            # that is put back: else a Ctrl-C would end the CLI through Prolog's
            # handler, or wait for a query while none runs, and an ignored one
            # would stop a search (exit 130) or, outside a query, print Prolog's
            # "Unknown message: crossword_interrupted" (issue 39 item 7).
            before = signal.getsignal(signal.SIGINT)
            list(prolog.query("on_signal(int, _, crossword:interrupt_search)", catcherrors=True))
            kept = before in (signal.SIG_DFL, signal.SIG_IGN)
            if kept and threading.current_thread() is threading.main_thread():
                signal.signal(signal.SIGINT, before)
            limit = stack_limit()
            list(prolog.query(f"set_prolog_flag(stack_limit, {limit})", catcherrors=True))
            Prolog.register_foreign(_tick, WATCHER, 5, module="kernel")  # see engine.watching
        _prolog = prolog
    return _prolog


def _no_cleanup_at_exit() -> None:
    """Leave SWI-Prolog to end with the process, without the PL_cleanup that
    pyswip registers with atexit. That cleanup runs library(time)'s, which
    stops the thread that schedules the alarms of our time limits, and it
    could wait forever on a lock that thread still held as it ended: a
    command hung at exit after printing its answer, at 0 CPU (about once in
    20 runs under load; gdb showed PL_cleanup -> time.so ->
    pthread_mutex_lock, the lock's owner a thread that was gone). Nothing of
    ours needs the cleanup: Prolog here does no I/O and holds no file, and
    the operating system frees the rest. It also spares each command the
    cleanup's few milliseconds."""
    import atexit

    from pyswip import core

    atexit.unregister(core.cleanupProlog)


# SWI-Prolog compiles its own libraries that crossword.pl loads (lists,
# apply, error, time, ...) from source at every start: about 0.02 s of
# processor time, most of loading crossword.pl. setup.sh saves the engine
# as it is once crossword.pl is loaded (qsave_program/2: crossword.pl,
# kernel.pl, layout.pl and those libraries; the families load as before when
# first needed), and the engine starts from that state (`-x`) when it is
# newer than every file of prolog/ and was made here, by the very libswipl
# that pyswip loads: its name holds a digest of that library (path, size,
# time), SWI-Prolog's home and the folder prolog/. SWI-Prolog aborts the
# process on a state it cannot read, so one that is not a whole ZIP (it
# ends with the archive's end record) is never given it.
# CROSSWORD_NO_PROLOG_STATE=1 starts without it.
STATE_FORMAT = 1
STATE_OFF = "CROSSWORD_NO_PROLOG_STATE"
_ZIP_END = b"PK\x05\x06"  # a ZIP's end of central directory record
_ZIP_END_BYTES = 22  # its size without a comment (qsave_program writes none)


def engine_state(library: str, home: str) -> Path:
    """Where the engine's saved state for the SWI-Prolog library `library`
    (a path) and its `home` is; OSError if there is no such library."""
    import hashlib

    info = os.stat(library)
    folder = os.path.realpath(prolog_path(""))
    identity = (STATE_FORMAT, os.path.realpath(library), info.st_size, info.st_mtime_ns)
    where = (os.path.realpath(home), folder)
    digest = hashlib.blake2b(repr((*identity, *where)).encode(), digest_size=8)
    return prolog_path(f"crossword-{digest.hexdigest()}.state")


def _given_location() -> dict[str, str] | None:
    """LIBSWIPL_PATH and SWI_HOME_DIR when the environment gives both."""
    given = {name: os.environ.get(name, "") for name in LOCATION_VARIABLES}
    return given if all(given.values()) else None


def _usable_state(library: str, home: str) -> Path | None:
    """The engine's state for the libswipl at `library`, if there is a
    whole one, newer than the files of prolog/ (and it is not switched off)."""
    if os.environ.get(STATE_OFF, "") not in ("", "0"):
        return None
    try:
        state = engine_state(library, home)
        with open(state, "rb") as stream:
            made = os.fstat(stream.fileno()).st_mtime_ns
            stream.seek(-_ZIP_END_BYTES, os.SEEK_END)
            whole = stream.read(len(_ZIP_END)) == _ZIP_END
        sources = os.scandir(state.parent)
        current = all(
            source.stat().st_mtime_ns < made for source in sources if source.name.endswith(".pl")
        )
    except OSError:
        return None
    return state if whole and current else None


_argv: Any = None  # the arguments Prolog was started with: it keeps pointers to them


def _start_from_the_state(location: dict[str, str] | None) -> bool:
    """Start SWI-Prolog from the engine's state, with the arguments pyswip
    gives it and `-x`, when where SWI-Prolog is is known (pyswip then loads
    the same library, finds Prolog started and goes on), there is a usable
    state and Prolog has not started yet (importing pyswip starts it);
    True if it did, else crossword.pl is still to be loaded."""
    global _argv
    if location is None:
        return False
    library, home = (location[name] for name in LOCATION_VARIABLES)
    state = _usable_state(library, home)
    if state is None:
        return False
    swipl = ctypes.CDLL(library, mode=ctypes.RTLD_GLOBAL)  # as pyswip loads it
    if swipl.PL_is_initialised(None, None):  # started already (pyswip was imported)
        return False
    arguments = [b"./", b"-q", b"--nosignals", b"-x", os.fsencode(state)]
    arguments.append(b"--home=" + os.fsencode(home))
    _argv = (ctypes.c_char_p * len(arguments))(*arguments)
    if not swipl.PL_initialise(len(arguments), _argv):
        raise EngineError(f"SWI-Prolog did not start from {state}")
    return True


def save_engine_state() -> Path:
    """Save the engine's state (see STATE_FORMAT) for the libswipl that
    pyswip loads, in prolog/, and remove the states made for others; what
    setup.sh runs, in a process of its own (the engine must not have
    started). Returns its path. The state is the engine as pyswip starts it
    with crossword.pl loaded, without pyswip's pyrun/2 (added at every
    start) and before the bridge adds anything."""
    os.environ[STATE_OFF] = "1"
    from pyswip import Prolog, core

    prolog = Prolog()
    prolog.consult(str(prolog_path("crossword")), catcherrors=True)
    state = engine_state(core._path, core.SWI_HOME_DIR)
    saving = state.with_name(state.name + ".new")
    here = os.getcwd()
    os.chdir(saving.parent)  # the file is named in the goal: our own name, no path
    try:
        goal = (  # pyrun/2 runs this very query
            "retractall(user:pyrun(_, _)),"
            f" qsave_program('{saving.name}',"
            " [stand_alone(false), autoload(false), goal(true), toplevel(halt)])"
        )
        list(prolog.query(goal, catcherrors=True))
    finally:
        os.chdir(here)
    os.replace(saving, state)
    for old in state.parent.glob("crossword-*.state"):
        if old != state:
            old.unlink()
    return state


# Where SWI-Prolog is. pyswip finds its library and home at import by running
# `swipl --dump-runtime-variables`, a whole Prolog start (about 0.01 s of
# processor time, as much as a P-99 puzzle's search), unless LIBSWIPL_PATH and
# SWI_HOME_DIR say. What it found is kept in the cache (pybridge.cache, signed
# like every entry) for the `swipl` on the PATH it was found with (its path,
# size and time), and told to pyswip at the next start.
LOCATION_ENTRY = "swipl-location"
LOCATION_FORMAT = 1
LOCATION_BYTES = 1 << 16  # the most an entry of ours can be
LOCATION_VARIABLES = ("LIBSWIPL_PATH", "SWI_HOME_DIR")


def _swipl_identity() -> list[str | int] | None:
    """The `swipl` on the PATH (its real path, size and modification time),
    None if there is none."""
    import shutil

    program = shutil.which("swipl")
    if program is None:
        return None
    real = os.path.realpath(program)
    try:
        info = os.stat(real)
    except OSError:
        return None
    return [real, info.st_size, info.st_mtime_ns]


def _remembered_location() -> dict[str, str] | None:
    """LIBSWIPL_PATH and SWI_HOME_DIR as pyswip found them for this `swipl`
    before, if the cache has them and they still exist; None when the
    environment names either already, or nothing is known."""
    if any(os.environ.get(name) for name in LOCATION_VARIABLES):
        return None
    identity = _swipl_identity()
    if identity is None:
        return None
    from pybridge import cache

    kept = cache.read(LOCATION_ENTRY, LOCATION_BYTES)
    if kept is None:
        return None
    meta, _ = kept
    library, home = meta.get("library"), meta.get("home")
    if meta.get("format") != LOCATION_FORMAT or meta.get("swipl") != identity:
        return None
    if not (isinstance(library, str) and isinstance(home, str)):
        return None
    if not (os.path.isfile(library) and os.path.isdir(home)):
        return None
    return dict(zip(LOCATION_VARIABLES, (library, home), strict=True))


def _remember_location() -> None:
    """Keep where pyswip found SWI-Prolog (see LOCATION_ENTRY), unless the
    environment told it (what it says holds for this process alone)."""
    if any(os.environ.get(name) for name in LOCATION_VARIABLES):
        return
    from pyswip import core

    identity = _swipl_identity()
    library, home = getattr(core, "_path", None), getattr(core, "SWI_HOME_DIR", None)
    if identity is None or not isinstance(library, str) or not isinstance(home, str):
        return
    from pybridge import cache

    meta = {"format": LOCATION_FORMAT, "swipl": identity, "library": library, "home": home}
    cache.write(LOCATION_ENTRY, meta, b"")


@contextmanager
def _told(location: dict[str, str] | None) -> Iterator[None]:
    """The environment with `location` in it while pyswip is imported (it
    reads it then), as it was afterwards."""
    if location is None:
        yield
        return
    os.environ.update(location)
    try:
        yield
    finally:
        for name in location:
            os.environ.pop(name, None)


_loaded: set[str] = set()  # the modules of prolog/ that engine_module/1 loaded


def load_module(name: str) -> None:
    """Have the engine load its module `name` (a strategy's family, or
    another file of prolog/: crossword:engine_module/1) if it has not yet,
    with the lock held and before any time limit: the modules load when
    first needed, so that a start pays only for the search it makes."""
    if name not in _loaded:
        prolog = engine()
        attach_thread()
        list(prolog.query(f"crossword:engine_module({name})", maxresult=1, catcherrors=True))
        _loaded.add(name)


@contextmanager
def engine_errors() -> Iterator[None]:
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
        engine()
    except MissingDependency:
        return False
    return True


def _memory_share(share: int, least: int) -> int:
    """1/`share` of the physical memory, never less than `least` (and
    `least` where the memory cannot be read). A process whose address space
    is limited (a server's worker) keeps half of it for its stacks: past
    that, a resource error, not a crash."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return least
    limit = max(least, memory // share)
    room, _ = resource.getrlimit(resource.RLIMIT_AS)
    return limit if room == resource.RLIM_INFINITY else min(limit, room // 2)


@lru_cache(maxsize=1)
def stack_limit() -> int:
    """The bytes SWI-Prolog's stacks may take: a share of the physical
    memory (the default of 1 GiB overflows on a wdeg search of 3,000 sites,
    whose state holds every site's domain at every level)."""
    return _memory_share(STACK_SHARE, MIN_STACK_LIMIT)


def big_stack_limit() -> int:
    """The most a big search's stacks may take: half of the physical memory
    (and of the address space, where it is limited), never less than
    stack_limit()."""
    return _memory_share(BIG_STACK_SHARE, stack_limit())


def request_stack_limit(lengths: Sequence[int], words: Sequence[str]) -> int:
    """The stack limit of a search of sites of these `lengths` from
    `words`: what its trail may hold at worst (every site's domain changed
    at every level, one level per site, with room for the garbage between
    collections) when that is above stack_limit(), up to big_stack_limit().
    So a big puzzle gets the memory it can need, and a search that runs
    away still ends in a resource error, at a limit that says what the
    request could take."""
    per_length = Counter(len(word) for word in words)
    level = sum(per_length[length] // 8 + 64 for length in lengths)
    need = 3 * len(lengths) * level + 256 * len(words)
    return min(big_stack_limit(), max(stack_limit(), need))


_limit_now: int | None = None  # the stack limit in force, once a search has set one


def current_stack_limit() -> int:
    """The stack limit the last search ran with (stack_limit() before any)."""
    return stack_limit() if _limit_now is None else _limit_now


@contextmanager
def sized_stacks(prolog: Any, lengths: Sequence[int], words: Sequence[str]) -> Iterator[None]:
    """Run a search of sites of these `lengths` with stacks sized for it,
    then put the engine's settings back. Below BIG_SEARCH sites nothing
    changes. From there (issue 39 item 5, measured in docs/benchmarks.md):
    - the stack limit is request_stack_limit's;
    - the local stack keeps LOCAL_CELLS_PER_SITE cells per site free: when
      it grows, SWI-Prolog moves every stack (one block), and a search
      that deepens makes it grow late, when the global stack is big (each
      move held the old and the new block at once);
    - the global stack is collected whenever it fills (BIG_GC_FACTOR), not
      only past 3x what the last collection left, so it doubles less.
    The caller holds the lock."""
    global _limit_now
    if len(lengths) < BIG_SEARCH:
        yield
        return
    limit = request_stack_limit(lengths, words)
    cells = LOCAL_CELLS_PER_SITE * len(lengths)
    (before,) = list(
        prolog.query(
            "prolog_stack_property(local, min_free(L)), prolog_stack_property(global, factor(G))",
            maxresult=1,
            catcherrors=True,
        )
    )
    list(
        prolog.query(
            f"set_prolog_flag(stack_limit, {limit}),"
            f" set_prolog_stack(local, min_free({cells})),"
            f" set_prolog_stack(global, factor({BIG_GC_FACTOR}))",
            catcherrors=True,
        )
    )
    _limit_now = limit
    try:
        yield
    finally:
        list(
            prolog.query(
                f"set_prolog_stack(local, min_free({before['L']})),"
                f" set_prolog_stack(global, factor({before['G']})),"
                f" set_prolog_flag(stack_limit, {stack_limit()})",
                catcherrors=True,
            )
        )
        _limit_now = None


WATCHER = "python_watcher"  # the foreign predicate kernel:watch/2 is given


_watcher: Watch | None = None  # whom _tick tells: the request searched now


def watched_by(watch: Watch | None) -> None:
    """Have the searches from now on watched by `watch` (None: by no one);
    bridge.engine.watching sets it, around kernel:watch/2."""
    global _watcher
    _watcher = watch


def _tick(nodes: int, backtracks: int, solutions: int, restarts: int, deepest: int) -> bool:
    """kernel:python_watcher/5, called by the alarm of kernel:limited/2 in
    the middle of a search: pass the counters on (a display that fails does
    not stop the search)."""
    watch = _watcher
    if watch is not None:
        with suppress(Exception):
            watch(Tick(int(nodes), int(backtracks), int(solutions), int(restarts), int(deepest)))
    return True


class _Detach:
    """Kept in a thread's local data by attach_thread: dropped when the
    thread ends, in that thread, it destroys the Prolog engine pyswip
    attached to it. Else SWI-Prolog, at exit, finds Prolog threads whose
    threads are gone and prints "Failed to stop Prolog threads"."""

    def __del__(self) -> None:
        from pyswip import core

        if core.PL_thread_self() > 1:  # 1: the thread that started Prolog
            core._lib.PL_thread_destroy_engine()


_attached = threading.local()


def attach_thread() -> None:
    """Have this thread's Prolog engine destroyed when the thread ends (not
    the main thread's: SWI-Prolog's own, ended by pyswip at exit). When
    Prolog was started from another thread than the main one, that thread
    is Prolog's main thread and the warning stays: start the engine from
    the main thread (available() does) before searching from threads."""
    if threading.current_thread() is not threading.main_thread() and not hasattr(
        _attached, "detach"
    ):
        _attached.detach = _Detach()


@contextmanager
def interrupts_stop_prolog() -> Iterator[None]:
    """Let Ctrl-C stop a Prolog search at once, in the main thread.

    A search runs inside one C call, and Python runs its SIGINT handler
    only once that call returns: a KeyboardInterrupt would wait for the
    search to end. Meanwhile Python's own signal handler still writes the
    signal's number to the wakeup file descriptor, so a watcher thread
    reading it raises int in the Prolog thread (PL_thread_raise), whose
    handler (crossword:interrupt_search/1) throws; the query then raises
    KeyboardInterrupt (see ffi.once). Python's handler is swapped for one that
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
    interrupt.start(prolog_thread())
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
        interrupt.stop()
    if noted and not failed:
        raise KeyboardInterrupt


class _Interrupt:
    """Whether Ctrl-C was pressed during an interrupts_stop_prolog block,
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


interrupt = _Interrupt()


def prolog_thread() -> int:
    from pyswip import core

    return int(core._lib.PL_thread_self())


def _watch(read_end: int) -> None:
    """Tell interrupt of each SIGINT read, until the end of the file."""
    while True:
        try:
            numbers = os.read(read_end, 64)
        except OSError:
            return
        if not numbers:
            return
        if signal.SIGINT in numbers:
            interrupt.press()
