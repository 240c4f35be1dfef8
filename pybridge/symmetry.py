"""The symmetries of a grid pattern: where a cell goes, and the orbits they
group the cells into (a cell and its images), as pybridge.patterns blocks
them and pybridge.theme places entries.

    >>> images(0, 1, 3, 4, "rot180")
    [(0, 1), (2, 2)]
    >>> orbits(2, 2, "rot90")
    [((0, 0), (0, 1), (1, 0), (1, 1))]
"""

from __future__ import annotations

from pybridge.options import Symmetry

Cell = tuple[int, int]


def images(r: int, c: int, rows: int, cols: int, symmetry: Symmetry) -> list[Cell]:
    """The images of (r, c) under the symmetry's moves in order: itself, then
    the move once (rot90: a quarter turn clockwise), twice, three times. The
    k-th images of the cells of a word make the word's k-th image."""
    last_r, last_c = rows - 1, cols - 1
    if symmetry == "rot180":
        return [(r, c), (last_r - r, last_c - c)]
    if symmetry == "rot90":  # square: last_r == last_c
        return [(r, c), (c, last_r - r), (last_r - r, last_c - c), (last_c - c, r)]
    if symmetry == "mirror-lr":
        return [(r, c), (r, last_c - c)]
    if symmetry == "mirror-tb":
        return [(r, c), (last_r - r, c)]
    return [(r, c)]


def orbits(rows: int, cols: int, symmetry: Symmetry) -> list[tuple[Cell, ...]]:
    """The cells grouped by the symmetry, each orbit once, by its first cell
    in reading order (the cells of an orbit in reading order too)."""
    seen: set[Cell] = set()
    found = []
    for r in range(rows):
        for c in range(cols):
            if (r, c) in seen:
                continue
            orbit = tuple(sorted(set(images(r, c, rows, cols, symmetry))))
            seen.update(orbit)
            found.append(orbit)
    return found


def is_symmetric(cells: set[Cell], rows: int, cols: int, symmetry: Symmetry) -> bool:
    """Whether every image of every cell of `cells` is in `cells`."""
    return all(image in cells for r, c in cells for image in images(r, c, rows, cols, symmetry))
