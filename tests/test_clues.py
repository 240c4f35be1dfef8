"""Clues as data (issue 36): clue files and their errors, a filled grid
clued from a clue file, its own file and suggestions, and every output of
`solve` and `make` that holds clues (.puz, ipuz, JSON, PDF) read back by
other programs (puzpy, ipuz, pypdf) and matched against the puzzle."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import ipuz
import puz
import pytest

from pybridge.cli import main
from pybridge.clues import Details, clue_summary, clued, parse_clue_file, unclued
from pybridge.errors import InputError
from pybridge.layout import find_sites
from pybridge.model import Puzzle
from pybridge.suggest import available as wordnet_available

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the PDF sheets back (pip install pypdf)")

SOLUTION = ("CAT", "A#O", "BOW")  # 1-Across CAT, 1-Down CAB, 2-Down TOW, 3-Across BOW
CLUE_FILE = "# our clues\nCAT\tPurring pet\ncab\tTaxi\nCab\tHansom, e.g.\nT-O-W\tPull along\n"


def grid_puzzle() -> Puzzle:
    return Puzzle(("CAT", "CAB", "TOW", "BOW"), ("...", ".#.", "..."), "grid", mode="lexicon")


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# ---------------------------------------------------------------- clue files


def test_a_clue_file_holds_several_clues_per_word_normalised() -> None:
    clues = parse_clue_file(CLUE_FILE, "c.txt")
    assert clues.clues == {
        "CAT": ("Purring pet",),
        "CAB": ("Taxi", "Hansom, e.g."),
        "TOW": ("Pull along",),
    }
    assert len(clues) == 4


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("CAT Purring pet\n", 1, 16, "this line has no tab"),
        ("CAT\tPet\n\t Taxi\n", 2, 1, "expected the word before the tab"),
        ("CAT\tPet\nC4T!\tTaxi\n", 2, 4, "expected letters in the word, found '!'"),
        ("CAT\t   \n", 1, 5, "expected a clue after the tab"),
        ("CAT\tPet\tAnimal\n", 1, 8, "a clue holds no tab"),
        ("CAT\tPet\x1b[31m\n", 1, 8, "a clue is printable text"),
        ("# only a comment\n\n", None, None, "no clue in this clue file"),
        ("CAT\t" + "x" * 501 + "\n", 1, 5, "at most 500"),
    ],
)
def test_bad_clue_lines_are_located(
    text: str, line: int | None, column: int | None, message: str
) -> None:
    with pytest.raises(InputError) as caught:
        parse_clue_file(text, "clues.txt")
    err = caught.value
    assert (err.line, err.column) == (line, column)
    assert message in str(err)
    assert str(err).startswith("clues.txt:")
    assert "\x1b" not in str(err)


def test_a_bad_clue_file_stops_solve_before_the_search(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clues = tmp_path / "clues.txt"
    clues.write_text("PYTHON\tA snake\nRUBY Gem\n", encoding="utf-8")
    code, out, err = run(capsys, "solve", "data/demo.dat", "--clues", clues)
    assert (code, out) == (2, "")
    assert f"{clues}:2:9: error: expected WORD, a tab, then the clue" in err


# ---------------------------------------------------------------- clued puzzles


def test_clue_file_first_then_the_files_own_then_suggestions() -> None:
    puzzle = grid_puzzle()
    clue_file = parse_clue_file(CLUE_FILE)
    suggested: list[str] = []

    def suggest(word: str) -> str | None:
        suggested.append(word)
        return None if word == "BOW" else f"suggested for {word}"

    made = clued(puzzle, SOLUTION, clue_file=clue_file, suggest=suggest, details=Details("T", "A"))
    published = made.published
    assert published is not None
    assert published.solution == SOLUTION
    assert (published.title, published.author) == ("T", "A")
    texts = {(c.number, c.direction): (c.text, c.source) for c in published.clues}
    assert texts == {
        (1, "across"): ("Purring pet", "clues"),
        (1, "down"): ("Taxi", "clues"),
        (2, "down"): ("Pull along", "clues"),
    }
    assert suggested == ["BOW"]
    assert unclued(made) == [("3-Across", "BOW")]
    assert "3 of 4 entries (3 from the clue file); 1 to write: 3-Across BOW" in clue_summary(made)


def test_the_workbench_exports_through_the_commands_clueing() -> None:
    # the page's clues by entry come first, then the file's own; the sheet is the commands'
    from pybridge.errors import UsageError
    from pybridge.service import clueing

    entries = {(1, "across"): "Purring pet", (3, "across"): "  "}
    made = clued(grid_puzzle(), SOLUTION, entries=entries, details=Details(title="Page"))
    published = made.published
    assert published is not None
    assert published.title == "Page"
    assert [(c.number, c.direction, c.text, c.source) for c in published.clues] == [
        (1, "across", "Purring pet", "clues")
    ]
    data = clueing.sheet_pdf(made, SOLUTION, "a4")
    text = "".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)
    assert "Purring pet" in text
    assert "(3 letters)" in text
    with pytest.raises(UsageError, match="letter, a4"):
        clueing.sheet_pdf(made, SOLUTION, "legal")


def test_a_word_used_twice_takes_its_clues_in_turn() -> None:
    square = Puzzle(("ABA", "BAB"), ("...", "...", "..."), "p99")
    grid = ("ABA", "BAB", "ABA")
    clue_file = parse_clue_file("ABA\tfirst\nABA\tsecond\nBAB\tonly\n")
    published = clued(square, grid, clue_file=clue_file).published
    assert published is not None
    by_entry = {(c.number, c.direction): c.text for c in published.clues}
    aba = [(1, "across"), (5, "across"), (1, "down"), (3, "down")]
    # in entry order, the word's clues in turn, then round again
    assert [by_entry[entry] for entry in sorted(aba)] == ["first", "second", "first", "second"]
    assert by_entry[(4, "across")] == by_entry[(2, "down")] == "only"


# ---------------------------------------------------------------- solve's outputs


def test_solve_writes_the_clues_to_every_file_that_holds_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clues = tmp_path / "clues.txt"
    clues.write_text("PYTHON\tSnake or language\nLEXER\tTokenizer\n", encoding="utf-8")
    common = ["--clues", clues, "--title", "Demo", "--author", "Ann", "--engine", "python"]
    code, out, _err = run(capsys, "solve", "data/demo.dat", *common, "--output", "json")
    assert code == 0
    doc = json.loads(out)
    assert (doc["title"], doc["author"]) == ("Demo", "Ann")
    placements = doc["solutions"][0]["placements"]
    by_word = {p["word"]: (p["clue"], p["clue_source"]) for p in placements}
    assert by_word["PYTHON"] == ("Snake or language", "clues")
    assert by_word["LEXER"] == ("Tokenizer", "clues")
    assert by_word["GRAMMAR"] == (None, None)
    target = tmp_path / "demo.puz"
    assert run(capsys, "solve", "data/demo.dat", *common, "--output", "puz", target)[0] == 0
    p = puz.read(str(target))
    assert (p.title, p.author) == ("Demo", "Ann")
    numbering = p.clue_numbering()
    across = {clue["num"]: clue["clue"] for clue in numbering.across}
    assert across[1] == "Snake or language"
    ipuz_target = tmp_path / "demo.ipuz"
    assert run(capsys, "solve", "data/demo.dat", *common, "--output", "ipuz", ipuz_target)[0] == 0
    doc = ipuz.read(ipuz_target.read_text(encoding="utf-8"))
    assert [1, "Snake or language"] in doc["clues"]["Across"]


@pytest.mark.skipif(not wordnet_available(), reason="WordNet (Debian's wordnet-base) is missing")
def test_solve_suggests_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "data/demo.dat", "--engine", "python", "--output", "json")
    assert code == 0
    assert "clue" not in json.loads(out)["solutions"][0]["placements"][0]
    code, out, _ = run(
        capsys, "solve", "data/demo.dat", "--engine", "python", "--suggest", "--output", "json"
    )
    assert code == 0
    placements = json.loads(out)["solutions"][0]["placements"]
    assert {p["clue_source"] for p in placements} <= {"wordnet", None}
    assert any(p["clue_source"] == "wordnet" for p in placements)


# ---------------------------------------------------------------- make's outputs


def _pdf_text(path: Path) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    return [page.extract_text() for page in reader.pages]


@pytest.mark.skipif(not wordnet_available(), reason="WordNet (Debian's wordnet-base) is missing")
def test_every_output_of_make_reads_back_with_its_clues(
    shared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shared_dir / "bench" / "dicts" / "scored" / "scowl55-wordfreq.txt"
    base = ["make", "--size", "9x9", "--dict", words, "--seed", "4", "--engine", "python"]
    base += ["--title", "Nine", "--min-score", "40"]
    code, out, _ = run(capsys, *base, "--output", "json")
    assert code == 0
    doc = json.loads(out)
    grid = doc["solutions"][0]["grid"]
    placements = doc["solutions"][0]["placements"]
    assert doc["title"] == "Nine"
    assert any(p["clue_source"] == "wordnet" for p in placements)
    expected = {(p["number"], p["direction"]): p["clue"] for p in placements}
    outputs = {kind: tmp_path / f"nine.{kind}" for kind in ("puz", "ipuz", "pdf", "png", "svg")}
    for kind, path in outputs.items():
        code, out, err = run(capsys, *base, "--output", kind, path)
        assert (code, out.splitlines()[0]) == (0, f"wrote {path}"), err
        assert path.stat().st_size > 0
    # puzpy: a blank player grid, the solution, the clues by number
    p = puz.read(str(outputs["puz"]))
    assert p.title == "Nine"
    assert p.solution == "".join(grid).replace("#", ".")
    assert set(p.fill) <= {"-", "."}
    numbering = p.clue_numbering()
    for direction, clues in (("across", numbering.across), ("down", numbering.down)):
        for clue in clues:
            want = expected[(clue["num"], direction)]
            assert clue["clue"] == (
                want if want is not None else f"{clue['num']}-{direction.title()}"
            )
    # ipuz: the same clues, the solution, no letter in the player's grid
    doc = ipuz.read(outputs["ipuz"].read_text(encoding="utf-8"))
    assert ["".join(str(v) for v in row) for row in doc["solution"]] == grid
    across = dict(doc["clues"]["Across"])
    for (number, direction), text in expected.items():
        if direction == "across" and text is not None:
            assert across[number] == text
    # the PDF: the clues on page 1 (wrapped lines joined), the answers on page 2
    page1, page2 = _pdf_text(outputs["pdf"])
    flat = " ".join(page1.split())
    assert "Nine" in flat
    assert "Across" in flat
    assert "Down" in flat
    for text in expected.values():
        if text is not None:
            assert " ".join(text.split()) in flat
    assert "Nine: solution" in page2
    letters = "".join(ch for ch in page2 if ch.isalpha() and ch.isupper())
    assert "".join(grid).replace("#", "") in letters.replace("N", "", 1)


@pytest.mark.parametrize(("command", "kind"), [("make", "bogus"), ("grid", "bogus")])
def test_an_unknown_kind_is_a_usage_error_naming_what_is_written(
    command: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, command, "--output", kind)
    assert (code, out) == (2, "")
    assert "puz FILE, ipuz FILE, pdf FILE" in err
    code, out, err = run(capsys, command, "--output", "puz")
    assert "--output puz takes one FILE, got 0" in err
    assert "write the puzzle FILE first" not in err  # no puzzle FILE to put first


def test_grid_writes_an_empty_crossword_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for kind in ("puz", "ipuz", "pdf"):
        path = tmp_path / f"g.{kind}"
        code, out, _ = run(capsys, "grid", "--size", "7x7", "--seed", "1", "--output", kind, path)
        assert (code, out) == (0, f"wrote {path}\n")
    pattern = ("...#...", "...#...", ".......", "##...##", ".......", "...#...", "...#...")
    p = puz.read(str(tmp_path / "g.puz"))
    assert p.fill == "".join(pattern).translate(str.maketrans({".": "-", "#": "."}))
    sites = find_sites(Puzzle((), pattern, "grid", mode="lexicon"))
    assert len(p.clues) == len(sites)
    (page,) = _pdf_text(tmp_path / "g.pdf")
    assert "(3 letters)" in page


def test_the_pdf_needs_its_file_and_suffix(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "solve", "data/demo.dat", "--output", "pdf", "x.png")
    assert code == 2
    assert "must end in .pdf" in err


@pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
def test_clues_are_the_same_whatever_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clues = tmp_path / "c.txt"
    clues.write_text("PYTHON\tSnake\n", encoding="utf-8")
    docs = []
    for engine in ("prolog", "python"):
        _code, out, _ = run(
            capsys,
            "solve",
            "data/demo.dat",
            "--clues",
            clues,
            "--engine",
            engine,
            "--output",
            "json",
        )
        docs.append(json.loads(out)["solutions"])
    assert docs[0] == docs[1]


def test_a_fresh_install_makes_a_printable_clued_crossword(tmp_path: Path) -> None:
    # `crossword make` with nothing but the shipped word list and WordNet: no ../shared,
    # run from a folder that has nothing next to it
    import subprocess
    import sys

    for kind in ("pdf", "puz"):
        argv = [sys.executable, "-m", "pybridge", "make", "--size", "15x15", "--seed", "1"]
        done = subprocess.run(
            [*argv, "--output", kind, f"p.{kind}", "--quiet"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"wrote p.{kind}\n")
        assert "../shared" not in done.stderr
    p = puz.read(str(tmp_path / "p.puz"))
    assert (p.width, p.height) == (15, 15)
    if wordnet_available():
        placeholders = sum(clue.endswith(("-Across", "-Down")) for clue in p.clues)
        assert placeholders < len(p.clues) // 2  # most entries have a suggested clue
    page1 = _pdf_text(tmp_path / "p.pdf")[0]
    assert "Across" in page1
    assert "Down" in page1
