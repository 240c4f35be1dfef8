"""Sites: numbering as printed crosswords have it, and the fast constructors."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from pybridge.layout import Site, find_sites
from pybridge.model import Direction, Placement, Puzzle


def test_sites_are_numbered_as_in_a_printed_crossword() -> None:
    puzzle = Puzzle(("x", "y"), ("...", ".#.", "..#"), format="p99")
    found = [(s.number, s.direction, s.row, s.col, s.length) for s in find_sites(puzzle)]
    assert found == [
        (1, "across", 0, 0, 3),
        (1, "down", 0, 0, 3),
        (2, "down", 0, 2, 2),
        (3, "across", 2, 0, 2),
    ]
    assert [s.index for s in find_sites(puzzle)] == [0, 1, 2, 3]


@given(st.integers(0, 99), st.integers(1, 99), st.sampled_from(["across", "down"]))
def test_make_builds_what_the_constructor_builds(index: int, number: int, way: str) -> None:
    direction: Direction = "across" if way == "across" else "down"
    cells = ((1, 2), (1, 3))
    site = Site.make(index, number, direction, 1, 2, cells)
    assert site == Site(index, number, direction, 1, 2, cells)
    assert hash(site) == hash(Site(index, number, direction, 1, 2, cells))
    placed = Placement.make(number, direction, 1, 2, 2, "ab")
    assert placed == Placement(number, direction, 1, 2, 2, "ab")
    assert dataclasses.asdict(placed) == dataclasses.asdict(
        Placement(number, direction, 1, 2, 2, "ab")
    )
