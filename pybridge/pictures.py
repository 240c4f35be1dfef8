"""Pictures of a grid drawn like a printed crossword: SVG (plain text, no
dependency) and PNG (Pillow); and the notebook display of puzzles,
solutions and outcomes, which is the SVG.

Blocked cells are black, a cell that starts a site carries its clue number
small in the top-left corner, letters sit in the middle (predefined letters in
bold), and a set of `marked` cells - say a core that cannot be filled - is
shaded light red. `grid` is a filled grid as in `Solution.grid` or the empty
framework `Puzzle.grid` ('#' blocked, '.' open, anything else a letter). A
`legend` is written under the grid, after a shaded square when cells are
marked. A P-99 framework's rows end where their text ends (a row's trailing
spaces are no cells), so the columns blocked in every row at the right are
not drawn, as the text output does not print them.

This module reads plain values only (rows of text, the puzzle's format and
letters; notation.clue_numbers numbers the cells), so that a Puzzle can draw
itself in a notebook (model.Puzzle._repr_svg_) without an import cycle.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pybridge.errors import MissingDependency, pip_hint
from pybridge.notation import BLOCK, OPEN, clue_numbers

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw
    from PIL.ImageFont import FreeTypeFont, ImageFont

    from pybridge.model import Cell, Puzzle
    from pybridge.solver import Outcome

    Font = FreeTypeFont | ImageFont


def escape(text: str) -> str:
    """Text as SVG holds it: &, < and > escaped (xml.sax.saxutils.escape's
    rule, without loading the XML and URL libraries it brings)."""
    import html  # its table of entities, only when a picture is drawn

    return html.escape(text, quote=False)


CELL = 40  # pixels at DPI dots per inch: 7 mm on paper
DPI = 144


def scaled(pixels: int, dpi: int) -> int:
    """A length of `pixels` at DPI, at `dpi` instead (so that paper sizes stay)."""
    return max(4, round(pixels * dpi / DPI))


INK = "#000000"
PAPER = "#ffffff"
MARK = "#ffaaaa"
SHADE = "#d3d3d3"  # a crossword file's shaded squares
SUFFIXES = (".png", ".svg")
PILLOW = "Pillow>=10.1"  # ImageFont.load_default(size=...), the fallback font
PICTURES_HINT = (
    f"install it with `{pip_hint(PILLOW)}` (or write an SVG, --output svg FILE, "
    "which needs nothing)"
)


@dataclass(frozen=True)
class Square:
    """What one cell of the picture shows."""

    cell: Cell
    fill: str
    number: int | None
    letter: str | None  # a rebus square's several letters, drawn smaller
    given: bool
    circled: bool = False


@dataclass(frozen=True)
class Layout:
    """Where things go, in pixels (PNG) or user units (SVG): the grid, then
    `legend_lines` lines of legend under it."""

    rows: int
    columns: int
    cell: int = CELL
    legend_lines: int = 0

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
    def grid_size(self) -> tuple[int, int]:
        return self.columns * self.cell, self.rows * self.cell

    @property
    def size(self) -> tuple[int, int]:
        width, height = self.grid_size
        legend = self.legend_lines * self.legend_step + self.legend_gap if self.legend_lines else 0
        return width + 2 * self.margin, height + 2 * self.margin + legend

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

    @property
    def legend_size(self) -> int:
        return max(8, round(self.cell * 0.32))

    @property
    def legend_step(self) -> int:
        return round(self.legend_size * 1.4)

    @property
    def legend_gap(self) -> int:
        return self.legend_size

    @property
    def legend_top(self) -> int:
        """The top of the legend's first line."""
        return self.margin + self.grid_size[1] + self.legend_gap

    def legend_chars(self) -> int:
        """About how many characters of legend fit on a line."""
        room = self.size[0] - 2 * self.margin - self.legend_step
        return max(24, int(room / (0.55 * self.legend_size)))

    def corner(self, cell: Cell) -> tuple[int, int]:
        """The top-left point of `cell`."""
        return self.margin + cell[1] * self.cell, self.margin + cell[0] * self.cell


def drawn_columns(puzzle: Puzzle, grid: Sequence[str]) -> int:
    """The columns drawn: all of them, but a P-99 grid ends at the last
    column that some row has a cell in (trailing spaces are no cells)."""
    if puzzle.format != "p99":
        return puzzle.width
    return max(1, max((len(row.rstrip(BLOCK)) for row in grid), default=0))


