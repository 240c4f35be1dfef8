"""The portfolio (pybridge.portfolio): several streams of one puzzle in
worker processes, the first to settle it winning, the others killed; and
`solve --jobs N`, `bench --portfolio N` on top of it."""

from __future__ import annotations

import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

import pybridge
from pybridge import compiled, portfolio, verify
from pybridge.cli import main
from pybridge.engines import choose_engine, choose_streams_engine
from pybridge.errors import UsageError
from pybridge.model import Puzzle
from pybridge.portfolio import Portfolio, Stream, streams
from pybridge.solver import Outcome, run

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "demo.dat"
RING = ROOT / "data" / "unsolvable" / "search" / "ring.dat"  # only a search shows it
needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = ["python", pytest.param("prolog", marks=needs_prolog)]

# A 4x4 grid and words that fill it many ways: the streams' fills differ.
WORDS = tuple(
    "".join(w)
    for w in (
        "abba",
        "baab",
        "abab",
        "baba",
        "aabb",
        "bbaa",
        "aaab",
        "abaa",
        "bbab",
        "babb",
        "aaba",
        "baaa",
        "abbb",
        "bbba",
    )
)


def lexicon_grid() -> Puzzle:
    return Puzzle(WORDS, ("....", "....", "....", "...."), format="grid", mode="lexicon")


def alone(puzzle: Puzzle, outcome: Outcome, engine: str, **options: object) -> Outcome:
    """The winning stream's search, run again in this process."""
    assert outcome.winner is not None
    return run(
        puzzle,
        engine=engine,
        strategy=outcome.winner.strategy,
        seed=outcome.winner.seed,
        **options,  # type: ignore[arg-type]
    )


def test_stream_zero_is_the_search_of_one_job_and_the_others_step_the_seed() -> None:
    assert streams("wdeg", None, 3) == [
        Stream(0, "wdeg", None),
        Stream(1, "wdeg", 2),  # wdeg draws from seeds N and N + 1
        Stream(2, "wdeg", 4),
    ]
    assert streams("mrv", 5, 2) == [Stream(0, "mrv", 5), Stream(1, "mrv", 6)]
    assert streams("sorted", None, 4) == [Stream(0, "sorted", None)]  # no seed: one search
    assert streams("wdeg", 7, 1) == [Stream(0, "wdeg", 7)]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_answer_is_the_winning_streams_own(engine: str) -> None:
    for puzzle in (lexicon_grid(), pybridge.load(str(DEMO))):
        outcome = portfolio.solve(puzzle, jobs=2, engine=engine, limit=1)
        assert outcome.status == "solved"
        assert outcome.winner is not None
        assert outcome.winner.jobs == 2
        assert verify.problems(puzzle, outcome.solutions[0].grid) == []
        again = alone(puzzle, outcome, engine, limit=1)
        assert [s.grid for s in outcome.solutions] == [s.grid for s in again.solutions]
        assert (outcome.stats.nodes, outcome.stats.backtracks) == (
            again.stats.nodes,
            again.stats.backtracks,
        )


def test_a_portfolio_without_an_engine_runs_compiled_python_and_one_job_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the same search in either engine, sooner in compiled python
    # (docs/benchmarks.md, "The portfolio's engine"): what the streams default to
    monkeypatch.setattr(compiled, "in_use", lambda: True)
    assert choose_streams_engine(None, 2) == choose_streams_engine(None, 8) == "python"
    assert Portfolio(2).engine == "python"
    assert choose_streams_engine(None, 1) == choose_engine(None)  # one job: as before
    assert Portfolio(1).engine == choose_engine(None)
    assert choose_streams_engine("prolog", 2) == "prolog"  # asked for: always
    assert choose_streams_engine("python", 1) == "python"
    with pytest.raises(UsageError, match="unknown engine"):
        choose_streams_engine("java", 2)
    monkeypatch.setattr(compiled, "in_use", lambda: False)  # interpreted: as one job
    assert choose_streams_engine(None, 2) == choose_engine(None)
    assert choose_streams_engine("python", 2) == "python"


