"""`crossword make` from a scored dictionary: the fill's score, --min-score
and --maximize min|sum (solve's options), in both engines and in the Python
API. The scores and the best fills are recomputed here from the list's text,
independently of pybridge."""

from __future__ import annotations

import itertools
import json
import re
import shutil
import time
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge import construct
from pybridge.cli import main
from pybridge.model import Puzzle
from pybridge.solver import Outcome
from pybridge.verify import problems

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]

# Two 3x3 double word squares and their transposes: CAT/ORE/WED over
# COW/ARE/TED (lowest 40, total 520) and TEN/ORE/EAT over TOE/ERA/NET
# (lowest 60, total 445): the best min and the best sum are different fills.
# CUP scores well but fits no square; OAK has no score (it counts 50).
TINY = """\
CAT;40
ORE;80
WED;100
COW;100
ARE;100
TED;100
TEN;60
EAT;95
TOE;65
ERA;75
NET;70
CUP;99
OAK
"""
SQUARE = ["--size", "3x3", "--blocks", "0", "--seed", "1"]


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.txt"
    path.write_text(TINY, encoding="utf-8")
    return path


def list_scores(text: str) -> dict[str, Decimal]:
    """The list's scores read without pybridge: WORD;score, 50 without one."""
    scores = {}
    for line in text.splitlines():
        word, _, score = line.partition(";")
        scores[word] = Decimal(score) if score else Decimal(50)
    return scores


def square_fills(scores: dict[str, Decimal]) -> list[list[str]]:
    """Every fill of an open 3x3 grid from the list: three rows whose
    columns are words too, the six words different."""
    words = [w for w in scores if len(w) == 3]
    fills = []
    for rows in itertools.product(words, repeat=3):
        cols = ["".join(col) for col in zip(*rows, strict=True)]
        if all(c in scores for c in cols) and len({*rows, *cols}) == 6:
            fills.append([*rows, *cols])
    return fills


def recomputed(words: list[str], scores: dict[str, Decimal]) -> tuple[Decimal, Decimal, float]:
    each = [scores[w] for w in words]
    return min(each), sum(each, Decimal(0)), float(sum(each)) / len(each)


def verified(doc: dict[str, Any], scores: dict[str, Decimal]) -> list[str]:
    """The words of the fill in `doc`, checked by the verifier against the list."""
    grid = doc["solutions"][0]["grid"]
    pattern = tuple("".join("#" if ch == "#" else "." for ch in row) for row in grid)
    assert problems(Puzzle(tuple(scores), pattern, "grid", mode="lexicon"), grid) == []
    return [p["word"] for p in doc["solutions"][0]["placements"]]


