"""Progress on long work: engines report a search under way without changing
it, the line is drawn on a terminal and not in a pipe, --quiet and
--progress say otherwise, and Ctrl-C stops a watched Prolog search."""

from __future__ import annotations

import fcntl
import itertools
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path

import pytest
from puzzlegen import open_square

from pybridge import bridge, progress
from pybridge.model import Puzzle
from pybridge.readers import load
from pybridge.search import kernel
from pybridge.search.kernel import Tick
from pybridge.solver import Outcome, run

ROOT = Path(__file__).resolve().parents[1]
CROSSWORD = [sys.executable, "-m", "pybridge"]
needs_prolog = pytest.mark.skipif(not bridge.available(), reason="SWI-Prolog cannot be loaded")
ENGINES = ["python", pytest.param("prolog", marks=needs_prolog)]


@pytest.fixture
def fast_ticks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ticks every millisecond: many of them even in a short search."""
    monkeypatch.setattr(kernel, "TICK_SECONDS", 0.001)
    monkeypatch.setattr(bridge.engine, "TICK_SECONDS", 0.001)


def same(a: Outcome, b: Outcome) -> bool:
    return (a.status, a.solutions, a.count, a.stats.nodes, a.stats.backtracks) == (
        b.status,
        b.solutions,
        b.count,
        b.stats.nodes,
        b.stats.backtracks,
    )


def cases(shared: Path) -> list[tuple[Puzzle, str, dict[str, object]]]:
    p99 = load(shared / "corpus" / "p99" / "p7_09b.dat")
    fillin = shared / "corpus" / "fillin"
    return [
        (p99, "mrv", {"limit": None}),
        (load(fillin / "puzzle3", fillin / "words3"), "cbj", {"count": True}),
        (open_square(127), "wdeg", {"count": True}),  # restarts on the way
        (open_square(127), "lcv", {"seed": 7, "limit": 3}),
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_watched_search_is_the_same_search(engine: str, shared: Path, fast_ticks: None) -> None:
    for puzzle, strategy, options in cases(shared):
        ticks: list[Tick] = []
        plain = run(puzzle, engine=engine, strategy=strategy, prove=False, **options)  # type: ignore[arg-type]
        watched = run(
            puzzle,
            engine=engine,
            strategy=strategy,
            prove=False,
            progress=ticks.append,
            **options,  # type: ignore[arg-type]
        )
        assert same(plain, watched), (strategy, plain.stats, watched.stats)
        assert ticks, strategy
        last = ticks[-1]  # the final counters
        assert (last.nodes, last.backtracks) == (plain.stats.nodes, plain.stats.backtracks)
        found = plain.count if plain.count is not None else len(plain.solutions)
        assert last.solutions == found
        assert all(a.nodes <= b.nodes for a, b in itertools.pairwise(ticks))


@needs_prolog
def test_both_engines_tell_the_same_final_counters(fast_ticks: None) -> None:
    finals = {}
    for engine in ("python", "prolog"):
        ticks: list[Tick] = []
        run(
            open_square(127),
            engine=engine,
            strategy="wdeg",
            count=True,
            prove=False,
            progress=ticks.append,
        )
        finals[engine] = ticks[-1]
    assert finals["python"] == finals["prolog"]
    assert finals["python"].restarts >= 2
    assert finals["python"].deepest > 0


@needs_prolog
def test_ticks_keep_the_time_limit(shared: Path, fast_ticks: None) -> None:
    # the time limit must not be lost among the ticks: puzzle13 takes
    # seconds in the given order, so a lost limit would mean "solved"
    fillin = shared / "corpus" / "fillin"
    puzzle = load(fillin / "puzzle13", fillin / "words13")
    for _ in range(8):
        ticks: list[Tick] = []
        outcome = run(puzzle, engine="prolog", strategy="given", timeout=0.2, progress=ticks.append)
        assert outcome.status == "timeout"
        assert ticks


@needs_prolog
def test_ctrl_c_stops_a_watched_prolog_search(shared: Path) -> None:
    puzzle = load(shared / "corpus" / "p99" / "p7_09b.dat")
    ticks: list[Tick] = []
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    with progress.interruptible():
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            run(puzzle, engine="prolog", strategy="given", timeout=120, progress=ticks.append)
    timer.join()
    assert ticks
    # the engine cleaned up and searches on as before, watched or not
    again = run(puzzle, engine="prolog", strategy="mrv", progress=ticks.append)
    assert again.status == "solved"
    assert again.stats.nodes == run(puzzle, engine="python", strategy="mrv").stats.nodes


def test_interruptible_turns_ctrl_c_into_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(signal, "getsignal", lambda number: signal.SIG_DFL)
    installed: list[object] = []
    monkeypatch.setattr(signal, "signal", lambda number, handler: installed.append(handler))
    with progress.interruptible():
        pass
    assert installed == [signal.default_int_handler, signal.SIG_DFL]


# ---------------------------------------------------------------- the line


def test_amounts_are_short() -> None:
    assert [progress.amount(n) for n in (0, 9999, 12345, 2_500_000, 3 * 10**9)] == [
        "0",
        "9999",
        "12.3k",
        "2.5M",
        "3.0G",
    ]


def test_the_line_shows_the_counters() -> None:
    text = progress.tick_text(Tick(120_000, 450_000, 2, 3, 41), 2.0)
    assert text == (
        "120.0k nodes, 450.0k backtracks, 2 found, 3 restarts (deepest run 41 choices), "
        "60.0k nodes/s"
    )


def test_a_quick_command_draws_nothing(tmp_path: Path) -> None:
    log = tmp_path / "err"
    with log.open("w") as stream, progress.Progress(True, "quick", stream=stream) as line:
        line.watch(Tick(1, 0, 0, 0, 0))
    assert log.read_text() == ""


def run_on_terminal(args: list[str], timeout: float = 120) -> tuple[str, str]:
    """Run the CLI with stderr on a pseudo-terminal (80 by 24); its stdout and stderr."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(
        CROSSWORD + args,
        stdout=subprocess.PIPE,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
    )
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the other end is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    out, _ = proc.communicate(timeout=timeout)
    os.close(master)
    return out.decode(), b"".join(chunks).decode(errors="replace")


