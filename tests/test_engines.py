"""The two engines hold each other to account.

crossword.pl and its Python mirror must make the same choices in the same
order: on every corpus puzzle and on random ones they must agree on the
status, on the sequence of solutions and on the node and backtrack counts.
Every solution must also pass pybridge.verify, which trusts neither engine.
"""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import known_solution
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from puzzlegen import Grid, break_one_letter, puzzles

from pybridge.model import Puzzle
from pybridge.readers import load
from pybridge.solver import STRATEGIES, Outcome, run
from pybridge.verify import problems, solution_problems

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is not installed")

GUARD = 20.0  # seconds: far above what any corpus case below needs (< 1 s)
LIMIT = 50

# The strategies each corpus puzzle finishes with in well under a second
# (measured: limit 50, both engines). given and sorted are exponential
# elsewhere: fillin/1 with sorted, p7_09b with given run for minutes.
QUICK: dict[str, tuple[str, ...]] = {
    "p99/p7_09a": ("mrv", "sorted", "given"),
    "p99/p7_09b": ("mrv", "sorted"),
    "p99/p7_09c": ("mrv", "sorted", "given"),
    "p99/p7_09d": ("mrv", "sorted"),
    "fillin/1": ("mrv",),
    "fillin/2": ("mrv", "sorted", "given"),
    "fillin/3": ("mrv", "sorted", "given"),
    "fillin/4": ("mrv", "sorted", "given"),
    "fillin/5": ("mrv", "sorted"),
    "fillin/6": ("mrv", "sorted"),
    "fillin/7": ("mrv", "sorted"),
    "fillin/9": ("mrv", "sorted"),
    "fillin/12": ("mrv",),
    "fillin/13": ("mrv",),
    "fillin/_t15": ("mrv",),
    "fillin/_t19": ("mrv",),
    "fillin/_t27": ("mrv",),
}
CASES = [(name, strategy) for name, strategies in QUICK.items() for strategy in strategies]
FILLIN_SOLVED = ("1", "2", "4", "5", "6", "7", "9", "12")  # one solution, filledN given


def load_corpus(shared: Path, name: str) -> Puzzle:
    kind, stem = name.split("/")
    folder = shared / "corpus" / kind
    if kind == "p99":
        return load(folder / f"{stem}.dat")
    return load(folder / f"puzzle{stem}", folder / f"words{stem}")


def key(outcome: Outcome) -> tuple[Any, ...]:
    """What the two engines must agree on (everything but the timing)."""
    return (
        outcome.status,
        [solution.grid for solution in outcome.solutions],
        outcome.count,
        outcome.reason,
        outcome.stats.nodes,
        outcome.stats.backtracks,
    )


def both(puzzle: Puzzle, **options: Any) -> tuple[Outcome, Outcome]:
    return run(puzzle, engine="python", **options), run(puzzle, engine="prolog", **options)


def assert_agree(python: Outcome, prolog: Outcome) -> None:
    assert key(python) == key(prolog), "the engines disagree"


def assert_verified(outcome: Outcome) -> None:
    for solution in outcome.solutions:
        assert solution_problems(solution) == []
    grids = [solution.grid for solution in outcome.solutions]
    assert len(set(grids)) == len(grids), "a grid was found twice"


# ---------------------------------------------------------------- the corpus


