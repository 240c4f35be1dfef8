"""What a square of a .puz or ipuz file may hold (issue 39, item 8): a
letter or a digit, or nothing. A space, `_`, `~` or a lone combining mark in
a solution square is no letter: the solution is then unusable (--answers
says why) instead of being placed as a letter that the text output could
not give back; an ipuz given of " " is an empty square. Scores are ASCII
numbers: a fullwidth or an Arabic-Indic five is not 5."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import puz
import pytest

from pybridge.acrosslite import parse_puz
from pybridge.cli import main
from pybridge.errors import InputError
from pybridge.ipuzfile import parse_ipuz
from pybridge.lexicon import load_dictionary
from pybridge.scores import parse_score

SOLUTION = ("CAT", "A#O", "BOW")


def puz_file(path: Path, solution: str, fill: str | None = None) -> Path:
    p = puz.Puzzle()
    p.width, p.height = 3, 3
    p.solution = solution
    p.fill = fill or "".join("." if ch == "." else "-" for ch in solution)
    p.clues = ["a", "b", "c", "d"]
    p.save(str(path))
    return path


def ipuz_doc(solution: list[list[Any]], puzzle: list[list[Any]] | None = None) -> str:
    doc = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 3, "height": 3},
        "puzzle": puzzle or [[1, 0, 2], [0, "#", 0], [3, 0, 0]],
        "solution": solution,
        "clues": {"Across": [[1, "a"], [3, "b"]], "Down": [[1, "c"], [2, "d"]]},
    }
    return json.dumps(doc)


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("junk", ["_", "~", "*"])
def test_a_puz_solution_square_that_is_no_letter_leaves_no_answers(
    tmp_path: Path, junk: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = puz_file(tmp_path / "junk.puz", f"C{junk}TA.OBOW")
    puzzle = parse_puz(path.read_bytes(), str(path))
    assert puzzle.published is not None
    assert puzzle.published.solution is None
    code, out, err = run(capsys, "solve", path, "--answers")
    assert (code, out) == (2, "")
    assert f"its solution has '{junk}' at row 1, column 2, which is not a letter" in err


def test_a_space_in_a_puz_solution_is_an_empty_square(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = puz_file(tmp_path / "space.puz", "C TA.OBOW")
    code, out, err = run(capsys, "solve", path, "--answers")
    assert (code, out) == (2, "")
    assert "it is incomplete: 1-Across has no letter at row 1, column 2" in err


def test_a_puz_players_grid_with_junk_is_refused_by_square(tmp_path: Path) -> None:
    path = puz_file(tmp_path / "fill.puz", "CATA.OBOW", fill="-~--.----")
    with pytest.raises(InputError, match=r"player's grid shows '~' at row 1, column 2"):
        parse_puz(path.read_bytes(), str(path))


@pytest.mark.parametrize("junk", [" ", "_", "~", "\u0301", "A_B"])
def test_an_ipuz_solution_square_holds_a_letter_or_nothing(junk: str) -> None:
    rows = [["C", junk, "T"], ["A", "#", "O"], ["B", "O", "W"]]
    puzzle = parse_ipuz(ipuz_doc(rows), "junk.ipuz")
    assert puzzle.published is not None
    if junk == " ":  # an empty square: --answers then says the solution is incomplete
        assert puzzle.published.solution == ("C.T", "A#O", "BOW")
    else:
        assert puzzle.published.solution is None
        assert "at row 1, column 2" in puzzle.published.unusable


def test_several_letters_are_a_rebus_square() -> None:
    rows = [["C", "A\u0301B", "T"], ["A", "#", "O"], ["B", "O", "W"]]  # ÁB, decomposed
    puzzle = parse_ipuz(ipuz_doc(rows), "rebus.ipuz")
    assert puzzle.published is not None
    assert puzzle.published.solution == ("C①T", "A#O", "BOW")
    assert puzzle.published.rebus_texts == {"①": "ÁB"}


def test_a_decomposed_letter_is_one_letter() -> None:
    rows = [["C", "e\u0301", "T"], ["A", "#", "O"], ["B", "O", "W"]]
    puzzle = parse_ipuz(ipuz_doc(rows), "accent.ipuz")
    assert puzzle.published is not None
    assert puzzle.published.solution == ("CÉT", "A#O", "BOW")


def test_an_ipuz_given_of_a_space_is_an_empty_square(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [list(row) for row in SOLUTION]
    grid = [[1, {"cell": 0, "value": " "}, 2], [0, "#", 0], [3, 0, 0]]
    path = tmp_path / "space.ipuz"
    path.write_text(ipuz_doc(rows, grid), encoding="utf-8")
    code, out, _ = run(capsys, "solve", path, "--answers", "--engine", "python")
    assert (code, out) == (0, "CAT\nA#O\nBOW\n")


@pytest.mark.parametrize("junk", ["~", "_", "\u0301"])
def test_an_ipuz_given_that_is_no_letter_is_refused(junk: str) -> None:
    rows = [list(row) for row in SOLUTION]
    grid = [[1, {"cell": 0, "value": junk}, 2], [0, "#", 0], [3, 0, 0]]
    with pytest.raises(InputError, match="holds one letter or digit"):
        parse_ipuz(ipuz_doc(rows, grid), "given.ipuz")


@pytest.mark.parametrize("digit", ["\uff15", "\u0665", "\u0e55"])
def test_scores_are_ascii_numbers(tmp_path: Path, digit: str) -> None:
    assert parse_score(digit) is None
    assert parse_score(f"1{digit}") is None
    assert parse_score("5") == Decimal(5)
    scored = tmp_path / "scored.txt"
    scored.write_text(f"CAT;{digit}\nDOG;40\n", encoding="utf-8")
    dictionary = load_dictionary([str(scored)])
    assert dictionary.words == ("DOG",)
    weighted = tmp_path / "weighted.txt"
    weighted.write_text(f"CAT {digit}\nDOG 0.5\n", encoding="utf-8")
    # not RP 2016's weighted form (every line WORD number), so a plain list of two bad entries
    with pytest.raises(InputError, match="no usable entry"):
        load_dictionary([str(weighted)])
