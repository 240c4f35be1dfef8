"""Printable sheets as PDF (fpdf2): a crossword or a word search to hand
out, on Letter or A4 paper.

A crossword's sheet has two pages: the puzzle (its title and byline, the
blank grid with its numbers, given letters, circles and shaded squares,
and the clues, Across then Down, in three columns that flow from beside
the grid to below it), then the solution (the filled grid). The clues take
the largest type, from 10 to 6 points, at which they fit on the first page;
a grid that leaves them too little room is drawn smaller. Clues that fit
there at no type go to pages of their own (the grid then has the first page
to itself). An entry without
a clue shows its length, `(5 letters)`, where its clue goes.

A word search's sheet: the title, what to look for and in which
directions, the grid of letters (a mask's outline drawn around its cells)
and the word list in columns; then the answer key, each word outlined.

Text is set in DejaVu Sans, embedded (the system's, as the PNG pictures
use: Latin, Greek and Cyrillic), so that a PDF reader and a text extractor
read the clues back; without it the PDF's own Helvetica holds Latin-1 only.
Layout positions are in millimetres from the page's top-left corner
(`CrosswordLayout`), which the tests use to find the grid's cells on a
rendered page.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pybridge.errors import MissingDependency, pip_hint
from pybridge.notation import BLOCK, OPEN, clue_numbers

if TYPE_CHECKING:
    from fpdf import FPDF

    from pybridge.model import Cell, Puzzle
    from pybridge.wordsearch.model import WordPlacement

Paper = Literal["letter", "a4"]
PAPERS: tuple[Paper, ...] = ("letter", "a4")
PAPER_SIZES: dict[Paper, tuple[float, float]] = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
FPDF2 = "fpdf2>=2.7"
MARGIN = 15.0  # mm
GAP = 6.0  # mm between columns
COLUMNS = 3
LARGEST, SMALLEST = 10.0, 6.0  # points of the clues' type
PT = 25.4 / 72  # mm per point
SHADE = (0.82, 0.82, 0.82)
FONT = "DejaVu"


def require_fpdf() -> None:
    try:
        import fpdf  # noqa: F401
    except ImportError:
        raise MissingDependency(
            f"writing a PDF needs fpdf2: install it with `{pip_hint(FPDF2)}`"
        ) from None


# ---------------------------------------------------------------- crossword values


@dataclass(frozen=True)
class CrosswordSheet:
    """What a crossword's sheet shows, as plain values."""

    title: str
    byline: str
    framework: tuple[str, ...]  # '#' blocks, '.' open, else a given letter
    solution: tuple[str, ...]
    across: tuple[tuple[int, str], ...]
    down: tuple[tuple[int, str], ...]
    circled: frozenset[Cell] = frozenset()
    shaded: frozenset[Cell] = frozenset()
    notes: str = ""
    rebus: tuple[tuple[str, str], ...] = ()  # what each rebus mark of the solution stands for

    @property
    def rows(self) -> int:
        return len(self.framework)

    @property
    def cols(self) -> int:
        return max(map(len, self.framework), default=0)


def crossword_sheet(
    puzzle: Puzzle, grid: Sequence[str], title: str = "Crossword"
) -> CrosswordSheet:
    """The sheet of `grid` (a fill of `puzzle`), with the clues the puzzle
    publishes for it (pybridge.exchange.entry_clues; an entry without one
    shows its length, `(5 letters)`, for the constructor to write over) and
    its title, author and copyright."""
    from pybridge.exchange import entry_clues
    from pybridge.layout import find_sites

    width = puzzle.width
    rows = tuple(row.ljust(width, BLOCK) for row in grid)
    sites = find_sites(puzzle)
    clues = [
        (site, clue.text if clue is not None else f"({len(site.cells)} letters)")
        for site, clue in zip(sites, entry_clues(puzzle, rows), strict=True)
    ]
    published = puzzle.published
    byline = ""
    if published is not None:
        parts = [f"by {published.author}" if published.author else "", published.copyright]
        byline = " · ".join(part for part in parts if part)
    return CrosswordSheet(
        title=(published.title if published is not None and published.title else title),
        byline=byline,
        framework=tuple(row.ljust(width, BLOCK) for row in puzzle.grid),
        solution=rows,
        across=tuple((site.number, text) for site, text in clues if site.direction == "across"),
        down=tuple((site.number, text) for site, text in clues if site.direction == "down"),
        circled=published.circled if published is not None else frozenset(),
        shaded=published.shaded if published is not None else frozenset(),
        notes=published.notes if published is not None else "",
        rebus=published.rebus if published is not None else (),
    )


