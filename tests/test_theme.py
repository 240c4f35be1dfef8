"""Theme entries (`make --theme`, `grid --theme`, pybridge.theme): each entry
is in the pattern, a whole word in a slot of its length, the slots
symmetric (judged by tests/pattern_check.py from the rows alone), the rest of
the pattern within the rules; requests no symmetric pattern can meet fail
at once with the reason (exit code 2); make fills around the entries, the
same fill and node counts in both engines."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pattern_check import image, rule_breaks

from pybridge import theme
from pybridge.cli import main
from pybridge.construct import make
from pybridge.errors import InputError, UsageError
from pybridge.lexicon import load_dictionary
from pybridge.patterns import (
    ATTEMPTS_PER_PLACEMENT,
    BESIDE_TURNS,
    Pattern,
    PatternNotFound,
    generate,
)
from pybridge.search.kernel import Lcg
from pybridge.serve import api
from pybridge.theme import ImpossibleTheme

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
DAILY = ("WALK IN THE PARK", "PIECE OF CAKE", "CHILD'S PLAYS")  # 13, 11, 11 letters
FLOWERS = ("SUNFLOWER", "DAFFODILS", "CARNATION")  # three of 9: one through the centre
SUNDAY = ("SCHOOL OF THOUGHT", "ONE AFTER ANOTHER", "BANK ACCOUNT")  # 15, 15, 11 centred
SUNDAY4 = ("PRESS CONFERENCE", "HIGHER EDUCATION", "STAGE DIRECTOR", "FOOTBALL FIELD")


def entry_breaks(pattern: Pattern, symmetry: str) -> list[str]:
    """How the pattern's rows with letters fail to hold its theme entries:
    each entry read whole (a run of exactly its cells), and each entry's
    slot mapped by the symmetry onto the slot of an entry of its length."""
    rows = list(pattern.letters)
    found = []
    slots = set()
    for entry in pattern.theme:
        line = rows[entry.row] if entry.across else "".join(row[entry.col] for row in rows)
        start = entry.col if entry.across else entry.row
        text = line[start : start + len(entry.word)]
        if text != entry.word:
            found.append(f"{entry.word} reads {text}")
        before, after = line[:start], line[start + len(entry.word) :]
        if (before and before[-1] != "#") or (after and after[0] != "#"):
            found.append(f"{entry.word} is not a whole word")
        slots.add(frozenset(entry_cells(entry)))
    height, width = len(rows), len(rows[0])
    for cells in slots:
        mapped = frozenset(image(symmetry, height, width, r, c) for r, c in cells)
        if mapped not in slots:
            found.append(f"the image of the slot at {min(cells)} holds no entry")
    return found


def entry_cells(entry: theme.Placed) -> list[tuple[int, int]]:
    step = (0, 1) if entry.across else (1, 0)
    return [(entry.row + k * step[0], entry.col + k * step[1]) for k in range(len(entry.word))]


# ---------------------------------------------------------------- the entries


def test_entries_are_spelled_as_dictionaries_spell_them() -> None:
    assert theme.entries(["piece of cake", "Child's-play", "  élan "]) == (
        "PIECEOFCAKE",
        "CHILDSPLAY",
        "ÉLAN",
    )
    for bad, message in (("R2D2", "has '2'"), ("   ", "not an empty one"), ("a.b", "has '.'")):
        with pytest.raises(UsageError, match=message):
            theme.entries([bad])
    with pytest.raises(UsageError, match="given twice: CAKE"):
        theme.entries(["cake", "CAKE"])


def test_a_theme_file_is_read_line_by_line(tmp_path: Path) -> None:
    good = tmp_path / "theme.txt"
    good.write_text("walk in the park\n\npiece of cake\n", encoding="utf-8")
    assert theme.read_entries(str(good)) == ("WALKINTHEPARK", "PIECEOFCAKE")
    bad = tmp_path / "bad.txt"
    bad.write_text("cake\n  pie 3.14\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        theme.read_entries(str(bad))
    assert (caught.value.line, caught.value.column) == (2, 7)
    assert "'3'" in str(caught.value)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n", encoding="utf-8")
    with pytest.raises(InputError, match="no theme entry"):
        theme.read_entries(str(empty))
    with pytest.raises(InputError, match="cannot read"):
        theme.read_entries(str(tmp_path / "missing.txt"))


# ---------------------------------------------------------------- patterns that hold them


@pytest.mark.parametrize(
    ("size", "symmetry", "entries"),
    [
        (15, "rot180", DAILY),
        (15, "rot180", FLOWERS),
        (21, "rot180", (*DAILY, "EASY AS PIE", "NO BRAINER")),
        (15, "mirror-lr", ("BREEZE", "CINCH", "SNAP")),
        (13, "rot90", ("ONE", "TWO", "SIX", "TEN")),
        (12, "none", ("ABCDEFGHIJ",)),
    ],
)
def test_the_entries_are_placed_in_symmetric_slots(
    size: int, symmetry: str, entries: tuple[str, ...]
) -> None:
    for seed in range(3):
        pattern = generate(size, size, seed=seed, symmetry=symmetry, theme=entries)  # type: ignore[arg-type]
        assert sorted(e.word for e in pattern.theme) == sorted(theme.entries(entries))
        assert entry_breaks(pattern, symmetry) == []
        limits = pattern.limits
        assert (
            rule_breaks(
                list(pattern.letters), symmetry, 3, True, None, limits.words, limits.cheaters
            )
            == []
        )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lengths=st.lists(st.integers(3, 15), min_size=1, max_size=4),
    seed=st.integers(0, 2**32),
)
def test_any_placed_theme_is_whole_and_symmetric(lengths: list[int], seed: int) -> None:
    words = ["".join(chr(65 + (k + i) % 26) for i in range(n)) for k, n in enumerate(lengths)]
    try:
        pattern = generate(15, 15, seed=seed, theme=words, attempts=8)
    except (ImpossibleTheme, UsageError, PatternNotFound):  # refused, or not found: allowed
        return
    assert entry_breaks(pattern, "rot180") == []
    assert rule_breaks(list(pattern.grid), "rot180", max_words=78, max_cheaters=4) == []


def test_the_same_seed_places_the_same_theme() -> None:
    first = generate(15, 15, seed=5, theme=DAILY)
    assert generate(15, 15, seed=5, theme=DAILY) == first
    assert str(first).count("#") == first.blocks  # the text shows the entries' letters
    assert "WALKINTHEPARK" in str(first)
    assert first.to_json()["theme"] == [e.to_json() for e in first.theme]


def lines_apart(pattern: Pattern) -> tuple[int, int]:
    """From the entries alone: the fewest lines between two parallel
    entries that lie side by side (their spans overlap), and between an
    entry and the grid's edge along it."""
    height, width = len(pattern.grid), len(pattern.grid[0])
    between, edge = 99, 99
    for one in pattern.theme:
        line, along, last = (
            (one.row, one.col, height - 1) if one.across else (one.col, one.row, width - 1)
        )
        edge = min(edge, line, last - line)
        for other in pattern.theme:
            if other is one or other.across != one.across:
                continue
            other_line, other_along = (
                (other.row, other.col) if other.across else (other.col, other.row)
            )
            if along < other_along + len(other.word) and other_along < along + len(one.word):
                between = min(between, abs(line - other_line) - 1)
    return between, edge


