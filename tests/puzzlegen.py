"""Random puzzles that are solvable by construction, for the property tests.

A puzzle is made backwards from its answer: words are laid on an empty grid,
each crossing an earlier one at a letter they share, every cell left empty
is blocked, and the word list is read off the filled grid at the sites that
pybridge.layout finds.  So the word list is exactly the words of one filled
grid (the planted one), whatever runs the laying happened to merge.

Import it as `from puzzlegen import ...`: pytest puts tests/ on sys.path
because tests/ is not a package.
"""

from __future__ import annotations

import itertools
import random
import string
from collections.abc import Sequence

from hypothesis import strategies as st

from pybridge.layout import Site, find_sites, uncovered_cells
from pybridge.model import BLOCK, OPEN, Cell, Puzzle

# Small alphabets make crossings agree often, so puzzles tend to have
# several fills and words that fit many sites; a larger one gives the
# opposite, few candidates per site.
ALPHABETS = ("ab", "abc", "abcd", "abcdefghij")

Grid = tuple[str, ...]

LETTERS = string.ascii_lowercase


def random_puzzle(
    rng: random.Random,
    *,
    sizes: tuple[int, int] = (5, 9),
    words: tuple[int, int] = (8, 22),
    max_length: int = 6,
    alphabet: str | None = None,
    given_rate: float | None = None,
    duplicate: bool | None = None,
) -> tuple[Puzzle, Grid]:
    """A puzzle and its planted solution grid ('#' blocked, letters open).

    `sizes` bounds the height and width, `words` the number of words laid
    (runs that touch merge, so the sites can differ), `given_rate` the share
    of cells whose letter stays predefined and `duplicate` whether one word
    is copied into a second site; None lets `rng` choose."""
    alphabet = alphabet or rng.choice(ALPHABETS)
    height, width = rng.randint(*sizes), rng.randint(*sizes)
    letters = _lay_words(rng, (height, width), rng.randint(*words), max_length, alphabet)
    solution = _blocked_elsewhere(letters, height, width)
    if duplicate if duplicate is not None else rng.random() < 0.3:
        solution = _copy_a_word(rng, solution)
    if given_rate is None:
        given_rate = rng.choice((0.0, 0.0, 0.1, 0.25))
    framework = _framework(rng, solution, given_rate)
    listed = words_of(solution, find_sites(_puzzle((), framework)))
    rng.shuffle(listed)
    return _puzzle(tuple(listed), framework), solution


def exact_grid(size: int, blocks: float = 0.10, seed: int = 1) -> Puzzle:
    """A size x size fill-in puzzle (every listed word placed once) made from
    a random filled grid: each cell blocked with probability `blocks`, else a
    random letter; the word list is the grid's sites' words, sorted. Random
    letters make most sites fit one word once the crossings are known, but
    many short ones share their length and letters with others (ambiguous:
    a search must choose among them). Issue 39 item 5's puzzle is
    exact_grid(129) (2,874 sites at seed 3: a grid of 10% blocks has at most
    about 3,600; 5,000 sites need a third of the cells blocked:
    exact_grid(129, 0.32))."""
    rng = random.Random(seed)

    def cell() -> str:
        return BLOCK if rng.random() < blocks else rng.choice(string.ascii_lowercase)

    rows = tuple("".join(cell() for _ in range(size)) for _ in range(size))
    framework = tuple("".join(BLOCK if ch == BLOCK else OPEN for ch in row) for row in rows)
    listed = sorted(words_of(rows, find_sites(_puzzle((), framework))))
    return Puzzle(tuple(listed), framework, "grid", f"<exact_grid {size} {blocks} {seed}>")


