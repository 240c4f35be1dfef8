"""Across Lite .puz and ipuz files (issue 22) and the messages for a file of
the wrong kind (issue 21, item 2).

Every file here is written by the test itself, with puzpy and plain JSON
(validated with the ipuz package): reading (grid, givens, solution, clues,
circles), `--answers` reproducing the file's own solution in both engines,
`--dict`, round trips through both writers, the odd files (rebus, locked,
diagramless, version 2, non-Latin-1 text) and damaged ones.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import ipuz
import puz
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from puzzlegen import random_puzzle

import pybridge
from pybridge.acrosslite import parse_puz
from pybridge.cli import main
from pybridge.errors import InputError, UsageError
from pybridge.ipuzfile import parse_ipuz
from pybridge.layout import find_sites
from pybridge.model import BLOCK, OPEN
from pybridge.readers import load
from pybridge.verify import problems

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]

# A 4x4 crossword whose answers fit two ways (the grid is symmetric about its
# diagonal) but one way only with its given O.
SOLUTION = ("WOT#", "EVEN", "TUNA", "#MOP")
ENTRIES = {  # in entry order
    "1-Across": "WOT",
    "1-Down": "WET",
    "2-Down": "OVUM",
    "3-Down": "TENO",
    "4-Across": "EVEN",
    "5-Down": "NAP",
    "6-Across": "TUNA",
    "7-Across": "MOP",
}
CLUES = [f"Clue for {word}" for word in ENTRIES.values()]
DICTIONARY = ["WOT", "WET", "OVUM", "TENO", "EVEN", "NAP", "TUNA", "MOP", "HOT", "HER", "ORAL"]


def make_puz(
    path: Path,
    solution: tuple[str, ...] = SOLUTION,
    *,
    fill: tuple[str, ...] | None = None,
    clues: list[str] | None = None,
    version: str = "1.3",
    **fields: Any,
) -> Path:
    """A .puz file written by puzpy: `solution` rows with '#' for blocks, the
    player's grid `fill` ('-' empty; default: empty squares)."""
    p = puz.Puzzle(version)
    p.height, p.width = len(solution), len(solution[0])
    p.solution = "".join(solution).replace("#", ".")
    grid = fill or tuple(row.replace("#", ".").translate(_EMPTY) for row in solution)
    p.fill = "".join(grid).replace("#", ".")
    p.clues = CLUES if clues is None else clues
    for name, value in fields.items():
        setattr(p, name, value)
    p.save(str(path))
    return path


