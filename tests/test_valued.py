"""The valued strategy and --maximize (docs/search.md#valued): the best
fill by branch and bound, the same in both engines (fills, values, nodes,
bounds), checked against brute force on tiny grids; its bound stays sound
whenever the search is cut short; and the scores reported are those of the
dictionary."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from puzzlegen import puzzles, random_puzzle

from pybridge import solver
from pybridge.errors import UsageError
from pybridge.layout import layout_of
from pybridge.model import Puzzle
from pybridge.options import SearchOptions
from pybridge.scores import Objective, Score, Scores
from pybridge.search import engine as python_engine
from pybridge.search import kernel
from pybridge.search.kernel import Request, SearchTimeout
from pybridge.solver import BetterFill, Outcome, run, solve

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")

OBJECTIVES: tuple[Objective, ...] = ("min", "sum")
ENGINES = ("prolog", "python")


def with_scores(puzzle: Puzzle, rng: random.Random, decimals: bool = False) -> Puzzle:
    """The puzzle with a random score for each distinct word (some left
    without one: they count the default)."""
    written = {}
    for word in dict.fromkeys(puzzle.words):
        if rng.random() < 0.9:
            value = rng.randint(0, 9)
            written[word] = Decimal(value) / 10 if decimals else Decimal(value)
    return replace(puzzle, scores=Scores(written, default=Decimal(3)))


def as_lexicon(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    extra = ["".join(rng.choice("abc") for _ in range(rng.randint(2, 5))) for _ in range(8)]
    return replace(puzzle, words=tuple(dict.fromkeys([*puzzle.words, *extra])), mode="lexicon")


def value_of(puzzle: Puzzle, words: list[str], objective: Objective) -> Decimal:
    assert puzzle.scores is not None
    each = [puzzle.scores.score(w) for w in words]
    return min(each) if objective == "min" else sum(each, Decimal(0))


def brute_force(puzzle: Puzzle, objective: Objective) -> Decimal | None:
    """The best value over every fill, as mrv enumerates them."""
    every = run(puzzle, engine="python", strategy="mrv", limit=None, prove=False)
    values = [value_of(puzzle, [p.word for p in s.placements], objective) for s in every.solutions]
    return max(values, default=None)


def signature(outcome: Outcome) -> tuple[object, ...]:
    better = [(b.value, b.nodes, b.solution.grid) for b in outcome.improvements]
    grids = [s.grid for s in outcome.solutions]
    stats = outcome.stats
    return outcome.status, grids, better, outcome.score, stats.nodes, stats.backtracks


def assert_best(puzzle: Puzzle, outcome: Outcome, objective: Objective) -> None:
    best = brute_force(puzzle, objective)
    values = [b.value for b in outcome.improvements]
    assert values == sorted(set(values)), "each fill reported must beat the last"
    if best is None:
        assert outcome.status == "unsolvable"
        assert not values
        return
    assert outcome.status == "solved"
    assert values[-1] == best
    assert outcome.score is not None
    assert outcome.score.optimal is True
    assert outcome.score.bound == best
    assert outcome.score.objective(objective) == best
    assert outcome.solutions[0].grid == outcome.improvements[-1].solution.grid
    for better in outcome.improvements:
        words = [p.word for p in better.solution.placements]
        assert value_of(puzzle, words, objective) == better.value


@settings(max_examples=40, deadline=None)
@given(
    puzzles(sizes=(3, 6), words=(3, 9), max_length=5),
    st.booleans(),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_both_engines_find_the_brute_force_optimum(
    made: tuple[Puzzle, tuple[str, ...]], lexicon: bool, decimals: bool, rng: random.Random
) -> None:
    puzzle = made[0]
    if lexicon:
        puzzle = as_lexicon(puzzle, rng)
    puzzle = with_scores(puzzle, rng, decimals)
    for objective in OBJECTIVES:
        prolog, python = (run(puzzle, engine=e, maximize=objective, timeout=20) for e in ENGINES)
        assert signature(prolog) == signature(python)
        assert_best(puzzle, python, objective)


@settings(max_examples=30, deadline=None)
@given(
    puzzles(sizes=(3, 6), words=(3, 9), max_length=5),
    st.integers(min_value=-1, max_value=12),
    st.randoms(use_true_random=False),
)
def test_a_value_to_beat_leaves_only_better_fills_to_find(
    made: tuple[Puzzle, tuple[str, ...]], beat: int, rng: random.Random
) -> None:
    """The ascent's branch and bound (Request.beat): only fills better than
    the value in hand are found, the best of them is the optimum, and no
    better fill makes it unsolvable; the same in both engines."""
    puzzle = with_scores(as_lexicon(made[0], rng), rng)
    for objective in OBJECTIVES:
        options = SearchOptions(strategy="valued", maximize=objective, timeout=20)
        prolog, python = (
            solver._run(puzzle, replace(options, engine=e), None, None, beat=Decimal(beat))
            for e in ENGINES
        )
        assert signature(prolog) == signature(python)
        best = brute_force(puzzle, objective)
        assert all(b.value > beat for b in python.improvements)
        if best is None or best <= beat:
            assert python.status == "unsolvable"
            assert python.improvements == []
        else:
            assert python.status == "solved"
            assert python.improvements[-1].value == best


@settings(max_examples=30, deadline=None)
@given(puzzles(sizes=(3, 6), words=(3, 9), max_length=5), st.randoms(use_true_random=False))
def test_without_an_objective_valued_enumerates_every_fill_once(
    made: tuple[Puzzle, tuple[str, ...]], rng: random.Random
) -> None:
    puzzle = with_scores(as_lexicon(made[0], rng), rng)
    every = run(puzzle, engine="python", strategy="mrv", limit=None, prove=False)
    prolog, python = (
        run(puzzle, engine=e, strategy="valued", limit=None, prove=False) for e in ENGINES
    )
    assert [s.grid for s in prolog.solutions] == [s.grid for s in python.solutions]
    assert (prolog.stats.nodes, prolog.stats.backtracks) == (
        python.stats.nodes,
        python.stats.backtracks,
    )
    assert sorted(s.grid for s in python.solutions) == sorted(s.grid for s in every.solutions)


def test_best_words_come_first() -> None:
    # one site: the words in score order, ties in listed order
    puzzle = Puzzle(("AB", "CD", "EF", "GH"), ("..",), format="grid", mode="lexicon")
    puzzle = replace(puzzle, scores=Scores({"AB": Decimal(1), "EF": Decimal(9)}, Decimal(5)))
    for engine in ENGINES:
        outcome = run(puzzle, engine=engine, strategy="valued", limit=None, prove=False)
        assert [s.placements[0].word for s in outcome.solutions] == ["EF", "CD", "GH", "AB"]


def test_a_timeout_leaves_a_sound_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cut the Python engine's search short after every possible number of
    nodes: the bound it reports is never below the true optimum, and never
    below the best fill found so far."""
    rng = random.Random(7)
    for _ in range(12):
        made = random_puzzle(rng, sizes=(4, 6), words=(6, 10), max_length=5)
        puzzle = with_scores(as_lexicon(made[0], rng), rng)
        for objective in OBJECTIVES:
            best = brute_force(puzzle, objective)
            assert puzzle.scores is not None
            values = puzzle.scores.values(puzzle.words)
            request = Request(
                layout_of(puzzle), puzzle.words, "valued", scores=values, objective=objective
            )
            whole = python_engine.search(request)
            for stop in range(1, whole.nodes + 1):
                result = _stopped_after(monkeypatch, request, stop)
                if result.status != "timeout":
                    continue
                found = [b.value for b in result.improvements]
                assert result.bound is not None
                if found:
                    assert result.bound >= found[-1]
                if best is not None:
                    assert puzzle.scores.unscaled(result.bound) >= best


