"""The word search in Python: the placement search and the filler, step for
step as prolog/wordsearch.pl does them (specified in docs/wordsearch.md,
sections "The search" and "The filler"), with the kernel's counters, time
limit and generator (pybridge.search.kernel).

The grid is one flat list of cells with a border of holes (Geometry):
HOLE outside the mask, None while free, else a letter. A word's place is
(first cell, direction), its cells first + k * step. Both searches keep
their own stack of levels (a list), not Python's: a word list or a grid may
be longer than the recursion limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pybridge.search.kernel import Counters, Lcg, SearchTimeout, deadline
from pybridge.wordsearch.model import (
    DIRECTIONS,
    FORWARD,
    HOLE,
    STEPS,
    USABLE,
    Answer,
    Request,
    Shape,
    opposite,
)

Cell = int  # a cell's index in the padded grid (see Geometry)
Window = tuple[int, int, int]  # first cell, line (index in FORWARD), length
Pending = tuple[tuple[frozenset[Cell], int], ...]  # (cells of a window, word index)


class Restart(Exception):
    """A run reached its limit of dead ends: the search starts again from the root."""


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class Geometry:
    """The grid as one flat list with a border of holes: a row of them above
    and below, and one cell of it between two rows (so also before the first
    and after the last column). Cell (r, c) is index (r + 1) * (cols + 1) +
    c + 1, and a step in any direction from a cell of the grid lands on a
    cell or on the border, never across to another row."""

    rows: int
    cols: int

    @property
    def width(self) -> int:
        return self.cols + 1

    @property
    def size(self) -> int:
        return (self.rows + 2) * self.width + 1

    def index(self, r: int, c: int) -> Cell:
        return (r + 1) * self.width + c + 1

    def row_col(self, cell: Cell) -> tuple[int, int]:
        r, c = divmod(cell - 1, self.width)
        return r - 1, c

    def step(self, direction: str) -> int:
        dr, dc = STEPS[direction]
        return dr * self.width + dc

    def empty_board(self, shape: Shape) -> list[str | None]:
        """HOLE on the border and outside the mask, None on a free cell."""
        board: list[str | None] = [HOLE] * self.size
        for r, row in enumerate(shape.mask):
            for c, ch in enumerate(row):
                if ch == USABLE:
                    board[self.index(r, c)] = None
        return board

    def runs(self, board: list[str | None], direction: str) -> list[int]:
        """For each cell, how many usable cells start there in `direction`."""
        step = self.step(direction)
        run = [0] * self.size
        # each cell after the one it leads to, so that one is done first
        order = range(self.size - 1, -1, -1) if step > 0 else range(self.size)
        for cell in order:
            if board[cell] != HOLE:
                run[cell] = 1 + run[cell + step]
        return run


def longest_line(shape: Shape, directions: tuple[str, ...]) -> int:
    """The most letters a word can have in this grid and these directions."""
    geometry = Geometry(shape.rows, shape.cols)
    board = geometry.empty_board(shape)
    return max((max(geometry.runs(board, d)) for d in directions), default=0)


@dataclass(frozen=True)
class Tables:
    """What the search reads and never changes, made once per request."""

    geometry: Geometry
    board: tuple[str | None, ...]  # the empty board
    words: tuple[str, ...]
    order: tuple[int, ...]  # the words by length, longest first, ties in listed order
    places: dict[int, list[tuple[Cell, int]]]  # length -> (first cell, direction index)
    steps: tuple[int, ...]  # by direction index (in DIRECTIONS): the step from cell to cell
    skip_for_palindromes: frozenset[int]  # directions a palindrome does not take
    forbidden: dict[str, tuple[tuple[int, ...], bool]]  # see forbidden_table
    factors: frozenset[str]
    longest: int  # the longest forbidden string
    containers: tuple[tuple[int, ...], ...]
    letters: tuple[str, ...]


def forbidden_table(
    words: tuple[str, ...], avoid: tuple[str, ...]
) -> dict[str, tuple[tuple[int, ...], bool]]:
    """Each string that a window must not read, read along its line: the
    listed words it is (forwards or backwards), and whether it is a word to
    avoid."""
    listed: dict[str, list[int]] = {}
    banned: set[str] = set()
    for i, word in enumerate(words):
        for text in dict.fromkeys((word, word[::-1])):
            listed.setdefault(text, []).append(i)
    for word in avoid:
        banned.update((word, word[::-1]))
    return {text: (tuple(listed.get(text, ())), text in banned) for text in {*listed, *banned}}


def places(
    geometry: Geometry, board: list[str | None], directions: tuple[str, ...], lengths: set[int]
) -> dict[int, list[tuple[Cell, int]]]:
    """Every place of a word of each length: by first cell (row by row),
    then by direction in the order of DIRECTIONS."""
    lines = [(i, geometry.runs(board, d)) for i, d in enumerate(DIRECTIONS) if d in directions]
    found = {}
    for length in sorted(lengths):
        here = [(cell, i) for i, run in lines for cell, n in enumerate(run) if n >= length]
        here.sort()
        found[length] = here
    return found


def tables(request: Request) -> Tables:
    shape, words, allowed = request.shape, request.words, request.directions
    geometry = Geometry(shape.rows, shape.cols)
    board = geometry.empty_board(shape)
    forbidden = forbidden_table(words, request.avoid)
    return Tables(
        geometry=geometry,
        board=tuple(board),
        words=words,
        order=tuple(sorted(range(len(words)), key=lambda i: -len(words[i]))),
        places=places(geometry, board, allowed, {len(word) for word in words}),
        steps=tuple(geometry.step(d) for d in DIRECTIONS),
        skip_for_palindromes=frozenset(
            DIRECTIONS.index(d) for d in allowed if d not in FORWARD and opposite(d) in allowed
        ),
        forbidden=forbidden,
        factors=frozenset(
            text[i:j]
            for text in forbidden
            for i in range(len(text))
            for j in range(i + 1, len(text) + 1)
        ),
        longest=max(map(len, forbidden), default=0),
        containers=tuple(
            tuple(j for j, other in enumerate(words) if word in other or word[::-1] in other)
            for word in words
        ),
        letters=request.letters,
    )


# ---------------------------------------------------------------- windows


class Occurrence(NamedTuple):
    window: Window
    text: str


def occurrences(board: list[str | None], cell: Cell, t: Tables) -> list[Occurrence]:
    """The forbidden strings read by the windows through `cell` whose every
    cell holds a letter (a window: consecutive cells along a line)."""
    middle = board[cell]
    factors = t.factors
    if middle not in factors:  # the letter is in no forbidden string
        return []
    found = []
    forbidden, reach = t.forbidden, t.longest - 1
    for line, step in enumerate(t.steps[:4]):
        before = ""
        x = cell - step
        while len(before) < reach:
            ch = board[x]
            if ch is None or ch == HOLE:
                break
            before = ch + before
            x -= step
        text, at = before + middle, len(before)
        x = cell + step
        while len(text) - at <= reach:
            ch = board[x]
            if ch is None or ch == HOLE:
                break
            text += ch
            x += step
        for i in range(at, -1, -1):
            if text[i : at + 1] not in factors:
                break
            for j in range(at + 1, len(text) + 1):
                part = text[i:j]
                if part not in factors:
                    break
                if part in forbidden:
                    found.append(Occurrence((cell - (at - i) * step, line, j - i), part))
    return found


def window_cells(window: Window, t: Tables) -> frozenset[Cell]:
    first, line, length = window
    step = t.steps[line]
    return frozenset(range(first, first + length * step, step))


# ---------------------------------------------------------------- the search


class Run:
    """One run of the placement search from the root, then the filler."""

    def __init__(self, t: Tables, overlap: bool, counters: Counters, lcg: Lcg, limit: int):
        self.t, self.overlap, self.counters, self.lcg, self.limit = t, overlap, counters, lcg, limit
        self.board: list[str | None] = list(t.board)
        self.placed: list[frozenset[Cell] | None] = [None] * len(t.words)
        self.pending: Pending = ()
        self.spent = 0  # the dead ends of this run

    def placements(self) -> list[tuple[Cell, int]] | None:
        """Each word's (first cell, direction index) in listed order, with
        the grid filled; None when the run's search space is exhausted."""
        order = self.t.order
        if not order:
            return [] if self.fill() else None
        levels: list[_Level] = []
        self._enter(levels, 0)
        while levels:
            level = levels[-1]
            if level.written is not None:
                self._undo(level)
            if self._next_place(level):
                if len(levels) < len(order):
                    self._enter(levels, len(levels))
                elif self.fill():
                    return [lv.place for lv in sorted(levels, key=lambda lv: lv.word)]
            else:
                self._dead_end()
                levels.pop()
        return None

    def _enter(self, levels: list[_Level], depth: int) -> None:
        word = self.t.order[depth]
        places = self.t.places[len(self.t.words[word])]
        start = self.lcg.below(len(places)) if places else 0
        levels.append(_Level(word, places, start))

    def _next_place(self, level: _Level) -> bool:
        """Put the level's word at its next place that passes every check."""
        t, board = self.t, self.board
        word = t.words[level.word]
        palindrome = word == word[::-1]
        places, count = level.places, len(level.places)
        while level.tried < count:
            first, direction = places[(level.start + level.tried) % count]
            level.tried += 1
            if level.tried & 0xFFF == 0:  # a long scan without a node still keeps the limit
                self.counters.check_clock()
            if palindrome and direction in t.skip_for_palindromes:
                continue
            step = t.steps[direction]
            cells = range(first, first + len(word) * step, step)
            if not self._fits(word, cells):
                continue
            new = [cell for cell in cells if board[cell] is None]
            taken = frozenset(cells)
            if len(word) - len(new) >= 2 and self._nested(taken):
                continue
            for cell in new:
                board[cell] = word[(cell - first) // step]
            self.placed[level.word] = taken
            pending = self._windows_ok(new)
            if pending is None:
                self._erase(level.word, new)
                continue
            level.written, level.pending, self.pending = new, self.pending, pending
            level.place = (first, direction)
            self.counters.node()
            return True
        return False

    def _dead_end(self) -> None:
        """Count a dead end; past the run's limit, end the run."""
        self.counters.dead_end()
        self.spent += 1
        if self.spent > self.limit:
            raise Restart

    def _fits(self, word: str, cells: range) -> bool:
        board = self.board
        if self.overlap:
            for ch, cell in zip(word, cells, strict=True):
                got = board[cell]
                if got is not None and got != ch:
                    return False
            return True
        return all(board[cell] is None for cell in cells)

    def _nested(self, taken: frozenset[Cell]) -> bool:
        """Whether the word would lie inside a placed word, or one inside it."""
        return any(
            other is not None and (taken <= other or other <= taken) for other in self.placed
        )

    def _erase(self, word: int, written: list[Cell]) -> None:
        for cell in written:
            self.board[cell] = None
        self.placed[word] = None

    def _undo(self, level: _Level) -> None:
        assert level.written is not None
        self._erase(level.word, level.written)
        self.pending, level.written = level.pending, None

    def _windows_ok(self, new: list[Cell]) -> Pending | None:
        """The pending windows after a placement that wrote `new`, or None if
        a window reads a word it may not (docs/wordsearch.md#windows)."""
        t = self.t
        seen: set[Window] = set()
        found: list[tuple[frozenset[Cell], int]] = []
        for cell in new:
            for window, text in occurrences(self.board, cell, t):
                if window in seen:
                    continue
                seen.add(window)
                listed, banned = t.forbidden[text]
                if banned:
                    return None
                cells = window_cells(window, t)
                found.extend((cells, word) for word in listed)
        kept = []
        for cells, word in (*self.pending, *found):
            state = self._explained(cells, word)
            if state is None:
                return None
            if not state:
                kept.append((cells, word))
        return tuple(kept)

    def _explained(self, cells: frozenset[Cell], word: int) -> bool | None:
        """True if a placed word explains the window (the word's own place,
        or inside a word that holds it), False if one still may (a word that
        holds it is not placed yet), None if none can."""
        waiting = False
        for other in self.t.containers[word]:
            taken = self.placed[other]
            if taken is None:
                waiting = True
            elif cells <= taken:
                return True
        return False if waiting else None

    def fill(self) -> bool:
        """Give every free cell a letter such that no window through it reads
        a forbidden string (docs/wordsearch.md#the-filler); on failure every
        free cell is free again."""
        t, board, lcg = self.t, self.board, self.lcg
        free = [cell for cell, ch in enumerate(board) if ch is None]
        if not free:
            return True
        letters, count = t.letters, len(t.letters)
        starts, tried = [lcg.below(count)], [0]
        while starts:
            depth = len(starts) - 1
            cell, placed = free[depth], False
            while tried[depth] < count:
                board[cell] = letters[(starts[depth] + tried[depth]) % count]
                tried[depth] += 1
                if not occurrences(board, cell, t):
                    placed = True
                    break
            if placed:
                self.counters.node()
                if depth + 1 == len(free):
                    return True
                starts.append(lcg.below(count))
                tried.append(0)
            else:
                board[cell] = None
                self._dead_end()
                starts.pop()
                tried.pop()
        return False


class _Level:
    """A word's level of the placement search: its places, the first one
    tried (a draw), how many it has tried, and what its placement changed."""

    __slots__ = ("pending", "place", "places", "start", "tried", "word", "written")

    def __init__(self, word: int, places: list[tuple[Cell, int]], start: int) -> None:
        self.word, self.places, self.start, self.tried = word, places, start, 0
        self.written: list[Cell] | None = None
        self.pending: Pending = ()
        self.place = (0, 0)


# ---------------------------------------------------------------- runs


FIRST_LIMIT = 10  # dead ends of the first run; each run may have 3/2 as many as the last


def search(request: Request) -> Answer:
    """Make the puzzle: runs of the placement search, each with a limit of
    dead ends 3/2 times the last, until one finds a puzzle or ends within its
    limit (docs/wordsearch.md#restarts)."""
    counters = Counters(deadline=deadline(request.timeout))
    lcg = Lcg(request.seed)
    try:
        t = tables(request)
        limit = FIRST_LIMIT
        while True:
            run = Run(t, request.overlap == "allow", counters, lcg, limit)
            try:
                found = run.placements()
            except Restart:
                limit = limit * 3 // 2
                continue
            break
    except SearchTimeout:
        return Answer("timeout", (), (), counters.nodes, counters.backtracks)
    if found is None:
        return Answer("unsolvable", (), (), counters.nodes, counters.backtracks)
    geometry = t.geometry
    rows = tuple(
        "".join(ch or HOLE for ch in run.board[geometry.index(r, 0) : geometry.index(r + 1, 0) - 1])
        for r in range(geometry.rows)
    )
    places = tuple((*geometry.row_col(first), DIRECTIONS[direction]) for first, direction in found)
    return Answer("solved", rows, places, counters.nodes, counters.backtracks)