def squares(puzzle: Puzzle, grid: Sequence[str], marked: Collection[Cell]) -> list[Square]:
    """Every cell drawn, row by row; a short row is blocked beyond its end."""
    rows = [row.ljust(puzzle.width, BLOCK) for row in grid]
    size = f"{puzzle.height}x{puzzle.width}"
    if len(rows) != puzzle.height or any(len(row) != puzzle.width for row in rows):
        longest = max(map(len, rows), default=0)
        raise ValueError(f"the grid ({len(rows)} rows, up to {longest} long) does not fit {size}")
    stray = sorted(set(marked) - {(r, c) for r, row in enumerate(rows) for c in range(len(row))})
    if stray:
        raise ValueError(f"marked cells outside the {size} grid: {stray}")
    numbers = clue_numbers(puzzle.grid)
    columns = drawn_columns(puzzle, rows)
    return [
        _square(puzzle, (r, c), ch, numbers.get((r, c)), (r, c) in marked)
        for r, row in enumerate(rows)
        for c, ch in enumerate(row[:columns])
    ]


def _square(puzzle: Puzzle, cell: Cell, ch: str, number: int | None, marked: bool) -> Square:
    """A cell as drawn: a crossword file's circled and shaded squares kept,
    a rebus mark drawn as the letters it stands for."""
    if ch == BLOCK:
        return Square(cell, INK, None, None, False)
    published = puzzle.published
    rebus = dict(published.rebus) if published is not None else {}
    letter = None if ch == OPEN else rebus.get(ch, ch)
    given = puzzle.given(cell) is not None
    shaded = published is not None and cell in published.shaded
    fill = MARK if marked else SHADE if shaded else PAPER
    circled = published is not None and cell in published.circled
    return Square(cell, fill, number, letter, given, circled)


def letter_scale(letter: str) -> float:
    """How much smaller than one letter several (a rebus square) are drawn."""
    return min(1.0, 1.5 / len(letter))


def _layout(
    puzzle: Puzzle, grid: Sequence[str], legend: str | None, cell: int = CELL
) -> tuple[Layout, list[str]]:
    """The layout of the picture, and the legend's lines."""
    layout = Layout(puzzle.height, drawn_columns(puzzle, grid), cell)
    if not legend:
        return layout, []
    import textwrap  # a legend is drawn only when a proof's core is

    lines = textwrap.wrap(legend, layout.legend_chars())
    return Layout(layout.rows, layout.columns, cell, len(lines)), lines


# ---------------------------------------------------------------------- SVG


def draw_svg(
    puzzle: Puzzle,
    grid: Sequence[str],
    marked: Collection[Cell] = frozenset(),
    legend: str | None = None,
) -> str:
    """The picture as an SVG document."""
    drawn = squares(puzzle, grid, marked)
    layout, legend_lines = _layout(puzzle, grid, legend)
    width, height = layout.size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="{PAPER}"/>',
    ]
    for square in drawn:
        parts.extend(_svg_square(layout, square))
    m, (grid_width, grid_height) = layout.margin, layout.grid_size
    parts.append(
        f'<rect x="{m}" y="{m}" width="{grid_width}" height="{grid_height}" '
        f'fill="none" stroke="{INK}" stroke-width="{layout.frame}"/>'
    )
    parts.extend(_svg_legend(layout, legend_lines, bool(marked)))
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
    if square.circled:
        parts.append(
            f'<circle cx="{x + size / 2:.1f}" cy="{y + size / 2:.1f}" r="{size * 0.46:.1f}" '
            f'fill="none" stroke="{INK}" stroke-width="{layout.line}"/>'
        )
    if square.letter is not None:
        # A capital is about 0.72 em tall: half of that below the middle centres it.
        letter_size = round(layout.letter_size * letter_scale(square.letter))
        baseline = y + layout.letter_middle + 0.36 * letter_size
        weight = ' font-weight="bold"' if square.given else ""
        parts.append(
            f'<text x="{x + size / 2:.1f}" y="{baseline:.1f}" text-anchor="middle" '
            f'font-size="{letter_size}"{weight}>{escape(square.letter)}</text>'
        )
    return parts