def make_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["make", *argv, "--output", "json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_fill_from_a_scored_list_has_the_lists_score(
    engine: str, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc = make_json(capsys, *SQUARE, "--dict", str(tiny), "--engine", engine)
    assert code == 0
    scores = list_scores(TINY)
    low, total, mean = recomputed(verified(doc, scores), scores)
    assert (doc["score"]["min"], doc["score"]["sum"]) == (low, total)
    assert doc["score"]["mean"] == pytest.approx(mean, abs=0.05)
    assert "optimal" not in doc["score"]  # no objective asked
    assert doc["tries"][-1]["optimal"] is None
    assert main(["make", *SQUARE, "--dict", str(tiny), "--engine", engine]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"score: min {low}, sum {total}, mean " + (
        f"{doc['score']['mean']:g}"
    )


@pytest.mark.parametrize("objective", ["min", "sum"])
@pytest.mark.parametrize("engine", ENGINES)
def test_maximize_gives_the_patterns_best_fill(
    engine: str, objective: str, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scores = list_scores(TINY)
    position = {"min": 0, "sum": 1}[objective]
    best = max(recomputed(fill, scores)[position] for fill in square_fills(scores))
    assert best == {"min": 60, "sum": 520}[objective]  # the two squares differ
    argv = [*SQUARE, "--dict", str(tiny), "--engine", engine, "--maximize", objective]
    code, doc = make_json(capsys, *argv)
    assert code == 0
    assert doc["status"] == "solved"
    assert recomputed(verified(doc, scores), scores)[position] == best
    assert doc["score"][objective] == best
    assert (doc["score"]["optimal"], doc["score"]["bound"]) == (True, best)
    values = [b["value"] for b in doc["improvements"]]
    assert values == sorted(set(values))
    assert values[-1] == best
    assert doc["tries"][-1]["optimal"] is True
    assert main(["make", *argv]) == 0  # text: the score line says it is proved
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1].endswith(f"(optimal {objective}: proved)")
    assert f"better: {objective} {best} after " in captured.err
    assert "proved optimal" in captured.err  # the try's line


def test_the_python_api_takes_the_quality_options(tiny: Path) -> None:
    found = []
    made = pybridge.make_crossword(
        3, 3, tiny, blocks=0, seed=1, engine="python", maximize="min", on_better=found.append
    )
    assert made.status == "solved"
    assert made.outcome is not None
    assert made.outcome.score is not None
    assert (made.outcome.score.min, made.outcome.score.optimal) == (60, True)
    assert [b.value for b in found] == [b.value for b in made.outcome.improvements]
    cut = pybridge.make_crossword(3, 3, tiny, blocks=0, seed=1, engine="python", min_score=60)
    assert cut.solution is not None  # CAT is left out: only the other square is left
    assert sorted(p.word for p in cut.solution.placements) == sorted(
        ["TEN", "ORE", "EAT", "TOE", "ERA", "NET"]
    )


# Every word of 3 letters or more scores below 50: --min-score 50 leaves
# only the 2-letter words, and no pattern below can be filled.
SHORT_ONLY = "AN;90\nTO;95\nAT;80\nCAT;20\nTEAM;30\nMEANT;10\nTEN;45\nNOTE;49.5\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_min_score_that_empties_a_length_is_told_for_each_pattern(
    engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "short.txt"
    path.write_text(SHORT_ONLY, encoding="utf-8")
    argv = ["--size", "5x5", "--blocks", "4", "--symmetry", "none", "--seed", "1"]
    argv += ["--dict", str(path), "--min-score", "50", "--tries", "3", "--engine", engine]
    code, doc = make_json(capsys, *argv)
    assert code == 1
    assert doc["status"] == "unsolvable"
    assert [t["status"] for t in doc["tries"]] == ["unsolvable"] * 3
    said = r"cannot be filled: the dictionary has no [345]-letter word scoring 50 or more"
    for trial in doc["tries"]:
        assert re.search(said, trial["reason"]), trial["reason"]
    assert main(["make", *argv]) == 1
    err = capsys.readouterr().err
    told = [line for line in err.splitlines() if line.startswith("try ")]
    assert len(told) == 3
    assert all(re.search(said, line) for line in told)


def test_a_fill_that_runs_out_of_time_with_a_fill_makes_the_crossword(
    tiny: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --maximize, the best fill found when the try's time is up fills
    the pattern: made, not proved optimal, the bound told."""
    real_run = construct.run

    def out_of_time(puzzle: Puzzle, **options: Any) -> Outcome:
        outcome = real_run(puzzle, **options)
        assert outcome.score is not None
        outcome.status = "timeout"
        outcome.score = replace(outcome.score, optimal=False, bound=Decimal(75))
        return outcome

    monkeypatch.setattr(construct, "run", out_of_time)
    argv = [*SQUARE, "--dict", str(tiny), "--engine", "python", "--maximize", "min"]
    assert main(["make", *argv]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1] == (
        "score: min 60, sum 445, mean 74.2 (min at most 75: the time limit was reached "
        "before a proof)"
    )
    assert "the best found in its time (not proved)" in captured.err
    code, doc = make_json(capsys, *argv)
    assert (code, doc["status"], doc["tries"][-1]["status"]) == (0, "solved", "solved")
    shown = {key: doc["score"][key] for key in ("min", "sum", "mean", "optimal", "bound")}
    assert shown == {"min": 60, "sum": 445, "mean": 74.2, "optimal": False, "bound": 75}
    assert doc["tries"][-1]["optimal"] is False


def test_the_quality_options_are_solves(tiny: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Same names, rules and messages as solve's."""
    plain = tiny.with_name("plain.txt")
    plain.write_text("CAT\nORE\n", encoding="utf-8")
    cases = [
        (["--dict", str(plain), "--min-score", "5"], "--min-score needs a scored dictionary"),
        (["--dict", str(plain), "--maximize", "min"], "--maximize needs scores"),
        (["--dict", str(tiny), "--maximize", "min", "--strategy", "wdeg"], "valued strategy"),
        (["--dict", str(tiny), "--maximize", "max"], "invalid choice: 'max'"),
        (["--dict", str(tiny), "--min-score", "lots"], "expected a score such as 40"),
    ]
    for extra, message in cases:
        assert main(["make", *SQUARE, *extra]) == 2
        assert message in capsys.readouterr().err
    grid = tiny.with_name("grid.txt")
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    for extra, message in cases[:2]:  # solve says the same
        assert main(["solve", str(grid), *extra]) == 2
        assert message in capsys.readouterr().err


@pytest.mark.parametrize("engine", ENGINES)
def test_a_min_score_above_every_word_is_proved_unfillable(
    engine: str, tiny: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No word left at all: the proof says so, in make, solve and check
    (the Prolog engine once failed on an empty dictionary)."""
    said = "the dictionary has no 3-letter word scoring 101 or more"
    argv = [*SQUARE, "--dict", str(tiny), "--min-score", "101", "--engine", engine]
    assert main(["make", *argv]) == 1
    assert said in capsys.readouterr().err
    grid = tiny.with_name("grid.txt")
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    for command in ("solve", "check"):
        argv = [command, str(grid), "--dict", str(tiny), "--min-score", "101", "--engine", engine]
        assert main(argv) == 1
        assert said in capsys.readouterr().out
    empty = Puzzle((), ("...", "...", "..."), "grid", mode="lexicon")
    for strategy in ("wdeg", "valued", "mrv"):
        outcome = pybridge.run(empty, engine=engine, strategy=strategy, prove=False)
        assert (outcome.status, outcome.stats.nodes) == ("unsolvable", 0)


def test_patterns_an_ascent_fills_only_below_the_line_are_tried_last(tiny: Path) -> None:
    """make climbs from the acceptable line (25): a pattern that only the
    words below it can fill (a theme entry's crossings, often) is easy with
    every word and would be tried first, its fill junk; it comes after
    those its first floor can fill."""
    from pybridge.lexicon import load_dictionary
    from pybridge.options import PatternOptions
    from pybridge.patterns import pattern_for

    dictionary = load_dictionary([tiny])
    assert dictionary.scores is not None
    square = pattern_for(PatternOptions(3, 3, blocks=0, seed=1))

    def ranked(scores: Any) -> construct._Ranked:
        fill = construct._Fill(dictionary.words, scores, "python", None, None, None, None, True)
        return fill.rank(square)

    assert not ranked(dictionary.scores).below_line  # every word is above the line
    junk = replace(dictionary.scores, written=dict.fromkeys(dictionary.words, Decimal(10)))
    below = ranked(junk)
    assert below.below_line
    assert below.difficulty is not None  # estimated with every word
    plain = construct._Ranked(square, 3.4)
    unknown, settled = construct._Ranked(square, None), construct._Ranked(square, None, object())  # type: ignore[arg-type]
    order = sorted([settled, below, unknown, plain], key=construct._Ranked.order)
    assert order == [plain, below, unknown, settled]


def test_theme_entries_count_as_the_lists_top_score(tiny: Path) -> None:
    """A theme entry is the constructor's choice: scored low in the list (or
    not in it), it would bound the fill's min and keep an ascent below its
    floor; make counts it at the list's top score."""
    from pybridge.lexicon import load_dictionary
    from pybridge.options import PatternOptions
    from pybridge.patterns import pattern_for

    dictionary = load_dictionary([tiny])
    assert dictionary.scores is not None
    pattern = pattern_for(PatternOptions(9, 9, theme=("CAT", "COW", "ZEBRA"), seed=1))
    words, scores = construct._with_theme(dictionary.words, dictionary.scores, pattern)
    assert words == (*dictionary.words, "ZEBRA")  # not in the list: added
    assert scores is not None
    assert [scores.score(w) for w in ("CAT", "COW", "ZEBRA", "ORE")] == [100, 100, 100, 80]
    assert dictionary.scores.score("CAT") == 40  # the list's own scores are untouched
    plain = pattern_for(PatternOptions(9, 9, seed=1))
    assert construct._with_theme(dictionary.words, dictionary.scores, plain) == (
        dictionary.words,
        dictionary.scores,
    )


def test_a_pool_an_ascent_fills_only_below_the_line_draws_more_patterns(
    shared_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When no pattern of a pool can be filled above the acceptable line,
    make draws more pools (up to EXTRA_POOLS) before trying one below it."""
    from pybridge.lexicon import load_dictionary

    words = (shared_dir / "corpus" / "cs50" / "words2.txt").read_text().split()
    scored = tmp_path / "scored.txt"
    scored.write_text("".join(f"{word};30\n" for word in words), encoding="utf-8")
    dictionary = load_dictionary([scored])
    real_rank = construct._Fill.rank
    ranked: list[construct._Ranked] = []

    def rank(self: construct._Fill, pattern: Any) -> construct._Ranked:
        assert self.climb  # a list on the 0-100 scale, nothing else asked
        # every pattern only below the line but the 10th
        made = replace(real_rank(self, pattern), below_line=len(ranked) != 9)
        ranked.append(made)
        return made

    monkeypatch.setattr(construct._Fill, "rank", rank)
    tried: list[Any] = []
    made = construct.make(
        7,
        7,
        dictionary.words,
        scores=dictionary.scores,
        seed=5,
        tries=1,
        engine="python",
        report=tried.append,
    )
    assert construct.POOL + 2 <= len(ranked) <= 2 * construct.POOL  # one more pool, no more
    assert tried[0].pattern == ranked[9].pattern  # the one above the line first
    assert made.tries == tried


@pytest.mark.parametrize("lows", [(10, 30), (10, 20, 15, 12, 40)])
def test_a_fill_below_the_line_gives_way_to_other_patterns(
    shared_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    lows: tuple[int, ...],
) -> None:
    """An ascent that fills a pattern only below the acceptable line (its
    first floor proved unfillable) gives way to up to BELOW_LINE_TRIES more
    patterns; a fill above the line then makes the crossword, else the best
    of those below it."""
    from pybridge.lexicon import load_dictionary

    words = (shared_dir / "corpus" / "cs50" / "words2.txt").read_text().split()
    scored = tmp_path / "scored.txt"
    scored.write_text("".join(f"{word};30\n" for word in words), encoding="utf-8")
    dictionary = load_dictionary([scored])
    real_run = construct.run
    filled = iter(lows)

    def lowest_as_told(puzzle: Puzzle, **options: Any) -> Outcome:
        outcome = real_run(puzzle, **options)
        assert outcome.score is not None  # every pattern of this size fills
        outcome.score = replace(outcome.score, min=Decimal(next(filled)))
        return outcome

    monkeypatch.setattr(construct, "run", lowest_as_told)
    small = {"blocks": 4, "min_length": 2, "symmetry": "none", "engine": "python"}
    made = construct.make(
        5, 5, dictionary.words, scores=dictionary.scores, seed=1, tries=10, **small
    )
    # (10, 30): 30 makes it; (10, 20, 15, 12, 40): 3 patterns more, then the best, 20
    assert len(made.tries) == min(len(lows), 1 + construct.BELOW_LINE_TRIES)
    below = [t for t in made.tries if t.reason == construct.BELOW_LINE]
    assert len(below) == len(made.tries) - 1  # all but the last gave way
    assert made.status == "solved"
    assert made.outcome is not None
    assert made.outcome.score is not None
    best = max(lows[: len(made.tries)])
    assert made.outcome.score.min == best
    assert made.pattern == made.tries[lows.index(best)].pattern
    assert "only below the acceptable line" in below[0].summary()


def test_before_the_last_try_a_pattern_unfillable_above_the_line_gives_way_at_once(
    shared_dir: Path, tmp_path: Path
) -> None:
    """make's ascent starts at the acceptable line; before its last try, a
    pattern that the words from the line up cannot fill is told unsolvable
    as soon as that is proved (no fill below the line using up the try's
    time), and the next pattern is tried; the last try may fill below the
    line, and says so."""
    from pybridge.lexicon import load_dictionary

    words = (shared_dir / "corpus" / "cs50" / "words2.txt").read_text().split()
    scored = tmp_path / "scored.txt"
    scored.write_text("".join(f"{word};10\n" for word in words), encoding="utf-8")
    dictionary = load_dictionary([scored])
    small = {"blocks": 4, "min_length": 2, "symmetry": "none", "engine": "python"}
    made = construct.make(
        5, 5, dictionary.words, scores=dictionary.scores, seed=1, tries=3, **small
    )
    first, second, last = made.tries
    for early in (first, second):
        assert early.status == "unsolvable"
        assert early.nodes == 0
        assert "scoring 25 or more" in (early.reason or "")
    assert last.status == "solved"
    assert made.status == "solved"
    assert made.pattern == last.pattern
    assert made.outcome is not None
    assert made.outcome.score is not None
    assert made.outcome.score.min == 10
    assert made.outcome.score.below > 0  # told: every entry is below the line


def test_the_last_try_is_the_last_of_the_tries_or_of_the_time() -> None:
    now = time.perf_counter()
    assert not construct._last_try(0, 10, 7.7, 300, now)
    assert construct._last_try(9, 10, 7.7, 300, now)
    assert construct._last_try(0, 1, None, None, now)
    assert not construct._last_try(0, 10, None, None, now - 1000)
    # 10 s left of 300: less than two fills of 7.7 s
    assert construct._last_try(0, 10, 7.7, 300, now - 290)
    assert not construct._last_try(0, 10, 7.7, 300, now - 200)


def test_with_no_fill_at_all_the_easiest_pattern_unfillable_above_the_line_is_filled_below(
    shared_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When every try ended without a fill (the last one's pattern proved
    unfillable even with every word), make fills the first pattern proved
    unfillable from the line up below the line, one try more, and says so."""
    from pybridge.lexicon import load_dictionary

    words = (shared_dir / "corpus" / "cs50" / "words2.txt").read_text().split()
    scored = tmp_path / "scored.txt"
    scored.write_text("".join(f"{word};10\n" for word in words), encoding="utf-8")
    dictionary = load_dictionary([scored])
    real_attempt = construct._Fill.attempt
    asked: list[bool] = []

    def attempt(self: construct._Fill, ranked: Any, *args: Any, below: bool) -> Any:
        asked.append(below)
        made = real_attempt(self, ranked, *args, below=below)
        if len(asked) == 3:  # the last try: as if no word at all could fill it
            unfilled = replace(made.trial, status="unsolvable", reason="no fill at all")
            return construct._Attempt(unfilled, None)
        return made

    monkeypatch.setattr(construct._Fill, "attempt", attempt)
    small = {"blocks": 4, "min_length": 2, "symmetry": "none", "engine": "python"}
    made = construct.make(
        5, 5, dictionary.words, scores=dictionary.scores, seed=1, tries=3, **small
    )
    assert asked == [False, False, True, True]
    assert [t.status for t in made.tries] == ["unsolvable", "unsolvable", "unsolvable", "solved"]
    assert made.status == "solved"
    assert made.pattern == made.tries[0].pattern == made.tries[3].pattern
    assert made.outcome is not None
    assert made.outcome.score is not None
    assert made.outcome.score.below > 0


def test_a_themed_pattern_the_cheap_proofs_rule_out_at_the_line_comes_after(
    tiny: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With theme entries, make's ranking also runs the cheap proofs
    (propagation through the crossings) with the words from the line up: a
    pattern they rule out there (a third to a half of 21x21 patterns with
    3 or 4 long entries) comes after those they do not, as one with a slot
    no such word fits does. Without a theme they are not run there."""
    from pybridge.lexicon import load_dictionary
    from pybridge.options import PatternOptions
    from pybridge.patterns import pattern_for

    dictionary = load_dictionary([tiny])
    themed = pattern_for(PatternOptions(3, 3, blocks=0, seed=1, theme=("ORE",)))
    plain = pattern_for(PatternOptions(3, 3, blocks=0, seed=1))
    proved: list[Puzzle] = []

    def prove(puzzle: Puzzle, **_: Any) -> object:
        proved.append(puzzle)
        return object()  # as if a proof were found

    monkeypatch.setattr(construct.proofs, "prove", prove)
    words, scores = construct._with_theme(dictionary.words, dictionary.scores, themed)
    fill = construct._Fill(words, scores, "python", None, None, None, None, True)
    for pattern in (plain, themed):
        estimated = construct.estimate(pattern.puzzle(fill.first_words, scores), fill.first_words)
        assert estimated.difficulty is not None  # the estimate alone would rank it
    assert not fill.rank(plain).below_line
    assert not proved  # no theme: not asked
    assert fill.rank(themed).below_line
    assert len(proved) == 1
    assert proved[0].words == fill.first_words  # asked of the words from the line up
