"""Progress on stderr while a command works: one live line, drawn by tqdm.

A command makes one Progress for its work: a single search (solve, check:
no total; the line shows the nodes, backtracks, solutions, restarts and the
deepest run so far, the rate, the time and the time left before --timeout)
or a series of runs (compare, bench: a bar over the runs with the time to
go, and the counters of the run under way). Engines report a search under
way through its `watch` (a Tick about every 0.2 s, pybridge.search.kernel);
a thread of the Progress redraws the line twice a second, so that the time
moves on while no search is ticking (proofs, a core being shrunk).

The line is drawn only on a terminal (or when asked, --progress), never with
--quiet, and only after the work has lasted DELAY seconds: a quick command
prints nothing more than before. It is cleared before the command's output
is written (`paused`), so that stdout never holds a piece of it.

`interruptible` lets Ctrl-C stop a command that has something to say about
the work done so far (compare, bench) with a KeyboardInterrupt it catches.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Never, Self, TextIO

from pybridge.search.kernel import Tick

if TYPE_CHECKING:  # tqdm loads when a line is first drawn: most commands never draw one
    from tqdm import tqdm

DELAY = 0.5  # seconds of work before the line is first drawn
REDRAW = 0.5  # seconds between two redraws on a terminal
WIDTH_UNKNOWN, HEIGHT_UNKNOWN = 100, 24  # where the stream has no size
REDRAW_ELSEWHERE = 10.0  # ... in a file or a pipe (--progress): a line per redraw
SEARCH_FORMAT = "{desc} [{elapsed}]{postfix}"
RUNS_FORMAT = "{desc} {n_fmt}/{total_fmt} {bar:12} [{elapsed}<{remaining}]{postfix}"


def shown_on(stream: TextIO | None, asked: bool, quiet: bool) -> bool:
    """Whether to draw progress on `stream`: asked for (--progress), or not
    refused (--quiet) and the stream is a terminal."""
    if quiet or stream is None:
        return False
    if asked:
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream
        return False


def amount(n: int) -> str:
    """12345678 -> '12.3M': short enough for a line that changes."""
    if n < 10_000:
        return str(n)
    scale, suffix = next((s, x) for s, x in ((10**9, "G"), (10**6, "M"), (10**3, "k")) if n >= s)
    return f"{n / scale:.1f}{suffix}"


def tick_text(tick: Tick, seconds: float) -> str:
    """The counters of a search under way, as the line shows them."""
    parts = [f"{amount(tick.nodes)} nodes", f"{amount(tick.backtracks)} backtracks"]
    if tick.solutions:
        parts.append(f"{amount(tick.solutions)} found")
    if tick.restarts:
        parts.append(f"{tick.restarts} restarts (deepest run {tick.deepest} choices)")
    if seconds >= 1:
        parts.append(f"{amount(round(tick.nodes / seconds))} nodes/s")
    return ", ".join(parts)


class Progress:
    """The progress line of one command (a context manager; see the module
    docstring). `total`: the runs to make (None: one search); `timeout`: the
    time limit of each search, shown as the time left."""

    def __init__(
        self,
        shown: bool,
        what: str,
        *,
        total: int | None = None,
        timeout: float | None = None,
        stream: TextIO | None = None,
    ) -> None:
        self.shown = shown
        self.what = what
        self.total = total
        self.timeout = timeout
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.perf_counter()
        self.item = ""  # the run under way (compare, bench), or a phase
        self.item_started = self.started
        self.tick: Tick | None = None
        self.done = 0
        self.bar: tqdm[Never] | None = None
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.redrawer: threading.Thread | None = None

    # -------------------------------------------------------------- use

    def __enter__(self) -> Self:
        if self.shown:
            self.redrawer = threading.Thread(target=self._redraw_often, daemon=True)
            self.redrawer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def watch(self, tick: Tick) -> None:
        """The Watch given to solver.run: the latest counters of the search."""
        self.tick = tick

    def heard(self) -> bool:
        """Whether a search's counters reach anyone: the line is drawn."""
        return self.shown

    @property
    def watcher(self) -> Callable[[Tick], None] | None:
        """What to give a search to watch it: `watch`, or None when no one
        hears it (--quiet, or stderr no terminal), so that the engines keep
        no watch at all (the Prolog engine then arms no alarm for it)."""
        return self.watch if self.heard() else None

    def start(self, item: str) -> None:
        """A new run (or phase) begins: `item` names it on the line."""
        with self.lock:
            self.item, self.item_started, self.tick = item, time.perf_counter(), None
        self.redraw()

    def advance(self) -> None:
        """A run has ended."""
        with self.lock:
            self.done += 1
            self.item, self.tick = "", None
        self.redraw()

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Clear the line while the caller writes output, then draw it again."""
        if self.bar is None:
            yield
            return
        from tqdm import tqdm

        with tqdm.external_write_mode(file=self.stream):
            yield

    def close(self) -> None:
        """Stop redrawing and clear the line."""
        self.stop.set()
        if self.redrawer is not None and self.redrawer is not threading.current_thread():
            self.redrawer.join()
        with self.lock:
            if self.bar is not None:
                self.bar.close()
                self.bar = None

    # -------------------------------------------------------------- drawing

    def _redraw_often(self) -> None:
        interval = REDRAW if shown_on(self.stream, False, False) else REDRAW_ELSEWHERE
        if self.stop.wait(DELAY):
            return
        while True:
            self.redraw()
            if self.stop.wait(interval):
                return

    def redraw(self) -> None:
        """Draw the line now (once DELAY has passed)."""
        if not self.shown or self.stop.is_set():
            return
        now = time.perf_counter()
        if now - self.started < DELAY:
            return
        with self.lock:
            if self.stop.is_set():
                return
            postfix = self._postfix(now)
            if self.bar is None:
                self.bar = self._new_bar(postfix)
                return
            self.bar.n = self.done
            self.bar.set_postfix_str(postfix, refresh=False)
            self.bar.refresh()

    def _new_bar(self, postfix: str) -> tqdm[Never]:
        from tqdm import tqdm

        sized = self._sized()
        bar = tqdm(
            total=self.total,
            initial=self.done,
            desc=self.what,
            postfix=postfix,
            file=self.stream,
            leave=False,
            dynamic_ncols=sized,
            ncols=None if sized else WIDTH_UNKNOWN,
            nrows=None if sized else HEIGHT_UNKNOWN,
            mininterval=0,
            bar_format=RUNS_FORMAT if self.total is not None else SEARCH_FORMAT,
            unit="run",
        )
        # the time shown is the work's, which began DELAY before the first drawing
        bar.start_t -= time.perf_counter() - self.started
        bar.refresh()
        return bar

    def _sized(self) -> bool:
        """Whether the stream is a terminal that knows its size (tqdm draws
        nothing on one of 0 by 0, as a pseudo-terminal may be)."""
        try:
            size = os.get_terminal_size(self.stream.fileno())
        except (AttributeError, OSError, ValueError):
            return False
        return size.columns > 0 and size.lines > 0

    def _postfix(self, now: float) -> str:
        """' item: counters, time left' (each part when there is one)."""
        tick, seconds = self.tick, now - self.item_started
        parts = [] if tick is None else [tick_text(tick, seconds)]
        if self.timeout is not None and (tick is not None or self.total is None):
            parts.append(f"time limit in {max(0.0, self.timeout - seconds):.0f} s")
        text = ", ".join(parts)
        if self.item and text:
            return f"{self.item}: {text}"
        return self.item or text


# ------------------------------------------------------------------ Ctrl-C


@contextmanager
def interruptible() -> Iterator[None]:
    """Within this block, Ctrl-C raises KeyboardInterrupt in the command, so
    that it can print the figures of the work done; a Prolog search under
    way is stopped at once (bridge.session.interrupts_stop_prolog). The CLI
    otherwise lets Ctrl-C end the process at once
    (cli._interrupt_ends_the_process). An ignored SIGINT (a background
    job) stays ignored; off the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGINT)
    if before is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


class CubesProgress(Progress):
    """The line of a split search (solve --split): the cubes done of the
    total with the time left from the rate of those finished in this run,
    the tally so far (refuted, filled, timed out) and the cube running
    longest. `running` gives the cubes under way, each with the clock
    reading when it started."""

    def __init__(
        self,
        shown: bool,
        total: int,
        running: Callable[[], Mapping[int, float]],
        *,
        stream: TextIO | None = None,
    ) -> None:
        super().__init__(shown, "cubes", total=total, stream=stream)
        self.running = running
        self.tally = ""

    def told(self, done: int, tally: str) -> None:
        """`done` cubes have a verdict; `tally` says which."""
        with self.lock:
            self.done, self.tally = done, tally
        self.redraw()

    def _postfix(self, now: float) -> str:
        parts = [self.tally] if self.tally else []
        running = dict(self.running())
        if running:
            number, since = min(running.items(), key=lambda item: item[1])
            parts.append(f"slowest running: cube {number}, {now - since:.0f} s")
        return " " + "; ".join(parts) if parts else ""
