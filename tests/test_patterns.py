"""Grid patterns (`crossword grid`, pybridge.make_pattern): every pattern
obeys its symmetry and rules, as judged by a checker written here apart from
the generator (it shares none of its helpers); a seed gives the same pattern
in a new process; impossible requests are refused, and the work on hopeless
ones is bounded by a count."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pattern_check import cheaters, figures, rule_breaks, word_count, word_lengths

import pybridge
from pybridge import patterns
from pybridge.cli import main
from pybridge.errors import UsageError
from pybridge.patterns import ImpossiblePattern, PatternNotFound, generate

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------- the independent checker
# (tests/pattern_check.py: it reads the rows alone and shares no code with the generator)


def test_the_checker_itself_catches_each_kind_of_break() -> None:
    good = ["...#", "....", "....", "#..."]
    assert rule_breaks(good, "rot180") == []
    assert rule_breaks(good, "mirror-lr")  # not mirrored
    assert rule_breaks(["....", "#...", "...#", "...."], "rot180")  # a 2-letter down word
    assert rule_breaks([".#.", "#.#", ".#."], "rot90", min_length=2)  # cells in no word
    assert rule_breaks(["...#", "....", "....", "#..."], "rot180", max_length=3)
    split = ["...#...", "...#...", "...#..."]
    assert "the open cells are not connected" in rule_breaks(split, "mirror-lr")
    unchecked = ["...", "#.#", "..."]  # the corners are in across words only
    assert rule_breaks(unchecked, "rot180", min_length=2)
    assert rule_breaks(unchecked, "rot180", min_length=2, checked=False) == []


def test_the_checker_counts_words_and_cheater_blocks() -> None:
    # a 5x5 with its corners blocked: each corner block shortens two words
    # and adds none, so all 4 are cheaters; 5 + 5 words of 3 and 5 letters
    corners = ["#...#", ".....", ".....", ".....", "#...#"]
    assert word_count(corners) == 10
    assert sorted(cheaters(corners)) == [(0, 0), (0, 4), (4, 0), (4, 4)]
    assert figures(corners).mean_length == (4 * 3 + 6 * 5) / 10
    assert rule_breaks(corners, "rot90", max_cheaters=3) == ["4 cheater blocks, over 3"]
    assert rule_breaks(corners, "rot90", max_words=9) == ["10 words, over 9"]
    # a block in the middle of a row splits its word in two: no cheater
    middle = [".....", ".....", "..#..", ".....", "....."]
    assert cheaters(middle) == []
    assert word_count(middle) == 12  # 2-letter words count too
    assert word_lengths(["#..", "...", "..#"]) == [2, 3, 2, 2, 3, 2]


# ---------------------------------------------------------------- every pattern obeys


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(3, 13),
    cols=st.integers(3, 13),
    symmetry=st.sampled_from(patterns.SYMMETRIES),
    fraction=st.sampled_from([0.0, 0.1, 0.15, 0.2, 0.3]),
    min_length=st.integers(2, 4),
    checked=st.booleans(),
    max_length=st.one_of(st.none(), st.integers(4, 13)),
    seed=st.integers(0, 2**32),
)
def test_every_pattern_obeys_its_symmetry_and_rules(
    rows: int,
    cols: int,
    symmetry: str,
    fraction: float,
    min_length: int,
    checked: bool,
    max_length: int | None,
    seed: int,
) -> None:
    if symmetry == "rot90":
        cols = rows
    try:
        pattern = generate(
            rows,
            cols,
            fraction,
            symmetry=symmetry,  # type: ignore[arg-type]
            min_length=min_length,
            allow_unchecked=not checked,
            max_length=max_length,
            seed=seed,
            attempts=5,
        )
    except (ImpossiblePattern, PatternNotFound):
        return
    grid = list(pattern.grid)
    limits = pattern.limits  # the newspaper limits by size, for American rules
    assert (limits.words is not None) == (min_length >= 3 and checked)
    breaks = rule_breaks(
        grid, symmetry, min_length, checked, max_length, limits.words, limits.cheaters
    )
    assert breaks == []
    assert pattern.blocks == sum(row.count("#") for row in grid)
    assert pattern.blocks == patterns.block_count(rows, cols, fraction, symmetry)  # type: ignore[arg-type]
    assert pattern.seed == seed


@pytest.mark.parametrize(
    ("size", "options"),
    [
        ((15, 15), {}),
        ((15, 15), {"blocks": 38}),
        ((21, 21), {}),
        ((13, 13), {"symmetry": "rot90"}),
        ((9, 12), {"symmetry": "mirror-lr", "blocks": 0.2}),
        ((12, 9), {"symmetry": "mirror-tb", "blocks": 0.2}),
        ((10, 14), {"symmetry": "none", "min_length": 2, "blocks": 0.3}),
        ((15, 15), {"max_length": 7, "blocks": 0.2, "max_words": "any"}),
        ((15, 15), {"allow_unchecked": True, "blocks": 0.3}),
    ],
)
def test_usual_requests_are_met(size: tuple[int, int], options: dict[str, object]) -> None:
    for seed in range(3):
        pattern = generate(*size, seed=seed, **options)  # type: ignore[arg-type]
        symmetry = str(options.get("symmetry", "rot180"))
        breaks = rule_breaks(
            list(pattern.grid),
            symmetry,
            int(options.get("min_length", 3)),  # type: ignore[call-overload]
            not options.get("allow_unchecked", False),
            options.get("max_length"),  # type: ignore[arg-type]
        )
        assert breaks == []
        if isinstance(options.get("blocks"), int):
            assert pattern.blocks == options["blocks"]


def test_a_count_of_blocks_is_met_exactly_and_a_fraction_rounded_to_the_symmetry() -> None:
    assert generate(15, 15, 37, seed=1).blocks == 37  # odd: the centre is blocked
    assert generate(15, 15, 37, seed=1).grid[7][7] == "#"
    assert generate(14, 14, 0.2, seed=1).blocks == 40  # 39.2, rounded to an even count
    assert generate(13, 13, 0.2, symmetry="rot90", seed=1).blocks % 4 in (0, 1)


def test_the_rp_mode_places_exactly_n_random_blocks_without_rules() -> None:
    made = [generate(10, 10, 20, rp=True, seed=s) for s in range(20)]
    assert all(p.blocks == 20 and p.rules is None and p.symmetry == "none" for p in made)
    assert len({p.grid for p in made}) == 20
    assert any(rule_breaks(list(p.grid), "none", 3) for p in made)  # no rule is kept
    mirrored = generate(6, 7, 10, rp=True, symmetry="mirror-lr", seed=3)
    breaks = rule_breaks(list(mirrored.grid), "mirror-lr", min_length=1, checked=False)
    assert mirrored.blocks == 10
    assert not [b for b in breaks if "image" in b]


# ---------------------------------------------------------------- seeds


def _grid_in_a_new_process(seed: int, hash_seed: str) -> dict[str, object]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pybridge",
            "grid",
            "--size",
            "15x15",
            "--seed",
            str(seed),
            "--output",
            "json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
        timeout=60,
    )
    doc: dict[str, object] = json.loads(done.stdout)
    return doc


def test_the_same_seed_gives_the_same_pattern_in_a_new_process() -> None:
    first = _grid_in_a_new_process(1234, "1")
    second = _grid_in_a_new_process(1234, "2")
    assert first == second
    assert first["grid"] == list(generate(15, 15, seed=1234).grid)
    assert first["seed"] == 1234
    assert _grid_in_a_new_process(1235, "1")["grid"] != first["grid"]


def test_without_a_seed_one_is_drawn_and_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grid", "--size", "9x9"]) == 0
    captured = capsys.readouterr()
    seed = int(captured.err.split()[1])
    assert captured.out.rstrip("\n") == str(generate(9, 9, seed=seed))


# ---------------------------------------------------------------- impossible requests


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        ({"rows": 4, "cols": 4, "blocks": 0.9}, "needs 9 open cells"),
        ({"rows": 5, "cols": 5, "blocks": 8, "symmetry": "rot90"}, "none of the 15 ways"),
        ({"rows": 14, "cols": 14, "blocks": 31}, "try 30 or 32"),
        ({"rows": 15, "cols": 15, "blocks": 10, "max_length": 5}, "at least 30 blocks"),
        ({"rows": 2, "cols": 9, "blocks": 2}, "no cell can be in both"),
        ({"rows": 3, "cols": 3, "min_length": 4, "allow_unchecked": True}, "no run of 4 cells"),
    ],
)
def test_impossible_requests_are_refused_with_the_reason(
    request_: dict[str, object], reason: str
) -> None:
    with pytest.raises(ImpossiblePattern, match=reason):
        generate(seed=1, **request_)  # type: ignore[arg-type]


def test_a_hopeless_request_stops_after_its_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    attempt = patterns._attempt

    def counted(*args: object) -> int | None:
        calls.append(1)
        return attempt(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(patterns, "_attempt", counted)
    monkeypatch.setattr(patterns, "COMPLETE_SECONDS", 0.0)  # no time for the complete search
    with pytest.raises(PatternNotFound, match="in 7 attempts, and a complete search did not"):
        generate(15, 15, 0.55, seed=1, attempts=7, max_words="any", max_cheaters="any")
    assert len(calls) == 7
    # with its time (ample: a loaded machine), the complete search finds one
    monkeypatch.setattr(patterns, "COMPLETE_SECONDS", 120.0)
    found = generate(15, 15, 0.55, seed=1, attempts=7, max_words="any", max_cheaters="any")
    assert (found.blocks, found.attempts) == (124, 8)


def test_a_time_limit_bounds_a_big_request() -> None:
    with pytest.raises(PatternNotFound, match=r"within 0\.001 s"):
        generate(60, 60, seed=1, timeout=0.001)
    with pytest.raises(UsageError, match="from 1 to 100"):
        generate(101, 15)


def test_a_narrow_grid_with_unchecked_cells_is_one_word() -> None:
    pattern = generate(2, 9, 11, symmetry="mirror-lr", allow_unchecked=True, seed=2)
    assert pattern.grid in (("#.......#", "#########"), ("#########", "#.......#"))
    with pytest.raises(ImpossiblePattern, match="only be one word"):
        generate(2, 9, 12, symmetry="rot180", allow_unchecked=True, seed=2)


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["--size", "4x4", "--blocks", "0.9"], 1),
        (["--size", "5x5", "--blocks", "8", "--symmetry", "rot90"], 1),
        (["--size", "15x15", "--blocks", "0.55", "--max-words", "any", "--attempts", "2"], 3),
        (["--size", "15x15", "--blocks", "0.55"], 1),  # a bound: too many words
        (["--max-words", "-1"], 2),
        (["--max-cheaters", "lots"], 2),
        (["--rp", "--max-words", "70"], 2),
        (["--size", "10x12", "--symmetry", "rot90"], 2),
        (["--size", "15"], 2),
        (["--blocks", "1.5"], 2),
        (["--blocks", "-1"], 2),
        (["--rp", "--min-length", "2"], 2),
        (["--min-length", "5", "--max-length", "4"], 2),
    ],
)
def test_cli_exit_codes(argv: list[str], code: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grid", *argv]) == code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip()


# ---------------------------------------------------------------- outputs


def test_json_output_is_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grid", "--size", "7x7", "--seed", "1", "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["grid"] == list(generate(7, 7, seed=1).grid)
    assert (doc["seed"], doc["blocks"]) == (1, sum(row.count("#") for row in doc["grid"]))
    assert doc["slots"] == generate(7, 7, seed=1).slots > 0
    assert doc["symmetry"] == "rot180"
    assert doc["min_length"] == 3


def test_text_blocks_and_svg_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grid", "--size", "7x7", "--seed", "1"]) == 0
    assert capsys.readouterr().out.rstrip("\n") == str(generate(7, 7, seed=1))
    assert main(["grid", "--size", "7x7", "--seed", "1", "--output", "blocks"]) == 0
    assert "█" in capsys.readouterr().out
    picture = tmp_path / "p.svg"
    assert main(["grid", "--size", "7x7", "--seed", "1", "--output", "svg", str(picture)]) == 0
    assert picture.read_text(encoding="utf-8").startswith("<svg")


def test_the_api_names_the_generator() -> None:
    assert pybridge.make_pattern is generate
    pattern = pybridge.make_pattern(11, 11, seed=5)
    assert isinstance(pattern, pybridge.Pattern)
    assert pattern.puzzle().mode == "lexicon"
    assert pybridge.Puzzle is type(pattern.puzzle())


# ---------------------------------------------------------------- newspaper limits


def test_the_limits_by_size() -> None:
    assert [patterns.default_max_words(n, n) for n in (13, 15, 17, 19, 21, 23)] == [
        62,
        78,
        96,
        117,
        140,
        165,
    ]
    assert [patterns.default_max_cheaters(n, n) for n in (8, 9, 15, 21)] == [None, 4, 4, 8]
    assert patterns.limits_of(15, 15, None) == patterns.Limits()  # RP: no rules, no limits
    american = patterns.limits_of(15, 15, patterns.Rules())
    assert american == patterns.Limits(78, 4)
    assert patterns.limits_of(15, 15, patterns.Rules(min_length=2)) == patterns.Limits()
    lifted = patterns.Rules(max_words="any", max_cheaters=6)
    assert patterns.limits_of(15, 15, lifted) == patterns.Limits(None, 6)


@pytest.mark.parametrize(("size", "words", "cheaters"), [(15, 78, 4), (21, 140, 8)])
def test_default_patterns_are_newspaper_patterns(size: int, words: int, cheaters: int) -> None:
    for seed in range(8):
        pattern = generate(size, size, seed=seed)
        grid = list(pattern.grid)
        assert rule_breaks(grid, "rot180", max_words=words, max_cheaters=cheaters) == []
        found = figures(grid)
        assert (pattern.slots, pattern.blocks, pattern.cheaters) == (
            found.words,
            found.blocks,
            found.cheaters,
        )
        assert pattern.mean_length == pytest.approx(found.mean_length)


def short_words(size: int, seeds: range) -> int:
    """The words of 3 letters in the default patterns of the seeds, counted
    by the checker (and every pattern within the rules)."""
    found = 0
    for seed in seeds:
        grid = list(generate(size, size, seed=seed).grid)
        limits = {"max_words": patterns.default_max_words(size, size)}
        assert rule_breaks(grid, "rot180", max_cheaters=8, **limits) == []
        found += word_lengths(grid).count(3)
    return found


def test_a_sunday_pattern_has_fewer_short_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond 15x15 short words cost extra (patterns.SHORT_EXTRA): the
    checker counts a fifth fewer words of 3 letters in 21x21 patterns (120
    against 154 in seeds 0-5); a 15x15 is made as before (the same
    patterns with and without it)."""
    with_extra = short_words(21, range(6))
    daily = [generate(15, 15, seed=seed).grid for seed in range(3)]
    monkeypatch.setattr(patterns, "SHORT_EXTRA", {})
    assert short_words(21, range(6)) > with_extra * 1.15
    assert [generate(15, 15, seed=seed).grid for seed in range(3)] == daily


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    size=st.integers(9, 17),
    fraction=st.sampled_from([0.12, 1 / 6, 0.2]),
    spare_words=st.integers(-6, 10),
    max_cheaters=st.one_of(st.just("any"), st.integers(0, 8)),
    seed=st.integers(0, 2**32),
)
def test_every_pattern_keeps_its_limits(
    size: int, fraction: float, spare_words: int, max_cheaters: int | str, seed: int
) -> None:
    max_words = patterns.default_max_words(size, size) + spare_words
    try:
        pattern = generate(
            size,
            size,
            fraction,
            max_words=max_words,
            max_cheaters=max_cheaters,  # type: ignore[arg-type]
            seed=seed,
            attempts=5,
        )
    except (ImpossiblePattern, PatternNotFound):
        return
    limit = None if max_cheaters == "any" else int(max_cheaters)
    assert rule_breaks(list(pattern.grid), "rot180", max_words=max_words, max_cheaters=limit) == []
    assert pattern.to_json()["max_words"] == max_words