# ---------------------------------------------------------------- layout


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class CrosswordLayout:
    """Where the first page puts things (mm): the grid's top-left corner and
    cell size, the columns the clues flow through, the type size."""

    paper: Paper
    grid_x: float
    grid_y: float
    cell: float
    columns: tuple[Box, ...]
    points: float
    lines: tuple[tuple[tuple[str, str, bool], ...], ...] = field(default=())  # per column (Line)

    def cell_centre(self, r: int, c: int) -> tuple[float, float]:
        return self.grid_x + (c + 0.5) * self.cell, self.grid_y + (r + 0.5) * self.cell


class Pdf:
    """An fpdf2 document with the sheet font loaded."""

    def __init__(self, paper: Paper, texts: Sequence[str]) -> None:
        require_fpdf()
        from fpdf import FPDF

        from pybridge.pictures import font_file

        self.paper = paper
        self._wrapped: dict[tuple[str, float, float], list[str]] = {}  # the layout tries many
        self.doc: FPDF = FPDF(unit="mm", format=paper.upper() if paper == "a4" else "letter")
        self.doc.set_auto_page_break(False)
        self.doc.set_margins(MARGIN, MARGIN, MARGIN)
        self.doc.set_creator("crossword-pybridge")
        book, bold = font_file(False), font_file(True)
        if book is not None and bold is not None:
            self.doc.add_font(FONT, "", str(book))
            self.doc.add_font(FONT, "B", str(bold))
            self.family = FONT
        else:
            wide = next((ch for text in texts for ch in text if ord(ch) > 0xFF), None)
            if wide is not None:
                raise MissingDependency(
                    f"writing {wide!r} in a PDF needs the DejaVu Sans font "
                    "(Debian: apt-get install fonts-dejavu-core)"
                )
            self.family = "helvetica"

    def font(self, points: float, bold: bool = False) -> None:
        self.doc.set_font(self.family, "B" if bold else "", points)

    def width_of(self, text: str, points: float, bold: bool = False) -> float:
        self.font(points, bold)
        return float(self.doc.get_string_width(text))

    def text(self, x: float, y: float, text: str, points: float, bold: bool = False) -> None:
        """`text` with its baseline at y."""
        self.font(points, bold)
        self.doc.text(x, y, text)

    def centred(self, x: float, y: float, text: str, points: float, bold: bool = False) -> None:
        """`text` centred on x, its capitals' middle at y."""
        width = self.width_of(text, points, bold)
        self.text(x - width / 2, y + 0.36 * points * PT, text, points, bold)

    def wrapped(self, text: str, width: float, points: float) -> list[str]:
        """`text` broken into lines of at most `width` mm."""
        key = (text, width, points)
        if key not in self._wrapped:
            self._wrapped[key] = self._wrap(text, width, points)
        return self._wrapped[key]

    def _wrap(self, text: str, width: float, points: float) -> list[str]:
        self.font(points)
        words = text.split()
        lines: list[str] = []
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if self.doc.get_string_width(candidate) <= width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
            while self.doc.get_string_width(line) > width and len(line) > 1:  # one long word
                cut = len(line) - 1
                while cut > 1 and self.doc.get_string_width(line[:cut]) > width:
                    cut -= 1
                lines.append(line[:cut])
                line = line[cut:]
        if line:
            lines.append(line)
        return lines or [""]

    def output(self) -> bytes:
        return bytes(self.doc.output())


def _size(paper: Paper) -> tuple[float, float]:
    return PAPER_SIZES[paper]


