"""Cube and conquer on a Dask LocalCluster (docs/cli.md#cubes): two worker
processes solve a split van Beek grid through the command line; a worker
killed in the middle of a run loses no cube; the command's usage errors."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from pybridge import cubes, verify
from pybridge.gridfiles import load_grid
from pybridge.lexicon import load_dictionary
from pybridge.model import Puzzle
from pybridge.options import CubeOptions, SearchOptions
from pybridge.service.cubes import CubeVerdict, Tally, conquer

pytest.importorskip("distributed", reason="Dask's distributed is not installed (the test extra)")
pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")

CROSSWORD = [sys.executable, "-m", "pybridge"]


def vanbeek(shared_dir: Path, name: str, dictionary: str) -> Puzzle:
    grid = load_grid(shared_dir / "bench" / "grids" / "vanbeek" / f"{name}.txt")[0]
    words = load_dictionary([shared_dir / "bench" / "dicts" / f"{dictionary}.txt"]).words
    return replace(grid, words=words, mode="lexicon")


@pytest.mark.parametrize("race", [False, True])
def test_two_local_workers_fill_a_split_van_beek_grid(
    shared_dir: Path, tmp_path: Path, race: bool
) -> None:
    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g15.01.txt"
    dictionary = shared_dir / "bench" / "dicts" / "scowl55.txt"
    path = tmp_path / "g15.01.jsonl"
    command = [
        *CROSSWORD, "solve", str(grid), "--dict", str(dictionary), "--split", "1",
        "--workers", "2", "--journal", str(path), "--cube-timeout", "60", "--timeout", "240",
        "--output", "json", *([] if race else ["--cubes-only"]),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["status"] == "solved"
    puzzle = vanbeek(shared_dir, "g15.01", "scowl55")
    assert verify.problems(puzzle, document["solutions"][0]["grid"]) == []
    split = document["cubes"]
    whole = split["whole"]
    if race:  # the unsplit search (cube -1 in the journal) or a cube answered, the first
        assert whole is not None or split["filled"] >= 1
        if whole is not None:
            assert whole["status"] == "solved"
            assert verify.problems(puzzle, _grid_of(puzzle, whole["fill"])) == []
    else:
        assert whole is None
        assert split["filled"] >= 1
    assert split["cubes"] == len(split["list"])
    lines = path.read_text(encoding="utf-8").splitlines()
    verdicts = [json.loads(line) for line in lines[1:]]
    assert any(v["status"] == "solved" for v in verdicts)
    workers = {v["worker"] for v in verdicts}
    assert all(w.startswith("tcp://") for w in workers)


def _grid_of(puzzle: Puzzle, fill: list[str]) -> list[str]:
    """The rows of `puzzle` with a fill's words (one a site, in site order) written in."""
    from pybridge.layout import layout_of

    rows = [list(row) for row in puzzle.grid]
    for site, word in zip(layout_of(puzzle).sites, fill, strict=True):
        for (r, c), letter in zip(site.cells, word, strict=True):
            rows[r][c] = letter
    return ["".join(row) for row in rows]


def test_a_worker_killed_in_the_middle_loses_no_cube(shared_dir: Path) -> None:
    from pybridge.service.cluster import DaskRunner

    puzzle = vanbeek(shared_dir, "g15.04", "scowl35")  # no fill: every cube must be refuted
    found = cubes.split(puzzle, 1, engine="prolog")
    assert len(found.cubes) > 6
    killed: list[int] = []
    with DaskRunner(2) as runner:
        pids = runner.workers()

        def told(tally: Tally, verdict: CubeVerdict | None) -> None:
            if verdict is None or killed or tally.done < 2:
                return
            busy = [w for w, keys in runner.client.processing().items() if keys] or list(pids)
            killed.append(pids[busy[0]])
            os.kill(pids[busy[0]], signal.SIGKILL)

        search = SearchOptions(engine="prolog", timeout=240)
        options = CubeOptions(depth=1, whole=False)  # every worker on the cubes
        conquest = conquer(puzzle, found, search, options, runner, told=told)
        after = runner.workers()
    assert killed
    assert killed[0] not in after.values()  # that worker is gone (its nanny started another)
    assert sorted(conquest.verdicts) == [c.number for c in found.cubes]
    assert conquest.outcome.status == "unsolvable"
    assert conquest.tally.refuted == len(found.cubes)


