"""An independent checker of word searches, for the tests: it reads the
grid letter by letter along all 8 directions and shares no code with
pybridge.wordsearch (not the finder, not the search).

The rules it checks (docs/wordsearch.md#the-rules):

* each word reads, from its first cell along its direction, where placed,
  in a direction allowed (a palindrome in either of its two readings), on
  cells of the mask, and no two words share a cell when overlaps are
  forbidden;
* no word's cells lie inside another word's cells;
* every run of cells that reads a listed word (either way) is that word's
  placement or lies inside the cells of another placed word;
* no run of cells reads a word to avoid;
* every cell of the mask holds a letter, every hole '#', and a letter that
  no word covers is one of the filler's letters.

`exists` decides by brute force, over every grid, whether any puzzle meets
the rules: for tiny requests, to check the engines' "unsolvable".
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

STEPS = {
    "E": (0, 1),
    "W": (0, -1),
    "S": (1, 0),
    "N": (-1, 0),
    "SE": (1, 1),
    "NW": (-1, -1),
    "NE": (-1, 1),
    "SW": (1, -1),
}
REVERSE = {"E": "W", "W": "E", "S": "N", "N": "S", "SE": "NW", "NW": "SE", "NE": "SW", "SW": "NE"}

Cells = frozenset[tuple[int, int]]


def runs_reading(grid: Sequence[str], word: str) -> set[Cells]:
    """Every run of cells (as a set) that reads `word` in some direction."""
    found: set[Cells] = set()
    rows, cols = len(grid), len(grid[0]) if grid else 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in STEPS.values():
                cells = [(r + k * dr, c + k * dc) for k in range(len(word))]
                if all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells) and all(
                    grid[rr][cc] == ch for (rr, cc), ch in zip(cells, word, strict=True)
                ):
                    found.add(frozenset(cells))
    return found


def problems(
    grid: Sequence[str],
    mask: Sequence[str],
    words: Sequence[str],
    placements: Sequence[tuple[int, int, str]],
    *,
    directions: Sequence[str] = tuple(STEPS),
    overlap: str = "allow",
    avoid: Sequence[str] = (),
    letters: Sequence[str] = (),
) -> list[str]:
    """What breaks the rules (an empty list: nothing)."""
    found: list[str] = []
    if len(grid) != len(mask) or any(len(g) != len(m) for g, m in zip(grid, mask, strict=False)):
        return [f"the grid {grid} does not have the mask's shape {mask}"]
    taken: list[Cells] = []
    for word, (r, c, d) in zip(words, placements, strict=True):
        dr, dc = STEPS[d]
        cells = [(r + k * dr, c + k * dc) for k in range(len(word))]
        palindrome = word == word[::-1]
        if d not in directions and not (palindrome and REVERSE[d] in directions):
            found.append(f"{word} goes {d}, not an allowed direction")
        if not all(0 <= rr < len(mask) and 0 <= cc < len(mask[0]) for rr, cc in cells):
            found.append(f"{word} leaves the grid")
            taken.append(frozenset())
            continue
        if any(mask[rr][cc] != "." for rr, cc in cells):
            found.append(f"{word} covers a hole")
        if "".join(grid[rr][cc] for rr, cc in cells) != word:
            found.append(f"{word} does not read where it was placed")
        taken.append(frozenset(cells))
    for i, j in itertools.permutations(range(len(taken)), 2):
        if taken[i] <= taken[j]:
            found.append(f"{words[i]} lies inside {words[j]}")
        if overlap == "forbid" and i < j and taken[i] & taken[j]:
            found.append(f"{words[i]} and {words[j]} share a cell")
    for i, word in enumerate(words):
        for run in runs_reading(grid, word):
            if run != taken[i] and not any(run <= t for j, t in enumerate(taken) if j != i):
                found.append(f"{word} also reads at {sorted(run)}")
    for word in avoid:
        if runs_reading(grid, word):
            found.append(f"{word}, to avoid, reads somewhere")
    covered = frozenset().union(*taken) if taken else frozenset()
    for r, row in enumerate(mask):
        for c, ch in enumerate(row):
            got = grid[r][c]
            if ch == "#" and got != "#":
                found.append(f"the hole at {r},{c} holds {got}")
            if ch == "." and ((r, c) not in covered and got not in letters):
                found.append(f"the filler letter {got} at {r},{c} is not one of {letters}")
    return found


def exists(
    mask: Sequence[str],
    words: Sequence[str],
    *,
    directions: Sequence[str] = tuple(STEPS),
    overlap: str = "allow",
    avoid: Sequence[str] = (),
    letters: Sequence[str] = (),
) -> bool:
    """Whether some grid and placements meet the rules (every grid is tried:
    keep the mask tiny)."""
    cells = [(r, c) for r, row in enumerate(mask) for c, ch in enumerate(row) if ch == "."]
    alphabet = sorted(set("".join(words)) | set(letters))
    for choice in itertools.product(alphabet, repeat=len(cells)):
        rows = [list(row) for row in mask]
        for (r, c), ch in zip(cells, choice, strict=True):
            rows[r][c] = ch
        grid = ["".join(row) for row in rows]
        options = [_placements(grid, word) for word in words]
        for placements in itertools.product(*options):
            if not problems(
                grid,
                mask,
                words,
                placements,
                directions=directions,
                overlap=overlap,
                avoid=avoid,
                letters=letters,
            ):
                return True
    return False


def _placements(grid: Sequence[str], word: str) -> list[tuple[int, int, str]]:
    """Every (row, col, direction) where `word` reads in `grid`."""
    rows, cols = len(grid), len(grid[0])
    found = []
    for r in range(rows):
        for c in range(cols):
            for d, (dr, dc) in STEPS.items():
                end_r, end_c = r + (len(word) - 1) * dr, c + (len(word) - 1) * dc
                if not (0 <= end_r < rows and 0 <= end_c < cols):
                    continue
                if all(grid[r + k * dr][c + k * dc] == ch for k, ch in enumerate(word)):
                    found.append((r, c, d))
    return found
