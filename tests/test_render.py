"""Text, HTML and JSON renderings of puzzles and answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SOLVED, corpus_puzzle, expected_text, known_solution, solution_from_rows

from pybridge.model import Puzzle
from pybridge.notation import framework_text, grid_html, solution_text
from pybridge.render import outcome_json
from pybridge.solver import Outcome, Stats

# A P-99 framework written with ragged rows: ". . " (4 wide) over "...." and
# "A." (2 wide); shorter rows are padded with blocked cells.
RAGGED = Puzzle(("AB", "BB", "ABCD"), (".#.#", "....", "A.##"), "p99", "<t>", (4, 4, 2))


def test_p99_text_keeps_written_widths_and_strips_trailing_spaces() -> None:
    solution = solution_from_rows(RAGGED, ["A B ", "ABCD", "AB"])
    assert solution_text(solution) == "A B\nABCD\nAB"
    assert str(solution) == solution_text(solution)


def test_p99_framework_is_written_as_read() -> None:
    assert framework_text(RAGGED) == ". . \n....\nA."
    assert str(RAGGED) == framework_text(RAGGED)


def test_fillin_text_uses_its_own_marks() -> None:
    puzzle = Puzzle(("AB", "CD"), ("A.", "##", ".."), "fillin")
    assert framework_text(puzzle) == "A_\n##\n__"
    assert solution_text(solution_from_rows(puzzle, ["AB", "##", "CD"])) == "AB\n##\nCD"


def test_html_escapes_letters_and_blacks_out_blocked_cells() -> None:
    puzzle = Puzzle(("<&",), ("<&", "#."), "fillin")
    page = grid_html(puzzle, puzzle.grid)
    assert page.startswith("<table")
    assert page.endswith("</table>")
    assert page.count("<tr>") == 2
    assert page.count("<td") == 4
    assert "&lt;</td>" in page
    assert "&amp;</td>" in page
    assert "<&" not in page
    assert page.count("background:#000") == 1
    assert page.count("font-weight:bold") == 2  # the two predefined letters
    assert page.endswith("></td></tr></table>")  # the open cell is empty
    assert puzzle._repr_html_() == page


def test_html_of_a_solution_shows_its_letters() -> None:
    puzzle = Puzzle(("AB",), ("A.",), "fillin")
    solution = solution_from_rows(puzzle, ["AB"])
    page = solution._repr_html_()
    assert page == grid_html(puzzle, ("AB",))
    assert ">A</td>" in page
    assert ">B</td>" in page
    assert page.count("font-weight:bold") == 1


def test_outcome_json_of_a_solved_puzzle() -> None:
    solution = solution_from_rows(RAGGED, ["A B ", "ABCD", "AB"])
    outcome = Outcome("solved", [solution], None, None, Stats("python", "mrv", 7, 2, 0.25))
    doc = outcome_json(outcome)
    assert doc == {
        "status": "solved",
        "solutions": [
            {
                "grid": ["A#B#", "ABCD", "AB##"],
                "placements": [
                    {"number": 1, "direction": "down", "row": 0, "col": 0,
                     "length": 3, "word": "AAA"},
                    {"number": 2, "direction": "down", "row": 0, "col": 2,
                     "length": 2, "word": "BC"},
                    {"number": 3, "direction": "across", "row": 1, "col": 0,
                     "length": 4, "word": "ABCD"},
                    {"number": 4, "direction": "down", "row": 1, "col": 1,
                     "length": 2, "word": "BB"},
                    {"number": 5, "direction": "across", "row": 2, "col": 0,
                     "length": 2, "word": "AB"},
                ],
            }
        ],
        "stats": {"engine": "python", "strategy": "mrv", "nodes": 7, "backtracks": 2,
                  "seconds": 0.25},
    }  # fmt: skip
    assert json.loads(json.dumps(doc)) == doc


def test_outcome_json_carries_count_and_reason_only_when_known() -> None:
    stats = Stats("prolog", "sorted", 0, 0, 1.5)
    counted = outcome_json(Outcome("solved", [], 2, None, stats))
    assert counted["count"] == 2
    assert "reason" not in counted
    failed = outcome_json(Outcome("unsolvable", [], None, "no 6-letter word", stats))
    assert failed["reason"] == "no 6-letter word"
    assert "count" not in failed
    assert failed["solutions"] == []
    assert failed["status"] == "unsolvable"
    assert failed["stats"]["engine"] == "prolog"


# ---------------------------------------------------------------- the corpus


@pytest.mark.parametrize("name", SOLVED)
def test_known_answers_print_as_the_corpus_expects(shared_dir: Path, name: str) -> None:
    assert solution_text(known_solution(shared_dir, name)) == expected_text(shared_dir, name)


@pytest.mark.parametrize("stem", ["p7_09a", "p7_09b", "p7_09c", "p7_09d"])
def test_p99_frameworks_print_as_written(shared_dir: Path, stem: str) -> None:
    text = (shared_dir / "corpus" / "p99" / f"{stem}.dat").read_text(encoding="utf-8")
    framework = text.split("\n\n", 1)[1].rstrip("\n")
    assert framework_text(corpus_puzzle(shared_dir, f"p99/{stem}")) == framework


@pytest.mark.parametrize("number", ["1", "2", "3", "5", "6", "7", "9", "12", "13", "_t27"])
def test_fillin_grids_print_as_written(shared_dir: Path, number: str) -> None:
    text = (shared_dir / "corpus" / "fillin" / f"puzzle{number}").read_text(encoding="utf-8")
    assert framework_text(corpus_puzzle(shared_dir, f"fillin/{number}")) == text.rstrip("\n")