@pytest.mark.parametrize(
    ("size", "entries", "rows", "apart"),
    [
        # a newspaper's Sunday: 5 lines of crossing words between the
        # entries, 4 to the edge; not 4 between (rows 5, 10, 15) nor 3 to the
        # edge (3, 10, 17), whose patterns were far more often unfillable
        (21, SUNDAY, {4, 10, 16}, (5, 4)),
        # a daily's 15, 11, 15 on rows 4, 8 and 12 (1-based), not 3 and 13
        (15, SUNDAY, {3, 7, 11}, (3, 3)),
        (21, SUNDAY4, None, (3, 3)),
        (15, ("A PIECE OF CAKE", "PLAIN SAILING"), {4, 10}, (5, 4)),
    ],
)
def test_long_entries_are_placed_as_far_apart_as_they_fit(
    size: int, entries: tuple[str, ...], rows: set[int] | None, apart: tuple[int, int]
) -> None:
    for seed in range(1, 4):
        pattern = generate(size, size, seed=seed, theme=entries)
        assert not entry_breaks(pattern, "rot180")
        assert lines_apart(pattern) >= apart, seed
        if rows is not None:
            assert {e.row for e in pattern.theme} == rows, seed


def test_the_two_slots_of_a_pair_are_kept_apart_too() -> None:
    # a pair of slots that are each other's image (rows 9 and 11 of 21)
    # used to count as one slot, whatever lay between them
    pair = theme._orbits(15, 21, 21, "rot180", 3)
    assert all(o.apart == 1 for o in pair if {s.cells[0][0] for s in o.slots} == {9, 11})
    for seed in range(1, 9):
        assert lines_apart(generate(21, 21, seed=seed, theme=SUNDAY4))[0] >= 3, seed