@settings(max_examples=20, deadline=None)
@given(puzzles(sizes=(3, 6), words=(3, 9), max_length=5), st.randoms(use_true_random=False))
def test_a_node_limit_stops_both_engines_at_the_same_node(
    made: tuple[Puzzle, tuple[str, ...]], rng: random.Random
) -> None:
    """valued cut by a node limit after any number of nodes: the same better
    fills, counters and bound in both engines (the ascent's branch and
    bound runs in a slice of nodes)."""
    puzzle = with_scores(as_lexicon(made[0], rng), rng)
    for objective in OBJECTIVES:
        whole = run(puzzle, engine="python", maximize=objective, strategy="valued", prove=False)
        for stop in range(whole.stats.nodes + 1):
            cut = [
                run(puzzle, replace(cut_at(stop), engine=e, maximize=objective)) for e in ENGINES
            ]
            assert signature(cut[0]) == signature(cut[1])
            assert cut[1].status == ("timeout" if stop < whole.stats.nodes else whole.status)


def cut_at(stop: int) -> SearchOptions:
    return SearchOptions(strategy="valued", timeout=20, prove=False, node_limit=stop)


def _stopped_after(monkeypatch: pytest.MonkeyPatch, request: Request, nodes: int) -> kernel.Result:
    def check_clock(counters: kernel.Counters) -> None:
        if counters.nodes >= nodes:
            raise SearchTimeout

    with monkeypatch.context() as patch:
        patch.setattr(kernel.Counters, "check_clock", check_clock)
        return python_engine.search(request)