def test_cubes_the_scheduler_drops_are_run_again(shared_dir: Path) -> None:
    from distributed import Future

    from pybridge.service.cluster import DaskRunner

    puzzle = vanbeek(shared_dir, "g15.04", "scowl35")  # no fill: every cube must be refuted
    found = cubes.split(puzzle, 1, engine="prolog")
    dropped: list[str] = []
    with DaskRunner(2) as runner:

        def told(tally: Tally, verdict: CubeVerdict | None) -> None:
            if verdict is None or dropped:
                return  # after the first verdict, the scheduler forgets the cubes under way
            dropped.extend(k for k in runner.client.futures if str(k).startswith("cube-"))
            runner.client.cancel([Future(k, runner.client) for k in dropped], force=True)

        search = SearchOptions(engine="prolog", timeout=240)
        options = CubeOptions(depth=1, whole=False)
        conquest = conquer(puzzle, found, search, options, runner, told=told)
    assert dropped
    assert runner.lost == []
    assert sorted(conquest.verdicts) == [c.number for c in found.cubes]
    assert conquest.outcome.status == "unsolvable"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--journal", "j.jsonl"], "--journal goes with --split"),
        (["--split", "1", "--resume"], "--resume goes on with a journal"),
        (["--split", "depth:x"], "expected DEPTH, depth:DEPTH or cubes:N"),
        (["--split", "cubes:0"], "must be at least 1"),
        (["--split", "1", "--maximize", "min"], "leave out --strategy and --maximize"),
        (["--split", "1", "--all"], "finds one fill, or counts them"),
    ],
)
def test_usage_errors(shared_dir: Path, tmp_path: Path, arguments: list[str], message: str) -> None:
    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g05.01.txt"
    dictionary = shared_dir / "bench" / "dicts" / "scowl55.txt"
    command = [*CROSSWORD, "solve", str(grid), "--dict", str(dictionary), *arguments]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path
    )
    assert done.returncode == 2
    assert message in done.stderr


def test_a_batch_of_crosswords_is_verified_and_indexed(shared_dir: Path, tmp_path: Path) -> None:
    dictionary = shared_dir / "bench" / "dicts" / "scowl55.txt"
    folder = tmp_path / "batch"
    command = [
        *CROSSWORD, "make", "--size", "11x11", "--dict", str(dictionary), "--count", "3",
        "--seed", "1", "--folder", str(folder), "--workers", "2", "--try-timeout", "60",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    assert index["made"] == 3
    seeds = [p["seed"] for p in index["puzzles"]]
    assert seeds[0] == 1  # make --seed 1's own crossword
    assert len(set(seeds)) == 3
    words = load_dictionary([dictionary]).words
    grids = set()
    for entry in index["puzzles"]:
        document = json.loads((folder / entry["json"]).read_text(encoding="utf-8"))
        frame = Puzzle(words, tuple(document["pattern"]["grid"]), "grid", mode="lexicon")
        grid = document["solutions"][0]["grid"]
        assert verify.problems(frame, grid) == []
        assert (folder / entry["text"]).read_text(encoding="utf-8").split("\n")[0] == grid[0]
        grids.add(tuple(grid))
    assert len(grids) == 3
    again = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert again.returncode == 2  # the folder is not empty: never overwritten
    assert "not an empty folder" in again.stderr


def test_a_batch_of_word_searches_is_checked_and_indexed(tmp_path: Path) -> None:
    from pybridge import wordsearch

    words = Path(__file__).parent.parent / "data" / "wordsearch" / "names.txt"
    folder = tmp_path / "sheets"
    command = [
        *CROSSWORD, "wordsearch", "make", str(words), "--size", "9x9", "--count", "3",
        "--seed", "5", "--folder", str(folder),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    assert [p["seed"] for p in index["puzzles"]] == [5, 6, 7]
    for entry in index["puzzles"]:
        document = json.loads((folder / entry["json"]).read_text(encoding="utf-8"))
        listed = [p["word"] for p in document["placements"]]
        found = wordsearch.solve(document["grid"], listed)
        assert found.missing == ()


def test_ctrl_c_keeps_the_journal_and_resume_redoes_nothing_finished(
    shared_dir: Path, tmp_path: Path
) -> None:
    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g21.10.txt"
    dictionary = shared_dir / "bench" / "dicts" / "scowl55.txt"
    path = tmp_path / "g21.10.jsonl"
    command = [
        *CROSSWORD, "solve", str(grid), "--dict", str(dictionary), "--split", "1", "--count",
        "--workers", "1", "--cube-timeout", "1", "--journal", str(path), "--quiet",
    ]  # fmt: skip
    running = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and running.poll() is None:
            if path.exists() and len(path.read_text(encoding="utf-8").splitlines()) >= 3:
                break
            time.sleep(0.05)
        running.send_signal(signal.SIGINT)
        stdout, stderr = running.communicate(timeout=120)
    finally:
        running.kill()
    assert running.returncode == 130, stderr
    assert "interrupted (Ctrl-C)" in stdout
    before = [
        json.loads(line)["cube"] for line in path.read_text(encoding="utf-8").splitlines()[1:]
    ]
    assert len(before) >= 2
    resumed = subprocess.run(
        [*command, "--resume", "--timeout", "20", "--output", "json"],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert resumed.returncode == 3, resumed.stderr  # the time limit: hundreds of cubes are left
    document = json.loads(resumed.stdout)
    assert document["cubes"]["from_journal"] == len(before)
    after = [json.loads(line)["cube"] for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    assert after[: len(before)] == before
    assert len(after) == len(set(after))  # no cube run twice
