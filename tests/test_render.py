"""Text, notebook and JSON renderings of puzzles and answers."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import SOLVED, corpus_puzzle, expected_text, known_solution, solution_from_rows

from pybridge.model import Puzzle
from pybridge.notation import framework_text, solution_text
from pybridge.render import outcome_json
from pybridge.solver import Outcome, Stats, run

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


def svg_texts(document: str) -> list[str]:
    root = ET.fromstring(document)
    return [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_a_puzzle_shows_itself_in_a_notebook_with_clue_numbers() -> None:
    puzzle = Puzzle(("<&", "<B"), ("<&", ".#"), "fillin")
    page = puzzle._repr_svg_()
    assert page.startswith("<svg")
    assert svg_texts(page) == ["1", "<", "&"]  # 1-Across and 1-Down start together
    assert "&lt;" in page
    assert "&amp;" in page
    assert page.count('font-weight="bold"') == 2  # the two predefined letters


def test_a_solution_shows_itself_in_a_notebook_with_clue_numbers() -> None:
    puzzle = Puzzle(("AB", "AC"), ("..", ".#"), "fillin")
    solution = solution_from_rows(puzzle, ["AB", "C#"])
    texts = svg_texts(solution._repr_svg_())
    assert [t for t in texts if t.isdigit()] == ["1"]  # 1-Across and 1-Down start together
    assert sorted(t for t in texts if not t.isdigit()) == ["A", "B", "C"]
    assert not hasattr(solution, "_repr_html_")  # the notebook shows the picture


def test_an_outcome_shows_its_verdict_stats_and_grid() -> None:
    puzzle = Puzzle(("AB", "AC"), ("..", ".#"), "fillin")
    solved = run(puzzle, engine="python", strategy="mrv")
    page = solved._repr_html_()
    assert page.startswith("<div><b>solved</b>, 1 solution found")
    assert "python engine, mrv: " in page
    assert "<svg" in page
    assert ">C</text>" in page


def test_an_unsolvable_outcome_shows_its_core() -> None:
    puzzle = Puzzle(("AB", "CD"), ("..", ".#"), "fillin")  # A-across needs a word of C-down
    outcome = run(puzzle, engine="python", strategy="mrv")
    assert outcome.status == "unsolvable"
    page = outcome._repr_html_()
    assert page.startswith("<div><b>unsolvable</b> (layer: ")
    assert "shaded: the core" in page
    assert page.count('fill="#ffaaaa"') >= 2  # the core's cells and the legend's square


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