def test_exact_mode_stops_at_its_first_fill() -> None:
    """Every fill of a word list places every word: its value is known, so
    the first fill is optimal."""
    puzzle = Puzzle(("ab", "ac", "bd", "cd"), ("..", ".."), format="grid")
    scores = Scores({"ab": Decimal(1), "ac": Decimal(2), "bd": Decimal(3), "cd": Decimal(4)})
    puzzle = replace(puzzle, scores=scores)
    for engine in ENGINES:
        for objective, expected in (("min", 1), ("sum", 10)):
            outcome = run(puzzle, engine=engine, maximize=objective)
            assert outcome.status == "solved"
            assert [b.value for b in outcome.improvements] == [expected]
            assert outcome.score is not None
            assert outcome.score.optimal


def test_better_fills_are_told_as_found() -> None:
    rng = random.Random(3)
    made = random_puzzle(rng, sizes=(5, 6), words=(8, 10), max_length=5)
    puzzle = with_scores(as_lexicon(made[0], rng), rng)
    for engine in ENGINES:
        told: list[BetterFill] = []
        outcome = run(puzzle, engine=engine, maximize="sum", on_better=told.append)
        assert [b.value for b in told] == [b.value for b in outcome.improvements]
        assert [b.solution.grid for b in told] == [b.solution.grid for b in outcome.improvements]
        lazily = list(solve(puzzle, engine=engine, maximize="sum"))
        assert [s.grid for s in lazily] == [b.solution.grid for b in told]


def test_maximize_needs_scores_and_the_valued_strategy() -> None:
    puzzle = Puzzle(("ab", "ac"), ("..",), format="grid", mode="lexicon")
    with pytest.raises(UsageError, match="needs scores"):
        run(puzzle, maximize="min")
    scored = replace(puzzle, scores=Scores({}))
    with pytest.raises(UsageError, match="valued strategy"):
        run(scored, maximize="min", strategy="wdeg")
    with pytest.raises(UsageError, match="one of min, sum"):
        run(scored, maximize="max")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="leave out"):
        run(scored, maximize="min", count=True)
    with pytest.raises(UsageError, match="min-score needs a scored dictionary"):
        run(puzzle, min_score=10)
    with pytest.raises(UsageError, match="a number"):
        run(scored, min_score="lots")


def test_min_score_leaves_out_the_lower_words() -> None:
    puzzle = Puzzle(("ab", "cd", "ef"), ("..",), format="grid", mode="lexicon")
    scores = Scores({"ab": Decimal(10), "cd": Decimal(50), "ef": Decimal("49.5")})
    puzzle = replace(puzzle, scores=scores)
    for engine in ENGINES:
        outcome = run(puzzle, engine=engine, limit=None, min_score="49.5")
        assert sorted(s.placements[0].word for s in outcome.solutions) == ["cd", "ef"]
        none_left = run(puzzle, engine=engine, min_score=60)
        assert none_left.status == "unsolvable"
        assert none_left.proof is not None
        assert none_left.proof.layer == "no-fit"
        assert "no 2-letter word scoring 60 or more" in none_left.proof.reason


