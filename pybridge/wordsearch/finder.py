"""Finding words in a letter grid: every occurrence of each word, along
any of the 8 directions (docs/wordsearch.md#solve).

An occurrence is a run of cells that reads the word. A palindrome reads the
same run both ways: it is one occurrence, given in the direction that comes
first in DIRECTIONS (E before W, S before N, ...). Occurrences are listed by
their first cell, row by row, then by direction.

This module reads only the grid and the words, never an engine's answer,
so `make` uses it to check each puzzle the engines make.
"""

from __future__ import annotations

from collections.abc import Sequence

from pybridge.wordsearch.model import DIRECTIONS, FORWARD, HOLE, STEPS, Found, WordPlacement


def lines(grid: Sequence[str]) -> list[tuple[str, list[tuple[int, int]]]]:
    """Every line of the grid along E, S, SE and NE: its letters (HOLE for a
    hole) and its cells, in reading order."""
    rows = len(grid)
    cols = max(map(len, grid), default=0)
    found = []
    for name in FORWARD:
        dr, dc = STEPS[name]
        for r in range(rows):
            for c in range(cols):
                pr, pc = r - dr, c - dc
                if 0 <= pr < rows and 0 <= pc < cols:
                    continue  # not the first cell of its line
                cells = []
                cr, cc = r, c
                while 0 <= cr < rows and 0 <= cc < cols:
                    cells.append((cr, cc))
                    cr, cc = cr + dr, cc + dc
                text = "".join(grid[cr][cc] if cc < len(grid[cr]) else HOLE for cr, cc in cells)
                found.append((text, cells))
    return found


def occurrences(grid: Sequence[str], words: Sequence[str]) -> dict[str, list[WordPlacement]]:
    """Each word's occurrences (see the module doc)."""
    found: dict[str, set[tuple[tuple[int, int], str]]] = {word: set() for word in words}
    for text, cells in lines(grid):
        for word in words:
            for reading, backwards in ((word, False), (word[::-1], True)):
                start = text.find(reading)
                while start >= 0:
                    run = cells[start : start + len(word)]
                    if backwards:
                        run = run[::-1]
                    found[word].add((run[0], _direction(run)))
                    start = text.find(reading, start + 1)
    result = {}
    for word, places in found.items():
        unique: dict[frozenset[tuple[int, int]], WordPlacement] = {}
        for (r, c), direction in places:
            placement = WordPlacement.at(word, r, c, direction)
            key = frozenset(placement.cells)
            kept = unique.get(key)
            if kept is None or _rank(placement) < _rank(kept):
                unique[key] = placement
        result[word] = sorted(unique.values(), key=_rank)
    return result


def _direction(run: list[tuple[int, int]]) -> str:
    (r0, c0), (r1, c1) = run[0], run[1]
    step = (r1 - r0, c1 - c0)
    return next(name for name, delta in STEPS.items() if delta == step)


def _rank(placement: WordPlacement) -> tuple[int, int, int]:
    return placement.row, placement.col, DIRECTIONS.index(placement.direction)


def find(grid: Sequence[str], words: Sequence[str]) -> Found:
    """What `solve` answers: every occurrence of each word, and the words
    found nowhere."""
    found = occurrences(grid, words)
    return Found(
        grid=tuple(grid),
        words=tuple(words),
        found=tuple(p for word in words for p in found[word]),
        missing=tuple(word for word in words if not found[word]),
    )


def stray(
    grid: Sequence[str],
    placements: Sequence[WordPlacement],
    avoid: Sequence[str] = (),
) -> list[str]:
    """What is wrong with a made puzzle, in words (nothing: an empty list):
    a word not where it was placed, an occurrence of a listed word that is
    neither its placement nor inside another placed word, a word lying
    inside another, or a word to avoid anywhere."""
    problems = []
    taken = [frozenset(p.cells) for p in placements]
    for placement, cells in zip(placements, taken, strict=True):
        letters = "".join(grid[r][c] for r, c in placement.cells)
        if letters != placement.word:
            problems.append(f"{placement.word} reads {letters} where it was placed")
        if any(cells <= other for other in taken if other is not cells):
            problems.append(f"{placement.word} lies inside another word")
    found = occurrences(grid, [p.word for p in placements])
    for placement, cells in zip(placements, taken, strict=True):
        for other in found[placement.word]:
            seen = frozenset(other.cells)
            if seen != cells and not any(seen <= t for t in taken if t is not cells):
                problems.append(f"{placement.word} also occurs at {_where(other)}")
    for word, places in occurrences(grid, avoid).items():
        problems.extend(f"{word}, a word to avoid, occurs at {_where(p)}" for p in places)
    return problems


def _where(placement: WordPlacement) -> str:
    return f"row {placement.row + 1}, column {placement.col + 1}, going {placement.direction}"
