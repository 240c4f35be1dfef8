"""The puzzle and its answers as plain, immutable values.

A `Puzzle` is what a reader produces: the word list and the framework. The
framework is stored normalised: every row padded to the full width, `#` for a
blocked cell, `.` for an open cell, any other character a predefined letter.
A puzzle read from a file that constructors exchange (.puz, .ipuz) also keeps
what that file published beside its grid (`Published`: the solution, the
clues, circled cells, title...), so that it can be solved from its own
answers and written back. `Placement` and `Solution` are what the engines'
answers become.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple, TypeVar

from pybridge.errors import InputError, shown
from pybridge.notation import BLOCK as BLOCK
from pybridge.notation import OPEN as OPEN
from pybridge.notation import framework_text, solution_text
from pybridge.scores import Scores

Direction = Literal["across", "down"]
Format = Literal["p99", "fillin", "cs50", "rp2016", "grid", "puz", "ipuz"]
Mode = Literal["exact", "lexicon"]
Cell = tuple[int, int]


T = TypeVar("T")

# Words and grid cells are printable characters (str.isprintable), as the
# readers ensure: no controls (NUL, line breaks, ESC...), line or paragraph
# separators, lone surrogates. One C-level test of the joined text keeps a
# 250,000-word Puzzle quick to build; the culprit is looked for only on failure.


def _check_printable(items: tuple[str, ...], what: str, source: str) -> None:
    """InputError unless every string of `items` is printable on one line."""
    if "".join(items).isprintable():
        return
    bad = next(item for item in items if not item.isprintable())
    culprit = next(ch for ch in bad if not ch.isprintable())
    message = (
        f"{what} {shown(repr(bad))} holds U+{ord(culprit):04X}: words and grid cells "
        "must be printable characters, without line breaks, NUL or surrogates"
    )
    raise InputError(message, source)


def fast_new(cls: type[T], **fields: object) -> T:
    """cls(**fields) for a frozen dataclass at under half the cost: its
    __init__ sets each field through object.__setattr__."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


ClueSource = Literal["file", "clues", "wordnet"]


class Clue(NamedTuple):
    """The clue of one entry: its number and direction, as a printed
    crossword has them, its text, and where it came from: the puzzle's own
    file, a clue file (`--clues`), or a suggestion from WordNet."""

    number: int
    direction: Direction
    text: str
    source: ClueSource = "file"


@dataclass(frozen=True)
class Published:
    """What a crossword publishes beside its grid: read from a .puz or
    .ipuz file (pybridge.exchange), or given to a filled grid with its clues
    (pybridge.clues).

    `solution` is the published answer grid (rows of the puzzle's width, `#`
    for a blocked cell), None when the file has none that can be used, and
    then `unusable` says why (a locked solution, rebus squares...). `clues`
    are in entry order; `circled`, `shaded`, `omitted` (cells outside an
    irregular ipuz grid, read as blocked) and whether the puzzle is
    `diagramless` are kept so that a written file keeps them."""

    solution: tuple[str, ...] | None = None
    unusable: str = ""
    clues: tuple[Clue, ...] = ()
    circled: frozenset[Cell] = frozenset()
    omitted: frozenset[Cell] = frozenset()
    title: str = ""
    author: str = ""
    copyright: str = ""
    notes: str = ""
    # Rebus squares: the solution holds a mark (one character, pybridge.exchange.REBUS_MARKS)
    # where a square holds several letters, and `rebus` says what each mark stands for.
    rebus: tuple[tuple[str, str], ...] = ()
    shaded: frozenset[Cell] = frozenset()
    diagramless: bool = False

    @property
    def rebus_texts(self) -> dict[str, str]:
        """What each rebus mark of the solution stands for."""
        return dict(self.rebus)


@dataclass(frozen=True)
class Puzzle:
    """A framework and its words. In "exact" mode (fill-in puzzles) every
    word in `words` is placed exactly once; in "lexicon" mode (construction)
    `words` is a dictionary of distinct entries, each site takes a different
    one, and most are never used."""

    words: tuple[str, ...]
    grid: tuple[str, ...]
    format: Format = "p99"
    source: str = "<puzzle>"
    # Width of each framework row as written (before padding), so that text
    # output can reproduce the P-99 layout; empty means "all full width".
    row_widths: tuple[int, ...] = field(default=(), compare=False)
    mode: Mode = "exact"
    # What a .puz or .ipuz file held beside the grid; None for other formats.
    published: Published | None = field(default=None, compare=False)
    # The words' scores, when the word list or dictionary gives any.
    scores: Scores | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        _check_printable(self.words, "word", self.source)
        _check_printable(self.grid, "grid row", self.source)

    @property
    def height(self) -> int:
        return len(self.grid)

    @property
    def width(self) -> int:
        return max((len(row) for row in self.grid), default=0)

    def is_open(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < self.height and 0 <= c < len(self.grid[r]) and self.grid[r][c] != BLOCK

    def given(self, cell: Cell) -> str | None:
        """The predefined letter at `cell`, or None."""
        ch = self.grid[cell[0]][cell[1]]
        return None if ch in (BLOCK, OPEN) else ch

    def __str__(self) -> str:
        return framework_text(self)

    def _repr_svg_(self) -> str:
        """A notebook shows the framework as a picture, with its clue numbers."""
        from pybridge.pictures import draw_svg  # loaded when a picture is asked for

        return draw_svg(self, self.grid)


@dataclass(frozen=True)
class Placement:
    """One word in one site: printed-crossword number, direction, 0-based row/col."""

    number: int
    direction: Direction
    row: int
    col: int
    length: int
    word: str

    @classmethod
    def make(
        cls, number: int, direction: Direction, row: int, col: int, length: int, word: str
    ) -> Placement:
        """Placement(...) made fast (a solution makes one per site): see fast_new."""
        return fast_new(
            cls, number=number, direction=direction, row=row, col=col, length=length, word=word
        )

    @property
    def label(self) -> str:
        return f"{self.number}-{self.direction.capitalize()}"


@dataclass(frozen=True)
class Solution:
    """A filled framework: `grid` rows use `#` for blocked cells."""

    puzzle: Puzzle = field(repr=False, compare=False)
    grid: tuple[str, ...]
    placements: tuple[Placement, ...]

    def __str__(self) -> str:
        return solution_text(self)

    def _repr_svg_(self) -> str:
        """A notebook shows the filled grid as a picture, with its clue numbers."""
        from pybridge.pictures import draw_svg

        return draw_svg(self.puzzle, self.grid)
