"""The independent verifier: accepts every known answer of the corpus, and
names each problem of a broken grid or a broken list of placements."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest
from conftest import SOLVED, corpus_puzzle, known_solution, solution_from_rows

from pybridge.layout import find_sites
from pybridge.model import Puzzle, Solution
from pybridge.solver import run
from pybridge.verify import is_solution, problems, runs, solution_problems, times

# C A T      across CAT, BAP; down CUB, TOP
# U # O
# B A P
CROSSING = Puzzle(("CAT", "BAP", "CUB", "TOP"), ("...", ".#.", "..."), "fillin")
CROSSING_ROWS = ["CAT", "U#O", "BAP"]
GIVEN_T = dataclasses.replace(CROSSING, grid=("..T", ".#.", "..."))
# Two across runs that cross nothing, of different lengths.
APART = Puzzle(("ABC", "DE"), ("...#..",), "fillin")
ALL_CORPUS = (*SOLVED, "p99/p7_09c", "fillin/13", "fillin/_t15", "fillin/_t19", "fillin/_t27")


def test_a_solution_has_no_problems() -> None:
    assert problems(CROSSING, CROSSING_ROWS) == []
    assert is_solution(CROSSING, CROSSING_ROWS)
    assert is_solution(GIVEN_T, CROSSING_ROWS)


def test_a_grid_of_another_shape_is_reported_alone() -> None:
    assert problems(CROSSING, ["CAT", "U#O"]) == ["the grid has 2 rows but the framework has 3"]
    assert problems(CROSSING, ["CAT", "U#O", "BA"]) == [
        "row 3 of the grid has 2 cells but the framework's has 3"
    ]
    assert not is_solution(CROSSING, ["CAT", "U#O", "BAPS"])


def test_a_letter_in_a_blocked_cell() -> None:
    assert problems(CROSSING, ["CAT", "UXO", "BAP"]) == ["row 2, column 2: blocked cell holds 'X'"]


@pytest.mark.parametrize(
    ("mark", "sentence"), [("#", "open cell is blocked"), (".", "open cell is left empty")]
)
def test_an_open_cell_not_filled(mark: str, sentence: str) -> None:
    assert problems(CROSSING, ["CA" + mark, "U#O", "BAP"]) == [
        f"row 1, column 3: {sentence}",
        "word 'CAT' is listed once but placed 0 times",
        "word 'TOP' is listed once but placed 0 times",
    ]


def test_a_predefined_letter_changed() -> None:
    assert problems(GIVEN_T, ["CAR", "U#O", "BAP"]) == [
        "row 1, column 3: predefined letter 'T' is changed to 'R'",
        "row 1, column 1 across: 'CAR' is not in the word list",
        "row 1, column 3 down: 'ROP' is not in the word list",
        "word 'CAT' is listed once but placed 0 times",
        "word 'TOP' is listed once but placed 0 times",
    ]


def test_a_word_used_twice() -> None:
    apart = Puzzle(("ABC", "DEF"), ("...#...",), "fillin")
    assert problems(apart, ["ABC#ABC"]) == [
        "word 'ABC' is listed once but placed twice",
        "word 'DEF' is listed once but placed 0 times",
    ]


def test_duplicates_in_the_word_list_count() -> None:
    twice = Puzzle(("AB", "AB"), ("..#..",), "fillin")
    assert problems(twice, ["AB#AB"]) == []
    assert problems(twice, ["AB#AC"]) == [
        "row 1, column 4 across: 'AC' is not in the word list",
        "word 'AB' is listed twice but placed once",
    ]


def test_times() -> None:
    assert [times(n) for n in (0, 1, 2, 3)] == ["0 times", "once", "twice", "3 times"]


def crossing_solution() -> Solution:
    return solution_from_rows(CROSSING, CROSSING_ROWS)


def test_placements_that_match_the_grid() -> None:
    assert solution_problems(crossing_solution()) == []


def test_placements_with_swapped_words_of_different_lengths() -> None:
    solution = solution_from_rows(APART, ["ABC#DE"])
    first, second = solution.placements
    swapped = (
        dataclasses.replace(first, word=second.word),
        dataclasses.replace(second, word=first.word),
    )
    assert solution_problems(dataclasses.replace(solution, placements=swapped)) == [
        "1-Across: word 'DE' has 2 letters but the placement's length is 3",
        "2-Across: word 'ABC' has 3 letters but the placement's length is 2",
    ]


def test_a_placement_whose_word_the_grid_does_not_hold() -> None:
    solution = crossing_solution()
    wrong = dataclasses.replace(solution.placements[0], word="BAP")
    broken = dataclasses.replace(solution, placements=(wrong, *solution.placements[1:]))
    assert solution_problems(broken) == ["1-Across: placement says 'BAP' but the grid reads 'CAT'"]


def test_a_placement_with_the_wrong_number() -> None:
    solution = crossing_solution()
    wrong = dataclasses.replace(solution.placements[0], number=9)
    broken = dataclasses.replace(solution, placements=(wrong, *solution.placements[1:]))
    assert solution_problems(broken) == ["9-Across: the run at row 1, column 1 is number 1"]


def test_a_placement_off_every_run() -> None:
    solution = crossing_solution()
    wrong = dataclasses.replace(solution.placements[0], row=1)
    broken = dataclasses.replace(solution, placements=(wrong, *solution.placements[1:]))
    assert solution_problems(broken) == [
        "1-Across: no 3-cell across run starts at row 2, column 1",
        "1-Across: placement says 'CAT' but the grid reads 'U#O'",
        "the across run at row 1, column 1 has 0 placements instead of one",
    ]


def test_a_run_placed_twice_or_never() -> None:
    solution = crossing_solution()
    first, *others = solution.placements
    doubled = dataclasses.replace(solution, placements=(first, first, *others))
    assert solution_problems(doubled) == [
        "the across run at row 1, column 1 has 2 placements instead of one"
    ]
    missing = dataclasses.replace(solution, placements=tuple(others))
    assert solution_problems(missing) == [
        "the across run at row 1, column 1 has 0 placements instead of one"
    ]


# ---------------------------------------------------------------- the corpus


@pytest.mark.parametrize("name", ALL_CORPUS)
def test_runs_agree_with_the_site_finder(shared_dir: Path, name: str) -> None:
    puzzle = corpus_puzzle(shared_dir, name)
    sites = {(site.direction, site.cells) for site in find_sites(puzzle)}
    assert set(runs(puzzle.grid)) == sites


@pytest.mark.parametrize("name", SOLVED)
def test_every_known_answer_is_accepted(shared_dir: Path, name: str) -> None:
    solution = known_solution(shared_dir, name)
    assert solution_problems(solution) == []
    assert is_solution(solution.puzzle, solution.grid)


def with_letter(grid: tuple[str, ...], cell: tuple[int, int], letter: str) -> tuple[str, ...]:
    r, c = cell
    return (*grid[:r], grid[r][:c] + letter + grid[r][c + 1 :], *grid[r + 1 :])


@pytest.mark.parametrize("name", SOLVED)
def test_a_changed_letter_is_rejected(shared_dir: Path, name: str) -> None:
    solution = known_solution(shared_dir, name)
    puzzle = solution.puzzle
    cell = next(c for s in find_sites(puzzle) for c in s.cells if puzzle.given(c) is None)
    # A character no word contains, so every word through the cell becomes unlisted.
    alphabet = set("".join(puzzle.words))
    stranger = next(ch for ch in "*?!~" if ch not in alphabet)
    grid = with_letter(solution.grid, cell, stranger)
    found = problems(puzzle, grid)
    for site in find_sites(puzzle):
        if cell in site.cells:
            word = "".join(grid[r][c] for r, c in site.cells)
            where = f"row {site.row + 1}, column {site.col + 1} {site.direction}"
            assert f"{where}: {word!r} is not in the word list" in found
            original = "".join(solution.grid[r][c] for r, c in site.cells)
            assert any(p.startswith(f"word {original!r} is listed") for p in found)


@pytest.mark.parametrize("name", SOLVED)
def test_a_word_used_twice_is_rejected(shared_dir: Path, name: str) -> None:
    solution = known_solution(shared_dir, name)
    puzzle = solution.puzzle
    sites = find_sites(puzzle)
    words = [p.word for p in solution.placements]  # one per site, in site order
    # Copy word j over word i: same length, different words, sites not crossing.
    i, j = next(
        (i, j)
        for i in range(len(sites))
        for j in range(len(sites))
        if sites[i].length == sites[j].length
        and words[i] != words[j]
        and not set(sites[i].cells) & set(sites[j].cells)
    )
    grid = solution.grid
    for cell, letter in zip(sites[i].cells, words[j], strict=True):
        grid = with_letter(grid, cell, letter)
    found = problems(puzzle, grid)
    listed = Counter(puzzle.words)
    n, m = listed[words[j]], listed[words[i]]
    assert f"word {words[j]!r} is listed {times(n)} but placed {times(n + 1)}" in found
    assert f"word {words[i]!r} is listed {times(m)} but placed {times(m - 1)}" in found


@pytest.mark.parametrize("name", SOLVED)
def test_placements_swapped_across_lengths_are_rejected(shared_dir: Path, name: str) -> None:
    solution = known_solution(shared_dir, name)
    placements = list(solution.placements)
    i, j = next(
        (i, j)
        for i in range(len(placements))
        for j in range(i + 1, len(placements))
        if placements[i].length != placements[j].length
    )
    a, b = placements[i], placements[j]
    placements[i] = dataclasses.replace(a, word=b.word)
    placements[j] = dataclasses.replace(b, word=a.word)
    swapped = dataclasses.replace(solution, placements=tuple(placements))
    assert problems(swapped.puzzle, swapped.grid) == []
    assert solution_problems(swapped) == [
        f"{a.label}: word {b.word!r} has {b.length} letters "
        f"but the placement's length is {a.length}",
        f"{b.label}: word {a.word!r} has {a.length} letters "
        f"but the placement's length is {b.length}",
    ]


# ---------------------------------------------------------------- lexicon mode

# The crossing grid's words in a dictionary of others, each usable once.
LEXICON = dataclasses.replace(
    CROSSING, words=("ZEN", "CAT", "BAP", "ODE", "CUB", "TOP"), format="grid", mode="lexicon"
)
LEXICON_APART = Puzzle(("ABC", "DEF", "GHI"), ("...#...",), "grid", mode="lexicon")


def test_a_lexicon_fill_needs_no_word_but_its_own() -> None:
    assert problems(LEXICON, CROSSING_ROWS) == []
    assert solution_problems(solution_from_rows(LEXICON, CROSSING_ROWS)) == []
    assert problems(LEXICON_APART, ["ABC#GHI"]) == []


def test_a_lexicon_fill_with_a_word_not_in_the_dictionary() -> None:
    assert problems(LEXICON, ["COT", "U#O", "BAP"]) == [
        "row 1, column 1 across: 'COT' is not in the dictionary"
    ]


def test_a_lexicon_word_used_twice() -> None:
    assert problems(LEXICON_APART, ["ABC#ABC"]) == [
        "word 'ABC' is placed twice (row 1, column 1 across; row 1, column 5 across) "
        "but may be used only once"
    ]
    assert not is_solution(LEXICON_APART, ["ABC#ABC"])


def test_a_repeated_word_not_in_the_dictionary_is_reported_at_its_runs() -> None:
    assert problems(LEXICON_APART, ["XYZ#XYZ"]) == [
        "row 1, column 1 across: 'XYZ' is not in the dictionary",
        "row 1, column 5 across: 'XYZ' is not in the dictionary",
    ]


def test_an_unfilled_lexicon_cell_is_reported_alone() -> None:
    assert problems(LEXICON, ["CA.", "U#O", "BAP"]) == ["row 1, column 3: open cell is left empty"]


def test_every_lexicon_fill_of_the_engine_is_accepted() -> None:
    outcome = run(LEXICON, engine="python", limit=None, prove=False)
    grids = sorted(s.grid for s in outcome.solutions)
    assert grids == [tuple(CROSSING_ROWS), ("CUB", "A#A", "TOP")]
    for solution in outcome.solutions:
        assert solution_problems(solution) == []