def _svg_legend(layout: Layout, lines: Sequence[str], swatch: bool) -> list[str]:
    parts = []
    x, top, size = layout.margin, layout.legend_top, layout.legend_size
    if swatch and lines:
        parts.append(
            f'<rect x="{x}" y="{top}" width="{size}" height="{size}" fill="{MARK}" '
            f'stroke="{INK}" stroke-width="{layout.line}"/>'
        )
    indent = layout.legend_step if swatch else 0
    for k, line in enumerate(lines):
        baseline = top + k * layout.legend_step + 0.85 * size
        parts.append(
            f'<text x="{x + indent}" y="{baseline:.1f}" font-size="{size}">{escape(line)}</text>'
        )
    return parts


# ---------------------------------------------------------------------- PNG


def draw_png(
    puzzle: Puzzle,
    grid: Sequence[str],
    path: Path | str,
    marked: Collection[Cell] = frozenset(),
    cell: int | None = None,
    legend: str | None = None,
    dpi: int | None = None,
) -> None:
    """Write the picture to `path` as a PNG, `cell` pixels per cell (by
    default a cell 7 mm wide at `dpi`, DPI by default); needs Pillow."""
    dpi = dpi or DPI
    cell = cell or scaled(CELL, dpi)
    require_pillow()
    from PIL import Image, ImageDraw

    drawn = squares(puzzle, grid, marked)
    layout, legend_lines = _layout(puzzle, grid, legend, cell)
    image = Image.new("RGB", layout.size, PAPER)
    pen = ImageDraw.Draw(image)
    for square in drawn:
        _png_square(pen, layout, square)
    m, (width, height) = layout.margin, layout.grid_size
    half = layout.frame // 2
    pen.rectangle(
        (m - half, m - half, m + width + half, m + height + half),
        outline=INK,
        width=layout.frame,
    )
    _png_legend(pen, layout, legend_lines, bool(marked))
    image.save(path, format="PNG", dpi=(dpi, dpi))


def _png_square(pen: ImageDraw, layout: Layout, square: Square) -> None:
    x, y = layout.corner(square.cell)
    size = layout.cell
    # Pillow's rectangle includes its far edge, so neighbours share one line.
    pen.rectangle((x, y, x + size, y + size), fill=square.fill, outline=INK, width=layout.line)
    if square.number is not None:
        inset = round(size * 0.07) + layout.line
        draw_text(pen, (x + inset, y + inset), str(square.number), layout.number_size, False, "lt")
    if square.circled:
        ring = size * 0.04
        box = (x + ring, y + ring, x + size - ring, y + size - ring)
        pen.ellipse(box, outline=INK, width=layout.line)
    if square.letter is not None:
        middle = (x + size / 2, y + layout.letter_middle)
        letter_size = max(6, round(layout.letter_size * letter_scale(square.letter)))
        draw_text(pen, middle, square.letter, letter_size, square.given, "mm")


def _png_legend(pen: ImageDraw, layout: Layout, lines: Sequence[str], swatch: bool) -> None:
    x, top, size = layout.margin, layout.legend_top, layout.legend_size
    if swatch and lines:
        pen.rectangle((x, top, x + size, top + size), fill=MARK, outline=INK, width=layout.line)
    indent = layout.legend_step if swatch else 0
    for k, line in enumerate(lines):
        draw_text(pen, (x + indent, top + k * layout.legend_step), line, size, False, "la")


