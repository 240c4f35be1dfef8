"""Rebus squares, circles, shading and diagramless crosswords (issue 36):
a square holding several letters is read from .puz (GRBS/RTBL) and ipuz,
solved with --answers in both engines alike (the square holds one mark,
so the engines place it as a letter), and written back; circles and
shading are drawn and kept through the round trips they can survive; a
diagramless puzzle stays diagramless."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import ipuz
import puz
import pytest

import pybridge
from pybridge.acrosslite import parse_puz
from pybridge.cli import main
from pybridge.ipuzfile import parse_ipuz

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")

SOLUTION = ("WOT#", "EVEN", "TUNA", "#MOP")
REBUS = {0: "WH", 10: "NN"}  # square index: its letters


def rebus_puz(path: Path, diagramless: bool = False) -> Path:
    p = puz.Puzzle()
    p.width, p.height = 4, 4
    p.solution = "".join(SOLUTION).replace("#", ":" if diagramless else ".")
    p.fill = "".join("." if ch == "#" and not diagramless else "-" for ch in "".join(SOLUTION))
    p.clues = [f"clue {k}" for k in range(8)]
    for index, letters in REBUS.items():
        p.rebus().add_rebus_squares(index, letters)
    p.markup().set_markup_squares([5], puz.GridMarkup.Circled)
    if diagramless:
        p.puzzletype = puz.PuzzleType.Diagramless
    p.save(str(path))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_puz_rebus_is_read_as_marks_that_stand_for_letters(tmp_path: Path) -> None:
    path = rebus_puz(tmp_path / "r.puz")
    puzzle = parse_puz(path.read_bytes(), str(path))
    published = puzzle.published
    assert published is not None
    assert published.solution == ("①OT#", "EVEN", "TU②A", "#MOP")
    assert published.rebus_texts == {"①": "WH", "②": "NN"}
    assert puzzle.grid[0][0] == "."  # the player's grid shows no given there
    assert published.circled == frozenset({(1, 1)})


@pytest.mark.parametrize("engine", [pytest.param("prolog", marks=needs_prolog), "python"])
def test_rebus_answers_are_solved_in_either_engine(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = rebus_puz(tmp_path / "r.puz")
    code, out, _ = run(capsys, "solve", path, "--answers", "--engine", engine)
    assert (code, out) == (0, "①OT#\nEVEN\nTU②A\n#MOP\nrebus: ① WH, ② NN\n")
    code, out, _ = run(capsys, "solve", path, "--answers", "--engine", engine, "--output", "json")
    doc = json.loads(out)
    assert doc["rebus"] == {"①": "WH", "②": "NN"}
    words = {p["word"] for p in doc["solutions"][0]["placements"]}
    assert words == {"①OT", "EVEN", "TU②A", "MOP", "①ET", "OVUM", "TE②O", "NAP"}


@needs_prolog
def test_both_engines_search_a_rebus_puzzle_alike(tmp_path: Path) -> None:
    puzzle = pybridge.load(rebus_puz(tmp_path / "r.puz"), answers=True)
    outcomes = [
        pybridge.run(puzzle, engine=engine, strategy=strategy, limit=None)
        for strategy in ("mrv", "given", "cbj")
        for engine in ("prolog", "python")
    ]
    for prolog, python in zip(outcomes[::2], outcomes[1::2], strict=True):
        assert [s.grid for s in prolog.solutions] == [s.grid for s in python.solutions]
        assert (prolog.stats.nodes, prolog.stats.backtracks) == (
            python.stats.nodes,
            python.stats.backtracks,
        )
        assert len(prolog.solutions) == 2  # the grid is symmetric: the answers fit two ways


def test_rebus_squares_survive_puz_and_ipuz(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = rebus_puz(tmp_path / "r.puz")
    back_puz, back_ipuz = tmp_path / "back.puz", tmp_path / "back.ipuz"
    assert run(capsys, "solve", path, "--answers", "--output", "puz", back_puz)[0] == 0
    p = puz.read(str(back_puz))
    rebus = p.rebus()
    assert {i: rebus.get_rebus_solution(i) for i in rebus.get_rebus_squares()} == REBUS
    assert p.solution == "".join(SOLUTION).replace("#", ".")  # a rebus square: its first letter
    assert p.markup().get_markup_squares(puz.GridMarkup.Circled) == [5]
    assert run(capsys, "solve", back_puz, "--answers", "--output", "ipuz", back_ipuz)[0] == 0
    doc = ipuz.read(back_ipuz.read_text(encoding="utf-8"))
    assert doc["solution"][0][0] == "WH"
    assert doc["solution"][2][2] == "NN"
    assert doc["puzzle"][1][1]["style"] == {"shapebg": "circle"}
    again = parse_ipuz(back_ipuz.read_text(encoding="utf-8"))
    assert again.published is not None
    assert again.published.rebus_texts == {"①": "WH", "②": "NN"}
    assert again.published.solution == ("①OT#", "EVEN", "TU②A", "#MOP")


def test_a_diagramless_puzzle_stays_diagramless(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = rebus_puz(tmp_path / "d.puz", diagramless=True)
    puzzle = parse_puz(path.read_bytes(), str(path))
    assert puzzle.published is not None
    assert puzzle.published.diagramless
    back, back_ipuz = tmp_path / "back.puz", tmp_path / "back.ipuz"
    assert run(capsys, "solve", path, "--answers", "--output", "puz", back)[0] == 0
    p = puz.read(str(back))
    assert p.puzzletype == puz.PuzzleType.Diagramless
    assert "." not in p.fill  # the solver finds the blocks
    assert run(capsys, "solve", back, "--answers", "--output", "ipuz", back_ipuz)[0] == 0
    doc = json.loads(back_ipuz.read_text(encoding="utf-8"))
    assert doc["kind"] == ["http://ipuz.org/crossword/diagramless#1"]
    assert parse_ipuz(back_ipuz.read_text(encoding="utf-8")).published.diagramless  # type: ignore[union-attr]


def shaded_ipuz(path: Path) -> Path:
    doc = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 3, "height": 3},
        "puzzle": [
            [{"cell": 1, "style": {"highlight": True}}, 0, 2],
            [0, "#", {"cell": 0, "style": {"shapebg": "circle"}}],
            [3, 0, 0],
        ],
        "solution": [["C", "A", "T"], ["A", "#", "O"], ["B", "O", "W"]],
        "clues": {"Across": [[1, "Pet"], [3, "Bend"]], "Down": [[1, "Taxi"], [2, "Pull"]]},
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_circles_and_shading_are_drawn_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = shaded_ipuz(tmp_path / "s.ipuz")
    published = parse_ipuz(path.read_text(encoding="utf-8")).published
    assert published is not None
    assert (published.shaded, published.circled) == (frozenset({(0, 0)}), frozenset({(1, 2)}))
    svg = tmp_path / "s.svg"
    assert run(capsys, "solve", path, "--answers", "--output", "svg", svg)[0] == 0
    text = svg.read_text(encoding="utf-8")
    assert text.count("<circle") == 1
    assert 'fill="#d3d3d3"' in text
    back = tmp_path / "back.ipuz"
    assert run(capsys, "solve", path, "--answers", "--output", "ipuz", back)[0] == 0
    doc = json.loads(back.read_text(encoding="utf-8"))
    assert doc["puzzle"][0][0]["style"] == {"highlight": True}
    assert doc["puzzle"][1][2]["style"] == {"shapebg": "circle"}
    png = tmp_path / "s.png"
    assert run(capsys, "solve", path, "--answers", "--output", "png", png)[0] == 0
    from PIL import Image

    with Image.open(png) as image:
        grey = image.convert("L")
        cell, margin = 40, 4  # pictures.CELL at the default DPI, and Layout.margin
        # a spot of the shaded square away from its number and letter is grey; the next is white
        assert 180 < grey.getpixel((margin + 34, margin + 34)) < 240
        assert grey.getpixel((margin + cell + 34, margin + 34)) > 240


@pytest.mark.parametrize("diagramless", [False, True])
def test_a_puz_comes_back_byte_for_byte(
    tmp_path: Path, diagramless: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    # a file that holds only what this tool reads: grid, solution, clues, texts, circles,
    # rebus squares, the diagramless flag (docs/formats.md: the round trip)
    path = rebus_puz(tmp_path / "r.puz", diagramless)
    p = puz.read(str(path))
    p.title, p.author, p.copyright, p.notes = "Title", "Author", "© 2026", "Notes"
    p.save(str(path))
    back = tmp_path / "back.puz"
    assert run(capsys, "solve", path, "--answers", "--output", "puz", back)[0] == 0
    assert back.read_bytes() == path.read_bytes()


def rebus_ipuz(path: Path) -> Path:
    """The rebus puzzle as ipuz, its WH square given in the player's grid
    and its NN square saved (a solver's progress)."""
    rows = [list(row) for row in SOLUTION]
    solution: list[list[object]] = [[ch if ch != "#" else "#" for ch in row] for row in rows]
    solution[0][0], solution[2][2] = "WH", "NN"
    puzzle: list[list[object]] = [[0 if ch != "#" else "#" for ch in row] for row in rows]
    puzzle[0][0] = {"cell": 1, "value": "WH"}
    saved: list[list[object]] = [[0 if ch != "#" else "#" for ch in row] for row in rows]
    saved[2][2] = "NN"
    doc = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 4, "height": 4},
        "puzzle": puzzle,
        "saved": saved,
        "solution": solution,
        "clues": {"Across": [], "Down": []},
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