def slow_solve(shared: Path, engine: str) -> list[str]:
    p99 = str(shared / "corpus" / "p99" / "p7_09b.dat")
    return ["solve", p99, "--strategy", "given", "--engine", engine, "--timeout", "2"]


@pytest.mark.parametrize("engine", ENGINES)
def test_progress_appears_on_a_terminal(shared: Path, engine: str) -> None:
    out, err = run_on_terminal(slow_solve(shared, engine))
    assert "time limit of 2 s reached" in out
    assert "p7_09b.dat" in err
    assert " nodes, " in err
    assert "\r" in err  # redrawn in place, and cleared at the end
    assert "nodes" not in out


def test_quiet_draws_nothing_on_a_terminal(shared: Path) -> None:
    _, err = run_on_terminal([*slow_solve(shared, "python"), "--quiet"])
    assert err == ""


def test_no_progress_in_a_pipe_unless_asked(shared: Path) -> None:
    plain = subprocess.run(
        CROSSWORD + slow_solve(shared, "python"), capture_output=True, text=True, cwd=ROOT
    )
    assert plain.returncode == 3
    assert plain.stderr == ""
    asked = subprocess.run(
        [*CROSSWORD, *slow_solve(shared, "python"), "--progress"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert asked.returncode == 3
    assert "nodes" in asked.stderr
    assert asked.stdout == plain.stdout


# ---------------------------------------------------------------- Ctrl-C in compare and bench


def interrupted_after(args: list[str], line: str) -> tuple[int, str, str]:
    """Run the CLI, send it Ctrl-C once `line` has come out on stdout (rows
    come out as they are measured); its exit code, whole stdout and stderr."""
    proc = subprocess.Popen(
        CROSSWORD + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdout is not None
    seen = []
    for text in proc.stdout:
        seen.append(text)
        if text.startswith(line):
            break
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=120)
    return proc.returncode, "".join(seen) + rest, err


@pytest.mark.parametrize("engines", ["python", pytest.param("prolog,python", marks=needs_prolog)])
def test_compare_streams_its_rows_and_sums_up_on_ctrl_c(shared: Path, engines: str) -> None:
    # Ctrl-C comes while p7_09b's search in the given order (minutes) is
    # under way, in the engine named first
    p99 = shared / "corpus" / "p99"
    args = ["compare", str(p99 / "p7_09a.dat"), str(p99 / "p7_09b.dat")]
    args += ["--strategies", "given", "--engines", engines, "--repeat", "1", "--timeout", "100"]
    cells = 2 * len(engines.split(","))
    code, out, err = interrupted_after(args, "p7_09a.dat  given")
    assert (code, err) == (130, ""), out
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["puzzle", "strategy"]
    assert lines[-1].startswith("interrupted (Ctrl-C) after ")
    assert f" of {cells} cells" in lines[-1]
    assert "p7_09b.dat  given" not in out  # it was under way, not done


def test_bench_streams_its_rows_and_sums_up_on_ctrl_c(shared: Path) -> None:
    grids = shared / "bench" / "grids" / "vanbeek"
    args = ["bench", str(grids / "g05.01.txt"), str(grids / "g21.02.txt"), "--engines", "python"]
    args += ["--dict", str(shared / "bench" / "dicts" / "scowl55.txt"), "--strategies", "mrv"]
    args += ["--timeout", "100"]
    code, out, err = interrupted_after(args, "g05.01")
    assert (code, err) == (130, ""), out
    lines = out.splitlines()
    assert lines[0].startswith("dictionary: ")
    assert lines[3].split()[:3] == ["g05.01", "5x5", "solved"]
    assert lines[4].split()[:2] == ["solved", "1/1"]  # the footer of the runs done
    assert lines[-1] == "interrupted (Ctrl-C) after 1 of 2 runs: the figures are partial"


def test_make_watches_each_fill(shared: Path) -> None:
    from pybridge.construct import make

    words = (shared / "corpus" / "cs50" / "words2.txt").read_text(encoding="utf-8").split()
    ticks: list[Tick] = []
    options = {"blocks": 4, "min_length": 2, "symmetry": "none", "seed": 1, "engine": "python"}
    made = make(5, 5, words, progress=ticks.append, **options)  # type: ignore[arg-type]
    assert made.status == "solved"
    assert made.outcome is not None
    assert ticks[-1].nodes == made.outcome.stats.nodes  # the final counters of the fill