def draw_text(
    pen: ImageDraw, at: tuple[float, float], text: str, size: int, bold: bool, anchor: str
) -> None:
    """`text` at `at` (a Pillow anchor) in the picture font, faking bold where
    the font has no bold face; shared with the word-search pictures."""
    font, fake_bold = _font(size, bold)
    stroke = max(1, size // 24) if fake_bold else 0  # a font without a bold face: thicken
    pen.text(at, text, fill=INK, font=font, anchor=anchor, stroke_width=stroke, stroke_fill=INK)


def require_pillow() -> None:
    try:
        import PIL
    except ImportError:
        raise MissingDependency(f"drawing a PNG needs Pillow: {PICTURES_HINT}") from None
    version = tuple(int(part) for part in PIL.__version__.split(".")[:2] if part.isdigit())
    if version < (10, 1):
        raise MissingDependency(
            f"drawing a PNG needs Pillow 10.1 or newer (this is {PIL.__version__}): {PICTURES_HINT}"
        )


# DejaVu Sans covers Latin, Greek and Cyrillic letters; Pillow's own font
# (the fallback) covers Latin only, so that Д or Ж would come out as boxes.
FONT_NAMES = {False: ("DejaVuSans.ttf",), True: ("DejaVuSans-Bold.ttf",)}
FONT_PATTERNS = {False: "DejaVu Sans:style=Book", True: "DejaVu Sans:style=Bold"}
FONT_FOLDERS = (
    "/usr/share/fonts/truetype/dejavu",  # Debian and Ubuntu: fonts-dejavu-core
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    os.path.expanduser("~/Library/Fonts"),
)


def font_file(bold: bool) -> Path | None:
    """The system's DejaVu Sans (bold or book) file, if it has one: as
    fontconfig finds it, else in the usual folders."""
    import shutil
    import subprocess  # a font is looked for only when a PNG is drawn

    names = FONT_NAMES[bold]
    program = shutil.which("fc-match")
    if program is not None:
        try:
            found = subprocess.run(
                [program, "--format=%{file}", FONT_PATTERNS[bold]],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            found = ""
        if found and Path(found).name in names and Path(found).is_file():
            return Path(found)
    for folder in FONT_FOLDERS:
        for name in names:
            if (Path(folder) / name).is_file():
                return Path(folder) / name
    return None


@functools.cache
def _font(size: int, bold: bool) -> tuple[Font, bool]:
    """The font for `size` pixels, and whether bold must be faked (no bold face)."""
    from PIL import ImageFont

    path = font_file(bold)
    if path is not None:
        return ImageFont.truetype(str(path), size), False
    return ImageFont.load_default(size=size), bold


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
    puzzle: Puzzle,
    grid: Sequence[str],
    path: Path | str,
    marked: Collection[Cell] = frozenset(),
    legend: str | None = None,
    dpi: int | None = None,
) -> Path:
    """Write a PNG (at `dpi`) or an SVG picture, as the suffix of `path`
    says; returns the path."""
    target = Path(path)
    if picture_suffix(target) == ".svg":
        target.write_text(draw_svg(puzzle, grid, marked, legend), encoding="utf-8")
    else:
        draw_png(puzzle, grid, target, marked, legend=legend, dpi=dpi)
    return target


# ---------------------------------------------------------------------- notebooks


def core_cells(outcome: Outcome) -> frozenset[Cell]:
    """The open cells of the core of an unsolvable outcome's proof (none else)."""
    if outcome.proof is None:
        return frozenset()
    return frozenset(cell for site in outcome.proof.core for cell in site.cells)


def core_legend(outcome: Outcome) -> str | None:
    """The legend of a picture of the core: what the shaded cells are."""
    proof = outcome.proof
    if proof is None or not proof.core:
        return None
    sites = ", ".join(site.label for site in proof.core)
    maybe = "" if proof.minimal or proof.layer == "length" else " (maybe not minimal)"
    return f"shaded: the core{maybe}, sites that cannot all be filled: {sites}"


def outcome_html(outcome: Outcome) -> str:
    """An outcome in a notebook: its verdict and statistics, then the
    first solution, or the framework with the proof's core shaded."""
    import html

    stats = outcome.stats
    found = outcome.count if outcome.count is not None else len(outcome.solutions)
    verdict = {"solved": "solved", "unsolvable": "unsolvable", "timeout": "time limit reached"}
    head = f"<b>{verdict[outcome.status]}</b>"
    if outcome.status != "unsolvable":
        head += f", {found} solution{'s' * (found != 1)} found"
    if outcome.unique is not None:
        head += ", unique" if outcome.unique else ", not unique"
    if outcome.proof is not None:
        head += f" (layer: {html.escape(outcome.proof.layer)})"
    lines = [head]
    if outcome.reason:
        lines.append(html.escape(outcome.reason))
    lines.append(
        f"{html.escape(stats.engine)} engine, {html.escape(stats.strategy)}: {stats.nodes} nodes, "
        f"{stats.backtracks} backtracks, {stats.seconds:.3f} s"
    )
    picture = ""
    if outcome.solutions:
        solution = outcome.solutions[0]
        picture = draw_svg(solution.puzzle, solution.grid)
    elif outcome.puzzle is not None:
        puzzle = outcome.puzzle
        picture = draw_svg(puzzle, puzzle.grid, core_cells(outcome), core_legend(outcome))
    return "<div>" + "<br>".join(lines) + "</div>" + picture
