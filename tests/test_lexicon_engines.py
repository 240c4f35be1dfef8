"""Lexicon mode (construction): each site takes a different dictionary word,
most words unused. Both engines must agree exactly, as in exact mode."""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzlegen import puzzles

from pybridge.errors import UsageError
from pybridge.model import Puzzle
from pybridge.search import registry
from pybridge.solver import Outcome, run

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")


def as_lexicon(puzzle: Puzzle, extra: list[str]) -> Puzzle:
    """The puzzle's distinct words plus `extra`, as a dictionary."""
    dictionary = tuple(dict.fromkeys([*puzzle.words, *extra]))
    return replace(puzzle, words=dictionary, mode="lexicon")


def signature(outcome: Outcome) -> tuple[object, ...]:
    grids = [s.grid for s in outcome.solutions]
    return outcome.status, grids, outcome.count, outcome.stats.nodes, outcome.stats.backtracks


def lexicon_problems(puzzle: Puzzle, grid: tuple[str, ...], words: list[str]) -> list[str]:
    """Independent of the verifier: every run word in the dictionary, none twice."""
    problems = [w for w in words if w not in puzzle.words]
    if len(set(words)) != len(words):
        problems.append("a word used twice")
    return problems


@settings(max_examples=40, deadline=None)
@given(puzzles(sizes=(3, 6), words=(3, 9), max_length=5), st.integers(0, 2**32 - 1))
def test_engines_agree_in_lexicon_mode(made: tuple[Puzzle, tuple[str, ...]], seed: int) -> None:
    puzzle, _ = made
    rng = random.Random(seed)
    extra = ["".join(rng.choice("abc") for _ in range(rng.randint(2, 5))) for _ in range(8)]
    lexicon = as_lexicon(puzzle, extra)
    outcomes = [
        run(lexicon, engine=engine, limit=20, timeout=5, prove=False)
        for engine in ("prolog", "python")
    ]
    assert signature(outcomes[0]) == signature(outcomes[1])
    for solution in outcomes[1].solutions:
        words = [p.word for p in solution.placements]
        assert lexicon_problems(lexicon, solution.grid, words) == []
    assert len({s.grid for s in outcomes[1].solutions}) == len(outcomes[1].solutions)


def test_a_word_is_used_at_most_once() -> None:
    # Two crossing 2-letter sites and one word: exact mode would need two copies.
    puzzle = Puzzle(("aa",), ("..", ".#"), format="grid", mode="lexicon")
    for engine in ("prolog", "python"):
        assert run(puzzle, engine=engine, prove=False).status == "unsolvable"
    roomy = replace(puzzle, words=("aa", "ab"))
    for engine in ("prolog", "python"):
        outcome = run(roomy, engine=engine, limit=None, prove=False)
        assert sorted(s.grid for s in outcome.solutions) == [("aa", "b#"), ("ab", "a#")]


@pytest.mark.parametrize("strategy", registry.EXACT_ONLY_STRATEGIES)
def test_word_driven_strategies_need_exact_mode(strategy: str) -> None:
    puzzle = Puzzle(("aa", "ab"), ("..", ".#"), format="grid", mode="lexicon")
    with pytest.raises(UsageError, match="does not apply to a lexicon puzzle"):
        run(puzzle, strategy=strategy)


def test_scowl55_fills_a_5x5_in_both_engines(shared_dir: Path) -> None:
    words = tuple(
        w.strip().upper()
        for w in (shared_dir / "bench" / "dicts" / "scowl55.txt").read_text().splitlines()
    )
    puzzle = Puzzle(words, (".....",) * 5, format="grid", mode="lexicon")
    outcomes = [run(puzzle, engine=e, timeout=60, prove=False) for e in ("prolog", "python")]
    assert signature(outcomes[0]) == signature(outcomes[1])
    assert outcomes[0].status == "solved"
    rows = outcomes[0].solutions[0].grid
    columns = ["".join(row[c] for row in rows) for c in range(5)]
    assert lexicon_problems(puzzle, rows, [*rows, *columns]) == []