def test_the_first_level_that_fits_is_taken_and_kept() -> None:
    """place tries APART in order: the most lines apart first, then fewer;
    given a level (found by a placement before), it starts there."""
    assert theme.APART[0] == (theme.MOST_APART, theme.MOST_APART)
    assert theme.APART[-1] == (1, 0)
    words = theme.entries(SUNDAY)

    def place(apart: tuple[int, int]) -> theme.Frame | None:
        return theme.place(words, 21, 21, "rot180", 3, Lcg(1), lambda *_: True, apart)

    first = place(theme.APART[0])
    assert first is not None
    assert first.apart == (5, 4)
    later = place((3, 3))
    assert later is not None
    assert later.apart == (3, 3)
    assert place((4, 4)) is not None


# ---------------------------------------------------------------- the letters' crossings


def crossing_ends(pattern: Pattern) -> tuple[list[str], list[str]]:
    """The entries' letters that start the word crossing them, and those
    that end it, read from the rows alone."""
    rows = pattern.letters
    height, width = len(rows), len(rows[0])
    starts, ends = [], []
    for entry in pattern.theme:
        dr, dc = (1, 0) if entry.across else (0, 1)
        for (r, c), letter in zip(entry_cells(entry), entry.word, strict=True):
            before = r - dr < 0 or c - dc < 0 or rows[r - dr][c - dc] == "#"
            after = r + dr >= height or c + dc >= width or rows[r + dr][c + dc] == "#"
            if before and not after:
                starts.append(letter)
            if after and not before:
                ends.append(letter)
    return starts, ends


@pytest.mark.parametrize(
    ("size", "entries"), [(21, ("A PIECE OF CAKE", "PLAIN SAILING")), (21, SUNDAY), (17, DAILY)]
)
def test_no_entry_letter_that_seldom_starts_or_ends_a_word_does(
    size: int, entries: tuple[str, ...]
) -> None:
    """A letter of an entry that seldom starts a word (E, I, O...) starts
    no word crossing it, and none that seldom ends one (A, C, I, O...)
    ends it: the cells beside them are kept open (make 21x21 with a theme:
    patterns whose crossings end in such letters are often unfillable from
    the list's words of 25 and up)."""
    for seed in range(1, 5):
        pattern = generate(size, size, seed=seed, theme=entries)
        assert not entry_breaks(pattern, "rot180")
        assert not rule_breaks(list(pattern.letters), "rot180")
        if (pattern.attempts - 1) % ATTEMPTS_PER_PLACEMENT >= BESIDE_TURNS:
            continue  # an attempt that need not keep them (none at these sizes so far)
        starts, ends = crossing_ends(pattern)
        assert not set(starts) & theme.RARE_FIRST, (seed, starts)
        assert not set(ends) & theme.RARE_LAST, (seed, ends)


def test_up_to_15x15_those_cells_need_not_be_kept_open() -> None:
    # the 15x15 pattern of seed 1 ends WALKINTHEPARK's crossing at its I
    _, ends = crossing_ends(generate(15, 15, seed=1, theme=DAILY))
    assert "I" in ends


def test_the_rare_letters_are_the_shipped_lists() -> None:
    """RARE_FIRST and RARE_LAST as theme.py derives them: the letters that
    start (end) the shipped list's words of 3-8 letters from 25 up at most
    0.4 (0.3) times as often as they come in those words at all."""
    from pybridge.wordlist import ACCEPTABLE, LIST_PATH

    words = []
    for line in LIST_PATH.read_text(encoding="utf-8").splitlines():
        word, _, score = line.partition(";")
        if 3 <= len(word) <= 8 and int(score) >= ACCEPTABLE:
            words.append(word)
    letters = Counter(ch for word in words for ch in word)
    total = sum(letters.values())
    firsts, lasts = Counter(w[0] for w in words), Counter(w[-1] for w in words)

    def ratio(counts: Counter[str], ch: str) -> float:
        return counts[ch] / len(words) / (letters[ch] / total)

    assert {ch for ch in letters if ratio(firsts, ch) <= 0.4} == theme.RARE_FIRST
    assert {ch for ch in letters if ratio(lasts, ch) <= 0.3} == theme.RARE_LAST


# ---------------------------------------------------------------- impossible requests