def block_grid(
    size: int = 129,
    ambiguous: float = 0.10,
    seed: int = 1,
    shape: tuple[int, int] = (4, 5),
    given: bool = True,
) -> Puzzle:
    """A size x size exact puzzle (every listed word placed once) of blocks:
    `shape` (rows, columns) rectangles of random letters, one blocked cell
    apart, the cells past the last whole block blocked. Each block holds
    rows + columns sites and is a part of its own (no crossing joins two),
    and every word of a length may go into any site of it, in any block.
    A share `ambiguous` of the blocks have two fills of their own words
    (see _two_fills). With `given` each block shows one letter of each row
    and column (a diagonal; in a block of two fills, none of the letters
    that differ between them), which picks out its words among the others
    of their length (without, the search tries other blocks' words in each
    block and thrashes). Issue 39 item 5's
    puzzle is block_grid(129): 26 x 21 blocks of 4 x 5, 4,914 sites (a
    grid of 10% random blocked cells has at most about 3,600: see
    exact_grid)."""
    rng = random.Random(seed)
    height, width = shape
    cells = [[BLOCK] * size for _ in range(size)]
    shown = [[False] * size for _ in range(size)]
    for top in range(0, size - height + 1, height + 1):
        for left in range(0, size - width + 1, width + 1):
            block = [[rng.choice(LETTERS) for _ in range(width)] for _ in range(height)]
            swapped: set[tuple[int, int]] = set()
            if rng.random() < ambiguous:
                swapped = _two_fills(rng, block)
            if given:
                for k in range(max(height, width)):
                    if (k % height, k % width) not in swapped:
                        shown[top + k % height][left + k % width] = True
            for r, row in enumerate(block):
                cells[top + r][left : left + width] = row
    rows = tuple("".join(row) for row in cells)
    framework = tuple(
        "".join(ch if ch == BLOCK or seen else OPEN for ch, seen in zip(row, showing, strict=True))
        for row, showing in zip(rows, shown, strict=True)
    )
    listed = sorted(words_of(rows, find_sites(_puzzle((), framework))))
    return Puzzle(tuple(listed), framework, "grid", f"<block_grid {size} {ambiguous} {seed}>")


def _two_fills(rng: random.Random, block: list[list[str]]) -> set[tuple[int, int]]:
    """Make `block` (at least 2 x 3) a block of two fills: rows i < j agree
    but for their last two letters, which they hold swapped (x y and y x,
    x != y), and the last two columns agree outside rows i and j; so the
    rows exchanged, the last two columns' words are exchanged too. Returns
    the cells that differ between the two fills."""
    i, j = sorted(rng.sample(range(len(block)), 2))
    block[j][:-2] = block[i][:-2]
    x, y = rng.sample(string.ascii_lowercase, 2)
    block[i][-2:], block[j][-2:] = [x, y], [y, x]
    for r, row in enumerate(block):
        if r not in (i, j):
            row[-1] = row[-2]
    width = len(block[0])
    return {(r, c) for r in (i, j) for c in (width - 2, width - 1)}


def open_square(draws: int) -> Puzzle:
    """An open 5x5 grid and about 60 random words over abcd to fill it from."""
    rng = random.Random(draws)
    words = {"".join(rng.choice("abcd") for _ in range(5)) for _ in range(60)}
    return Puzzle(tuple(sorted(words)), (".....",) * 5, format="grid", mode="lexicon")


