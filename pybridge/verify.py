"""Check a filled grid against its puzzle, trusting neither engine.

The runs of open cells are derived here again from the framework (not taken
from pybridge.layout), so the verifier also cross-checks the site finder.
Every problem is a sentence; rows and columns in sentences count from 1.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from pybridge.model import BLOCK, OPEN, Cell, Direction, Placement, Puzzle, Solution
from pybridge.wording import where

STEPS: dict[Direction, Cell] = {"across": (0, 1), "down": (1, 0)}
Run = tuple[Direction, tuple[Cell, ...]]


def runs(framework: Sequence[str]) -> list[Run]:
    """Every maximal across or down run of two or more open cells."""
    open_cells = {
        (r, c) for r, row in enumerate(framework) for c, ch in enumerate(row) if ch != BLOCK
    }
    found: list[Run] = []
    for direction, (dr, dc) in STEPS.items():
        for r, c in sorted(open_cells):
            if (r - dr, c - dc) in open_cells:
                continue  # not the first cell of its run
            cells = []
            while (r, c) in open_cells:
                cells.append((r, c))
                r, c = r + dr, c + dc
            if len(cells) >= 2:
                found.append((direction, tuple(cells)))
    return found


def times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def shape_problems(framework: Sequence[str], grid: Sequence[str]) -> list[str]:
    if len(grid) != len(framework):
        return [f"the grid has {len(grid)} rows but the framework has {len(framework)}"]
    return [
        f"row {r + 1} of the grid has {len(got)} cells but the framework's has {len(want)}"
        for r, (want, got) in enumerate(zip(framework, grid, strict=True))
        if len(got) != len(want)
    ]


def cell_problem(want: str, got: str) -> str | None:
    """What is wrong with a cell the framework has as `want` and the grid as `got`."""
    if want == BLOCK:
        return None if got == BLOCK else f"blocked cell holds {got!r}"
    if got == BLOCK:
        return "open cell is blocked"
    if got == OPEN:
        return "open cell is left empty"
    if want != OPEN and got != want:
        return f"predefined letter {want!r} is changed to {got!r}"
    return None


def cell_problems(framework: Sequence[str], grid: Sequence[str]) -> list[str]:
    found = []
    for r, (want_row, got_row) in enumerate(zip(framework, grid, strict=True)):
        for c, (want, got) in enumerate(zip(want_row, got_row, strict=True)):
            problem = cell_problem(want, got)
            if problem is not None:
                found.append(f"{where((r, c))}: {problem}")
    return found


def count_problems(listed: Sequence[str], placed: Sequence[str]) -> list[str]:
    """Words placed a different number of times than listed (words missing from
    the list altogether are reported with their run instead)."""
    want, got = Counter(listed), Counter(placed)
    return [
        f"word {word!r} is listed {times(want[word])} but placed {times(got[word])}"
        for word in sorted(want)
        if want[word] != got[word]
    ]


def repeat_problems(dictionary: set[str], placed: Sequence[tuple[str, str]]) -> list[str]:
    """Lexicon mode: dictionary words placed in more than one run, given
    `placed` as (word, run) pairs (words not in the dictionary are reported
    with their run instead)."""
    runs_of: dict[str, list[str]] = defaultdict(list)
    for word, run in placed:
        runs_of[word].append(run)
    return [
        f"word {word!r} is placed {times(len(at))} ({'; '.join(at)}) but may be used only once"
        for word, at in sorted(runs_of.items())
        if len(at) > 1 and word in dictionary
    ]


def problems(puzzle: Puzzle, grid: Sequence[str]) -> list[str]:
    """Every way `grid` fails to be a solution of `puzzle`; empty when it is
    one. In exact mode the words placed must be the listed ones, each as
    often as listed; in lexicon mode each must be in the dictionary, none
    twice."""
    found = shape_problems(puzzle.grid, grid)
    if found:
        return found
    found = cell_problems(puzzle.grid, grid)
    listed = set(puzzle.words)
    book = "dictionary" if puzzle.mode == "lexicon" else "word list"
    placed = []  # (word, its run)
    for direction, cells in runs(puzzle.grid):
        word = "".join(grid[r][c] for r, c in cells)
        if BLOCK in word or OPEN in word:
            continue  # an unfilled run: its cells are reported already
        run = f"{where(cells[0])} {direction}"
        placed.append((word, run))
        if word not in listed:
            found.append(f"{run}: {word!r} is not in the {book}")
    if puzzle.mode == "lexicon":
        return found + repeat_problems(listed, placed)
    return found + count_problems(puzzle.words, [word for word, _ in placed])


def is_solution(puzzle: Puzzle, grid: Sequence[str]) -> bool:
    return not problems(puzzle, grid)


def placement_cells(placement: Placement) -> tuple[Cell, ...]:
    dr, dc = STEPS[placement.direction]
    return tuple((placement.row + i * dr, placement.col + i * dc) for i in range(placement.length))


def read(grid: Sequence[str], cells: Sequence[Cell]) -> str:
    """The letters of `grid` at `cells`, '?' for a cell outside the grid."""
    return "".join(
        grid[r][c] if 0 <= r < len(grid) and 0 <= c < len(grid[r]) else "?" for r, c in cells
    )


def placement_problems(
    grid: Sequence[str], all_runs: Sequence[Run], numbers: dict[Cell, int], placement: Placement
) -> list[str]:
    """How `placement` disagrees with the runs, their numbering, or the grid."""
    found = []
    label, start = placement.label, (placement.row, placement.col)
    cells = placement_cells(placement)
    if (placement.direction, cells) not in all_runs:
        run = f"{placement.length}-cell {placement.direction} run"
        found.append(f"{label}: no {run} starts at {where(start)}")
    elif numbers[start] != placement.number:
        found.append(f"{label}: the run at {where(start)} is number {numbers[start]}")
    if len(placement.word) != placement.length:
        found.append(
            f"{label}: word {placement.word!r} has {len(placement.word)} letters "
            f"but the placement's length is {placement.length}"
        )
    elif read(grid, cells) != placement.word:
        found.append(
            f"{label}: placement says {placement.word!r} but the grid reads {read(grid, cells)!r}"
        )
    return found


def solution_problems(solution: Solution) -> list[str]:
    """Problems of the grid, of each placement, and runs placed other than once."""
    puzzle, grid = solution.puzzle, solution.grid
    found = problems(puzzle, grid)
    all_runs = runs(puzzle.grid)
    # Printed-crossword numbering: run starts in reading order, counted from 1.
    starts = sorted({cells[0] for _, cells in all_runs})
    numbers = {start: n for n, start in enumerate(starts, start=1)}
    for placement in solution.placements:
        found += placement_problems(grid, all_runs, numbers, placement)
    placed = Counter((p.direction, placement_cells(p)) for p in solution.placements)
    for direction, cells in all_runs:
        if placed[(direction, cells)] != 1:
            found.append(
                f"the {direction} run at {where(cells[0])} has "
                f"{placed[(direction, cells)]} placements instead of one"
            )
    return found
