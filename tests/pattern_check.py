"""An independent checker of grid patterns, for the tests: it reads the rows
of `.` (open), `#` (blocked) and letters (open, given) one cell at a time and
shares no code with pybridge.patterns (not its bit masks, not its counts).

What it measures and judges (docs/cli.md#grid):

* the words: every maximal run of two or more open cells, across and down;
  their count and mean length;
* the cheater blocks: a block is one when opening it alone would leave the
  number of words as it is (counted by opening it and counting again);
* the rules: the symmetry, no word shorter than the minimum or longer than
  the maximum, every open cell checked (in an across and a down word) or at
  least in one word, the open cells connected, and the limits on words and
  cheater blocks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def is_open(cell: str) -> bool:
    return cell != "#"


def lines(grid: Sequence[str]) -> list[str]:
    """The rows, then the columns (top to bottom), as strings."""
    cols = len(grid[0])
    return [*grid, *("".join(row[c] for row in grid) for c in range(cols))]


def run_lengths(line: str) -> list[int]:
    """The lengths of the runs of open cells in a line, in order."""
    found, current = [], 0
    for cell in line:
        if is_open(cell):
            current += 1
        else:
            if current:
                found.append(current)
            current = 0
    if current:
        found.append(current)
    return found


def word_lengths(grid: Sequence[str]) -> list[int]:
    """The length of every word (a run of two or more open cells), across then down."""
    return [n for line in lines(grid) for n in run_lengths(line) if n >= 2]


def word_count(grid: Sequence[str]) -> int:
    return len(word_lengths(grid))


def mean_length(grid: Sequence[str]) -> float:
    lengths = word_lengths(grid)
    return sum(lengths) / len(lengths) if lengths else 0.0


def cheaters(grid: Sequence[str]) -> list[tuple[int, int]]:
    """The blocks whose opening, alone, leaves the number of words unchanged."""
    words = word_count(grid)
    found = []
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell == "#":
                opened = [*grid[:r], row[:c] + "." + row[c + 1 :], *grid[r + 1 :]]
                if word_count(opened) == words:
                    found.append((r, c))
    return found


@dataclass(frozen=True)
class Figures:
    words: int
    blocks: int
    mean_length: float
    cheaters: int


def figures(grid: Sequence[str]) -> Figures:
    blocks = sum(row.count("#") for row in grid)
    return Figures(word_count(grid), blocks, mean_length(grid), len(cheaters(grid)))


def image(symmetry: str, rows: int, cols: int, r: int, c: int) -> tuple[int, int]:
    """Where (r, c) goes under the symmetry's generating move."""
    return {
        "none": (r, c),
        "rot180": (rows - 1 - r, cols - 1 - c),
        "rot90": (c, rows - 1 - r),
        "mirror-lr": (r, cols - 1 - c),
        "mirror-tb": (rows - 1 - r, c),
    }[symmetry]


def _run_through(line: str, at: int) -> int:
    """The length of the run of open cells through position `at` (0 if blocked)."""
    if not is_open(line[at]):
        return 0
    start = at
    while start > 0 and is_open(line[start - 1]):
        start -= 1
    end = at
    while end + 1 < len(line) and is_open(line[end + 1]):
        end += 1
    return end - start + 1


def _connected(grid: Sequence[str]) -> bool:
    cells = {(r, c) for r, row in enumerate(grid) for c, x in enumerate(row) if is_open(x)}
    if not cells:
        return True
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for near in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if near in cells and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(cells)


def rule_breaks(
    grid: Sequence[str],
    symmetry: str,
    min_length: int = 3,
    checked: bool = True,
    max_length: int | None = None,
    max_words: int | None = None,
    max_cheaters: int | None = None,
) -> list[str]:
    """Every way `grid` breaks its symmetry or the rules of a crossword grid."""
    rows, cols = len(grid), len(grid[0])
    found = []
    if any(len(row) != cols for row in grid):
        found.append("not a rectangle")
    for r in range(rows):
        for c in range(cols):
            a, b = image(symmetry, rows, cols, r, c)
            if is_open(grid[r][c]) != is_open(grid[a][b]):
                found.append(f"({r},{c}) and its image ({a},{b}) differ")
    for n in word_lengths(grid):
        if n < min_length:
            found.append(f"a {n}-letter word")
        if max_length is not None and n > max_length:
            found.append(f"a {n}-letter word, over {max_length}")
    columns = lines(grid)[rows:]
    for r, row in enumerate(grid):
        for c in range(cols):
            if not is_open(row[c]):
                continue
            across, down = _run_through(row, c), _run_through(columns[c], r)
            if checked and (across == 1 or down == 1):
                found.append(f"({r},{c}) is unchecked")
            if across == 1 and down == 1:
                found.append(f"({r},{c}) is in no word")
    if not _connected(grid):
        found.append("the open cells are not connected")
    if max_words is not None and word_count(grid) > max_words:
        found.append(f"{word_count(grid)} words, over {max_words}")
    if max_cheaters is not None and len(cheaters(grid)) > max_cheaters:
        found.append(f"{len(cheaters(grid))} cheater blocks, over {max_cheaters}")
    return found
