"""`crossword make` and pybridge.make_crossword: a pattern and its fill, the
fill verified (here again, by pybridge.verify against the dictionary as read
from its file), other patterns tried when a fill fails, and the exit codes."""

from __future__ import annotations

import itertools
import json
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge import construct
from pybridge.cli import main
from pybridge.construct import make, parse_range
from pybridge.errors import EngineError, UsageError
from pybridge.lexicon import load_dictionary
from pybridge.model import Puzzle
from pybridge.search.kernel import Lcg
from pybridge.solver import Outcome, Stats
from pybridge.verify import problems

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]
SMALL = ["--size", "5x5", "--blocks", "4", "--min-length", "2", "--symmetry", "none"]


@pytest.fixture
def words2(shared_dir: Path) -> Path:
    return shared_dir / "corpus" / "cs50" / "words2.txt"


def filled(grid: list[str] | tuple[str, ...], dictionary: Path) -> list[str]:
    """The verifier's problems with `grid` as a fill of its own pattern."""
    pattern = tuple("".join("#" if ch == "#" else "." for ch in row) for row in grid)
    words = load_dictionary([dictionary], cached=False).words
    return problems(Puzzle(words, pattern, "grid", mode="lexicon"), grid)


@pytest.mark.parametrize("engine", ENGINES)
def test_make_gives_a_verified_fill(
    engine: str, words2: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["make", *SMALL, "--dict", str(words2), "--seed", "1", "--engine", engine]
    assert main([*argv, "--output", "json"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    grid = doc["solutions"][0]["grid"]
    assert doc["status"] == "solved"
    assert filled(grid, words2) == []
    assert doc["pattern"]["grid"] == ["".join("#" if c == "#" else "." for c in r) for r in grid]
    assert [t["status"] for t in doc["tries"]] == ["solved"]
    # seed 1 and 7 drawn from it, the easiest by the estimate tried first
    assert f"try 1: pattern seed {doc['pattern']['seed']} " in captured.err
    assert main(argv) == 0  # text: the same crossword
    assert capsys.readouterr().out.split() == grid


def test_the_api_makes_the_same_crossword(words2: Path) -> None:
    made = pybridge.make_crossword(
        5, 5, words2, blocks=4, min_length=2, symmetry="none", seed=1, engine="python"
    )
    assert made.status == "solved"
    assert made.solution is not None
    assert filled(made.solution.grid, words2) == []
    assert made.pattern is not None
    assert [t.pattern for t in made.tries] == [made.pattern]
    again = pybridge.make_crossword(
        5, 5, words2, blocks=4, min_length=2, symmetry="none", seed=1, engine="python"
    )
    assert again.solution == made.solution  # the same seed, the same crossword


def test_a_dictionary_that_cannot_fill_any_pattern(
    shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words0 = shared_dir / "corpus" / "cs50" / "words0.txt"
    argv = ["make", "--size", "5x5", "--blocks", "0", "--dict", str(words0), "--tries", "3"]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "no crossword: 1 pattern tried (1 unsolvable)" in captured.out
    assert "no new pattern came up" in captured.out  # the only pattern, not tried again
    # the proof's reason: these 4 5-letter sites fit only 3 dictionary words
    assert "cannot all be filled: these 4 5-letter sites fit only 3 dictionary words" in (
        captured.err
    )


def _timed_out(puzzle: Puzzle, **options: Any) -> Outcome:
    return Outcome("timeout", stats=Stats("python", "wdeg", nodes=7, seconds=0.01))


def test_fills_that_run_out_of_time_give_way_to_other_patterns(
    words2: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(construct, "run", _timed_out)
    argv = ["make", "--size", "7x7", "--blocks", "10", "--dict", str(words2), "--tries", "4"]
    argv += ["--seed", "9"]
    assert main([*argv, "--engine", "python"]) == 3
    captured = capsys.readouterr()
    assert [line.split(":")[0] for line in captured.err.splitlines()] == [
        "try 1",
        "try 2",
        "try 3",
        "try 4",
    ]
    assert "no fill within" in captured.err
    assert "4 patterns tried (4 timeout)" in captured.out


def test_a_wrong_fill_is_an_internal_error(
    words2: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real_run = construct.run

    def spoiled(puzzle: Puzzle, **options: Any) -> Outcome:
        outcome = real_run(puzzle, **options)
        solution = outcome.solutions[0]
        rows = [solution.grid[0].replace(solution.grid[0][0], "Q", 1), *solution.grid[1:]]
        outcome.solutions = [replace(solution, grid=tuple(rows))]
        return outcome

    monkeypatch.setattr(construct, "run", spoiled)
    words = load_dictionary([words2]).words
    with pytest.raises(EngineError, match="failed verification"):
        make(5, 5, words, blocks=4, min_length=2, symmetry="none", seed=3, engine="python")
    argv = ["make", *SMALL, "--dict", str(words2), "--seed", "3", "--engine", "python"]
    assert main(argv) == 4


def test_a_difficulty_range_passes_patterns_over(
    words2: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = load_dictionary([words2]).words
    small = {"blocks": 4, "min_length": 2, "symmetry": "none", "engine": "python"}
    plain = make(5, 5, words, seed=1, **small)  # type: ignore[arg-type]
    assert [t.difficulty for t in plain.tries] == [2.8633]  # the easiest of the pool
    assert plain.passed_over == 2  # 8 patterns drawn, 6 of them new
    easy = make(5, 5, words, seed=1, difficulty=(2.5, 3.0), **small)  # type: ignore[arg-type]
    assert [t.pattern for t in easy.tries] == [t.pattern for t in plain.tries]
    assert easy.passed_over == 4  # 2 repeats, and 2 estimated above 3
    assert all(d is not None and d > 3 for d in easy.skipped_difficulties)
    assert easy.solution == plain.solution
    with pytest.raises(UsageError, match=r"no pattern with a difficulty from 0 to 0\.5"):
        make(7, 7, words, seed=1, difficulty=(0, 0.5), engine="python")
    argv = ["make", "--size", "7x7", "--dict", str(words2), "--difficulty", "0:0.5"]
    assert main(argv) == 2
    assert "theirs ranged from" in capsys.readouterr().err


def test_each_pool_of_patterns_is_tried_easiest_first(
    words2: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(construct, "run", _timed_out)
    words = load_dictionary([words2]).words
    made = make(7, 7, words, seed=9, tries=construct.POOL + 2, engine="python")
    seeds = Lcg(9)
    pool = [9, *(seeds.below(2**32) for _ in range(construct.POOL - 1))]  # the first pool
    first = [t for t in made.tries if t.pattern.seed in pool]
    assert made.tries[: len(first)] == first  # the whole pool, then the next
    estimated = [max(t.difficulty, construct.EASY) for t in first if t.difficulty is not None]
    assert estimated == sorted(estimated)  # easiest first (those under EASY alike)
    assert all(t.status == "unsolvable" for t in first[len(estimated) :])  # proofs last
    assert len(first) + made.passed_over >= construct.POOL  # repeats are passed over
    assert not {t.pattern.seed for t in made.tries[len(first) :]} & set(pool)


def test_beyond_15x15_the_easiest_of_a_bigger_pool_is_tried_first(
    words2: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert construct.pool_size(15, 15) == construct.POOL
    assert construct.pool_size(15, 16) == construct.pool_size(21, 21) == construct.BIG_POOL
    monkeypatch.setattr(construct, "run", _timed_out)
    ranked: list[Any] = []
    rank = construct._Fill.rank

    def recorded(fill: Any, pattern: Any) -> Any:
        ranked.append(rank(fill, pattern))
        return ranked[-1]

    monkeypatch.setattr(construct._Fill, "rank", recorded)
    words = load_dictionary([words2]).words
    made = make(16, 16, words, seed=4, tries=3, engine="python")
    assert len(ranked) == construct.BIG_POOL  # one pool, all of it ranked
    easiest = sorted(ranked, key=construct._Ranked.order)[:3]
    assert [t.pattern for t in made.tries] == [r.pattern for r in easiest]


def test_each_try_gets_its_processor_time_by_default(
    words2: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert construct.try_seconds(15, 15) == construct.DEFAULT_TRY_TIMEOUT
    assert construct.try_seconds(7, 7) == construct.DEFAULT_TRY_TIMEOUT  # small: no less
    assert construct.try_seconds(21, 21) == pytest.approx(2 * (441 / 225) ** 2)  # 7.7 s
    # a quiet machine, then busier, then very busy, then quiet again
    shares = itertools.chain([1.0, 0.25, 0.05], itertools.repeat(1.0))

    def share(self: object) -> float:
        return max(construct.LEAST_SHARE, next(shares))

    limits: list[float] = []

    def timed_out(puzzle: Puzzle, **options: Any) -> Outcome:
        limits.append(options["options"].timeout)
        return _timed_out(puzzle)

    monkeypatch.setattr(construct._Clock, "share", share)
    monkeypatch.setattr(construct, "run", timed_out)
    words = load_dictionary([words2]).words
    made = make(7, 7, words, seed=9, tries=3, engine="python")
    assert len(made.tries) == 3
    assert limits == pytest.approx([2.0, 8.0, 20.0])  # 2 s of processor time: 10 times at most
    limits.clear()
    make(7, 7, words, seed=9, tries=1, try_timeout=1.5, engine="python")
    assert limits == [1.5]  # a number is time on the clock, as given
    argv = ["make", "--size", "7x7", "--dict", str(words2), "--seed", "9", "--tries", "1"]
    assert main([*argv, "--try-timeout", "AUTO", "--engine", "python"]) == 3
    assert main([*argv, "--try-timeout", "soon"]) == 2
    assert "--try-timeout: expected a number of seconds, got 'soon'" in capsys.readouterr().err


def test_the_clock_tells_the_share_of_a_core() -> None:
    clock = construct._Clock()
    clock.wall -= 100.0  # 100 s on the clock, and far less processor time: a busy machine
    assert clock.share() == construct.LEAST_SHARE
    clock.wall, clock.cpu = clock.wall - 100.0, clock.cpu - 50.0  # half a core
    assert clock.share() == pytest.approx(0.5, abs=0.01)
    clock.wall, clock.cpu = clock.wall - 100.0, clock.cpu - 150.0  # threads: more than a core
    assert clock.share() == 1.0


def test_parse_range() -> None:
    assert parse_range("2:3") == (2.0, 3.0)
    assert parse_range(":2.5") == (float("-inf"), 2.5)
    for bad in ("3", "3:2", "a:b"):
        with pytest.raises(UsageError):
            parse_range(bad)


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        (["--size", "4x4", "--blocks", "0.9"], 1),
        (["--size", "15x15", "--blocks", "0.55", "--attempts", "1", "--max-words", "any"], 3),
        (["--size", "15x15", "--blocks", "0.55"], 1),  # a bound: too many words
        (["--strategy", "given"], 2),
        (["--tries", "0"], 2),
        (["--try-timeout", "0"], 2),
    ],
)
def test_cli_exit_codes(
    extra: list[str], code: int, words2: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["make", "--dict", str(words2), "--seed", "1", *extra]) == code
    assert "Traceback" not in capsys.readouterr().err