_EMPTY = str.maketrans(dict.fromkeys("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "-"))
GIVEN_O = ("-O-.", "----", "----", ".---")


def make_ipuz(path: Path, **changes: Any) -> Path:
    """An ipuz file of SOLUTION with its given O, as another program writes
    one: labels in the grid, clues as [number, text] and as objects."""
    doc: dict[str, Any] = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "title": "Four",
        "author": "Test",
        "dimensions": {"width": 4, "height": 4},
        "puzzle": [
            [1, {"cell": 2, "value": "O"}, 3, "#"],
            [4, 0, 0, 5],
            [6, 0, {"cell": 0, "style": {"shapebg": "circle"}}, 0],
            ["#", 7, 0, 0],
        ],
        "solution": [list(row) for row in SOLUTION],
        "clues": {  # as other programs write them: numbers, strings, objects
            "Across": [
                [1, CLUES[0]],
                [4, CLUES[4]],
                {"number": 6, "clue": CLUES[6]},
                [7, CLUES[7]],
            ],
            "Down": [[1, CLUES[1]], ["2", CLUES[2]], [3, CLUES[3]], [5, CLUES[5]]],
        },
    }
    doc.update(changes)
    text = json.dumps(doc)
    ipuz.read(text)  # the file is valid ipuz
    path.write_text(text, encoding="utf-8")
    return path


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refusal(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> str:
    """The message of a command that must stop at bad input (exit code 2)."""
    code, out, err = cli(capsys, *argv)
    assert (code, out) == (2, ""), err
    return err


# ---------------------------------------------------------------- reading


def test_a_puz_file_is_read_with_its_grid_givens_solution_and_clues(tmp_path: Path) -> None:
    path = make_puz(tmp_path / "four.puz", fill=GIVEN_O, title="Four", author="Me")
    puzzle = parse_puz(path.read_bytes(), str(path))
    assert puzzle.format == "puz"
    assert puzzle.grid == (".O.#", "....", "....", "#...")
    published = puzzle.published
    assert published is not None
    assert published.solution == SOLUTION
    assert [(c.number, c.direction) for c in published.clues] == [
        (1, "across"),
        (1, "down"),
        (2, "down"),
        (3, "down"),
        (4, "across"),
        (5, "down"),
        (6, "across"),
        (7, "across"),
    ]
    assert [c.text for c in published.clues] == CLUES
    assert (published.title, published.author) == ("Four", "Me")


def test_an_ipuz_file_is_read_with_its_labels_clues_and_circles(tmp_path: Path) -> None:
    path = make_ipuz(tmp_path / "four.ipuz")
    puzzle = parse_ipuz(path.read_text(encoding="utf-8"), str(path))
    assert puzzle.grid == (".O.#", "....", "....", "#...")
    published = puzzle.published
    assert published is not None
    assert published.solution == SOLUTION
    assert [c.text for c in published.clues] == CLUES
    assert published.circled == frozenset({(2, 2)})
    assert published.title == "Four"


def test_sniffing_and_format_find_both_kinds_whatever_their_names(tmp_path: Path) -> None:
    puz_file = make_puz(tmp_path / "noext", fill=GIVEN_O)
    ipuz_file = make_ipuz(tmp_path / "noext2.json")
    assert load(puz_file, answers=True).format == "puz"
    assert load(ipuz_file, answers=True).format == "ipuz"
    assert load(puz_file, format="puz", answers=True).words
    jsonp = tmp_path / "wrapped.ipuz"
    jsonp.write_text(f"ipuz({ipuz_file.read_text()})", encoding="utf-8")
    assert load(jsonp, answers=True).format == "ipuz"


# ---------------------------------------------------------------- --answers


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", ["puz", "ipuz"])
def test_answers_reproduce_the_files_own_solution(
    tmp_path: Path, kind: str, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = (
        make_puz(tmp_path / "four.puz", fill=GIVEN_O)
        if kind == "puz"
        else make_ipuz(tmp_path / "four.ipuz")
    )
    code, out, _ = cli(capsys, "solve", path, "--answers", "--engine", engine, "--output", "json")
    assert code == 0
    (solution,) = json.loads(out)["solutions"]
    assert tuple(solution["grid"]) == SOLUTION
    puzzle = load(path, answers=True)
    assert sorted(puzzle.words) == sorted(ENTRIES.values())
    assert problems(puzzle, solution["grid"]) == []
    code, out, _ = cli(capsys, "solve", path, "--answers", "--unique", "--engine", engine)
    assert (code, out.splitlines()[-1]) == (0, "unique: exactly one solution")


@pytest.mark.parametrize("engine", ENGINES)
def test_without_the_given_the_answers_fit_two_ways(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(tmp_path / "four.puz")
    code, out, _ = cli(capsys, "solve", path, "--answers", "--count", "--engine", engine)
    assert (code, out) == (0, "2 solutions\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_check_explains_answers_that_cannot_be_placed(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A given that contradicts the solution: unsolvable, with a proof."""
    path = make_puz(tmp_path / "bad.puz", fill=("-X-.", "----", "----", ".---"))
    code, out, _ = cli(capsys, "check", path, "--answers", "--engine", engine)
    assert code == 1
    assert out.startswith("unsolvable (layer: ")
    code, out, _ = cli(capsys, "check", make_puz(tmp_path / "ok.puz"), "--answers")
    assert (code, out.splitlines()[0]) == (0, "solvable")


# ---------------------------------------------------------------- --dict


@pytest.mark.parametrize("engine", ENGINES)
def test_dict_fills_the_grid_keeping_its_givens(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(tmp_path / "four.puz", fill=GIVEN_O)
    words = tmp_path / "words.txt"
    words.write_text("\n".join(word.lower() for word in DICTIONARY) + "\n", encoding="utf-8")
    code, out, _ = cli(
        capsys, "solve", path, "--dict", words, "--engine", engine, "--output", "json"
    )
    assert code == 0
    grid = json.loads(out)["solutions"][0]["grid"]
    assert grid[0][1] == "O"
    puzzle = pybridge.load(path, dictionary=words)
    assert puzzle.mode == "lexicon"
    assert problems(puzzle, grid) == []


# ---------------------------------------------------------------- writing and round trips


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("first", "second"), [("puz", "ipuz"), ("ipuz", "puz")])
def test_round_trips_keep_grid_givens_solution_and_clues(
    tmp_path: Path, first: str, second: str, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """read -> solve -> write -> read, through both formats and back."""
    start = (
        make_puz(tmp_path / "start.puz", fill=GIVEN_O)
        if first == "puz"
        else make_ipuz(tmp_path / "start.ipuz")
    )
    middle, end = tmp_path / f"middle.{second}", tmp_path / f"end.{first}"
    for source, target in ((start, middle), (middle, end)):
        kind = target.suffix[1:]
        argv = ["solve", source, "--answers", "--engine", engine, "--output", kind, target]
        code, out, _ = cli(capsys, *argv)
        assert (code, out) == (0, f"wrote {target}\n")
    for path in (middle, end):
        puzzle = load(path, answers=True)
        published = puzzle.published
        assert published is not None
        assert puzzle.grid == (".O.#", "....", "....", "#...")
        assert published.solution == SOLUTION
        assert [clue.text for clue in published.clues] == CLUES
    if first == "puz":  # puzpy reads ours, and a .puz comes back byte for byte
        assert puz.read(str(end)).clues == CLUES
        assert end.read_bytes() == start.read_bytes()
    else:
        ipuz.read(end.read_text(encoding="utf-8"))
        assert load(end, answers=True).published.circled == frozenset({(2, 2)})  # type: ignore[union-attr]


def test_a_grid_from_elsewhere_is_written_with_placeholder_clues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text(".O.#\n....\n....\n#...\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(DICTIONARY) + "\n", encoding="utf-8")
    out_puz, out_ipuz = tmp_path / "out.puz", tmp_path / "out.ipuz"
    assert cli(capsys, "solve", grid, "--dict", words, "--output", "puz", out_puz)[0] == 0
    assert cli(capsys, "solve", grid, "--dict", words, "--output", "ipuz", out_ipuz)[0] == 0
    read_back = puz.read(str(out_puz))
    assert read_back.clues == list(ENTRIES)  # 1-Across, 1-Down, ...
    assert read_back.fill[1] == "O"  # the given shows in the player's grid
    doc = ipuz.read(out_ipuz.read_text(encoding="utf-8"))
    assert doc["clues"]["Across"][0] == [1, "1-Across"]
    assert doc["puzzle"][0][1] == {"cell": 2, "value": "O"}
    for path in (out_puz, out_ipuz):
        puzzle = load(path, answers=True)
        assert puzzle.grid == (".O.#", "....", "....", "#...")


def test_a_refill_keeps_only_the_clues_whose_answer_stayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The only fill here changes 1-Across and 1-Down (HOT, HET): their clues
    become placeholders, the others stay."""
    path = make_puz(tmp_path / "four.puz", fill=GIVEN_O)
    words = tmp_path / "words.txt"
    changed = {"WOT": "HOT", "WET": "HET"}
    words.write_text("\n".join(changed.get(w, w) for w in ENTRIES.values()), encoding="utf-8")
    target = tmp_path / "refill.puz"
    code, _, _ = cli(capsys, "solve", path, "--dict", words, "--output", "puz", target)
    assert code == 0
    written = puz.read(str(target))
    assert written.solution.startswith("HOT.E")
    assert written.clues == ["1-Across", "1-Down", *CLUES[2:]]


@pytest.mark.parametrize("engine", ENGINES)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_generated_crosswords_survive_puz_and_answers(
    tmp_path: Path, engine: str, seed: int
) -> None:
    """Random solvable puzzles as .puz files: --answers finds the planted
    solution among its fills, each verified, and writing the first one back
    gives the same grid."""
    framework_puzzle, planted = random_puzzle(random.Random(seed), sizes=(3, 7))
    fill = tuple(
        "".join("." if ch == BLOCK else "-" if ch == OPEN else ch for ch in row)
        for row in framework_puzzle.grid
    )
    sites = find_sites(framework_puzzle)
    path = make_puz(tmp_path / f"g{seed}.puz", planted, fill=fill, clues=["c"] * len(sites))
    puzzle = load(path, answers=True)
    outcome = pybridge.run(puzzle, engine=engine, limit=None, timeout=30)
    assert outcome.status == "solved"
    grids = [solution.grid for solution in outcome.solutions]
    assert tuple(row.upper() for row in planted) in grids
    assert all(problems(puzzle, grid) == [] for grid in grids)
    from pybridge.acrosslite import puz_bytes

    again = parse_puz(puz_bytes(puzzle, grids[0]), "again")
    assert again.grid == puzzle.grid
    assert again.published is not None
    assert again.published.solution == grids[0]


def test_both_writers_say_when_only_the_first_solution_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(tmp_path / "four.puz")
    target = tmp_path / "out.ipuz"
    code, out, _ = cli(capsys, "solve", path, "--answers", "--all", "--output", "ipuz", target)
    assert (code, out) == (0, f"wrote {target} (the first of 2 solutions)\n")


def test_nothing_is_written_without_a_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(tmp_path / "bad.puz", fill=("-X-.", "----", "----", ".---"))
    target = tmp_path / "out.puz"
    code, out, _ = cli(capsys, "solve", path, "--answers", "--output", "puz", target)
    assert code == 1
    assert out.startswith(f"nothing written to {target}: there is no solution to write\n")
    assert not target.exists()


def test_output_kinds_need_their_file_and_suffix(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(capsys, "solve", "x.puz", "--answers", "--output", "puz")[0] == 2
    err = refusal(capsys, "solve", "x.puz", "--answers", "--output", "ipuz", "x.json")
    assert "must end in .ipuz" in err


# ---------------------------------------------------------------- encodings


def test_cp1252_punctuation_in_a_version_1_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Across Lite writes cp1252: its quotes are Latin-1 controls to puzpy."""
    clues = list(CLUES)
    clues[0] = "\u201cquoted\u201d \u2013 caf\u00e9".encode("cp1252").decode("latin-1")
    path = make_puz(tmp_path / "quotes.puz", clues=clues)
    published = load(path, answers=True).published
    assert published is not None
    assert published.clues[0].text == "\u201cquoted\u201d \u2013 caf\u00e9"
    target = tmp_path / "again.puz"
    assert cli(capsys, "solve", path, "--answers", "--output", "puz", target)[0] == 0
    assert target.read_bytes() == path.read_bytes()  # written back as cp1252, version 1.3


def test_version_2_files_are_utf8_and_written_when_text_needs_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clues = list(CLUES)
    clues[1] = "Такси"  # Cyrillic: no single-byte .puz encoding holds it
    path = make_puz(tmp_path / "v2.puz", clues=clues, version="2.0")
    published = load(path, answers=True).published
    assert published is not None
    assert published.clues[1].text == "Такси"
    ipuz_file, target = tmp_path / "v2.ipuz", tmp_path / "again.puz"
    assert cli(capsys, "solve", path, "--answers", "--output", "ipuz", ipuz_file)[0] == 0
    assert cli(capsys, "solve", ipuz_file, "--answers", "--output", "puz", target)[0] == 0
    again = puz.read(str(target))
    assert again.version == b"2.0"
    assert again.clues[1] == "Такси"


def test_letters_a_puz_square_cannot_hold_are_refused_with_a_way_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p99 = tmp_path / "cyrillic.dat"
    p99.write_text("ДА\nДО\n\n..\n.\n", encoding="utf-8")  # noqa: RUF001 (Cyrillic)
    target = tmp_path / "out.puz"
    err = refusal(capsys, "solve", p99, "--output", "puz", target)
    assert "no .puz encoding writes in one byte" in err
    assert "--output ipuz FILE" in err
    assert not target.exists()
    ipuz_file = tmp_path / "out.ipuz"
    assert cli(capsys, "solve", p99, "--output", "ipuz", ipuz_file)[0] == 0
    assert load(ipuz_file, answers=True).words == ("ДА", "ДО")
    latin = tmp_path / "latin.dat"
    latin.write_text("ÉTÉ\nÉPI\n\n...\n.\n.\n", encoding="utf-8")
    assert cli(capsys, "solve", latin, "--output", "puz", target)[0] == 0
    assert puz.read(str(target)).version == b"1.3"
    assert load(target, answers=True).published.solution[0] == "ÉTÉ"  # type: ignore[union-attr]
    mixed = make_ipuz(
        tmp_path / "mixed.ipuz",
        solution=[["É", "O", "T", "#"], *map(list, SOLUTION[1:])],
        clues={"Across": [[1, "Такси\x00"]]},
    )
    err = refusal(capsys, "solve", mixed, "--answers", "--output", "puz", target)
    assert "the clue of 1-Across needs more than cp1252" in err
    assert "where the grid's 'É' would take two bytes" in err


# ---------------------------------------------------------------- odd files


def test_a_locked_solution_is_refused_for_answers_but_the_grid_fills(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(tmp_path / "locked.puz")
    p = puz.read(str(path))
    p.lock_solution(1234)
    p.save(str(path))
    err = refusal(capsys, "solve", path, "--answers")
    assert "its solution is locked (scrambled with a key)" in err
    words = tmp_path / "words.txt"
    words.write_text("\n".join(DICTIONARY) + "\n", encoding="utf-8")
    assert cli(capsys, "solve", path, "--dict", words)[0] == 0


def test_rebus_squares_of_junk_are_refused_for_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # rebus squares of letters are solved (tests/test_rebus.py); of other things, refused
    path = make_puz(tmp_path / "rebus.puz")
    p = puz.read(str(path))
    p.rebus().add_rebus_squares(0, "W~")
    p.save(str(path))
    err = refusal(capsys, "solve", path, "--answers")
    assert "its rebus square at row 1, column 1 holds 'W~', which is not letters" in err
    rows = [["W O", "O", "T", "#"], *map(list, SOLUTION[1:])]
    ipuz_rebus = make_ipuz(tmp_path / "rebus.ipuz", solution=rows)
    err = refusal(capsys, "solve", ipuz_rebus, "--answers")
    assert "the rebus square 'W O'" in err


def test_a_diagramless_puzzle_is_read_with_the_blocks_of_its_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(
        tmp_path / "diagramless.puz", fill=("----",) * 4, puzzletype=puz.PuzzleType.Diagramless
    )
    code, out, _ = cli(capsys, "solve", path, "--answers", "--count")
    assert (code, out) == (0, "2 solutions\n")


def test_files_without_a_usable_solution_say_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = make_puz(
        tmp_path / "none.puz",
        ("----", "----", "----", "----"),
        fill=("---.", "----", "----", ".---"),
        solution_state=puz.SolutionState.NotProvided,
    )
    cut = make_puz(tmp_path / "cut.puz", ("WO-#", "EVEN", "TUNA", "#MOP"))
    no_ipuz_solution = make_ipuz(tmp_path / "none.ipuz")
    doc = json.loads(no_ipuz_solution.read_text())
    del doc["solution"]
    no_ipuz_solution.write_text(json.dumps(doc))
    expected = {
        missing: "the file has no solution",
        cut: "it is incomplete: 1-Across has no letter at row 1, column 3",
        no_ipuz_solution: "the file has no solution",
    }
    for path, reason in expected.items():
        err = refusal(capsys, "solve", path, "--answers")
        assert f"--answers needs the file's own solution, but {reason}" in err


# ---------------------------------------------------------------- damaged files


def _damaged_puz(tmp_path: Path, how: str) -> Path:
    data = bytearray(make_puz(tmp_path / "good.puz").read_bytes())
    if how == "checksum":
        data[0x34] ^= 0x01  # a letter of the solution
    elif how == "magic":
        data[5] = ord("x")
    elif how == "header":
        data = data[:40]
    elif how == "grids":
        data = data[:60]
    elif how == "text":
        data = data[: data.index(b"Clue for WET")]
    path = tmp_path / f"{how}.puz"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("checksum", "damaged .puz file: global checksum does not match"),
        ("magic", "not an Across Lite .puz file either: the magic string ACROSS&DOWN is missing"),
        ("header", "damaged .puz file: the file ends inside its 52-byte header"),
        ("grids", "damaged .puz file: the file ends inside its grids"),
        ("text", "damaged .puz file: the file ends inside its text"),
    ],
)
def test_a_damaged_puz_is_named_and_never_echoed(
    tmp_path: Path, how: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _damaged_puz(tmp_path, how)
    code, out, err = cli(capsys, "solve", path, "--answers")
    assert code == 2
    assert out == ""
    assert err.startswith(f"{path}: error: ")
    assert message in err
    assert err.count("\n") == 1  # one line: no binary excerpt, no caret


def test_a_clue_count_that_does_not_match_the_grid_is_damage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(tmp_path / "few.puz", clues=CLUES[:-1])
    err = refusal(capsys, "solve", path, "--answers")
    assert "it holds 7 clues, but its grid has 8 entries" in err


@pytest.mark.parametrize(
    ("text", "message", "located"),
    [
        ('{"version": "http://ipuz.org/v2",\n "kind": [}', "not valid JSON", ":2:11: error:"),
        (
            '{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/crossword#1"]}',
            "not a valid ipuz file: Mandatory field dimensions is missing",
            None,
        ),
        (
            '{"version": "http://ipuz.org/v2", "kind": ["http://ipuz.org/wordsearch#1"], '
            '"dimensions": {"width": 2, "height": 2}}',
            "this ipuz file is not a crossword (its kind: http://ipuz.org/wordsearch#1)",
            None,
        ),
    ],
    ids=["json", "invalid", "wordsearch"],
)
def test_a_damaged_ipuz_is_named(
    tmp_path: Path,
    text: str,
    message: str,
    located: str | None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "bad.ipuz"
    path.write_text(text, encoding="utf-8")
    err = refusal(capsys, "solve", path, "--answers")
    assert message in err
    if located:
        assert located in err


def test_ipuz_rows_must_match_the_dimensions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_ipuz(tmp_path / "short.ipuz", dimensions={"width": 4, "height": 5})
    err = refusal(capsys, "solve", path, "--answers")
    assert 'its "puzzle" has 4 rows, but its dimensions say 5' in err


# ---------------------------------------------------------------- the wrong kind of file (21.2)


def test_a_crossword_without_a_way_to_fill_it_says_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path, kind in (
        (make_puz(tmp_path / "a.puz"), "an Across Lite .puz crossword (4x4)"),
        (make_ipuz(tmp_path / "a.ipuz"), "an ipuz crossword (4x4)"),
    ):
        err = refusal(capsys, "solve", path)
        assert err == (
            f"{path}: error: this is {kind}: say what to fill it with, --answers (its own "
            "solution's entries, each placed once) or --dict FILE (a dictionary)\n"
        )
        err = refusal(capsys, "solve", path, "--words", path)
        assert "which holds its own answers: use --answers instead of --words" in err


def test_a_p99_file_with_dict_is_named_as_p99(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p99 = tmp_path / "p.dat"
    p99.write_text("CAT\nCOW\n\n...\n.\n.\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("CAT\nCOW\n", encoding="utf-8")
    err = refusal(capsys, "solve", p99, "--dict", words)
    assert "this is a P-99 puzzle (a word list, a blank line, then the framework)" in err
    assert "solve it without --dict" in err
    assert "blank line inside the grid" not in err


def test_a_plain_grid_with_words_or_alone_is_named_as_a_plain_grid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("...\n.#.\n...\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("CAT\n", encoding="utf-8")
    err = refusal(capsys, "solve", grid, "--words", words)
    assert "this looks like a plain grid ('.' open, '#' blocked)" in err
    assert "--words goes with a fill-in grid, whose open cells are '_'" in err
    assert "P-99 file, which holds its own word list" not in err
    code, _, _ = cli(capsys, "solve", grid)  # alone: filled from the shipped word list
    assert code == 0


def test_json_that_is_not_ipuz_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "data.json"
    path.write_text('{"rows": ["..."]}\n', encoding="utf-8")
    err = refusal(capsys, "solve", path)
    assert "this is JSON, but not an ipuz crossword" in err


def test_answers_with_a_text_puzzle_says_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p99 = tmp_path / "p.dat"
    p99.write_text("CAT\nCOW\n\n...\n.\n.\n", encoding="utf-8")
    err = refusal(capsys, "solve", p99, "--answers")
    assert "but this is a P-99 file, not such a crossword" in err
    words = tmp_path / "w.txt"
    words.write_text("CAT\n", encoding="utf-8")
    err = refusal(capsys, "solve", make_puz(tmp_path / "a.puz"), "--answers", "--dict", words)
    assert "--answers (the file's own answers) and --dict exclude each other" in err


BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x1b[2J\xff\xfe secret text \x00\x01"


@pytest.mark.parametrize(
    ("name", "argv", "message"),
    [
        ("picture.png", [], "this file is a PNG image (byte 8 is 0x00), not a puzzle"),
        (
            "picture.png",
            ["--dict", "WORDS"],
            "this file is a PNG image (byte 8 is 0x00), not a puzzle",
        ),
        ("fake.puz", ["--answers"], "not an Across Lite .puz file either"),
        ("a.puz", ["--format", "p99"], "this is an Across Lite .puz file (binary: "),
        ("a.puz", ["--format", "grid", "--dict", "WORDS"], "not a plain grid: leave out --format"),
    ],
)
def test_binary_is_never_echoed(
    tmp_path: Path,
    name: str,
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / name
    if name == "a.puz":
        make_puz(path)
    else:
        path.write_bytes(BINARY)
    words = tmp_path / "words.txt"
    words.write_text("CAT\n", encoding="utf-8")
    argv = [str(words) if arg == "WORDS" else arg for arg in argv]
    code, out, err = cli(capsys, "solve", path, *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1
    assert "\x1b" not in err
    assert "\x00" not in err
    assert "secret" not in err
    assert "IHDR" not in err


# ---------------------------------------------------------------- compare and the API


def test_compare_fills_a_crossword_with_its_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = make_puz(tmp_path / "four.puz", fill=GIVEN_O)
    argv = ["compare", path, "--strategies", "mrv", "--repeat", "1", "--output", "json"]
    code, out, _ = cli(capsys, *argv, "--engines", "python")
    assert code == 0
    (record,) = json.loads(out)["records"]
    assert record["status"] == "solved"


def test_the_api_loads_a_crossword_with_answers_or_a_dictionary(tmp_path: Path) -> None:
    path = make_puz(tmp_path / "four.puz", fill=GIVEN_O)
    puzzle = pybridge.load(path, answers=True)
    assert str(next(pybridge.solve(puzzle, engine="python"))) == "\n".join(SOLUTION)
    with pytest.raises(InputError, match="--answers"):
        pybridge.load(path)
    with pytest.raises(UsageError, match="exclude each other"):
        pybridge.load(path, dictionary=path, answers=True)


# ---------------------------------------------------------------- fuzzing


# Mostly letters and blocks, with the odd marks a file may hold.
_SQUARES = st.one_of(st.sampled_from(list("ABC..-")), st.sampled_from(list("Z:é\x00\x01\x93 ?1")))


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.data(),
    height=st.integers(1, 5),
    width=st.integers(1, 5),
    clue_error=st.sampled_from([0, 0, 0, 1, -1]),
    puzzletype=st.sampled_from([1, 1, 0x0401, 0xFFFF]),
    state=st.sampled_from([0, 0, 0, 2, 4, 7]),
    extensions=st.dictionaries(
        st.sampled_from([b"GRBS", b"RTBL", b"GEXT", b"RUSR", b"LTIM"]), st.binary(max_size=30)
    ),
    mode=st.sampled_from([["--answers"], ["--dict", "WORDS"]]),
)
def test_any_puz_puzpy_can_write_is_read_or_refused_in_words(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
    height: int,
    width: int,
    clue_error: int,
    puzzletype: int,
    state: int,
    extensions: dict[bytes, bytes],
    mode: list[str],
) -> None:
    """Checksums right, contents anything: exit 0, 1 or 2, never a traceback."""
    squares = st.text(_SQUARES, min_size=width * height, max_size=width * height)
    p = puz.Puzzle()
    p.width, p.height = width, height
    p.solution, p.fill = data.draw(squares), data.draw(squares)
    across, down = puz.get_grid_numbering(p.fill if state == 2 else p.solution, width, height)
    p.clues = [f"c{k}" for k in range(max(0, len(across) + len(down) + clue_error))]
    p.puzzletype, p.solution_state = puzzletype, state
    p.extensions = dict(extensions)
    path = tmp_path / "fuzz.puz"
    path.write_bytes(p.tobytes())
    words = tmp_path / "words.txt"
    words.write_text("AB\nBA\nABC\nCAB\n", encoding="utf-8")
    argv = [str(words) if arg == "WORDS" else arg for arg in mode]
    code, _, err = cli(capsys, "solve", path, *argv, "--engine", "python", "--timeout", "5")
    event(f"exit {code}: {err.partition('error: ')[2][:40]}")
    assert code in (0, 1, 2), err
    assert "internal error" not in err
    if code == 2:
        assert err.startswith(f"{path}: error: ") or err.startswith("crossword: error: ")


_ODD_CELLS = st.one_of(
    st.none(),
    st.integers(-1, 3),
    st.sampled_from(["", "AB", "1", "x"]),
    st.fixed_dictionaries(
        {},
        optional={
            "cell": st.sampled_from([0, 1, "#", None]),
            "value": st.sampled_from(["A", "", "AB", "#"]),
            "style": st.sampled_from([{"shapebg": "circle"}, "named"]),
        },
    ),
    st.lists(st.sampled_from(["A", "B"]), max_size=2),
)
_LABELS = st.one_of(st.sampled_from([0, 0, 1, 2, "#", "#"]), _ODD_CELLS)
_LETTERS = st.one_of(st.sampled_from(["A", "B", "#", "#"]), _ODD_CELLS)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    height=st.integers(1, 4),
    width=st.integers(1, 4),
    data=st.data(),
    clues=st.lists(
        st.one_of(
            st.tuples(st.integers(0, 9), st.text(max_size=5)).map(list),
            st.text(max_size=5),
            st.fixed_dictionaries({"number": st.integers(1, 9), "clue": st.text(max_size=5)}),
        ),
        max_size=6,
    ),
)
def test_any_ipuz_crossword_is_read_or_refused_in_words(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    height: int,
    width: int,
    data: st.DataObject,
    clues: list[Any],
) -> None:
    def grid(cells: st.SearchStrategy[Any], rows: int, cols: int) -> list[list[Any]]:
        return [[data.draw(cells) for _ in range(cols)] for _ in range(rows)]

    misfit = st.sampled_from([0, 0, 0, 0, 1, -1])
    doc = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": width, "height": height},
        "puzzle": grid(_LABELS, height + data.draw(misfit), width),
        "solution": grid(_LETTERS, height, width + data.draw(misfit)),
        "clues": {"Across": clues, "Down": clues[::-1], "Diagonal": clues},
    }
    path = tmp_path / "fuzz.ipuz"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = cli(capsys, "solve", path, "--answers", "--engine", "python", "--timeout", "5")
    event(f"exit {code}: {err.partition('error: ')[2][:40]}")
    assert code in (0, 1, 2), err
    assert "internal error" not in err
