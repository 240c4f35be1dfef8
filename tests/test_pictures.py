"""Pictures of grids: PNG pixels and sizes, SVG structure and text."""

from __future__ import annotations

import subprocess
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
from pybridge.notation import clue_numbers
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


def test_png_without_pillow_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unicode_solution: Solution
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(MissingDependency) as caught:
        draw_png(unicode_solution.puzzle, unicode_solution.grid, tmp_path / "x.png")
    # the pip of the Python that runs this: a checkout's .venv, or where the wheel went
    assert f"{sys.executable} -m pip install 'Pillow>=10.1'" in str(caught.value)
    assert "crossword-pybridge[" not in str(caught.value)  # not a package on PyPI
    assert "--output svg" in str(caught.value)


def test_an_old_pillow_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, unicode_solution: Solution
) -> None:
    import PIL

    monkeypatch.setattr(PIL, "__version__", "9.5.0")
    with pytest.raises(MissingDependency, match=r"Pillow 10\.1 or newer \(this is 9\.5\.0\)"):
        draw_png(unicode_solution.puzzle, unicode_solution.grid, tmp_path / "x.png")


def test_png_needs_no_matplotlib(tmp_path: Path) -> None:
    code = (
        "import sys; from pybridge import cli; "
        f"code = cli.main(['solve', {str(DATA / 'unicode.dat')!r}, '--engine', 'python', "
        f"'--output', 'png', {str(tmp_path / 'u.png')!r}]); "
        "print(code, 'matplotlib' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split()[-2:] == ["0", "False"]
    assert (tmp_path / "u.png").read_bytes().startswith(b"\x89PNG")


def test_the_system_font_is_dejavu_where_there_is_one() -> None:
    found = pictures.font_file(bold=False)
    if found is None:
        pytest.skip("no DejaVu Sans on this system (Debian: fonts-dejavu-core)")
    assert found.name == "DejaVuSans.ttf"
    bold = pictures.font_file(bold=True)
    assert bold is not None
    assert bold.name == "DejaVuSans-Bold.ttf"


def test_without_a_system_font_pillows_own_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pictures, "font_file", lambda bold: None)
    pictures._font.cache_clear()
    try:
        puzzle = load(DATA / "predefined.dat")  # predefined letters: bold, made thicker
        image = png_of(tmp_path, puzzle, puzzle.grid, set())
        font, fake_bold = pictures._font(20, True)
        assert fake_bold
        assert "FreeTypeFont" in type(font).__name__
        assert len(image.getcolors(maxcolors=1 << 16) or []) > 2  # letters, anti-aliased
    finally:
        pictures._font.cache_clear()


# ---------------------------------------------------------------- what is drawn


def test_clue_numbers_are_those_of_the_sites(shared: Path) -> None:
    for name in ("p99/p7_09b", "fillin/1", "fillin/12"):
        puzzle = known_solution(shared, name).puzzle
        sites = {(site.row, site.col): site.number for site in find_sites(puzzle)}
        assert clue_numbers(puzzle.grid) == sites


def test_a_p99_grid_ends_where_its_rows_do() -> None:
    # p7_09b's widest rows end in spaces: two columns blocked in every row
    puzzle = Puzzle(("AB", "CD"), ("AB##", "#CD#"), "p99", "<t>", (2, 4))
    assert pictures.drawn_columns(puzzle, puzzle.grid) == 3
    root = ET.fromstring(draw_svg(puzzle, puzzle.grid))
    assert root.get("viewBox") == "0 0 {} {}".format(*Layout(2, 3).size)
    fillin = Puzzle(("AB", "CD"), ("AB##", "#CD#"), "fillin")  # its blocks are written
    assert pictures.drawn_columns(fillin, fillin.grid) == 4


def test_p7_09b_has_no_black_columns_at_the_right(shared: Path, tmp_path: Path) -> None:
    solution = known_solution(shared, "p99/p7_09b")
    assert solution.puzzle.width == 27
    image = png_of(tmp_path, solution.puzzle, solution.grid, set())
    layout = Layout(solution.puzzle.height, 25)
    assert image.size == layout.size
    # the last column drawn has white cells (its top cell holds an R)
    assert image.getpixel(inner_corner(layout, (0, 24))) == rgb(pictures.PAPER)


def test_a_legend_goes_under_the_grid(tmp_path: Path) -> None:
    puzzle = load(DATA / "unsolvable" / "hall" / "three-s.dat")
    legend = "shaded: the core, sites that cannot all be filled: 1-Across, 1-Down, 3-Down"
    plain = Layout(puzzle.height, puzzle.width)
    document = draw_svg(puzzle, puzzle.grid, {(0, 1)}, legend)
    words = " ".join(t for t in svg_texts(document) if not t.isdigit() and len(t) > 1)
    assert words == legend  # wrapped over lines, every word kept
    height = int(ET.fromstring(document).get("height") or 0)
    assert height > plain.size[1]
    assert document.count(f'fill="{pictures.MARK}"') == 2  # the cell and the legend's square
    image = png_of_legend(tmp_path, puzzle, legend)
    assert image.size[1] == height
    swatch = Layout(puzzle.height, puzzle.width, legend_lines=1)
    x, y = swatch.margin + 2, swatch.legend_top + 2
    assert image.getpixel((x, y)) == rgb(pictures.MARK)


def png_of_legend(tmp_path: Path, puzzle: Puzzle, legend: str) -> Image.Image:
    path = tmp_path / "legend.png"
    draw_png(puzzle, puzzle.grid, path, {(0, 1)}, legend=legend)
    return Image.open(path).convert("RGB")
