"""Pictures of grids: PNG pixels and sizes, SVG structure and text."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from conftest import known_solution, solution_from_rows
from PIL import Image, ImageColor

from pybridge import pictures
from pybridge.errors import MissingDependency
from pybridge.layout import find_sites
from pybridge.model import BLOCK, OPEN, Cell, Puzzle, Solution
from pybridge.pictures import Layout, draw_png, draw_svg, write_picture
from pybridge.readers import load

DATA = Path(__file__).resolve().parents[1] / "data"
SVG = "{http://www.w3.org/2000/svg}"
# The answer of data/unicode.dat; the Cyrillic letters are meant.
UNICODE_ANSWER = ["K   M  Д", "Ä   A  О", "STRAßE МОРЕ", "E   E    Е", "         К", "         А"]  # noqa: RUF001


def rgb(colour: str) -> tuple[int, ...]:
    return ImageColor.getrgb(colour)


def svg_texts(document: str) -> list[str]:
    root = ET.fromstring(document)
    return [text.text or "" for text in root.iter(f"{SVG}text")]


def grid_letters(grid: tuple[str, ...]) -> Counter[str]:
    return Counter(ch for row in grid for ch in row if ch not in (BLOCK, OPEN))


def png_of(tmp_path: Path, puzzle: Puzzle, grid: tuple[str, ...], marked: set[Cell]) -> Image.Image:
    path = tmp_path / "grid.png"
    draw_png(puzzle, grid, path, marked)
    return Image.open(path).convert("RGB")


def inner_corner(layout: Layout, cell: Cell) -> tuple[int, int]:
    """A pixel just inside the bottom-right corner of `cell`, clear of number and letter."""
    x, y = layout.corner(cell)
    return x + layout.cell - 3, y + layout.cell - 3


@pytest.fixture(scope="module")
def fifteen(shared: Path) -> Solution:
    solution = known_solution(shared, "fillin/1")
    assert (solution.puzzle.height, solution.puzzle.width) == (15, 15)
    return solution


@pytest.fixture(scope="module")
def unicode_solution() -> Solution:
    return solution_from_rows(load(DATA / "unicode.dat"), UNICODE_ANSWER)


def test_png_of_a_15x15_grid_has_blocks_white_cells_and_marks(
    tmp_path: Path, fifteen: Solution
) -> None:
    marked: Cell = (5, 5)
    image = png_of(tmp_path, fifteen.puzzle, fifteen.grid, {marked})
    layout = Layout(15, 15, pictures.CELL)
    assert image.size == layout.size
    assert 15 * pictures.CELL < image.size[0] < 16 * pictures.CELL
    x, y = layout.corner((4, 0))
    assert fifteen.grid[4][0] == BLOCK
    assert image.getpixel((x + layout.cell // 2, y + layout.cell // 2)) == rgb(pictures.INK)
    assert image.getpixel(inner_corner(layout, (0, 0))) == rgb(pictures.PAPER)
    assert image.getpixel(inner_corner(layout, marked)) == rgb(pictures.MARK)


def test_png_cell_size_sets_the_picture_size(tmp_path: Path, unicode_solution: Solution) -> None:
    path = tmp_path / "small.png"
    draw_png(unicode_solution.puzzle, unicode_solution.grid, path, cell=20)
    with Image.open(path) as image:
        assert image.size == Layout(6, 11, 20).size


def test_png_draws_real_glyphs_for_unicode_letters(tmp_path: Path) -> None:
    # A font without these letters draws the same empty box for each of them.
    letters = "ÄßДЖéÇ"
    puzzle = Puzzle((letters,), (OPEN * len(letters),), "fillin")
    image = png_of(tmp_path, puzzle, (letters,), set())
    layout = Layout(1, len(letters))
    corners = [layout.corner((0, c)) for c in range(len(letters))]
    crops = [image.crop((x, y, x + layout.cell, y + layout.cell)) for x, y in corners]
    assert len({crop.tobytes() for crop in crops}) == len(letters)


def test_svg_of_a_15x15_grid_holds_every_letter_and_number(fifteen: Solution) -> None:
    document = draw_svg(fifteen.puzzle, fifteen.grid)
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == "0 0 {} {}".format(*Layout(15, 15).size)
    assert root.get("font-family") == "sans-serif"
    texts = svg_texts(document)
    # A cell starting an across and a down site shows their shared number once.
    numbers = sorted({site.number for site in find_sites(fifteen.puzzle)})
    assert [int(t) for t in texts if t.isdigit()] == numbers
    assert Counter(t for t in texts if not t.isdigit()) == grid_letters(fifteen.grid)


def test_svg_keeps_unicode_letters_and_marks_cells(unicode_solution: Solution) -> None:
    document = draw_svg(unicode_solution.puzzle, unicode_solution.grid, {(2, 4)})
    letters = Counter(t for t in svg_texts(document) if not t.isdigit())
    assert letters == grid_letters(unicode_solution.grid)
    assert {"Ä", "ß", "Д", "Е"}  # noqa: RUF001 <= set(letters)
    assert document.count(f'fill="{pictures.MARK}"') == 1


def test_svg_escapes_letters() -> None:
    puzzle = Puzzle(("<&",), ("..",), "fillin")
    assert svg_texts(draw_svg(puzzle, ("<&",))) == ["1", "<", "&"]


def test_framework_shows_only_the_predefined_letters_in_bold() -> None:
    puzzle = load(DATA / "predefined.dat")
    root = ET.fromstring(draw_svg(puzzle, puzzle.grid))
    letters = [t for t in root.iter(f"{SVG}text") if not (t.text or "").isdigit()]
    assert sorted(t.text or "" for t in letters) == sorted(grid_letters(puzzle.grid).elements())
    assert letters
    assert all(t.get("font-weight") == "bold" for t in letters)


def test_write_picture_picks_the_format_from_the_suffix(
    tmp_path: Path, unicode_solution: Solution
) -> None:
    puzzle, grid = unicode_solution.puzzle, unicode_solution.grid
    svg = write_picture(puzzle, grid, tmp_path / "a.svg")
    assert svg.read_text(encoding="utf-8").startswith("<svg")
    png = write_picture(puzzle, grid, str(tmp_path / "a.PNG"))
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        write_picture(puzzle, grid, tmp_path / "a.jpg")
    assert not (tmp_path / "a.jpg").exists()


def test_grid_and_marks_must_fit_the_puzzle(unicode_solution: Solution) -> None:
    puzzle = unicode_solution.puzzle
    with pytest.raises(ValueError, match="does not fit"):
        draw_svg(puzzle, unicode_solution.grid[:-1])
    with pytest.raises(ValueError, match="outside"):
        draw_svg(puzzle, unicode_solution.grid, {(6, 0)})


def test_png_without_pillow_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unicode_solution: Solution
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(MissingDependency, match=r"crossword-pybridge\[pictures\]"):
        draw_png(unicode_solution.puzzle, unicode_solution.grid, tmp_path / "x.png")


def test_png_without_the_font_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unicode_solution: Solution
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    pictures._font.cache_clear()
    with pytest.raises(MissingDependency, match=r"crossword-pybridge\[pictures\]"):
        draw_png(unicode_solution.puzzle, unicode_solution.grid, tmp_path / "x.png")
