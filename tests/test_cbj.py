"""cbj, forward checking with conflict-directed backjumping: both engines
agree on everything, it finds mrv's solutions in mrv's order, and it never
places more words than mrv (backjumping only prunes)."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import known_solution
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puzzlegen import Grid, break_one_letter, puzzles
from test_strategies import SEEDS, exact_or_lexicon

from pybridge.model import Puzzle
from pybridge.readers import load
from pybridge.solver import LEXICON_STRATEGIES, SEEDED_STRATEGIES, STRATEGIES, Outcome, run
from pybridge.verify import problems

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SMALL = puzzles(sizes=(3, 6), words=(3, 9), max_length=5)


def signature(outcome: Outcome) -> tuple[object, ...]:
    grids = [s.grid for s in outcome.solutions]
    return outcome.status, grids, outcome.count, outcome.stats.nodes, outcome.stats.backtracks


def both(puzzle: Puzzle, **options: Any) -> Outcome:
    python, prolog = (run(puzzle, engine=e, prove=False, **options) for e in ("python", "prolog"))
    assert signature(python) == signature(prolog), "the engines disagree"
    return python


def in_order(outcome: Outcome) -> list[Grid]:
    return [solution.grid for solution in outcome.solutions]


def test_cbj_is_listed_everywhere() -> None:
    assert "cbj" in STRATEGIES
    assert "cbj" in LEXICON_STRATEGIES
    assert "cbj" in SEEDED_STRATEGIES


@PROPERTY
@given(puzzles(), st.booleans(), SEEDS, st.randoms(use_true_random=False))
def test_engines_agree(
    made: tuple[Puzzle, Grid], lexicon: bool, seed: int | None, rng: random.Random
) -> None:
    puzzle = exact_or_lexicon(made, lexicon, rng)
    outcome = both(puzzle, strategy="cbj", seed=seed, limit=20, timeout=10)
    if not lexicon:
        assert outcome.status == "solved"


@PROPERTY
@given(puzzles(duplicate=True), st.randoms(use_true_random=False))
def test_engines_agree_with_a_letter_broken(made: tuple[Puzzle, Grid], rng: random.Random) -> None:
    both(break_one_letter(made[0], rng), strategy="cbj", limit=20, timeout=10)


@PROPERTY
@given(SMALL, st.booleans(), SEEDS, st.randoms(use_true_random=False))
def test_mrvs_solutions_in_mrvs_order_and_never_more_nodes(
    made: tuple[Puzzle, Grid], lexicon: bool, seed: int | None, rng: random.Random
) -> None:
    puzzle = exact_or_lexicon(made, lexicon, rng)
    if rng.random() < 0.5:
        puzzle = break_one_letter(puzzle, rng)
    options: dict[str, Any] = {"engine": "python", "limit": None, "prove": False, "seed": seed}
    mrv, cbj = (run(puzzle, strategy=s, **options) for s in ("mrv", "cbj"))
    assert in_order(cbj) == in_order(mrv)
    assert cbj.stats.nodes <= mrv.stats.nodes
    assert cbj.stats.backtracks <= mrv.stats.backtracks


def corner() -> Puzzle:
    # 3-Down and 4-Across share their second letter, so they would need the
    # same word of {ac, ab}: they cannot both be filled, whatever 1-Down is.
    return Puzzle(("caa", "ac", "aab", "ab"), (".##", "...", "..#"), format="grid")


def test_cbj_jumps_back_over_a_word_that_played_no_part() -> None:
    # mrv: 1-Down caa, 2-Across aab, 3-Down ac then ab (both leave 4-Across
    # empty), then 1-Down aab (4-Across empty at once): 5 nodes, 3 dead ends.
    # cbj: the dead ends are blamed on 3-Down alone, so 1-Down's other word
    # is never tried: 4 nodes, 2 dead ends.
    mrv = both(corner(), strategy="mrv", limit=None)
    cbj = both(corner(), strategy="cbj", limit=None)
    assert (mrv.status, mrv.stats.nodes, mrv.stats.backtracks) == ("unsolvable", 5, 3)
    assert (cbj.status, cbj.stats.nodes, cbj.stats.backtracks) == ("unsolvable", 4, 2)


def test_a_used_up_word_blames_every_copy() -> None:
    # "cc" is listed twice: when its second copy is placed, the sites that
    # lose it must blame the first copy's placement too, or cbj jumps over
    # it and loses both solutions.
    words = ("cc", "acc", "ba", "ac", "cb", "cc", "cca")
    grid = ("#.####", "#..###", "##.#..", "##...#", "###.##", "######")
    puzzle = Puzzle(words, grid, format="grid")
    mrv = both(puzzle, strategy="mrv", limit=None)
    cbj = both(puzzle, strategy="cbj", limit=None)
    assert len(mrv.solutions) == 2
    assert in_order(cbj) == in_order(mrv)


CORPUS = ("p99/p7_09a", "p99/p7_09b", "p99/p7_09c", "p99/p7_09d", "fillin/1", "fillin/2")
CORPUS += ("fillin/3", "fillin/4", "fillin/5", "fillin/6", "fillin/7", "fillin/9", "fillin/12")
CORPUS += ("fillin/13", "fillin/_t15", "fillin/_t19", "fillin/_t27")
# The known answers of each corpus puzzle (named as conftest.known_solution
# takes them); the puzzles left out have no answer file and are verified.
ONE_ANSWER = ("p99/p7_09a", "p99/p7_09b", "p99/p7_09d", "fillin/1", "fillin/2", "fillin/4")
ONE_ANSWER += ("fillin/5", "fillin/6", "fillin/7", "fillin/9", "fillin/12")
KNOWN = {name: (name,) for name in ONE_ANSWER}
KNOWN.update({"fillin/3": ("fillin/3a", "fillin/3b"), "p99/p7_09c": ()})


def corpus(shared: Path, name: str) -> Puzzle:
    kind, stem = name.split("/")
    folder = shared / "corpus" / kind
    if kind == "p99":
        return load(folder / f"{stem}.dat")
    return load(folder / f"puzzle{stem}", folder / f"words{stem}")


@pytest.mark.parametrize("name", CORPUS)
def test_corpus_agrees_and_gives_the_known_answers(shared_dir: Path, name: str) -> None:
    puzzle = corpus(shared_dir, name)
    cbj = both(puzzle, strategy="cbj", limit=None, timeout=20)
    mrv = run(puzzle, engine="python", strategy="mrv", limit=None, prove=False, timeout=20)
    assert cbj.status == ("unsolvable" if name == "p99/p7_09c" else "solved")
    assert in_order(cbj) == in_order(mrv)
    assert cbj.stats.nodes <= mrv.stats.nodes
    for grid in in_order(cbj):
        assert problems(puzzle, grid) == []
    if name in KNOWN:
        assert set(in_order(cbj)) == {known_solution(shared_dir, k).grid for k in KNOWN[name]}
