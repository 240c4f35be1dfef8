"""The construction-mode strategies (ac3, lcv, cs50, and mrv beside them) and
the seed: both engines must agree exactly, with and without a seed, in exact
and in lexicon mode; arc consistency must never change the set of
solutions; a seed must give the same fill every time and different seeds
different fills."""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puzzlegen import Grid, puzzles

from pybridge.cli import main
from pybridge.errors import UsageError
from pybridge.model import Puzzle
from pybridge.search import registry
from pybridge.search.kernel import Lcg
from pybridge.solver import LEXICON_STRATEGIES, STRATEGIES, Outcome, run
from pybridge.verify import problems

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")

DOMAIN_STRATEGIES = registry.SEEDED_STRATEGIES  # the strategies with domains (and a seed)
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEMO = str(Path(__file__).resolve().parents[1] / "data" / "demo.dat")
SEEDS = st.one_of(st.none(), st.integers(0, 2**70))  # past 2**64: the seed is taken mod 2**64


def signature(outcome: Outcome) -> tuple[object, ...]:
    grids = [s.grid for s in outcome.solutions]
    return outcome.status, grids, outcome.count, outcome.stats.nodes, outcome.stats.backtracks


def both(puzzle: Puzzle, **options: Any) -> tuple[Outcome, Outcome]:
    python, prolog = (run(puzzle, engine=e, prove=False, **options) for e in ("python", "prolog"))
    assert signature(python) == signature(prolog), "the engines disagree"
    return python, prolog