@pytest.mark.parametrize("engine", [pytest.param("prolog", marks=needs_prolog), "python"])
def test_a_rebus_in_the_ipuz_player_grid_is_the_solution_s_mark(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = rebus_ipuz(tmp_path / "r.ipuz")
    puzzle = parse_ipuz(path.read_text(encoding="utf-8"), str(path))
    assert puzzle.grid == ("①..#", "....", "..②.", "#...")  # given WH, saved NN: the marks
    assert puzzle.published is not None
    assert puzzle.published.rebus_texts == {"①": "WH", "②": "NN"}
    code, out, _ = run(capsys, "solve", path, "--answers", "--engine", engine)
    assert (code, out) == (0, "①OT#\nEVEN\nTU②A\n#MOP\nrebus: ① WH, ② NN\n")
    back = tmp_path / "back.ipuz"
    assert run(capsys, "solve", path, "--answers", "--output", "ipuz", back)[0] == 0
    doc = json.loads(back.read_text(encoding="utf-8"))
    assert doc["puzzle"][0][0] == {"cell": 1, "value": "WH"}  # the given, as letters again
    assert parse_ipuz(back.read_text(encoding="utf-8")).grid[0][0] == "①"


def test_a_given_that_is_no_rebus_is_refused_by_square(tmp_path: Path) -> None:
    path = rebus_ipuz(tmp_path / "r.ipuz")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["puzzle"][0][0] = {"cell": 1, "value": "W-H"}
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(pybridge.InputError, match="row 1, column 1 shows 'W-H'"):
        parse_ipuz(path.read_text(encoding="utf-8"), str(path))