def crossword_layout(
    sheet: CrosswordSheet, paper: Paper, pdf: Pdf | None = None
) -> CrosswordLayout:
    """The first page's layout: the largest type (LARGEST to SMALLEST
    points) and grid at which the clues fit in the columns left by the
    grid; the smallest of each when nothing fits (the clues then run on)."""
    pdf = pdf or Pdf(paper, _sheet_texts(sheet))
    page_w, page_h = _size(paper)
    usable_w = page_w - 2 * MARGIN
    column_w = (usable_w - (COLUMNS - 1) * GAP) / COLUMNS
    top = MARGIN + _head_height(sheet)
    bottom = page_h - MARGIN
    best: CrosswordLayout | None = None
    roomiest = _columns_under(top + (bottom - top) * 0.42 + GAP, top, bottom, column_w, COLUMNS)
    if _flow(pdf, sheet, roomiest, SMALLEST) is None:  # nothing fits: the clues run on
        cell = min(usable_w / sheet.cols, (bottom - top) / sheet.rows, 12.0)  # the page's grid
        grid_x = MARGIN + (usable_w - cell * sheet.cols) / 2
        return CrosswordLayout(paper, grid_x, top, cell, roomiest, SMALLEST, ())
    for span in (2, 3):  # the grid over two columns, or over all three when it must shrink
        grid_room_w = span * column_w + (span - 1) * GAP
        for share in (0.62, 0.55, 0.48, 0.42):
            cell = min(grid_room_w / sheet.cols, (bottom - top) * share / sheet.rows, 11.0)
            grid_w, grid_h = cell * sheet.cols, cell * sheet.rows
            grid_x = (
                MARGIN + usable_w - grid_w if span < COLUMNS else MARGIN + (usable_w - grid_w) / 2
            )
            columns = _columns_under(top + grid_h + GAP, top, bottom, column_w, span)
            points = LARGEST
            while points >= SMALLEST:
                lines = _flow(pdf, sheet, columns, points)
                if lines is not None:
                    return CrosswordLayout(paper, grid_x, top, cell, columns, points, lines)
                points -= 0.5
            best = best or CrosswordLayout(paper, grid_x, top, cell, columns, SMALLEST, ())
    assert best is not None
    return best


def _columns_under(
    below: float, top: float, bottom: float, width: float, span: int
) -> tuple[Box, ...]:
    """The clue columns when the grid spans the last `span` columns down to `below`."""
    return tuple(
        Box(
            MARGIN + k * (width + GAP),
            top if k < COLUMNS - span else below,
            width,
            bottom - (top if k < COLUMNS - span else below),
        )
        for k in range(COLUMNS)
    )


def _head_height(sheet: CrosswordSheet) -> float:
    return 10.0 + (5.0 if sheet.byline else 0.0) + 2.0


Line = tuple[str, str, bool]  # a clue list's line: number (on a clue's first line), text, heading?


def _clue_blocks(pdf: Pdf, sheet: CrosswordSheet, width: float, points: float) -> list[list[Line]]:
    """The clue list in blocks that a column never splits: a heading with
    its first clue, then each clue's lines (its text wrapped beside its
    number); a blank line before the second heading."""
    indent = pdf.width_of("888 ", points, True)
    blocks: list[list[Line]] = []
    for heading, clues in (("Across", sheet.across), ("Down", sheet.down)):
        head: list[Line] = [("", "", False)] if blocks else []
        head.append(("", heading, True))
        for k, (number, text) in enumerate(clues):
            parts = pdf.wrapped(text, width - indent, points)
            lines = [(str(number) if j == 0 else "", part, False) for j, part in enumerate(parts)]
            blocks.append(head + lines if k == 0 else lines)
    return blocks


def _flow(
    pdf: Pdf, sheet: CrosswordSheet, columns: Sequence[Box], points: float
) -> tuple[tuple[Line, ...], ...] | None:
    """The clue lines of each column, or None when they do not all fit."""
    blocks = _clue_blocks(pdf, sheet, columns[0].width, points)
    placed, at = _fill(blocks, 0, columns, points)
    return placed if at >= len(blocks) else None


