"""`crossword wordsearch make` and `crossword wordsearch solve`: their
output, JSON, pictures and exit codes."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pybridge.cli import (
    EXIT_BAD_INPUT,
    EXIT_SOLVED,
    EXIT_TIMEOUT,
    EXIT_UNSOLVABLE,
    main,
)

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data" / "wordsearch"
NAMES = DATA / "names.txt"
needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]


def make_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main(["wordsearch", "make", *args, "--output", "json"])
    return code, json.loads(capsys.readouterr().out)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("engine", ENGINES)
def test_make_prints_the_grid_and_the_words(
    engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["wordsearch", "make", str(NAMES), "--size", "9x9", "--seed", "1", "--engine", engine]
    )
    out = capsys.readouterr().out
    assert code == EXIT_SOLVED
    grid, words = out.rstrip("\n").split("\n\n")
    assert grid.splitlines()[0] == "Y W H W T Y R A M"
    assert words == "MATTHEW  JOE  MARY  SARAH  SALLY"


def test_make_json_is_the_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = make_json(capsys, str(NAMES), "--size", "9", "--seed", "1", "--engine", "python")
    assert code == EXIT_SOLVED
    assert doc["status"] == "solved"
    assert doc["grid"][0] == "YWHWTYRAM"  # type: ignore[index]
    placements = doc["placements"]
    assert isinstance(placements, list)
    assert len(placements) == 5
    assert placements[0] == {
        "word": "MATTHEW",
        "row": 6,
        "col": 1,
        "direction": "N",
        "cells": [[6, 1], [5, 1], [4, 1], [3, 1], [2, 1], [1, 1], [0, 1]],
    }
    stats = doc["stats"]
    assert isinstance(stats, dict)
    assert (stats["engine"], stats["nodes"], stats["backtracks"], stats["seed"]) == (
        "python",
        62,
        0,
        1,
    )


def test_a_drawn_seed_is_told_and_makes_the_puzzle_again(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["wordsearch", "make", str(NAMES), "--engine", "python"]) == EXIT_SOLVED
    captured = capsys.readouterr()
    seed = captured.err.split()[1]
    assert "makes this puzzle again" in captured.err
    again = ["wordsearch", "make", str(NAMES), "--engine", "python", "--seed", seed]
    assert main(again) == EXIT_SOLVED
    assert capsys.readouterr().out == captured.out


def test_make_unsolvable_exits_1_with_the_proof(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["wordsearch", "make", str(NAMES), "--size", "5x5", "--directions", "easy"])
    out = capsys.readouterr().out
    assert code == EXIT_UNSOLVABLE
    assert out.splitlines()[0] == "unsolvable (layer: length)"
    assert "MATTHEW (7 letters) is longer than every line of the 5x5 grid" in out
    code, doc = make_json(capsys, str(DATA / "eye.txt"), "--size", "3x3", "--seed", "1")
    assert code == EXIT_UNSOLVABLE
    assert doc["proof"] == {
        "layer": "search",
        "reason": doc["reason"],
        "words": ["EYE", "YE"],
    }
    code, doc = make_json(capsys, str(NAMES), "--size", "3x7", "--overlap", "forbid")
    assert (code, doc["proof"]["layer"]) == (EXIT_UNSOLVABLE, "cells")  # type: ignore[index]


def test_make_with_a_mask_avoid_list_and_letters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    avoid = write(tmp_path / "avoid.txt", "my\nye\n")
    code, doc = make_json(
        capsys,
        str(DATA / "planets.txt"),
        "--mask",
        str(DATA / "heart.mask"),
        "--avoid",
        str(avoid),
        "--letters",
        "a b c d e",
        "--seed",
        "7",
    )
    assert code == EXIT_SOLVED
    grid = doc["grid"]
    assert isinstance(grid, list)
    assert grid[0].startswith("#")
    assert len(grid) == 11
    code, doc = make_json(capsys, str(NAMES), "--avoid", str(write(tmp_path / "a", "the\n")))
    assert code == EXIT_UNSOLVABLE
    assert doc["proof"]["layer"] == "avoid"


def test_make_times_out_with_exit_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = write(tmp_path / "w.txt", "ab\nba\nbc\n")
    avoid = write(tmp_path / "a.txt", "bba\nccb\n")
    mask = write(tmp_path / "m.mask", ".....\n#..#.\n.....\n")
    args = ["--mask", str(mask), "--avoid", str(avoid), "--letters", "abc", "--seed", "828166"]
    args += ["--directions", "E,S,NE,W,N", "--timeout", "0.2", "--engine", "python"]
    code = main(["wordsearch", "make", str(words), *args])
    assert code == EXIT_TIMEOUT
    assert capsys.readouterr().out.startswith("time limit of 0.2 s reached")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "0x4"], "expected a size like 15x15"),
        (["--directions", "UP"], "unknown directions"),
        (["--letters", "ab1"], "--letters takes letters only"),
        (["--output", "blocks"], "cannot write 'blocks': text, json, png FILE, svg FILE, pdf FILE"),
        (["--output", "png", "/no/such/folder/p.png"], "does not exist"),
    ],
)
def test_make_usage_errors_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["wordsearch", "make", str(NAMES), *args]) == EXIT_BAD_INPUT
    assert message in capsys.readouterr().err


def test_bad_word_lists_are_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write(tmp_path / "words.txt", "cat\ndog!\n")
    assert main(["wordsearch", "make", str(bad)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"{bad}:2:4: error: expected a letter in a word, found '!'" in err
    mask = write(tmp_path / "m", "..\n.x\n")
    assert main(["wordsearch", "make", str(NAMES), "--mask", str(mask)]) == EXIT_BAD_INPUT
    assert f"{mask}:2:2: error" in capsys.readouterr().err
    assert main(["wordsearch", "make", str(tmp_path / "none.txt")]) == EXIT_BAD_INPUT
    assert "cannot read the file" in capsys.readouterr().err


def test_pictures_of_the_sheet_and_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = tmp_path / "p.svg"
    args = ["wordsearch", "make", str(NAMES), "--seed", "1", "--output", "svg", str(sheet)]
    assert main(args) == EXIT_SOLVED
    assert capsys.readouterr().out.split() == [
        "wrote",
        str(sheet),
        "wrote",
        str(tmp_path / "p-key.svg"),
    ]
    assert "<title>MATTHEW</title>" in (tmp_path / "p-key.svg").read_text(encoding="utf-8")
    assert "<title>" not in sheet.read_text(encoding="utf-8")
    png = tmp_path / "p.png"
    assert main(["wordsearch", "make", str(NAMES), "--seed", "1", "--output", "png", str(png)]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "p-key.png").is_file()


def test_solve_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wordsearch", "make", str(NAMES), "--size", "9x9", "--seed", "2"]) == 0
    grid = write(tmp_path / "grid.txt", capsys.readouterr().out)  # the grid, then the words
    assert main(["wordsearch", "solve", str(grid), str(NAMES), "--output", "json"]) == EXIT_SOLVED
    doc = json.loads(capsys.readouterr().out)
    assert doc["missing"] == []
    assert {p["word"] for p in doc["found"]} == {"MATTHEW", "JOE", "MARY", "SARAH", "SALLY"}
    assert main(["wordsearch", "solve", str(grid), str(NAMES)]) == EXIT_SOLVED
    assert capsys.readouterr().out.rstrip().endswith("5 of 5 words found")


def test_solve_names_a_missing_word_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = write(tmp_path / "g", "С О Б А К А\nК О Т # # #\n")  # noqa: RUF001
    words = write(tmp_path / "w", "собака\nкот\nмышь\n")  # noqa: RUF001
    assert main(["wordsearch", "solve", str(grid), str(words)]) == EXIT_UNSOLVABLE
    out = capsys.readouterr().out
    assert "СОБАКА  E   from row 1, column 1" in out
    assert "МЫШЬ    not found" in out
    assert out.rstrip().endswith("missing: МЫШЬ")
    key = tmp_path / "k.svg"
    assert main(["wordsearch", "solve", str(grid), str(words), "--output", "svg", str(key)]) == 1
    assert capsys.readouterr().out.splitlines() == [f"wrote {key}", "missing: МЫШЬ"]


def test_the_real_command_exits_with_the_documented_codes() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pybridge", "wordsearch", *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )

    made = run("make", str(NAMES), "--seed", "3", "--engine", "python")
    assert made.returncode == 0
    assert "Traceback" not in made.stderr
    assert run("make", str(DATA / "eye.txt"), "--size", "3").returncode == 1
    helped = run("make", "--help")
    assert helped.returncode == 0
    assert "easy = E,S" in helped.stdout
    assert run("solve", str(NAMES)).returncode == 2
