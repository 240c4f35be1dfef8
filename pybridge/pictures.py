"""Pictures of a grid drawn like a printed crossword: SVG (plain text, no
dependency) and PNG (Pillow).

Blocked cells are black, a cell that starts a site carries its site number
small in the top-left corner, letters sit in the middle (predefined letters in
bold), and a set of `marked` cells - say a core that cannot be filled - is
shaded light red. `grid` is a filled grid as in `Solution.grid` or the empty
framework `Puzzle.grid` ('#' blocked, '.' open, anything else a letter).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from pybridge.errors import MissingDependency
from pybridge.layout import find_sites
from pybridge.model import BLOCK, OPEN, Cell, Puzzle

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw
    from PIL.ImageFont import FreeTypeFont

CELL = 40
INK = "#000000"
PAPER = "#ffffff"
MARK = "#ffaaaa"
SUFFIXES = (".png", ".svg")
PICTURES_HINT = "pip install 'crossword-pybridge[pictures]'"


@dataclass(frozen=True)
class Square:
    """What one cell of the picture shows."""

    cell: Cell
    fill: str
    number: int | None
    letter: str | None
    given: bool


@dataclass(frozen=True)
class Layout:
    """Where things go, in pixels (PNG) or user units (SVG)."""

    rows: int
    columns: int
    cell: int = CELL

    @property
    def line(self) -> int:
        return max(1, self.cell // 40)

    @property
    def frame(self) -> int:
        return 2 * self.line

    @property
    def margin(self) -> int:
        # Room around the grid so that the thicker outer frame is not cut off.
        return 2 * self.frame

    @property
    def size(self) -> tuple[int, int]:
        return (
            self.columns * self.cell + 2 * self.margin,
            self.rows * self.cell + 2 * self.margin,
        )

    @property
    def number_size(self) -> int:
        return max(6, round(self.cell * 0.26))

    @property
    def letter_middle(self) -> float:
        # A little below the centre, leaving the number its corner.
        return self.cell * 0.56

    @property
    def letter_size(self) -> int:
        return max(8, round(self.cell * 0.52))

    def corner(self, cell: Cell) -> tuple[int, int]:
        """The top-left point of `cell`."""
        return self.margin + cell[1] * self.cell, self.margin + cell[0] * self.cell


def squares(puzzle: Puzzle, grid: Sequence[str], marked: Collection[Cell]) -> list[Square]:
    """Every cell of `grid`, row by row; a short row is blocked beyond its end."""
    rows = [row.ljust(puzzle.width, BLOCK) for row in grid]
    size = f"{puzzle.height}x{puzzle.width}"
    if len(rows) != puzzle.height or any(len(row) != puzzle.width for row in rows):
        longest = max(map(len, rows), default=0)
        raise ValueError(f"the grid ({len(rows)} rows, up to {longest} long) does not fit {size}")
    stray = sorted(set(marked) - {(r, c) for r, row in enumerate(rows) for c in range(len(row))})
    if stray:
        raise ValueError(f"marked cells outside the {size} grid: {stray}")
    numbers = {(site.row, site.col): site.number for site in find_sites(puzzle)}
    return [
        _square(puzzle, (r, c), ch, numbers.get((r, c)), (r, c) in marked)
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
    ]


def _square(puzzle: Puzzle, cell: Cell, ch: str, number: int | None, marked: bool) -> Square:
    if ch == BLOCK:
        return Square(cell, INK, None, None, False)
    letter = None if ch == OPEN else ch
    given = puzzle.given(cell) is not None
    return Square(cell, MARK if marked else PAPER, number, letter, given)


# ---------------------------------------------------------------------- SVG


def draw_svg(puzzle: Puzzle, grid: Sequence[str], marked: Collection[Cell] = frozenset()) -> str:
    """The picture as an SVG document."""
    layout = Layout(puzzle.height, puzzle.width)
    width, height = layout.size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
    ]
    for square in squares(puzzle, grid, marked):
        parts.extend(_svg_square(layout, square))
    m = layout.margin
    parts.append(
        f'<rect x="{m}" y="{m}" width="{width - 2 * m}" height="{height - 2 * m}" '
        f'fill="none" stroke="{INK}" stroke-width="{layout.frame}"/>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _svg_square(layout: Layout, square: Square) -> list[str]:
    x, y = layout.corner(square.cell)
    size = layout.cell
    parts = [
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{square.fill}" '
        f'stroke="{INK}" stroke-width="{layout.line}"/>'
    ]
    if square.number is not None:
        # SVG places text by its baseline; digits are about 0.75 em tall.
        inset = layout.cell * 0.07
        baseline = y + inset + 0.75 * layout.number_size
        parts.append(
            f'<text x="{x + inset:.1f}" y="{baseline:.1f}" '
            f'font-size="{layout.number_size}">{square.number}</text>'
        )
    if square.letter is not None:
        # A capital is about 0.72 em tall: half of that below the middle centres it.
        baseline = y + layout.letter_middle + 0.36 * layout.letter_size
        weight = ' font-weight="bold"' if square.given else ""
        parts.append(
            f'<text x="{x + size / 2:.1f}" y="{baseline:.1f}" text-anchor="middle" '
            f'font-size="{layout.letter_size}"{weight}>{escape(square.letter)}</text>'
        )
    return parts


# ---------------------------------------------------------------------- PNG


def draw_png(
    puzzle: Puzzle,
    grid: Sequence[str],
    path: Path | str,
    marked: Collection[Cell] = frozenset(),
    cell: int = CELL,
) -> None:
    """Write the picture to `path` as a PNG, `cell` pixels per cell; needs Pillow."""
    _require_pillow()
    from PIL import Image, ImageDraw

    layout = Layout(puzzle.height, puzzle.width, cell)
    image = Image.new("RGB", layout.size, PAPER)
    pen = ImageDraw.Draw(image)
    for square in squares(puzzle, grid, marked):
        _png_square(pen, layout, square)
    m, (width, height) = layout.margin, layout.size
    half = layout.frame // 2
    pen.rectangle(
        (m - half, m - half, width - m + half, height - m + half),
        outline=INK,
        width=layout.frame,
    )
    image.save(path, format="PNG")


def _png_square(pen: ImageDraw, layout: Layout, square: Square) -> None:
    x, y = layout.corner(square.cell)
    size = layout.cell
    # Pillow's rectangle includes its far edge, so neighbours share one line.
    pen.rectangle((x, y, x + size, y + size), fill=square.fill, outline=INK, width=layout.line)
    if square.number is not None:
        inset = round(size * 0.07) + layout.line
        font = _font(layout.number_size, bold=False)
        pen.text((x + inset, y + inset), str(square.number), fill=INK, font=font, anchor="lt")
    if square.letter is not None:
        font = _font(layout.letter_size, bold=square.given)
        middle = (x + size / 2, y + layout.letter_middle)
        pen.text(middle, square.letter, fill=INK, font=font, anchor="mm")


def _require_pillow() -> None:
    try:
        import PIL  # noqa: F401
    except ImportError:
        raise MissingDependency(f"drawing a PNG needs Pillow: {PICTURES_HINT}") from None


@functools.cache
def _font(size: int, bold: bool) -> FreeTypeFont:
    # Pillow's own scalable font covers ASCII only, so Ä, ß or Д would come out
    # as empty boxes. DejaVu Sans covers Latin, Greek and Cyrillic; matplotlib
    # ships it inside its package, which keeps us off system font paths.
    try:
        import matplotlib
    except ImportError:
        raise MissingDependency(
            f"drawing a PNG needs the DejaVu Sans font that matplotlib carries: {PICTURES_HINT}"
        ) from None
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name, size)


# ---------------------------------------------------------------------- files


def picture_suffix(path: Path | str) -> str:
    """The suffix ".png" or ".svg" from the name of `path`; ValueError for anything else."""
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(
            f"{path}: cannot tell the picture format from the name; "
            f"it must end in {' or '.join(SUFFIXES)}"
        )
    return suffix


def write_picture(
    puzzle: Puzzle, grid: Sequence[str], path: Path | str, marked: Collection[Cell] = frozenset()
) -> Path:
    """Write a PNG or an SVG picture, as the suffix of `path` says; returns the path."""
    target = Path(path)
    if picture_suffix(target) == ".svg":
        target.write_text(draw_svg(puzzle, grid, marked), encoding="utf-8")
    else:
        draw_png(puzzle, grid, target, marked)
    return target
