"""Printable sheets (issue 36): a crossword's PDF rendered to a picture
(pdftoppm, Debian's poppler-utils) shows its grid where the layout says,
block for block; the paper sizes; a word search's sheet and key; and the
DPI a PNG carries."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import pytest

from pybridge.cli import main
from pybridge.clues import Details, clued
from pybridge.model import Puzzle
from pybridge.sheets import (
    PAPER_SIZES,
    crossword_layout,
    crossword_pdf,
    crossword_sheet,
    instructions,
)

pypdf = pytest.importorskip("pypdf", reason="pypdf reads the PDF sheets back (pip install pypdf)")
PIL = pytest.importorskip("PIL.Image", reason="Pillow reads the rendered pages")
needs_pdftoppm = pytest.mark.skipif(
    shutil.which("pdftoppm") is None, reason="pdftoppm (Debian's poppler-utils) is missing"
)

PATTERN = ("CAT#", "A#OX", "BOW#", "#EWE")


def puzzle() -> Puzzle:
    grid = tuple("".join("#" if ch == "#" else "." for ch in row) for row in PATTERN)
    return clued(Puzzle((), grid, "grid", mode="lexicon"), PATTERN, details=Details("Tiny"))


def render(data: bytes, tmp_path: Path, dpi: int, page: int = 1) -> PIL.Image:
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(data)
    stem = tmp_path / f"page{page}"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-png",
            "-singlefile",
            pdf,
            stem,
        ],
        check=True,
        timeout=60,
    )
    return PIL.open(f"{stem}.png").convert("L")


@needs_pdftoppm
@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_rendered_page_shows_the_grid_cell_for_cell(tmp_path: Path, paper: str) -> None:
    made = puzzle()
    sheet = crossword_sheet(made, PATTERN)
    data = crossword_pdf(sheet, paper)  # type: ignore[arg-type]
    layout = crossword_layout(sheet, paper)  # type: ignore[arg-type]
    dpi = 100
    image = render(data, tmp_path, dpi)
    width_mm, height_mm = PAPER_SIZES[paper]  # type: ignore[index]
    assert abs(image.size[0] - width_mm / 25.4 * dpi) <= 2
    assert abs(image.size[1] - height_mm / 25.4 * dpi) <= 2
    for r, row in enumerate(PATTERN):
        for c, ch in enumerate(row):
            x, y = layout.cell_centre(r, c)
            # a little right of and below the centre: away from the clue number
            px = round((x + layout.cell * 0.2) / 25.4 * dpi)
            py = round((y + layout.cell * 0.2) / 25.4 * dpi)
            shade = image.getpixel((px, py))
            assert (shade < 80) == (ch == "#"), (r, c, shade)
    # the solution page shows the letters: its open cells hold ink at their centres
    solution = render(data, tmp_path, dpi, page=2)
    assert solution.getextrema()[0] < 80


def test_the_text_reads_back_and_the_paper_is_the_one_asked(tmp_path: Path) -> None:
    made = puzzle()
    for paper in ("letter", "a4"):
        data = crossword_pdf(crossword_sheet(made, PATTERN), paper)  # type: ignore[arg-type]
        reader = pypdf.PdfReader(io.BytesIO(data))
        assert len(reader.pages) == 2
        box = reader.pages[0].mediabox
        width, height = PAPER_SIZES[paper]  # type: ignore[index]
        assert abs(float(box.width) - width / 25.4 * 72) < 1
        assert abs(float(box.height) - height / 25.4 * 72) < 1
        text = reader.pages[0].extract_text()
        assert "Tiny" in text
        assert "Across" in text
        assert "(3 letters)" in text


def test_long_clue_lists_fit_at_a_smaller_type() -> None:
    made = puzzle()
    sheet = crossword_sheet(made, PATTERN)
    wordy = type(sheet)(
        **{
            **vars(sheet),
            "across": tuple((n, "a clue of many words " * 4) for n in range(1, 50)),
        }
    )
    smaller = crossword_layout(wordy, "letter")
    assert smaller.lines  # it fits on the first page
    assert smaller.points < crossword_layout(sheet, "letter").points
    data = crossword_pdf(wordy, "letter")
    assert len(pypdf.PdfReader(io.BytesIO(data)).pages) == 2
    many = type(sheet)(**{**vars(wordy), "across": wordy.across * 6})  # too many for a page
    run_on = crossword_layout(many, "letter")
    assert not run_on.lines
    assert run_on.cell > smaller.cell  # the grid has its page to itself
    pages = pypdf.PdfReader(io.BytesIO(crossword_pdf(many, "letter"))).pages
    assert len(pages) > 2
    assert "Across" not in pages[0].extract_text()
    clue_text = " ".join(page.extract_text().replace("\n", " ") for page in pages[1:-1])
    assert clue_text.count("a clue of many words") == 4 * len(many.across)  # every clue, whole
    assert "Tiny: solution" in pages[-1].extract_text()


@needs_pdftoppm
def test_a_word_search_sheet_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "ws.pdf"
    argv = [
        "wordsearch",
        "make",
        "data/wordsearch/planets.txt",
        "--mask",
        "data/wordsearch/heart.mask",
    ]
    assert (
        main(
            [
                *argv,
                "--seed",
                "2",
                "--title",
                "Planets",
                "--paper",
                "a4",
                "--output",
                "pdf",
                str(target),
            ]
        )
        == 0
    )
    assert capsys.readouterr().out == f"wrote {target}\n"
    reader = pypdf.PdfReader(str(target))
    first, key = (page.extract_text() for page in reader.pages)
    assert "Planets" in first
    assert "Find the 12 words" in first
    for word in ("MERCURY", "NEPTUNE", "MOON"):
        assert word in first
    assert "Planets: answer key" in key
    image = render(target.read_bytes(), tmp_path, 50)
    assert image.getextrema()[0] < 80


def test_instructions_name_the_directions() -> None:
    assert instructions(5, ("E", "S")).endswith("left to right or top to bottom.")
    every = ("E", "S", "SE", "NE", "W", "N", "NW", "SW")
    assert "forwards or backwards" in instructions(5, every)


def test_a_png_carries_its_dpi(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sizes = {}
    for dpi in (72, 144, 300):
        target = tmp_path / f"demo{dpi}.png"
        assert (
            main(
                [
                    "solve",
                    "data/demo.dat",
                    "--engine",
                    "python",
                    "--output",
                    "png",
                    str(target),
                    "--dpi",
                    str(dpi),
                ]
            )
            == 0
        )
        with PIL.open(target) as image:
            assert tuple(round(v) for v in image.info["dpi"]) == (dpi, dpi)
            sizes[dpi] = image.size
    assert sizes[300][0] > 2 * sizes[144][0] > 3 * sizes[72][0]
    capsys.readouterr()
