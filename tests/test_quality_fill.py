"""Fills an editor would accept from the defaults (issue 35): the shipped
list as the default dictionary, --ban and --prefer, the constructor's
figures of each fill, and --maximize's ascent (wdeg's fills at rising
floors, then valued's branch and bound): the brute-force optimum, the same
as the branch and bound's alone, alike in both engines."""

from __future__ import annotations

import json
import os
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
from puzzlegen import puzzles

from pybridge import solver
from pybridge.curation import curated
from pybridge.lexicon import Dictionary, load_dictionary
from pybridge.model import Puzzle
from pybridge.options import PatternOptions, SearchOptions
from pybridge.patterns import pattern_for
from pybridge.scores import Scores
from pybridge.search.kernel import Request, Result
from pybridge.solver import run
from pybridge.wordlist import ACCEPTABLE, LIST_PATH

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")


def crossword(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pybridge", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    """A one-site grid and a scored dictionary of three words for it."""
    grid = tmp_path / "grid.txt"
    grid.write_text("...\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("ABC;15\nABD;20\nABE;30\n", encoding="utf-8")
    return grid, words


# ---------------------------------------------------------------- the shipped list by default


def test_make_without_a_dictionary_fills_from_the_shipped_list(tmp_path: Path) -> None:
    # from a folder with no ../shared beside it: the list is the package's own
    done = crossword("make", "--size", "9x9", "--seed", "1", "--output", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    made = json.loads(done.stdout)
    assert made["status"] == "solved"
    assert made["score"]["below"] <= 2
    assert made["score"]["words"] == len(made["solutions"][0]["placements"])


def test_solve_of_a_plain_grid_fills_from_the_shipped_list_above_the_line(
    tmp_path: Path,
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("....\n.#.#\n....\n", encoding="utf-8")
    done = crossword("solve", str(grid), "--output", "json")
    assert done.returncode == 0, done.stderr
    score = json.loads(done.stdout)["score"]
    assert score["below"] == 0
    assert score["min"] >= ACCEPTABLE
    lower = crossword("solve", str(grid), "--min-score", "0", "--output", "json")
    assert lower.returncode == 0, lower.stderr


def test_serve_and_make_say_the_shipped_list_is_their_default() -> None:
    for command in ("make", "serve"):
        done = crossword(command, "--help")
        assert "the shipped" in " ".join(done.stdout.split()), command


# ---------------------------------------------------------------- curation


def test_ban_and_prefer_change_the_fill(tiny: tuple[Path, Path]) -> None:
    grid, words = tiny

    def best(*extra: str) -> str:
        done = crossword(
            "solve", str(grid), "--dict", str(words), "--maximize", "min", "--output", "json",
            *extra,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return str(json.loads(done.stdout)["solutions"][0]["placements"][0]["word"])

    assert best() == "ABE"
    assert best("--ban", "abe") == "ABD"
    banned = grid.parent / "banned.txt"
    banned.write_text("ABE\nabd\n", encoding="utf-8")
    assert best("--ban", str(banned)) == "ABC"
    preferred = grid.parent / "preferred.txt"
    preferred.write_text("abc\n", encoding="utf-8")
    assert best("--prefer", str(preferred)) == "ABC"  # 15 + 20 beats 30


def test_a_ban_that_is_neither_a_word_nor_a_file_is_a_usage_error(
    tiny: tuple[Path, Path],
) -> None:
    grid, words = tiny
    done = crossword("solve", str(grid), "--dict", str(words), "--ban", "no such/file.txt")
    assert done.returncode == 2
    assert "neither a word nor a file of words" in done.stderr


def test_curated_adds_preferred_words_and_caps_the_bonus() -> None:
    scores = Scores({"AREA": Decimal(95), "ERNE": Decimal(20)})
    words = Dictionary(("AREA", "ERNE", "ETUI"), {}, ("x",), ("utf-8",), ("x",), scores)
    made = curated(words, banned=["etui"], preferred=["area", "erne", "NEW-WORD"])
    assert made.words == ("AREA", "ERNE", "NEWWORD")
    assert made.scores is not None
    assert [made.scores.score(w) for w in made.words] == [100, 40, 70]


# ---------------------------------------------------------------- a fill's figures


def test_each_fill_tells_its_entries_lowest_and_below_the_line(tiny: tuple[Path, Path]) -> None:
    grid = tiny[0]
    two = grid.parent / "two.txt"
    two.write_text("...\n#.#\n#.#\n", encoding="utf-8")  # an across and a down of 3
    scored = grid.parent / "scored.txt"
    scored.write_text("ABC;10\nBCD;60\nAXE;70\n", encoding="utf-8")
    done = crossword("solve", str(two), "--dict", str(scored), "--output", "json")
    assert done.returncode == 0, done.stderr
    score = json.loads(done.stdout)["score"]
    assert score["words"] == 2
    assert score["below"] == 1
    assert score["line"] == ACCEPTABLE
    assert score["lowest"] == [{"word": "ABC", "score": 10}, {"word": "BCD", "score": 60}]
    text = crossword("solve", str(two), "--dict", str(scored))
    assert "entries: 2, 1 below the acceptable line (25); lowest: ABC 10, BCD 60" in text.stdout
    assert text.stdout.splitlines()[-1].startswith("score: min 10,")


def test_weights_in_zero_to_one_have_no_acceptable_line() -> None:
    scores = Scores({"AB": Decimal("0.2"), "CD": Decimal("0.9")})
    assert not scores.has_line
    assert Scores({"AB": Decimal(30)}).has_line


# ---------------------------------------------------------------- the ascent


def lexicon_of(made: tuple[Puzzle, tuple[str, ...]], rng: random.Random) -> Puzzle:
    puzzle = made[0]
    extra = ["".join(rng.choice("abc") for _ in range(rng.randint(2, 5))) for _ in range(8)]
    words = tuple(dict.fromkeys([*puzzle.words, *extra]))
    written = {word: Decimal(rng.randint(0, 60)) for word in words}
    return replace(puzzle, words=words, mode="lexicon", scores=Scores(written))


@needs_prolog
@settings(max_examples=25, deadline=None)
@given(puzzles(sizes=(3, 6), words=(3, 9), max_length=5), st.randoms(use_true_random=False))
def test_the_ascent_and_the_branch_and_bound_agree_on_the_optimum(
    made: tuple[Puzzle, tuple[str, ...]], rng: random.Random
) -> None:
    puzzle = lexicon_of(made, rng)
    for objective in ("min", "sum"):
        ascents = [run(puzzle, engine=e, maximize=objective, timeout=60) for e in solver.ENGINES]
        prolog, python = ascents
        assert prolog.stats.strategy == python.stats.strategy == solver.ASCENT
        assert [(b.value, b.nodes, b.solution.grid) for b in prolog.improvements] == [
            (b.value, b.nodes, b.solution.grid) for b in python.improvements
        ]
        assert (prolog.status, prolog.score, prolog.stats.nodes) == (
            python.status,
            python.score,
            python.stats.nodes,
        )
        alone = run(puzzle, engine="python", strategy="valued", maximize=objective, timeout=60)
        assert python.status == alone.status
        if alone.status == "solved":
            assert python.score is not None
            assert alone.score is not None
            assert python.score.optimal
            assert python.score.objective(objective) == alone.score.objective(objective)


def test_an_ascent_cut_short_before_its_bound_still_bounds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the time runs out before the branch and bound could run (a busy
    machine), the fill still comes with the most a fill could score: the
    grid's own most, each site's best word (never a fill without a bound)."""
    grid = ("...", "...", "...")
    words = ("CAT", "ORE", "WED", "COW", "ARE", "TED", "TEN", "EAT")  # CAT/ORE/WED fills it
    written = {w: Decimal(30 + 5 * i) for i, w in enumerate(words)}
    puzzle = Puzzle(words, grid, format="grid", mode="lexicon")
    puzzle = replace(puzzle, scores=Scores(written))
    monkeypatch.setattr(solver, "_bound", lambda *_: None)  # no time left for it
    for engine in solver.ENGINES:
        outcome = run(puzzle, engine=engine, maximize="sum", timeout=60)
        assert outcome.status == "timeout"  # an ascent proves no sum
        assert outcome.solutions
        assert outcome.score is not None
        assert outcome.score.sum is not None
        most = max(written.values())  # every site has 3 letters: its best word is the best
        assert outcome.score.bound == 6 * most >= outcome.score.sum


def test_a_floor_missed_in_its_slice_is_tried_again_with_another_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A floor's fill is heavy-tailed, so a floor after the first fill gets
    a slice of nodes, not all the time left: one not filled in its slice
    (here every first try from 54 up is made to miss) does not end the
    climb; the climb comes back to it with another seed and twice the
    slice, and still reaches the optimum that the branch and bound proves.
    (Before, a floor had all the time left, and one it missed ended the
    climb below it.)"""
    words = load_dictionary([LIST_PATH])
    grid = ("....", "....", "....")
    fitting = tuple(w for w in words.words if len(w) in (3, 4))
    puzzle = replace(Puzzle(fitting, grid, format="grid", mode="lexicon"), scores=words.scores)
    expected = run(puzzle, engine="python", maximize="min", timeout=60)
    assert expected.status == "solved"
    assert expected.score is not None
    assert expected.score.min is not None
    assert expected.score.min > 54
    tries: dict[Decimal, list[tuple[int | None, int | None]]] = {}
    searched = solver._run

    def missing_first_tries(
        puzzle: Puzzle, options: SearchOptions, *rest: object, **beat: object
    ) -> solver.Outcome:
        assert puzzle.scores is not None
        floor = min(map(puzzle.scores.score, puzzle.words))
        if options.strategy == "wdeg" and floor >= 54:
            tries.setdefault(floor, []).append((options.seed, options.node_limit))
            if options.seed is None:
                return solver.Outcome("timeout", stats=solver.Stats("python", "wdeg"))
        return searched(puzzle, options, *rest, **beat)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "_run", missing_first_tries)
    outcome = run(puzzle, engine="python", maximize="min", timeout=60)
    again = [floor for floor, each in tries.items() if len(each) > 1]
    assert again  # the climb came back to a floor it had missed
    least = solver._least_slice(60, None)
    for floor in again:
        (first_seed, first), (second_seed, second) = tries[floor][:2]
        assert (first_seed, second_seed) == (None, solver.STREAMS_PER_SEED)
        assert first is not None
        assert least is not None
        assert first >= least  # a slice of nodes, at least the least one
        assert second == 2 * first
    assert outcome.status == "solved"
    assert outcome.score is not None
    assert outcome.score.min == expected.score.min


def test_maximize_has_a_time_limit_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "MAXIMIZE_TIMEOUT", 3.0)
    words = load_dictionary([LIST_PATH])
    pattern = pattern_for(PatternOptions(15, 15, blocks=0.2, seed=3))
    puzzle = pattern.puzzle(words.words, words.scores)
    outcome = run(puzzle, SearchOptions("python", maximize="min"))
    assert outcome.status in ("timeout", "solved")
    assert outcome.stats.seconds < 30  # bounded though no --timeout was given
    if outcome.status == "timeout" and outcome.solutions:
        assert outcome.score is not None
        assert outcome.score.optimal is False


def test_the_shipped_list_comes_with_its_default_ban_list_unless_opted_out() -> None:
    from pybridge.options import DictionaryOptions
    from pybridge.service.puzzles import or_shipped
    from pybridge.wordlist import BANNED_PATH, LIST_PATH

    shipped = or_shipped(DictionaryOptions(ban=("ERNE",)))
    assert shipped.paths == (str(LIST_PATH),)
    assert shipped.ban == (str(BANNED_PATH), "ERNE")
    kept = or_shipped(DictionaryOptions(default_ban=False))
    assert kept.paths == (str(LIST_PATH),)
    assert kept.ban == ()
    own = or_shipped(DictionaryOptions(paths=("mine.txt",)))
    assert own.ban == ()  # a list of one's own has no default ban list
    for command in ("solve", "make", "serve"):
        assert "--no-default-ban" in crossword(command, "--help").stdout, command


@needs_prolog
def test_a_node_limit_gives_the_same_climb_in_both_engines(tmp_path: Path) -> None:
    """--node-limit: the ascent's steps share it, each floor's slice is in
    nodes too, so both engines climb alike and stop at the same node,
    whatever the load: the same better fills, the same fill, the same
    counters; exit 3, saying which limit ended it."""
    grid = tmp_path / "grid.txt"
    grid.write_text(".....\n.....\n.....\n", encoding="utf-8")
    answers = []
    for engine in solver.ENGINES:
        done = crossword(
            "solve", str(grid), "--maximize", "min", "--node-limit", "300", "--engine", engine
        )
        assert done.returncode == 3, done.stderr
        assert "node limit of 300 nodes reached" in done.stdout
        assert "the node limit was reached before a proof" in done.stdout
        shown = crossword(
            *("solve", str(grid), "--maximize", "min", "--node-limit", "300"),
            *("--engine", engine, "--output", "json"),
        )
        document = json.loads(shown.stdout)
        assert document["stats"]["nodes"] == 300
        del document["stats"]["seconds"], document["stats"]["engine"]
        for better in document["improvements"]:
            del better["seconds"]
        answers.append((done.stdout, document))
    assert answers[0] == answers[1]
    whole = crossword("solve", str(grid), "--maximize", "min", "--engine", "python")
    assert whole.returncode == 0  # proved within the default time: the limit cut it short


def test_node_limit_is_not_for_split(tmp_path: Path) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("...\n", encoding="utf-8")
    done = crossword("solve", str(grid), "--node-limit", "5", "--split", "2")
    assert done.returncode == 2
    assert "--node-limit" in done.stderr


def test_the_ascent_carries_weights_only_once_they_have_learned() -> None:
    """A fill's weights carry to the next floor once they hold at least one
    dead end per crossing (a weight of 1 + k is k of them); fewer only break
    ties another way, and the next floor starts afresh (solver._Warm)."""
    warm = solver._Warm(learned=(1, 2, 1, 3))  # 3 dead ends, 4 crossings
    warm.carry()
    assert warm.start is None
    warm.learned = (2, 2, 1, 3)  # 4 dead ends
    warm.carry()
    assert warm.start == (2, 2, 1, 3)
    warm.learned = None  # a step without a fill learned nothing
    warm.carry()
    assert warm.start is None


def test_each_floor_after_a_fill_that_learned_starts_from_its_weights(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The climb hands each floor's search the weights its last fill
    learned (Request.weights), the first floor none."""
    seen: list[tuple[int, ...] | None] = []
    search = solver.engines.search

    def watched(engine: str, request: Request) -> Result:
        seen.append(request.weights)
        return search(engine, request)

    monkeypatch.setattr(solver.engines, "search", watched)
    monkeypatch.setattr(solver, "LEARNED_PER_CROSSING", 0)  # carry whatever was learned
    # seed 1 fills 4 times in 6,000 nodes from the shipped list (the list moves it)
    shape = PatternOptions(15, 15, blocks=1 / 6, seed=1)
    words = load_dictionary([LIST_PATH])
    puzzle = pattern_for(shape).puzzle(words.words, words.scores)
    outcome = solver.run(puzzle, engine="python", maximize="min", node_limit=6000, timeout=600)
    assert len(outcome.improvements) >= 3
    assert seen[0] is None
    assert any(weights is not None for weights in seen[1:])