def test_compiled_in_use_says_what_form_says() -> None:
    assert compiled.in_use() == (compiled.form() == compiled.COMPILED_FORM)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_proof_from_any_stream_ends_all(engine: str) -> None:
    outcome = portfolio.solve(pybridge.load(str(RING)), jobs=2, engine=engine)
    assert outcome.status == "unsolvable"
    assert outcome.reason is not None
    assert "exhausted" in outcome.reason
    assert outcome.proof is not None
    assert outcome.proof.layer == "search"


def test_every_stream_timing_out_is_a_time_out() -> None:
    words = tuple(f"{a}{b}{c}" for a in "abcdefgh" for b in "abcdefgh" for c in "abcdefgh")
    rows = ("...#...", "...#...", "...#...")
    puzzle = replace(lexicon_grid(), words=words, grid=rows)
    with Portfolio(2, "python", words) as pool:
        outcome = pool.run(puzzle, limit=None, count=True, timeout=0.05)
    assert outcome.status == "timeout"


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_the_other_streams_start_only_when_stream_zero_takes_a_while() -> None:
    quick = lexicon_grid()  # stream 0 fills it in milliseconds
    words = tuple(f"{a}{b}{c}" for a in "abcdefgh" for b in "abcdefgh" for c in "abcdefgh")
    slow = replace(lexicon_grid(), words=words, grid=("...#...", "...#...", "...#..."))
    with Portfolio(2, "python", words) as pool:
        pool.start()
        second = pool._workers[1].process.pid
        assert second is not None
        before = _cpu_seconds(second)
        assert pool.run(replace(quick, words=WORDS)).winner.stream == 0  # type: ignore[union-attr]
        assert _cpu_seconds(second) - before < 0.05  # it never searched
        assert pool._workers[1].process.pid == second  # nor was it replaced
        before = _cpu_seconds(second)
        outcome = pool.run(slow, limit=None, count=True, timeout=portfolio.STAGGER_SECONDS + 1.5)
        assert outcome.status == "timeout"
        assert _cpu_seconds(second) - before > 0.05  # it searched after the stagger


def test_one_job_is_the_plain_search_and_spawns_nothing() -> None:
    puzzle = lexicon_grid()
    with Portfolio(1, "python", WORDS) as pool:
        outcome = pool.run(puzzle, seed=3)
        assert not pool._workers
    plain = run(puzzle, engine="python", seed=3)
    assert outcome.winner is None
    assert [s.grid for s in outcome.solutions] == [s.grid for s in plain.solutions]
    assert outcome.stats.nodes == plain.stats.nodes


def test_losers_are_killed_and_replaced_and_nothing_is_left() -> None:
    puzzle = lexicon_grid()
    with Portfolio(2, "python", WORDS) as pool:
        pool.start()
        before = {w.process.pid for w in pool._workers}
        for seed in range(3):
            assert pool.run(puzzle, seed=seed).status == "solved"
            assert len(pool._workers) <= 2
            assert all(w.process.is_alive() for w in pool._workers)  # idle, not searching
        pool.start()
        assert len(pool._workers) == 2
        processes = [w.process for w in pool._workers]
    assert not any(p.is_alive() for p in processes)
    assert before  # the first workers were spawned, and closed with the rest
    assert not [p for p in multiprocessing.active_children() if p.name.startswith("crossword")]


def test_bad_requests_are_refused_before_any_worker_starts() -> None:
    with Portfolio(2, "python") as pool:
        with pytest.raises(UsageError):
            pool.run(pybridge.load(str(DEMO)), strategy="sorted", seed=1)
        with pytest.raises(UsageError):
            pool.run(pybridge.load(str(DEMO)), timeout=0)
        assert not pool._workers
    with pytest.raises(ValueError, match="at least one job"):
        Portfolio(0)


_ORPHAN_SCRIPT = """
    import sys, time
    from pybridge.portfolio import Portfolio
    pool = Portfolio(2, "python")
    pool.start()
    print(" ".join(str(w.process.pid) for w in pool._workers), flush=True)
    time.sleep(600)
"""