def _fill(
    blocks: Sequence[Sequence[Line]], at: int, columns: Sequence[Box], points: float
) -> tuple[tuple[tuple[Line, ...], ...], int]:
    """The lines of each column, whole blocks from `blocks[at]` on (a clue
    is never split between columns), and the first block left over."""
    step = points * PT * 1.25
    placed: list[tuple[Line, ...]] = []
    for box in columns:
        room = max(0, int(box.height // step))
        column: list[Line] = []
        while at < len(blocks):
            block = list(blocks[at])
            if not column and block[0] == ("", "", False):
                block = block[1:]  # no blank line at a column's top
            if len(column) + len(block) > room and column:
                break
            column.extend(block[:room])  # a block taller than a column: cut (never happens)
            at += 1
        placed.append(tuple(column))
    return tuple(placed), at


def _sheet_texts(sheet: CrosswordSheet) -> list[str]:
    return [
        sheet.title,
        sheet.byline,
        sheet.notes,
        *(text for _, text in sheet.across + sheet.down),
        *sheet.solution,
        *sheet.framework,
        *(letters for _, letters in sheet.rebus),
    ]


# ---------------------------------------------------------------- crossword pages


def crossword_pdf(sheet: CrosswordSheet, paper: Paper = "letter", solved: bool = True) -> bytes:
    """The two pages of a crossword's sheet as PDF bytes (the first alone
    when not `solved`: a grid pattern without a fill)."""
    pdf = Pdf(paper, _sheet_texts(sheet))
    layout = crossword_layout(sheet, paper, pdf)
    pdf.doc.set_title(sheet.title)
    pdf.doc.add_page()
    _head(pdf, sheet.title, sheet.byline)
    _grid(pdf, sheet, layout.grid_x, layout.grid_y, layout.cell, solved=False)
    if layout.lines:
        _columns(pdf, layout)
    else:
        _run_on(pdf, sheet, layout)
    if not solved:
        return pdf.output()
    pdf.doc.add_page()
    _head(pdf, f"{sheet.title}: solution", "")
    page_w, page_h = _size(paper)
    room_w, room_h = page_w - 2 * MARGIN, page_h - 2 * MARGIN - _head_height(sheet)
    cell = min(room_w / sheet.cols, room_h / sheet.rows, 12.0)
    x = MARGIN + (room_w - cell * sheet.cols) / 2
    _grid(pdf, sheet, x, MARGIN + _head_height(sheet), cell, solved=True)
    return pdf.output()


def _head(pdf: Pdf, title: str, byline: str) -> None:
    pdf.text(MARGIN, MARGIN + 6, title, 16, bold=True)
    if byline:
        pdf.text(MARGIN, MARGIN + 11.5, byline, 9)


def _grid(pdf: Pdf, sheet: CrosswordSheet, x0: float, y0: float, cell: float, solved: bool) -> None:
    doc = pdf.doc
    numbers = clue_numbers(sheet.framework)
    rebus = dict(sheet.rebus)
    doc.set_line_width(max(0.15, cell * 0.025))
    for r, row in enumerate(sheet.framework):
        for c, ch in enumerate(row):
            x, y = x0 + c * cell, y0 + r * cell
            if ch == BLOCK:
                doc.set_fill_color(0)
                doc.rect(x, y, cell, cell, style="FD")
                continue
            if (r, c) in sheet.shaded:
                doc.set_fill_color(*(round(255 * v) for v in SHADE))
                doc.rect(x, y, cell, cell, style="FD")
            else:
                doc.rect(x, y, cell, cell)
            if (r, c) in sheet.circled:
                doc.circle(x + cell / 2, y + cell / 2, cell * 0.46, style="D")
            number = numbers.get((r, c))
            if number is not None:
                pdf.text(x + cell * 0.06, y + cell * 0.3, str(number), cell * 0.28 / PT)
            letter = sheet.solution[r][c] if solved else (ch if ch != OPEN else "")
            if letter and letter not in (OPEN, BLOCK):
                given = ch not in (OPEN, BLOCK)
                letter = rebus.get(letter, letter)  # a rebus square's letters, smaller
                size = cell * 0.55 / PT * min(1.0, 1.5 / len(letter))
                pdf.centred(x + cell / 2, y + cell * 0.58, letter, size, bold=given)
    doc.set_line_width(max(0.4, cell * 0.06))
    doc.rect(x0, y0, cell * sheet.cols, cell * sheet.rows)


def _columns(pdf: Pdf, layout: CrosswordLayout) -> None:
    points = layout.points
    step = points * PT * 1.25
    indent = pdf.width_of("888 ", points, True)
    for box, lines in zip(layout.columns, layout.lines, strict=True):
        y = box.y + step * 0.8
        for number, text, heading in lines:
            if heading:
                pdf.text(box.x, y, text, points + 1, bold=True)
            else:
                if number:
                    pdf.text(
                        box.x + indent - pdf.width_of(number + " ", points, True),
                        y,
                        number,
                        points,
                        True,
                    )
                pdf.text(box.x + indent, y, text, points)
            y += step


def _run_on(pdf: Pdf, sheet: CrosswordSheet, layout: CrosswordLayout) -> None:
    """Clues that do not fit beside the grid even at the smallest type: on
    a page of their own after the grid (the page's grid), in three
    full-height columns at the largest type that fits them there; at the
    smallest, over as many pages as they need. A clue is never split."""
    page_w, page_h = _size(layout.paper)
    usable_w = page_w - 2 * MARGIN
    column_w = (usable_w - (COLUMNS - 1) * GAP) / COLUMNS
    columns = tuple(
        Box(MARGIN + k * (column_w + GAP), MARGIN, column_w, page_h - 2 * MARGIN)
        for k in range(COLUMNS)
    )
    points = LARGEST
    while points > SMALLEST and _flow(pdf, sheet, columns, points) is None:
        points -= 0.5
    blocks = _clue_blocks(pdf, sheet, column_w, points)
    at = 0
    while at < len(blocks):
        pdf.doc.add_page()
        chunks, at = _fill(blocks, at, columns, points)
        _columns(pdf, CrosswordLayout(layout.paper, 0, 0, 0, columns, points, chunks))


# ---------------------------------------------------------------- word search


DIRECTION_WORDS = {
    "E": "left to right",
    "S": "top to bottom",
    "SE": "diagonally down",
    "NE": "diagonally up",
    "W": "right to left",
    "N": "bottom to top",
    "NW": "diagonally up and backwards",
    "SW": "diagonally down and backwards",
}


def instructions(words: int, directions: Collection[str]) -> str:
    """What a word search's solver is told."""
    if set(directions) == set(DIRECTION_WORDS):
        how = "across, down or diagonally, forwards or backwards"
    else:
        ways = [DIRECTION_WORDS[d] for d in DIRECTION_WORDS if d in directions]
        how = ", ".join(ways[:-1]) + f" or {ways[-1]}" if len(ways) > 1 else ways[0]
    return f"Find the {words} words below in the grid. Each reads in a straight line: {how}."


@dataclass(frozen=True)
class WordSearchLayout:
    paper: Paper
    grid_x: float
    grid_y: float
    cell: float
    list_top: float
    columns: int
    column_width: float
    step: float


def wordsearch_layout(
    grid: Sequence[str], words: Sequence[str], paper: Paper, pdf: Pdf
) -> WordSearchLayout:
    page_w, page_h = _size(paper)
    usable_w = page_w - 2 * MARGIN
    cols = max(map(len, grid), default=1)
    top = MARGIN + 30.0
    points = 11.0
    longest = max((pdf.width_of(word, points) for word in words), default=10.0) + GAP
    columns = max(1, min(5, int(usable_w // longest)))
    step = points * PT * 1.4
    list_height = math.ceil(len(words) / columns) * step + GAP
    room_h = page_h - MARGIN - top - list_height
    cell = min(usable_w / cols, room_h / len(grid), 12.0)
    grid_x = MARGIN + (usable_w - cell * cols) / 2
    return WordSearchLayout(
        paper, grid_x, top, cell, top + cell * len(grid) + GAP, columns, usable_w / columns, step
    )


def wordsearch_pdf(
    grid: Sequence[str],
    words: Sequence[str],
    answers: Sequence[WordPlacement],
    directions: Collection[str],
    title: str = "Word search",
    paper: Paper = "letter",
) -> bytes:
    """A word search's two pages, the puzzle and its answer key, as PDF bytes."""
    from pybridge.wordsearch.model import HOLE

    pdf = Pdf(paper, [title, *grid, *words])
    layout = wordsearch_layout(grid, words, paper, pdf)
    pdf.doc.set_title(title)
    for key in (False, True):
        pdf.doc.add_page()
        pdf.text(MARGIN, MARGIN + 6, f"{title}: answer key" if key else title, 16, bold=True)
        if not key:
            lines = pdf.wrapped(
                instructions(len(words), directions), _size(paper)[0] - 2 * MARGIN, 10
            )
            for k, line in enumerate(lines[:3]):
                pdf.text(MARGIN, MARGIN + 13 + k * 5, line, 10)
        cell = layout.cell
        if key:
            _capsules(pdf, layout, answers)
        for r, row in enumerate(grid):
            for c, ch in enumerate(row):
                if ch != HOLE:
                    x = layout.grid_x + (c + 0.5) * cell
                    y = layout.grid_y + (r + 0.5) * cell
                    pdf.centred(x, y, ch, cell * 0.55 / PT)
        _outline(pdf, grid, layout)
        for k, word in enumerate(words):
            rows_per = math.ceil(len(words) / layout.columns)
            column, place = divmod(k, rows_per)
            x = MARGIN + column * layout.column_width
            y = layout.list_top + (place + 0.8) * layout.step
            pdf.text(x, y, word, 11)
    return pdf.output()


def _outline(pdf: Pdf, grid: Sequence[str], layout: WordSearchLayout) -> None:
    """The shape's outline: every cell side that borders a hole or the edge."""
    from pybridge.wordsearch.model import HOLE

    doc = pdf.doc
    doc.set_line_width(0.5)
    cell = layout.cell

    def inside(r: int, c: int) -> bool:
        return 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != HOLE

    for r, row in enumerate(grid):
        for c in range(len(row)):
            if not inside(r, c):
                continue
            x, y = layout.grid_x + c * cell, layout.grid_y + r * cell
            if not inside(r - 1, c):
                doc.line(x, y, x + cell, y)
            if not inside(r + 1, c):
                doc.line(x, y + cell, x + cell, y + cell)
            if not inside(r, c - 1):
                doc.line(x, y, x, y + cell)
            if not inside(r, c + 1):
                doc.line(x + cell, y, x + cell, y + cell)


def _capsules(pdf: Pdf, layout: WordSearchLayout, answers: Sequence[WordPlacement]) -> None:
    from pybridge.wordsearch.pictures import OUTLINES, capsule_points

    doc = pdf.doc
    cell = layout.cell
    doc.set_line_width(0.45)
    for k, placement in enumerate(answers):
        (r0, c0), (r1, c1) = placement.cells[0], placement.cells[-1]
        x0, y0 = layout.grid_x + (c0 + 0.5) * cell, layout.grid_y + (r0 + 0.5) * cell
        x1, y1 = layout.grid_x + (c1 + 0.5) * cell, layout.grid_y + (r1 + 0.5) * cell
        tall = cell * 0.8
        length = math.hypot(x1 - x0, y1 - y0) + tall
        angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
        colour = OUTLINES[k % len(OUTLINES)]
        doc.set_draw_color(*(int(colour[i : i + 2], 16) for i in (1, 3, 5)))
        points = capsule_points((x0 + x1) / 2, (y0 + y1) / 2, length, tall, angle)
        doc.polygon(points, style="D")
    doc.set_draw_color(0)