@settings(max_examples=200, deadline=None)
@given(
    rows=st.integers(1, 7),
    cols=st.integers(1, 7),
    cells=st.lists(st.booleans(), min_size=49, max_size=49),
)
def test_the_generators_counts_agree_with_the_checker(
    rows: int, cols: int, cells: list[bool]
) -> None:
    """On any grid, rules kept or not: words, cheater blocks, letters."""
    grid = ["".join("." if cells[r * 7 + c] else "#" for c in range(cols)) for r in range(rows)]
    geo = patterns._Geometry(rows, cols)
    open_cells = geo.bits_of(grid)
    assert patterns.word_count(geo, open_cells) == word_count(grid)
    assert patterns.cheater_count(geo, open_cells) == len(cheaters(grid))
    assert patterns.letter_count(geo, open_cells) == sum(word_lengths(grid))


def test_a_word_limit_below_every_pattern_is_refused_with_the_reason() -> None:
    with pytest.raises(ImpossiblePattern, match="has at least 59 words, more than the 40"):
        generate(15, 15, max_words=40, seed=1)
    with pytest.raises(UsageError, match="at least 0"):
        generate(15, 15, max_cheaters=-1, seed=1)
    with pytest.raises(UsageError, match="RP 2016 mode"):
        generate(15, 15, 30, rp=True, max_words=70, seed=1)


def test_grid_tells_the_patterns_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grid", "--seed", "3"]) == 0
    captured = capsys.readouterr()
    pattern = generate(15, 15, seed=3)
    found = figures(list(pattern.grid))
    assert captured.err.strip() == (
        f"pattern: {found.words} words, {found.blocks} blocks ({found.cheaters} cheaters), "
        f"mean word length {found.mean_length:.2f}"
    )
    assert main(["grid", "--seed", "3", "--output", "json", "--max-cheaters", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["max_words"], doc["max_cheaters"]) == (78, 2)
    assert doc["cheaters"] == len(cheaters(doc["grid"])) <= 2
    assert doc["mean_length"] == round(figures(doc["grid"]).mean_length, 2)
    assert doc["theme"] == []