def test_workers_end_with_their_parent() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_ORPHAN_SCRIPT)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert parent.stdout is not None
    pids = [int(p) for p in parent.stdout.readline().split()]
    assert len(pids) == 2
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    for _ in range(200):  # a worker looks every PARENT_CHECK_SECONDS
        if not any(_alive(pid) for pid in pids):
            break
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in pids)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:  # a zombie is gone
        return stat.read().split(")")[-1].split()[0] != "Z"


# ---------------------------------------------------------------- the commands


def grid_files(tmp_path: Path, listed: str) -> tuple[Path, Path]:
    """An open 4x4 grid file and a dictionary file holding `listed`."""
    grid, words = tmp_path / "g.txt", tmp_path / "words.txt"
    grid.write_text("....\n....\n....\n....\n", encoding="utf-8")
    words.write_text(listed, encoding="utf-8")
    return grid, words


def test_solve_jobs_names_the_winning_stream_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid, words = grid_files(tmp_path, "\n".join(WORDS) + "\n")
    base = ["solve", str(grid), "--dict", str(words), "--engine", "python", "--output", "json"]
    assert main([*base, "--jobs", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "solved"
    assert doc["portfolio"]["jobs"] == 2
    assert doc["portfolio"]["stream"] in (0, 1)
    assert doc["portfolio"]["strategy"] == "wdeg"
    assert doc["portfolio"]["seed"] == (None, 2)[doc["portfolio"]["stream"]]
    assert main(base) == 0
    assert "portfolio" not in json.loads(capsys.readouterr().out)  # one job: as before


def test_solve_jobs_without_an_engine_fills_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid, words = grid_files(tmp_path, "\n".join(WORDS) + "\n")
    base = ["solve", str(grid), "--dict", str(words), "--output", "json", "--stats"]
    assert main([*base, "--jobs", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["stats"]["engine"] == choose_streams_engine(None, 2)
    assert doc["portfolio"]["jobs"] == 2
    puzzle = pybridge.load(str(grid), dictionary=str(words))  # as the command read it
    assert verify.problems(puzzle, doc["solutions"][0]["grid"]) == []
    assert main(base) == 0  # one job: the default engine, as before
    assert json.loads(capsys.readouterr().out)["stats"]["engine"] == choose_engine(None)


def test_solve_jobs_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(RING), "--jobs", "2", "--engine", "python"]) == 1
    assert "no solution" in capsys.readouterr().out
    assert main(["solve", str(DEMO), "--jobs", "0"]) == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_bench_portfolio_records_the_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid, words = grid_files(tmp_path, "\n".join(WORDS) + "\n")
    target = tmp_path / "runs.json"
    args = ["bench", str(grid), "--dict", str(words), "--engines", "python"]
    assert main([*args, "--portfolio", "2", "--json", str(target)]) == 0
    report = json.loads(target.read_text(encoding="utf-8"))
    assert report["settings"]["portfolio"] == 2
    (only,) = report["runs"]
    assert only["status"] == "solved"
    assert only["stream"] in (0, 1)
    capsys.readouterr()
    assert main([*args, "--portfolio", "2", "--jobs", "2"]) == 2
    assert "not both" in capsys.readouterr().err


def test_solve_jobs_with_scores_scores_the_winners_fill_and_maximizes_in_one_stream(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scored = {word: 10 + 5 * i for i, word in enumerate(WORDS)}
    grid, words = grid_files(tmp_path, "".join(f"{w};{s}\n" for w, s in scored.items()))
    base = ["solve", str(grid), "--dict", str(words), "--engine", "python", "--output", "json"]
    assert main([*base, "--jobs", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    placed = [p["word"].lower() for p in doc["solutions"][0]["placements"]]
    assert doc["score"]["min"] == min(scored[w] for w in placed)  # the winner's own fill
    assert doc["score"]["sum"] == sum(scored[w] for w in placed)
    assert main([*base, "--maximize", "min"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert main([*base, "--maximize", "min", "--jobs", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["portfolio"]["jobs"] == 1  # a branch and bound is one search
    assert doc["score"] == alone["score"]
    assert doc["score"]["optimal"] is True
    assert doc["improvements"] == [
        {**better, "seconds": mine["seconds"]}
        for better, mine in zip(alone["improvements"], doc["improvements"], strict=True)
    ]
