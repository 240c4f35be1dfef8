"""Construction (lexicon) mode end to end: CS50 and RP 2016 grids filled from
dictionaries through the CLI, both engines agreeing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pybridge.cli import main
from pybridge.gridfiles import load_grid
from pybridge.lexicon import load_dictionary
from pybridge.verify import problems

ENGINES = ("prolog", "python")


def solve_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    """Exit code and the JSON document(s) `solve` printed (one per grid)."""
    code = main(["solve", *argv, "--output", "json"])
    text = capsys.readouterr().out
    decoder, docs, at = json.JSONDecoder(), [], 0
    while (at := text.find("{", at)) != -1:
        doc, at = decoder.raw_decode(text, at)
        docs.append(doc)
    return code, docs


def assert_verified(grid_path: Path, dict_paths: list[Path], doc: dict[str, Any]) -> None:
    from dataclasses import replace

    words = load_dictionary(dict_paths).words
    puzzles = {p.source: p for p in load_grid(grid_path)}
    puzzle = puzzles[doc.get("source", str(grid_path))]
    grid = tuple(doc["solutions"][0]["grid"])
    assert problems(replace(puzzle, words=words), grid) == []


def signature(doc: dict[str, Any]) -> tuple[Any, ...]:
    grids = [s["grid"] for s in doc["solutions"]]
    return doc["status"], grids, doc.get("count"), doc["stats"]["nodes"], doc["stats"]["backtracks"]


@pytest.mark.parametrize("structure", [0, 1, 2])
@pytest.mark.parametrize("words", [0, 1, 2])
def test_cs50_structures_and_words(
    structure: int, words: int, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cs50 = shared_dir / "corpus" / "cs50"
    grid, dictionary = cs50 / f"structure{structure}.txt", cs50 / f"words{words}.txt"
    results = [
        solve_json(capsys, str(grid), "--dict", str(dictionary), "--engine", e) for e in ENGINES
    ]
    assert signature(results[0][1][0]) == signature(results[1][1][0])
    code, (doc,) = results[1]
    if words == 0 and structure in (1, 2):
        assert (code, doc["status"]) == (1, "unsolvable")
    else:
        assert (code, doc["status"]) == (0, "solved")
        assert_verified(grid, [dictionary], doc)


@pytest.mark.parametrize(("words", "fills"), [(6, 1), (3, 0)])
def test_check50_fixture_counts(
    words: int, fills: int, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixtures = shared_dir / "corpus" / "cs50" / "check50-fixtures"
    argv = [
        str(fixtures / "test_structure1.txt"),
        "--dict",
        str(fixtures / f"test_words{words}.txt"),
    ]
    for engine in ENGINES:
        code, (doc,) = solve_json(capsys, *argv, "--count", "--engine", engine)
        assert doc["count"] == fills
        assert code == (0 if fills else 1)


@pytest.mark.parametrize(
    ("dictionary", "engines"),
    [
        ("850-mots-us.txt", ENGINES),
        ("22600-mots-fr.txt", ENGINES),
        ("58000-mots-us.txt", ("python",)),
        ("133000-mots-us.txt", ("python",)),
        ("135000-mots-fr.txt", ("python",)),
    ],
)
def test_rp2016_grids_a_b_c(
    dictionary: str, engines: tuple[str, ...], shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rp = shared_dir / "corpus" / "rp2016"
    grid, dict_path = rp / "grids" / "grilles1.txt", rp / "dicts" / dictionary
    results = [
        solve_json(capsys, str(grid), "--dict", str(dict_path), "--engine", e) for e in engines
    ]
    for code, docs in results:
        assert len(docs) == 3  # A, B and C, each in turn
        if dictionary == "850-mots-us.txt":
            assert code == 1
            assert [d["status"] for d in docs] == ["unsolvable"] * 3
        else:
            assert code == 0
            for doc in docs:
                assert doc["status"] == "solved"
                assert_verified(grid, [dict_path], doc)
    if len(results) == 2:
        assert [signature(d) for d in results[0][1]] == [signature(d) for d in results[1][1]]


def test_french_accents_survive_text_and_json(
    shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rp = shared_dir / "corpus" / "rp2016"
    argv = [str(rp / "grids" / "grilles1.txt"), "--grid", "3", "--dict"]
    argv.append(str(rp / "dicts" / "22600-mots-fr.txt"))
    code, (doc,) = solve_json(capsys, *argv, "--engine", "python")
    assert code == 0
    text = "".join(doc["solutions"][0]["grid"])
    assert main(["solve", *argv, "--engine", "python"]) == 0
    printed = capsys.readouterr().out
    assert any(ch in text for ch in "ÉÈÊÀÇÔÎ"), "grid C's fill uses accented letters"
    assert "".join(printed.split()).replace("#", "") == text.replace("#", "")


def test_grid_option_picks_one_grid(shared_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rp = shared_dir / "corpus" / "rp2016"
    argv = [str(rp / "grids" / "grilles1.txt"), "--dict", str(rp / "dicts" / "22600-mots-fr.txt")]
    code, docs = solve_json(capsys, *argv, "--grid", "2", "--engine", "python")
    assert code == 0
    assert len(docs) == 1
    assert len(docs[0]["solutions"][0]["grid"]) == 7  # B is 7x7


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--strategy", "given"], "does not apply to a lexicon puzzle"),
        (["--words", "x"], "exclude each other"),
        (["--format", "p99"], "not a p99 file"),
    ],
)
def test_lexicon_usage_errors(
    extra: list[str], message: str, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cs50 = shared_dir / "corpus" / "cs50"
    argv = ["solve", str(cs50 / "structure0.txt"), "--dict", str(cs50 / "words0.txt"), *extra]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_grid_formats_fill_from_the_shipped_list_without_a_dictionary(
    shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = shared_dir / "corpus" / "cs50" / "structure0.txt"
    assert main(["solve", str(grid), "--format", "cs50", "--output", "json"]) == 0
    score = json.loads(capsys.readouterr().out)["score"]
    assert score["below"] == 0  # its words below the acceptable line are left out


def test_compare_fills_every_grid_of_a_file_from_a_dictionary(
    shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rp = shared_dir / "corpus" / "rp2016"
    argv = ["compare", str(rp / "grids" / "grilles1.txt"), "--repeat", "1", "--output", "json"]
    argv += ["--dict", str(rp / "dicts" / "850-mots-us.txt")]
    assert main(argv) == 0  # the engines agree
    records = json.loads(capsys.readouterr().out)["records"]
    # given and sorted need exact mode: only the site-driven strategies run, on each grid
    assert {r["strategy"] for r in records} == {
        "mrv",
        "ac3",
        "lcv",
        "cs50",
        "cbj",
        "wdeg",
        "valued",
    }
    assert [r["puzzle"] for r in records if r["engine"] == "python" and r["strategy"] == "mrv"] == [
        "grilles1.txt#1",
        "grilles1.txt#2",
        "grilles1.txt#3",
    ]
    assert {r["status"] for r in records} == {"unsolvable"}
