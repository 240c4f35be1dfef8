"""The peer solver Qxw (its batch mode, `qxw -b`): a grid written as its
deck, filled from the same dictionary files, its fill read back."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence

from pybridge.errors import MissingDependency, UsageError
from pybridge.layout import find_sites
from pybridge.model import BLOCK, OPEN, Puzzle

QXW = "qxw"


QXW_HINT = (
    "qxw is not installed (looked for qxw on PATH and /usr/games/qxw): "
    "install it with `apt-get install qxw` (Debian/Ubuntu) to run --peer qxw"
)


QXW_NO_FILL = 4  # qxw -b's exit status when it proves there is no fill


def qxw_program() -> str | None:
    """Qxw's batch program: Debian installs it as /usr/games/qxw."""
    return shutil.which("qxw") or shutil.which("qxw", path="/usr/games")


def blank_grid(puzzle: Puzzle) -> bool:
    """Whether every non-blocked cell is open (no given letter): what Qxw's deck can say."""
    return all(ch in (OPEN, BLOCK) for row in puzzle.grid for ch in row)


def qxw_deck(puzzle: Puzzle) -> str:
    """Qxw's batch input: one line per light (our site), the numbers of its
    cells; lights that cross share the number of the crossing cell."""
    numbers: dict[tuple[int, int], int] = {}
    lines = []
    for site in find_sites(puzzle):
        cells = [numbers.setdefault(cell, len(numbers)) for cell in site.cells]
        lines.append(" ".join(f"{n:02d}" for n in cells))
    return "\n".join(lines) + "\n"


def qxw_grid(puzzle: Puzzle, output: str) -> tuple[str, ...] | None:
    """The grid filled with the words of Qxw's `W<light> WORD` lines; None if
    a light is missing."""
    words = {}
    for line in output.splitlines():
        tag, _, word = line.partition(" ")
        if tag[:1] == "W" and tag[1:].isdigit():
            words[int(tag[1:])] = word.strip().upper()
    rows = [list(row) for row in puzzle.grid]
    for index, site in enumerate(find_sites(puzzle)):
        placed = words.get(index)
        if placed is None or len(placed) != site.length:
            return None
        for (r, c), letter in zip(site.cells, placed, strict=True):
            rows[r][c] = letter
    return tuple("".join(row) for row in rows)


def run_qxw(
    puzzle: Puzzle, dictionaries: Sequence[str], timeout: float
) -> tuple[str, float, tuple[str, ...] | None]:
    """Qxw's batch fill of `puzzle` from the same dictionary files: status,
    wall seconds (Qxw reads its dictionary inside them) and the grid filled.
    Qxw keeps the words of a fill distinct by itself."""
    program = qxw_program()
    if program is None:
        raise MissingDependency(QXW_HINT)
    dictionary_args = [arg for path in dictionaries for arg in ("-d", path)]
    with _deck_file(qxw_deck(puzzle)) as deck:
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [program, "-b", *dictionary_args, deck],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return "timeout", time.perf_counter() - started, None
        seconds = time.perf_counter() - started
    if done.returncode == QXW_NO_FILL:
        return "unsolvable", seconds, None
    grid = qxw_grid(puzzle, done.stdout)
    if done.returncode != 0 or grid is None:
        raise UsageError(f"qxw -b failed (status {done.returncode}): {done.stderr.strip()}")
    return "solved", seconds, grid


@contextlib.contextmanager
def _deck_file(text: str) -> Iterator[str]:
    """A temporary deck file holding `text`, removed afterwards."""
    handle, path = tempfile.mkstemp(suffix=".qxd", prefix="crossword-bench-")
    try:
        with os.fdopen(handle, "w", encoding="ascii") as out:
            out.write(text)
        yield path
    finally:
        os.unlink(path)