def as_lexicon(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """The puzzle's distinct words plus a few random ones, as a dictionary."""
    extra = ["".join(rng.choice("abc") for _ in range(rng.randint(2, 5))) for _ in range(8)]
    return replace(puzzle, words=tuple(dict.fromkeys([*puzzle.words, *extra])), mode="lexicon")


def exact_or_lexicon(made: tuple[Puzzle, Grid], lexicon: bool, rng: random.Random) -> Puzzle:
    return as_lexicon(made[0], rng) if lexicon else made[0]


def assert_verified(puzzle: Puzzle, outcome: Outcome) -> None:
    for solution in outcome.solutions:
        assert problems(puzzle, solution.grid) == []
    grids = [solution.grid for solution in outcome.solutions]
    assert len(set(grids)) == len(grids), "a grid was found twice"


def grids(outcome: Outcome) -> set[Grid]:
    return {solution.grid for solution in outcome.solutions}


def open_grid(words: tuple[str, ...], size: int) -> Puzzle:
    return Puzzle(words, ("." * size,) * size, format="grid", mode="lexicon")


def synthetic_dictionary(size: int, count: int) -> tuple[str, ...]:
    rng = random.Random(2016)
    words = ("".join(rng.choice("aeinrst") for _ in range(size)) for _ in range(count))
    return tuple(dict.fromkeys(words))


def first_fill(puzzle: Puzzle, seed: int | None, engine: str = "python") -> Grid:
    outcome = run(puzzle, engine=engine, strategy="cs50", seed=seed, timeout=60, prove=False)
    assert outcome.status == "solved"
    return outcome.solutions[0].grid


# ---------------------------------------------------------------- the strategy lists


def test_the_domain_strategies_apply_to_both_modes() -> None:
    assert ("given", "sorted", *DOMAIN_STRATEGIES, "valued") == STRATEGIES
    assert (*DOMAIN_STRATEGIES, "valued") == LEXICON_STRATEGIES  # valued: tests/test_valued.py


# ---------------------------------------------------------------- agreement


@PROPERTY
@given(puzzles(), st.booleans(), SEEDS, st.randoms(use_true_random=False))
def test_engines_agree(
    made: tuple[Puzzle, Grid], lexicon: bool, seed: int | None, rng: random.Random
) -> None:
    puzzle = exact_or_lexicon(made, lexicon, rng)
    for strategy in DOMAIN_STRATEGIES:
        python, _ = both(puzzle, strategy=strategy, seed=seed, limit=20, timeout=10)
        if not lexicon:  # a lexicon puzzle may need a word twice where its plant had it
            assert python.status == "solved"
        assert_verified(puzzle, python)


@PROPERTY
@given(puzzles(sizes=(3, 6), words=(3, 9), max_length=5), st.booleans(), SEEDS, st.randoms())
def test_every_domain_strategy_finds_the_same_set(
    made: tuple[Puzzle, Grid], lexicon: bool, seed: int | None, rng: random.Random
) -> None:
    puzzle = exact_or_lexicon(made, lexicon, rng)
    reference = grids(run(puzzle, engine="python", strategy="mrv", limit=None, prove=False))
    if not lexicon:
        assert made[1] in reference
    for strategy in DOMAIN_STRATEGIES:
        found = run(puzzle, engine="python", strategy=strategy, seed=seed, limit=None, prove=False)
        assert grids(found) == reference, f"{strategy} (seed {seed}) changed the solutions"


def crossing_pair(words: tuple[str, ...]) -> Puzzle:
    """1-Across and 2-Down sharing the second letter of 1-Across."""
    return Puzzle(words, ("..", "#."), format="grid")


def test_ac3_empties_a_domain_before_the_search() -> None:
    puzzle = crossing_pair(("ab", "cd"))  # no word starts with b or d
    mrv, _ = both(puzzle, strategy="mrv", limit=None)
    assert (mrv.status, mrv.stats.nodes, mrv.stats.backtracks) == ("unsolvable", 2, 2)
    for strategy in ("ac3", "cs50"):
        outcome, _ = both(puzzle, strategy=strategy, limit=None)
        assert (outcome.status, outcome.stats.nodes, outcome.stats.backtracks) == (
            "unsolvable",
            0,
            1,
        )


def test_ac3_prunes_what_cannot_cross() -> None:
    # "xq" fits 1-Across by length, but no word starts with q: ac3 drops it,
    # so the search places no word it would have to take back.
    puzzle = replace(crossing_pair(("xq", "ab", "bc")), mode="lexicon")
    mrv, _ = both(puzzle, strategy="mrv", limit=None)
    ac3, _ = both(puzzle, strategy="ac3", limit=None)
    assert grids(mrv) == grids(ac3) == {("ab", "#c")}
    assert (mrv.stats.nodes, mrv.stats.backtracks) == (4, 2)
    assert (ac3.stats.nodes, ac3.stats.backtracks) == (2, 0)


def test_lcv_tries_the_least_constraining_word_first() -> None:
    # Both sites start at the shared cell. "xy" leaves 2-Down one word that
    # starts with x (itself, used up); "ab" and "ac" leave two starting with a.
    puzzle = Puzzle(("xy", "ab", "ac"), ("..", ".#"), format="grid", mode="lexicon")
    mrv, _ = both(puzzle, strategy="mrv", limit=1)
    lcv, _ = both(puzzle, strategy="lcv", limit=1)
    assert mrv.solutions[0].grid == lcv.solutions[0].grid == ("ab", "c#")
    assert (mrv.stats.nodes, mrv.stats.backtracks) == (3, 1)
    assert (lcv.stats.nodes, lcv.stats.backtracks) == (2, 0)


# ---------------------------------------------------------------- the seed


def test_prng_first_draws() -> None:
    # (1 * 6364136223846793005 + 1442695040888963407) mod 2**64 >> 33 = 908834774
    rng = Lcg(1)
    assert [rng.draw() for _ in range(3)] == [908834774, 1093944153, 1392341196]
    assert Lcg(2**64 + 1).draw() == 908834774


def test_shuffle_is_fisher_yates_from_the_top() -> None:
    rng, items = Lcg(1), list(range(5))
    rng.shuffle(items)
    check = Lcg(1)
    expected = list(range(5))
    for i in (4, 3, 2, 1):
        j = check.draw() % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert sorted(items) == list(range(5))


def test_without_a_seed_nothing_changes() -> None:
    puzzle = open_grid(synthetic_dictionary(3, 60), 3)
    for strategy in DOMAIN_STRATEGIES:
        plain = run(puzzle, engine="python", strategy=strategy, prove=False)
        unseeded = run(puzzle, engine="python", strategy=strategy, seed=None, prove=False)
        assert signature(plain) == signature(unseeded)


def test_same_seed_same_fill_different_seeds_different_fills() -> None:
    puzzle = open_grid(synthetic_dictionary(4, 400), 4)
    assert first_fill(puzzle, 7) == first_fill(puzzle, 7) == first_fill(puzzle, 7, "prolog")
    fills = {first_fill(puzzle, seed) for seed in range(8)}
    assert len(fills) >= 6
    for fill in fills:
        assert problems(puzzle, fill) == []


def test_scowl55_seeds_give_different_4x4_fills(shared_dir: Path) -> None:
    text = (shared_dir / "bench" / "dicts" / "scowl55.txt").read_text()
    words = tuple(dict.fromkeys(w.strip().upper() for w in text.splitlines() if w.strip()))
    puzzle = open_grid(words, 4)
    fills = [first_fill(puzzle, seed) for seed in (1, 2, 3)]
    assert len(set(fills)) == 3
    for strategy in DOMAIN_STRATEGIES:
        python, _ = both(puzzle, strategy=strategy, seed=1, timeout=60)
        assert python.status == "solved"
        assert_verified(puzzle, python)
    assert first_fill(puzzle, 1, "prolog") == fills[0]


@pytest.mark.parametrize("seed", [-1, True, 1.5, "3"])
def test_a_seed_is_an_integer_at_least_zero(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        run(crossing_pair(("ab", "bc")), strategy="mrv", seed=seed)


@pytest.mark.parametrize("strategy", registry.EXACT_ONLY_STRATEGIES)
def test_word_driven_strategies_take_no_seed(strategy: str) -> None:
    with pytest.raises(UsageError, match="takes no seed"):
        run(crossing_pair(("ab", "bc")), strategy=strategy, seed=1)


# ---------------------------------------------------------------- the command line


def write_construction(tmp_path: Path) -> tuple[str, str]:
    grid = tmp_path / "open.grid"
    grid.write_text("....\n" * 4)
    words = tmp_path / "words.txt"
    words.write_text("\n".join(synthetic_dictionary(4, 400)) + "\n")
    return str(grid), str(words)


def solve_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["solve", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("strategy", DOMAIN_STRATEGIES)
def test_cli_seed_same_answer_in_both_engines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strategy: str
) -> None:
    grid, words = write_construction(tmp_path)
    answers = set()
    for engine in ("prolog", "python"):
        common = [grid, "--dict", words, "--strategy", strategy, "--engine", engine, "--stats"]
        code, out, err = solve_cli(capsys, *common, "--seed", "11")
        assert code == 0
        stats = err.strip().splitlines()[-1].rsplit(" seconds=", 1)[0]
        answers.add((out, stats.replace(f"engine={engine}", "")))
    assert len(answers) == 1
    code, unseeded, _ = solve_cli(capsys, grid, "--dict", words, "--strategy", strategy)
    assert code == 0
    assert unseeded != next(iter(answers))[0]


@pytest.mark.parametrize("seed", ["-1", "x", "1.0"])
def test_cli_rejects_a_bad_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seed: str
) -> None:
    grid, words = write_construction(tmp_path)
    code, _, err = solve_cli(capsys, grid, "--dict", words, "--seed", seed)
    assert code == 2
    assert "--seed" in err
    assert "Traceback" not in err


def test_cli_seed_with_given_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = solve_cli(capsys, DEMO, "--strategy", "given", "--seed", "1")
    assert code == 2
    assert "takes no seed" in err


def test_cli_check_takes_a_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid, words = write_construction(tmp_path)
    assert main(["check", grid, "--dict", words, "--strategy", "cs50", "--seed", "4"]) == 0
    first = capsys.readouterr().out
    assert main(["check", grid, "--dict", words, "--strategy", "cs50", "--seed", "4"]) == 0
    assert capsys.readouterr().out == first
    assert first.startswith("solvable\n")


def test_cli_help_explains_the_seed_and_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "same seed, same answer in both engines" in text
    assert "default: mrv" in text
    for strategy in STRATEGIES:
        assert strategy in text


def test_cli_compare_with_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", DEMO, "--seed", "9", "--repeat", "1", "--output", "json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert {r["strategy"] for r in report["records"]} == set(DOMAIN_STRATEGIES)
    assert report["disagreements"] == []


def test_cli_compare_seed_with_given_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", DEMO, "--seed", "9", "--strategies", "given,mrv"])
    assert code == 2
    assert "takes no seed" in capsys.readouterr().err
