"""`crossword check` and `solve --unique`: verdicts, proofs, cores, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pybridge.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["check", *argv])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("engine", ["prolog", "python"])
def test_solvable_puzzle_prints_one_solution(
    engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check(capsys, str(DATA / "demo.dat"), "--engine", engine)
    assert code == 0
    assert out.startswith("solvable\nPYTHON\n")


@pytest.mark.parametrize(
    ("name", "layer", "core"),
    [
        ("hall/three-s.dat", "hall", ["1-Across", "1-Down", "3-Down"]),
        ("propagation/chomp.dat", "propagation", ["1-Down", "3-Down", "4-Across"]),
        ("search/ring.dat", "search", ["1-Across", "2-Down", "3-Across"]),
    ],
)
def test_unsolvable_puzzle_names_layer_and_core(
    name: str, layer: str, core: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = check(capsys, str(DATA / "unsolvable" / name))
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == f"unsolvable (layer: {layer})"
    assert lines[1].startswith(", ".join(core[:-1]) + " and " + core[-1] + " cannot all be filled")
    marked = {(r, c) for r, row in enumerate(lines[3:]) for c, ch in enumerate(row) if ch == "*"}
    assert marked, "the core's cells are drawn"


def test_json_carries_the_minimal_core(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = check(capsys, str(DATA / "unsolvable" / "search" / "ring.dat"), "--output", "json")
    doc = json.loads(out)
    assert code == 1
    assert doc["status"] == "unsolvable"
    proof = doc["proof"]
    assert proof["layer"] == "search"
    assert proof["minimal"] is True
    assert proof["core"] == [
        {"number": 1, "direction": "across"},
        {"number": 2, "direction": "down"},
        {"number": 3, "direction": "across"},
    ]


def test_length_layer_on_p7_09c(shared_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = check(capsys, str(shared_dir / "corpus" / "p99" / "p7_09c.dat"))
    assert code == 1
    assert out.splitlines()[0] == "unsolvable (layer: length)"
    assert "10 five-letter words for 11 five-letter sites" in out
    assert "10 six-letter words for 9 six-letter sites" in out


def test_solve_reports_a_cheap_proof_without_searching(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(DATA / "unsolvable" / "hall" / "three-s.dat")
    assert main(["solve", path, "--output", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["proof"]["layer"] == "hall"
    assert doc["stats"]["nodes"] == 0
    assert "cannot all be filled" in doc["reason"]


@pytest.mark.parametrize("engine", ["prolog", "python"])
@pytest.mark.parametrize(("number", "unique"), [("3", False), ("4", True)])
def test_unique(
    engine: str, number: str, unique: bool, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fillin = shared_dir / "corpus" / "fillin"
    argv = ["solve", str(fillin / f"puzzle{number}"), "--words", str(fillin / f"words{number}")]
    assert main([*argv, "--unique", "--engine", engine, "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["unique"] is unique
    assert len(doc["solutions"]) == (1 if unique else 2)
    assert main([*argv, "--unique", "--engine", engine]) == 0
    verdict = capsys.readouterr().out.splitlines()[-1]
    assert verdict.startswith("unique" if unique else "not unique")


def test_check_timeout_exits_3(capsys: pytest.CaptureFixture[str], shared_dir: Path) -> None:
    path = shared_dir / "corpus" / "p99" / "p7_09b.dat"
    code, out = check(capsys, str(path), "--strategy", "given", "--timeout", "0.2")
    assert code == 3
    assert out.startswith("time limit of 0.2 s reached")


def test_blocks_output_draws_blocked_cells_as_full_blocks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", str(DATA / "duplicates.dat"), "--output", "blocks"]) == 0
    assert capsys.readouterr().out.splitlines() == ["TREAD", "O███A", "TREAD"]


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_picture_output_writes_the_file_and_says_where(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / f"answer.{kind}"
    assert main(["solve", str(DATA / "demo.dat"), "--output", kind, str(target)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {target}"
    assert target.stat().st_size > 0


def test_check_picture_marks_the_core(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "core.svg"
    path = str(DATA / "unsolvable" / "hall" / "three-s.dat")
    assert main(["check", path, "--output", "svg", str(target)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert main(["check", path]) == 1
    assert lines == [f"wrote {target}", *capsys.readouterr().out.splitlines()]  # reason and core
    assert lines[1:3] == [
        "unsolvable (layer: hall)",
        "1-Across, 1-Down and 3-Down cannot all be filled: these 3 4-letter sites fit only 2 "
        "listed words: SEAT, STEM",
    ]
    assert "shaded: the core," in target.read_text()  # the legend
    from pybridge.layout import find_sites
    from pybridge.pictures import MARK
    from pybridge.readers import load

    main(["check", path, "--output", "json"])
    core = {
        (c["number"], c["direction"]) for c in json.loads(capsys.readouterr().out)["proof"]["core"]
    }
    sites = [s for s in find_sites(load(path)) if (s.number, s.direction) in core]
    cells = {cell for site in sites for cell in site.cells}  # predefined letters included
    assert target.read_text().count(MARK) == len(cells) + 1 > 1  # and the legend's square


@pytest.mark.parametrize("how_many", [["--all"], ["--limit", "2"], ["--unique"]])
def test_several_solutions_make_numbered_pictures(
    how_many: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "answer.svg"
    path = tmp_path / "two.dat"
    path.write_text("AB\nCD\nAC\nBD\n\n..\n..\n", encoding="utf-8")  # and transposed
    assert main(["solve", str(path), *how_many, "--output", "svg", str(target)]) == 0
    out = capsys.readouterr().out.splitlines()
    first, second = tmp_path / "answer-1.svg", tmp_path / "answer-2.svg"
    assert out[:3] == [
        "2 solutions, a picture each, numbered from 1:",
        f"wrote {first}",
        f"wrote {second}",
    ]
    if how_many == ["--unique"]:
        assert out[3:] == ["not unique: at least two solutions (both shown)"]
    assert first.is_file()
    assert second.is_file()
    assert not target.exists()


@pytest.mark.parametrize(
    "output", [["png"], ["json", "x.json"], ["png", "x.svg"], ["pdf", "x.png"], ["bogus"]]
)
def test_bad_output_requests_are_usage_errors(
    output: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(DATA / "demo.dat"), "--output", *output]) == 2
    assert "--output" in capsys.readouterr().err


def test_a_closed_output_pipe_ends_quietly(shared_dir: Path) -> None:
    import subprocess
    import sys

    cs50 = shared_dir / "corpus" / "cs50"
    argv = [sys.executable, "-m", "pybridge", "solve", str(cs50 / "structure0.txt")]
    argv += ["--dict", str(cs50 / "words2.txt"), "--engine", "python", "--limit", "5000"]
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    assert child.stderr is not None
    child.stdout.read(100)
    child.stdout.close()  # as `| head` does
    assert child.wait(timeout=60) == 141
    assert b"Traceback" not in child.stderr.read()