def break_one_letter(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """`puzzle` with one letter of one word changed, so every length still
    matches; the result may or may not still be solvable."""
    if not puzzle.words:
        return puzzle
    k = rng.randrange(len(puzzle.words))
    word = puzzle.words[k]
    i = rng.randrange(len(word))
    choices = sorted((set("".join(puzzle.words)) | {"z"}) - {word[i]})
    changed = word[:i] + rng.choice(choices) + word[i + 1 :]
    listed = (*puzzle.words[:k], changed, *puzzle.words[k + 1 :])
    return Puzzle(listed, puzzle.grid, puzzle.format, puzzle.source)


def words_of(grid: Sequence[str], sites: Sequence[Site]) -> list[str]:
    """The word `grid` holds at each site, in site order."""
    return ["".join(grid[r][c] for r, c in site.cells) for site in sites]


def puzzles(**options: object) -> st.SearchStrategy[tuple[Puzzle, Grid]]:
    """Hypothesis strategy: random_puzzle from a drawn seed (so a failing
    example can be replayed with random.Random(seed))."""
    return st.integers(0, 2**32 - 1).map(
        lambda seed: random_puzzle(random.Random(seed), **options)  # type: ignore[arg-type]
    )


# ---------------------------------------------------------------- building


def _puzzle(words: tuple[str, ...], framework: Grid) -> Puzzle:
    return Puzzle(words, framework, "p99", "<random>")


def _lay_words(
    rng: random.Random, shape: tuple[int, int], count: int, max_length: int, alphabet: str
) -> dict[Cell, str]:
    """Letters of `count` words (fewer if they do not fit), each after the
    first through a cell already written. Some puzzles are sparse, like a
    printed crossword (a word touches others only where it crosses them);
    the others are dense: words may run alongside and merge into new runs."""
    sparse = rng.random() < 0.5
    letters: dict[Cell, str] = {}
    laid = 0
    for _ in range(count * 20):
        if laid == count:
            break
        anchor = rng.choice(sorted(letters)) if letters else _anywhere(rng, shape)
        cells = _word_cells(rng, anchor, shape, max_length)
        if cells is None or (sparse and _touches(letters, cells)):
            continue
        for cell in cells:
            letters.setdefault(cell, rng.choice(alphabet))
        laid += 1
    return letters


def _anywhere(rng: random.Random, shape: tuple[int, int]) -> Cell:
    return rng.randrange(shape[0]), rng.randrange(shape[1])


def _word_cells(
    rng: random.Random, anchor: Cell, shape: tuple[int, int], max_length: int
) -> list[Cell] | None:
    """Cells of a word through `anchor`, or None if it would leave the grid."""
    dr, dc = rng.choice(((0, 1), (1, 0)))
    length = rng.randint(2, max_length)
    offset = rng.randrange(length)
    r0, c0 = anchor[0] - offset * dr, anchor[1] - offset * dc
    cells = [(r0 + k * dr, c0 + k * dc) for k in range(length)]
    inside = all(0 <= r < shape[0] and 0 <= c < shape[1] for r, c in cells)
    return cells if inside else None


def _touches(letters: dict[Cell, str], cells: list[Cell]) -> bool:
    """Whether a word on `cells` would touch written letters other than by
    crossing them: at its ends, beside a new cell, or by running along."""
    (r0, c0), (r1, c1) = cells[0], cells[-1]
    dr, dc = (0, 1) if r0 == r1 else (1, 0)
    ends = [(r0 - dr, c0 - dc), (r1 + dr, c1 + dc)]
    beside = [
        (r + dc * side, c + dr * side)
        for r, c in cells
        if (r, c) not in letters
        for side in (-1, 1)
    ]
    along = any(a in letters and b in letters for a, b in itertools.pairwise(cells))
    return along or any(cell in letters for cell in ends + beside)


def _blocked_elsewhere(letters: dict[Cell, str], height: int, width: int) -> Grid:
    """The filled grid: the letters, blocks everywhere else, and blocks on
    letters that ended up in no site (a lone cell both ways)."""
    rows = tuple("".join(letters.get((r, c), BLOCK) for c in range(width)) for r in range(height))
    puzzle = _puzzle((), rows)
    lone = set(uncovered_cells(puzzle, find_sites(puzzle)))
    return tuple(
        "".join(BLOCK if (r, c) in lone else ch for c, ch in enumerate(row))
        for r, row in enumerate(rows)
    )


def _copy_a_word(rng: random.Random, solution: Grid) -> Grid:
    """`solution` with the word of one site written into another site of the
    same length that it does not cross (unchanged if there is no such pair).
    The sites through the overwritten cells simply get new words."""
    sites = find_sites(_puzzle((), solution))
    pairs = [
        (a, b)
        for a in sites
        for b in sites
        if a.index != b.index and a.length == b.length and not set(a.cells) & set(b.cells)
    ]
    if not pairs:
        return solution
    source, target = rng.choice(pairs)
    rows = [list(row) for row in solution]
    for (r, c), (sr, sc) in zip(target.cells, source.cells, strict=True):
        rows[r][c] = solution[sr][sc]
    return tuple("".join(row) for row in rows)


def _framework(rng: random.Random, solution: Grid, given_rate: float) -> Grid:
    """The empty framework of `solution`, keeping some letters as given."""
    return tuple(
        "".join(ch if ch == BLOCK or rng.random() < given_rate else OPEN for ch in row)
        for row in solution
    )