# ---------------------------------------------------------------- on real data

SCORED = ("bench", "dicts", "scored", "scowl55-wordfreq.txt")


def crossword(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pybridge", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def file_scores(path: Path) -> dict[str, Decimal]:
    """The scored list read independently of pybridge: `word;score` lines."""
    scores = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        word, score = line.rsplit(";", 1)
        scores.setdefault(word.upper(), Decimal(score))
    return scores


@pytest.mark.parametrize("engine", ENGINES)
def test_reported_scores_match_the_dictionary(shared_dir: Path, engine: str) -> None:
    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g05.04.txt"
    scored = shared_dir.joinpath(*SCORED)
    done = crossword(
        "solve", str(grid), "--dict", str(scored), "--maximize", "min",
        "--engine", engine, "--output", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    words = [p["word"] for p in doc["solutions"][0]["placements"]]
    scores = file_scores(scored)
    each = [scores[w] for w in words]
    score = doc["score"]
    assert (score["min"], score["sum"]) == (min(each), sum(each))
    assert score["mean"] == pytest.approx(float(sum(each)) / len(each), abs=0.05)
    assert score["optimal"] is True
    assert score["bound"] == score["min"]
    values = [b["value"] for b in doc["improvements"]]
    assert values == sorted(set(values))
    assert values[-1] == score["min"]
    assert [b["nodes"] for b in doc["improvements"]] == sorted(
        b["nodes"] for b in doc["improvements"]
    )


def test_both_engines_agree_on_a_real_grid(shared_dir: Path) -> None:
    from pybridge.gridfiles import load_lexicon_puzzle

    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g05.09.txt"
    puzzle = load_lexicon_puzzle(grid, shared_dir.joinpath(*SCORED))
    for objective in OBJECTIVES:
        prolog, python = (run(puzzle, engine=e, maximize=objective, timeout=120) for e in ENGINES)
        assert signature(prolog) == signature(python)
        assert prolog.status == "solved"


def test_text_output_has_a_score_line_and_tells_each_better_fill(shared_dir: Path) -> None:
    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g05.04.txt"
    done = crossword(
        "solve", str(grid), "--dict", str(shared_dir.joinpath(*SCORED)), "--maximize", "min",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last.startswith("score: min 59, sum ")
    assert last.endswith("(optimal min: proved)")
    told = [line for line in done.stderr.splitlines() if line.startswith("better: min ")]
    assert told
    assert told[-1].startswith("better: min 59 after ")


def test_a_timeout_reports_the_best_so_far_and_the_gap(shared_dir: Path) -> None:
    """g05.03 for the best sum takes minutes: a few seconds leave a gap
    (or, on a busy machine, no fill yet: then only the bound)."""
    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g05.03.txt"
    for engine in ENGINES:
        done = crossword(
            "solve", str(grid), "--dict", str(shared_dir.joinpath(*SCORED)), "--maximize", "sum",
            "--engine", engine, "--timeout", "4", "--output", "json",
        )  # fmt: skip
        assert done.returncode == 3, done.stderr
        doc = json.loads(done.stdout)
        assert doc["status"] == "timeout"
        score = doc["score"]
        assert score["optimal"] is False
        if doc["solutions"]:
            assert score["bound"] >= score["sum"]
            assert doc["improvements"][-1]["value"] == score["sum"]
        else:
            assert doc["improvements"] == []
            assert "sum" not in score


def test_min_score_proof_names_the_sites_that_ran_out(shared_dir: Path) -> None:
    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g05.04.txt"
    scored = str(shared_dir.joinpath(*SCORED))
    done = crossword("check", str(grid), "--dict", scored, "--min-score", "90")
    assert done.returncode == 1, done.stderr
    assert "2-Down cannot be filled: the dictionary has no 4-letter word scoring 90 or more" in (
        done.stdout
    )
    searched = crossword("check", str(grid), "--dict", scored, "--min-score", "70")
    assert searched.returncode == 1
    assert "with the dictionary words scoring 70 or more" in searched.stdout
    assert "core (* marks its open cells)" in searched.stdout


def test_score_object_without_maximize() -> None:
    outcome = Outcome("solved")
    assert outcome.score is None
    score = Score(Decimal(40), Decimal(2311), Decimal("29.6"))
    from pybridge.render import score_json

    assert score_json(score) == {"min": 40, "sum": 2311, "mean": 29.6}
    optimal = replace(score, optimal=True, bound=Decimal(40))
    assert score_json(optimal) == {
        "min": 40,
        "sum": 2311,
        "mean": 29.6,
        "optimal": True,
        "bound": 40,
    }


# ---------------------------------------------------------------- wdeg with scores


def test_wdeg_prefers_the_higher_scored_word_among_equals() -> None:
    """A lone site (no crossing: every look-ahead is equal): with scores its
    words go best first; without, in the rotated order of the draw."""
    plain = Puzzle(("AB", "CD", "EF"), ("..",), format="grid", mode="lexicon")
    scored = replace(plain, scores=Scores({"CD": Decimal(9), "AB": Decimal(1)}, Decimal(5)))
    for engine in ENGINES:
        with_scores = run(scored, engine=engine, strategy="wdeg", limit=None, prove=False)
        assert [s.placements[0].word for s in with_scores.solutions] == ["CD", "EF", "AB"]
        without = run(plain, engine=engine, strategy="wdeg", limit=None, prove=False)
        assert [s.placements[0].word for s in without.solutions] == ["EF", "AB", "CD"]


@settings(max_examples=30, deadline=None)
@given(puzzles(sizes=(3, 6), words=(3, 9), max_length=5), st.randoms(use_true_random=False))
def test_wdeg_with_scores_is_the_same_in_both_engines(
    made: tuple[Puzzle, tuple[str, ...]], rng: random.Random
) -> None:
    puzzle = with_scores(as_lexicon(made[0], rng), rng)
    prolog, python = (
        run(puzzle, engine=e, strategy="wdeg", limit=20, prove=False) for e in ENGINES
    )
    assert signature(prolog) == signature(python)


def test_wdeg_with_scores_on_a_real_grid(shared_dir: Path) -> None:
    from pybridge.gridfiles import load_lexicon_puzzle

    grid = shared_dir / "bench" / "grids" / "vanbeek" / "g15.01.txt"
    puzzle = load_lexicon_puzzle(grid, shared_dir.joinpath(*SCORED))
    prolog, python = (run(puzzle, engine=e, strategy="wdeg", prove=False) for e in ENGINES)
    assert signature(prolog) == signature(python)
    plain = run(replace(puzzle, scores=None), engine="python", strategy="wdeg", prove=False)
    assert python.solutions[0].grid != plain.solutions[0].grid  # the ties went elsewhere


@pytest.mark.parametrize("strategy", ["wdeg", "valued"])
def test_no_word_left_with_scores_is_unsolvable(strategy: str) -> None:
    """A dictionary emptied by --min-score (a site with no word, no crossing)."""
    puzzle = Puzzle((), ("..",), format="grid", mode="lexicon", scores=Scores({}))
    for engine in ENGINES:
        outcome = run(puzzle, engine=engine, strategy=strategy, prove=False)
        assert outcome.status == "unsolvable"


def test_a_fill_in_word_list_may_give_scores() -> None:
    from pybridge.errors import InputError
    from pybridge.readers import parse_fillin

    puzzle = parse_fillin("__\n__\n", "ab;3\nac;1\ncd;2\nbd;5\n")
    assert puzzle.words == ("ab", "ac", "cd", "bd")
    assert puzzle.scores is not None
    assert puzzle.scores.score("bd") == 5
    for engine in ENGINES:
        outcome = run(puzzle, engine=engine, maximize="sum")
        assert outcome.score is not None
        assert (outcome.score.sum, outcome.score.optimal) == (11, True)
    assert parse_fillin("__\n", "ab\n").scores is None
    with pytest.raises(InputError) as raised:
        parse_fillin("__\n__\n", "ab;3\nac;x\n")
    assert (raised.value.line, raised.value.column) == (2, 4)