@pytest.mark.parametrize(
    ("size", "symmetry", "entries", "reason"),
    [
        (15, "rot180", ["ABCDEFGHIJKLMNOP"], "no line of a 15x15 grid is that long"),
        (15, "rot180", ["AB"], "fewer than a word's least"),
        (15, "rot180", ["ABCDEFGH"], "needs a slot through the centre, which a 15x15 grid"),
        (16, "rot180", ["ABCDEFG", "ABCDEFGHI", "XYZ"], "needs a slot through the centre"),
        (15, "rot180", ["ABCDEFGHI", "ABCDEFG"], "only one entry can go through the centre"),
        (13, "rot90", ["ONE", "TWO"], "come in fours"),
        (14, "mirror-lr", ["ABCDEFG"], "must be its own reflection"),
    ],
)
def test_impossible_themes_fail_fast_with_the_reason(
    size: int, symmetry: str, entries: list[str], reason: str
) -> None:
    with pytest.raises(ImpossibleTheme, match=reason):
        generate(size, size, seed=1, symmetry=symmetry, theme=entries)  # type: ignore[arg-type]


def test_too_many_entries_to_keep_apart_are_refused() -> None:
    # 8 pairs of 15-letter rows cannot be kept apart in 15 rows
    words = ["".join(chr(65 + (k + i) % 26) for i in range(15)) for k in range(16)]
    with pytest.raises(ImpossibleTheme, match="cannot all be placed"):
        generate(15, 15, seed=1, theme=words)


def test_the_cli_tells_an_impossible_theme_with_exit_code_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["grid", "--theme", "abcdefgh", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert "needs a slot through the centre" in err
    assert "Traceback" not in err
    assert main(["grid", "--rp", "--theme", "abcdefg", "gfedcba"]) == 2
    assert "RP 2016 mode" in capsys.readouterr().err


# ---------------------------------------------------------------- make fills around them


@pytest.fixture(scope="module")
def scowl55(shared_dir: Path) -> tuple[str, ...]:
    return load_dictionary([shared_dir / "bench" / "dicts" / "scowl55.txt"]).words


ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]


def test_both_engines_fill_around_the_theme_alike(scowl55: tuple[str, ...]) -> None:
    made = {
        engine: make(11, 11, scowl55, seed=1, theme=["PYTHONS", "PROLOGS"], engine=engine)
        for engine in ("python", *(["prolog"] if shutil.which("swipl") else []))
    }
    fills = {engine: m.solution.grid for engine, m in made.items() if m.solution}
    nodes = {engine: m.outcome.stats.nodes for engine, m in made.items() if m.outcome}
    assert len(set(fills.values())) == 1
    assert len(fills) == len(made)
    assert len(set(nodes.values())) == 1
    python = made["python"]
    assert python.pattern is not None
    assert python.solution is not None
    for entry in python.pattern.theme:
        rows = python.solution.grid
        cells = entry_cells(entry)
        assert "".join(rows[r][c] for r, c in cells) == entry.word


@pytest.mark.parametrize("engine", ENGINES)
def test_make_keeps_entries_the_dictionary_lacks(
    engine: str, scowl55: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(w for w in scowl55 if w not in ("PYTHONS", "PROLOGS")))
    entries = tmp_path / "theme.txt"
    entries.write_text("Pythons\nprologs\n", encoding="utf-8")
    argv = ["make", "--size", "11x11", "--dict", str(words), "--seed", "1", "--engine", engine]
    assert main([*argv, "--theme-file", str(entries), "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    placed = doc["pattern"]["theme"]
    assert sorted(e["word"] for e in placed) == ["PROLOGS", "PYTHONS"]
    grid = doc["solutions"][0]["grid"]
    for e in placed:
        across = e["direction"] == "across"
        line = grid[e["row"]] if across else "".join(row[e["col"]] for row in grid)
        start = e["col"] if across else e["row"]
        assert line[start : start + len(e["word"])] == e["word"]
    assert doc["tries"][-1]["status"] == "solved"
    assert main([*argv, "--theme", "python", "prologs"]) == 2  # PYTHON: 6 letters, odd one out
    assert "needs a slot through the centre" in capsys.readouterr().err


# ---------------------------------------------------------------- the JSON API


def test_the_pattern_api_takes_the_limits_and_a_theme() -> None:
    answer = api.pattern(
        {"seed": 3, "theme": ["walk in the park"], "max-words": 76, "max-cheaters": "any"}, 30
    )
    assert answer.exit_code == 0
    doc = answer.body
    assert [e["word"] for e in doc["theme"]] == ["WALKINTHEPARK"]
    assert (doc["max_words"], doc["max_cheaters"]) == (76, None)
    assert len(doc["grid"]) == 15
    assert rule_breaks(doc["grid"], "rot180", max_words=76) == []
    refused = api.pattern({"theme": ["abcdefgh"]}, 30)
    assert (refused.status, refused.exit_code) == (400, 2)
    assert "through the centre" in refused.body["error"]
    assert api.pattern({"theme-file": "/etc/passwd"}, 30).status == 400  # not the API's
    assert api.pattern({"theme": [1, 2]}, 30).status == 400