@pytest.mark.parametrize(("name", "strategy"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
def test_corpus_engines_agree(shared_dir: Path, name: str, strategy: str) -> None:
    puzzle = load_corpus(shared_dir, name)
    python, prolog = both(puzzle, strategy=strategy, limit=LIMIT, timeout=GUARD)
    assert python.status != "timeout", f"{name} with {strategy} took over {GUARD} s"
    assert_agree(python, prolog)
    assert_verified(python)
    expected = "unsolvable" if name == "p99/p7_09c" else "solved"
    assert python.status == expected


def test_p99_c_is_caught_before_the_search(shared_dir: Path) -> None:
    puzzle = load_corpus(shared_dir, "p99/p7_09c")
    for outcome in both(puzzle, strategy="given", limit=None):
        assert outcome.status == "unsolvable"
        assert str(outcome.reason).startswith("word and site lengths")
        assert (outcome.stats.nodes, outcome.stats.backtracks) == (0, 0)


@pytest.mark.parametrize("stem", ["p7_09a", "p7_09b", "p7_09d"])
def test_p99_unique_known_answer(shared_dir: Path, stem: str) -> None:
    name = f"p99/{stem}"
    python, prolog = both(load_corpus(shared_dir, name), limit=None, timeout=GUARD)
    assert_agree(python, prolog)
    assert [s.grid for s in python.solutions] == [known_solution(shared_dir, name).grid]


@pytest.mark.parametrize("stem", FILLIN_SOLVED)
def test_fillin_known_answer(shared_dir: Path, stem: str) -> None:
    puzzle = load_corpus(shared_dir, f"fillin/{stem}")
    python, prolog = both(puzzle, count=True, timeout=GUARD)
    assert_agree(python, prolog)
    assert python.count == 1
    solution = run(puzzle, engine="prolog", timeout=GUARD).solutions[0]
    assert problems(puzzle, solution.grid) == []
    assert solution.grid == known_solution(shared_dir, f"fillin/{stem}").grid


def test_fillin_3_has_exactly_the_two_known_answers(shared_dir: Path) -> None:
    puzzle = load_corpus(shared_dir, "fillin/3")
    python, prolog = both(puzzle, count=True)
    assert_agree(python, prolog)
    assert python.count == 2
    found = {s.grid for s in run(puzzle, engine="prolog", limit=None).solutions}
    assert found == {known_solution(shared_dir, f"fillin/{x}").grid for x in ("3a", "3b")}


def test_fillin_4_three_givens_leave_one_answer(shared_dir: Path) -> None:
    puzzle = load_corpus(shared_dir, "fillin/4")
    python, prolog = both(puzzle, count=True)
    assert_agree(python, prolog)
    assert python.count == 1
    (solution,) = run(puzzle, engine="prolog", limit=None).solutions
    assert solution.grid == known_solution(shared_dir, "fillin/4").grid


@pytest.mark.parametrize("stem", ["13", "_t15", "_t19", "_t27"])
def test_fillin_without_expected_file_verifies(shared_dir: Path, stem: str) -> None:
    puzzle = load_corpus(shared_dir, f"fillin/{stem}")
    python, prolog = both(puzzle, count=True, timeout=GUARD)
    assert_agree(python, prolog)
    assert (python.count or 0) >= 1
    for solution in run(puzzle, engine="prolog", limit=None, timeout=GUARD).solutions:
        assert problems(puzzle, solution.grid) == []


# ---------------------------------------------------------------- random puzzles

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
FIRST = 20
# Small puzzles, and larger ones (up to 13x13, some 30 sites).
ANY_SIZE = st.one_of(puzzles(), puzzles(sizes=(8, 13), words=(15, 35), max_length=9))
PYTHON_BUDGET = 2.0  # seconds for the Python engine before a case is skipped


def agree_on(puzzle: Puzzle, strategy: str, **options: Any) -> Outcome | None:
    """Both engines' outcome (asserted equal), or None when the Python engine
    runs out of time first (given/sorted can be exponential). The Prolog
    engine then gets a generous multiple of the Python engine's time: it is
    never slower by more than a small factor, so running out means a bug."""
    started = time.perf_counter()
    python = run(puzzle, engine="python", strategy=strategy, timeout=PYTHON_BUDGET, **options)
    if python.status == "timeout":
        event(f"{strategy}: the Python engine ran out of time")
        return None
    allowed = max(5.0, 20 * (time.perf_counter() - started))
    prolog = run(puzzle, engine="prolog", strategy=strategy, timeout=allowed, **options)
    assert prolog.status != "timeout", f"prolog ran {allowed:.1f} s, python finished"
    assert_agree(python, prolog)
    return python


@PROPERTY
@given(ANY_SIZE)
def test_random_puzzles_engines_agree(case: tuple[Puzzle, Grid]) -> None:
    puzzle, planted = case
    assert problems(puzzle, planted) == []  # the generator's own promise
    for strategy in STRATEGIES:
        outcome = agree_on(puzzle, strategy, limit=FIRST)
        if outcome is None:
            continue
        assert outcome.status == "solved"
        assert_verified(outcome)


@PROPERTY
@given(puzzles())
def test_random_puzzles_planted_grid_is_found(case: tuple[Puzzle, Grid]) -> None:
    puzzle, planted = case
    outcome = agree_on(puzzle, "mrv", limit=None)
    assert outcome is not None
    assert_verified(outcome)
    assert planted in [solution.grid for solution in outcome.solutions]
    counted = agree_on(puzzle, "mrv", count=True)
    assert counted is not None
    assert counted.count == len(outcome.solutions)


@PROPERTY
@given(puzzles(duplicate=True), st.randoms(use_true_random=False))
def test_duplicate_words_give_each_grid_once(case: tuple[Puzzle, Grid], rng: random.Random) -> None:
    puzzle, planted = case
    strategy = rng.choice(STRATEGIES)
    outcome = agree_on(puzzle, strategy, limit=None)
    if outcome is None:
        return
    assert_verified(outcome)
    assert planted in [solution.grid for solution in outcome.solutions]


@PROPERTY
@given(puzzles(), st.randoms(use_true_random=False))
def test_break_one_letter_changes_one_letter(case: tuple[Puzzle, Grid], rng: random.Random) -> None:
    puzzle = case[0]
    broken = break_one_letter(puzzle, rng)
    assert broken.grid == puzzle.grid
    assert [len(w) for w in broken.words] == [len(w) for w in puzzle.words]
    letters = zip("".join(puzzle.words), "".join(broken.words), strict=True)
    assert sum(a != b for a, b in letters) == (1 if puzzle.words else 0)


@PROPERTY
@given(ANY_SIZE, st.randoms(use_true_random=False))
def test_one_letter_broken_engines_agree(case: tuple[Puzzle, Grid], rng: random.Random) -> None:
    puzzle = break_one_letter(case[0], rng)
    statuses = set()
    for strategy in STRATEGIES:
        outcome = agree_on(puzzle, strategy, limit=FIRST)
        if outcome is None:
            continue
        statuses.add(outcome.status)
        assert_verified(outcome)
    # Solvability does not depend on the search order.
    assert len(statuses) <= 1


# ---------------------------------------------------------------- node limits


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(sizes=(3, 7), words=(4, 12), max_length=5), st.randoms(use_true_random=False))
def test_a_node_limit_stops_both_engines_at_the_same_node(
    case: tuple[Puzzle, Grid], rng: random.Random
) -> None:
    """A node limit (SearchOptions.node_limit, the ascent's slices) is kept
    inside each engine (Counters.node, kernel.pl's count_node): cut after
    any number of nodes, every strategy stops at the same node in both,
    with the same status, counters and solutions so far."""
    puzzle = case[0]
    for strategy in STRATEGIES:
        whole = run(puzzle, engine="python", strategy=strategy, limit=FIRST, prove=False)
        if whole.status == "timeout":
            continue
        stops = {0, 1, whole.stats.nodes - 1, whole.stats.nodes, rng.randint(0, whole.stats.nodes)}
        for stop in sorted(n for n in stops if n >= 0):
            python, prolog = both(
                puzzle, strategy=strategy, limit=FIRST, prove=False, node_limit=stop, timeout=GUARD
            )
            assert_agree(python, prolog)
            assert python.stats.nodes <= stop
            if stop < whole.stats.nodes:
                assert python.status == "timeout"
            else:
                assert key(python) == key(whole)
