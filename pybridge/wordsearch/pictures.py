"""Pictures of a word search, SVG (plain text) or PNG (Pillow): the puzzle
sheet (the letters and, below them, the word list) and the answer key (the
same, each answer outlined by a capsule along its cells).

Holes (cells outside the mask) are left blank. The fonts are those of the
crossword pictures (pybridge.pictures: DejaVu Sans, which covers accented
Latin and Cyrillic letters).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pybridge import pictures
from pybridge.wordsearch.model import HOLE, WordPlacement

CELL = 32
PAPER = "#ffffff"
FRAME = "#888888"
OUTLINES = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")


@dataclass(frozen=True)
class Sheet:
    """Where things go on the page: the grid, then the word list in columns."""

    grid: tuple[str, ...]
    words: tuple[str, ...]
    cell: int = CELL

    @property
    def margin(self) -> int:
        return self.cell // 2

    @property
    def letter_size(self) -> int:
        return round(self.cell * 0.6)

    @property
    def word_size(self) -> int:
        return round(self.cell * 0.45)

    @property
    def grid_size(self) -> tuple[int, int]:
        cols = max(map(len, self.grid), default=0)
        return cols * self.cell, len(self.grid) * self.cell

    @property
    def column_width(self) -> int:
        longest = max(map(len, self.words), default=1)
        return round((longest + 3) * self.word_size * 0.68)

    @property
    def columns(self) -> int:
        width = max(self.grid_size[0], 4 * self.column_width)
        return max(1, width // self.column_width)

    @property
    def line_height(self) -> int:
        return round(self.word_size * 1.5)

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.grid_size
        width = max(width, self.columns * self.column_width)
        lines = -(-len(self.words) // self.columns)
        list_height = self.cell // 2 + lines * self.line_height if self.words else 0
        return width + 2 * self.margin, height + list_height + 2 * self.margin

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return (
            self.margin + (c + 0.5) * self.cell,
            self.margin + (r + 0.5) * self.cell,
        )

    def word_spot(self, k: int) -> tuple[float, float]:
        """Where the k-th word of the list starts (left, middle of its line)."""
        lines = -(-len(self.words) // self.columns)
        column, line = divmod(k, lines)
        top = self.margin + self.grid_size[1] + self.cell // 2
        return (
            self.margin + column * self.column_width,
            top + (line + 0.5) * self.line_height,
        )

    def letters(self) -> list[tuple[float, float, str]]:
        return [
            (*self.centre(r, c), ch)
            for r, row in enumerate(self.grid)
            for c, ch in enumerate(row)
            if ch != HOLE
        ]


def capsule(sheet: Sheet, placement: WordPlacement) -> tuple[float, float, float, float, float]:
    """The outline of an answer: centre x, y, length, height, angle (degrees)."""
    (x0, y0), (x1, y1) = sheet.centre(*placement.cells[0]), sheet.centre(*placement.cells[-1])
    height = sheet.cell * 0.8
    length = math.hypot(x1 - x0, y1 - y0) + height
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
    return (x0 + x1) / 2, (y0 + y1) / 2, length, height, angle


# ---------------------------------------------------------------------- SVG


def draw_svg(
    grid: Sequence[str], words: Sequence[str], answers: Sequence[WordPlacement] = ()
) -> str:
    """The sheet as an SVG document; with `answers`, the key."""
    sheet = Sheet(tuple(grid), tuple(words))
    width, height = sheet.size
    gw, gh = sheet.grid_size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif">',
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
        f'<rect x="{sheet.margin}" y="{sheet.margin}" width="{gw}" height="{gh}" fill="none" '
        f'stroke="{FRAME}" stroke-width="1"/>',
    ]
    for k, placement in enumerate(answers):
        x, y, length, tall, angle = capsule(sheet, placement)
        parts.append(
            f'<rect x="{x - length / 2:.1f}" y="{y - tall / 2:.1f}" width="{length:.1f}" '
            f'height="{tall:.1f}" rx="{tall / 2:.1f}" fill="none" '
            f'stroke="{OUTLINES[k % len(OUTLINES)]}" stroke-width="2" '
            f'transform="rotate({angle:.1f} {x:.1f} {y:.1f})">'
            f"<title>{pictures.escape(placement.word)}</title></rect>"
        )
    for x, y, ch in sheet.letters():
        # a capital is about 0.72 em tall: half of that below the middle centres it
        parts.append(
            f'<text x="{x:.1f}" y="{y + 0.36 * sheet.letter_size:.1f}" text-anchor="middle" '
            f'font-size="{sheet.letter_size}">{pictures.escape(ch)}</text>'
        )
    for k, word in enumerate(words):
        x, y = sheet.word_spot(k)
        parts.append(
            f'<text x="{x:.1f}" y="{y + 0.36 * sheet.word_size:.1f}" '
            f'font-size="{sheet.word_size}">{pictures.escape(word)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------- PNG


def draw_png(
    grid: Sequence[str],
    words: Sequence[str],
    path: Path | str,
    answers: Sequence[WordPlacement] = (),
    dpi: int | None = None,
) -> None:
    """Write the sheet (with `answers`, the key) to `path` as a PNG at `dpi`
    (a cell of 32 pixels at the crossword pictures' default, 5.6 mm)."""
    pictures.require_pillow()  # the crossword pictures' check, and their fonts below
    from PIL import Image, ImageDraw

    dpi = dpi or pictures.DPI
    sheet = Sheet(tuple(grid), tuple(words), pictures.scaled(CELL, dpi))
    image = Image.new("RGB", sheet.size, PAPER)
    pen = ImageDraw.Draw(image)
    gw, gh = sheet.grid_size
    m = sheet.margin
    pen.rectangle((m, m, m + gw, m + gh), outline=FRAME, width=1)
    for k, placement in enumerate(answers):
        points = capsule_points(*capsule(sheet, placement))
        pen.polygon(points, outline=OUTLINES[k % len(OUTLINES)], width=2)
    for x, y, ch in sheet.letters():
        pictures.draw_text(pen, (x, y), ch, sheet.letter_size, False, "mm")
    for k, word in enumerate(words):
        pictures.draw_text(pen, sheet.word_spot(k), word, sheet.word_size, False, "lm")
    image.save(path, format="PNG", dpi=(dpi, dpi))


def capsule_points(
    x: float, y: float, length: float, tall: float, angle: float
) -> list[tuple[float, float]]:
    """The outline of a capsule as a polygon: two half circles joined."""
    radius, reach = tall / 2, length / 2 - tall / 2
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    points = []
    for end, start in ((reach, -90), (-reach, 90)):
        for step in range(13):
            a = math.radians(start + step * 15)
            px, py = end + radius * math.cos(a), radius * math.sin(a)
            points.append((x + px * cos - py * sin, y + px * sin + py * cos))
    return points


# ---------------------------------------------------------------------- files


def key_path(path: Path | str) -> Path:
    """Where the answer key goes beside the sheet: puzzle.svg -> puzzle-key.svg."""
    target = Path(path)
    return target.with_name(f"{target.stem}-key{target.suffix}")


def write_picture(
    grid: Sequence[str],
    words: Sequence[str],
    path: Path | str,
    answers: Sequence[WordPlacement] = (),
    dpi: int | None = None,
) -> Path:
    """A PNG (at `dpi`) or an SVG, as the suffix of `path` says; returns the path."""
    target = Path(path)
    if pictures.picture_suffix(target) == ".svg":
        target.write_text(draw_svg(grid, words, answers), encoding="utf-8")
    else:
        draw_png(grid, words, target, answers, dpi)
    return target
