"""Theme entries (`crossword make --theme`): words a constructor wants in the
crossword, placed before the pattern is made around them.

Each entry gets a slot of its length: a straight run of cells, across (or
down), with a block or the grid's edge at each end. The pattern's symmetry
maps a slot onto its images, slots of the same length, so the entries of
one length are placed as whole orbits of slots:

* rot180: a slot and its image, in pairs; a slot through the centre, with
  as many cells on either side of the centre, is its own image. So an odd
  number of entries of one length needs that slot, which exists only when
  the grid has a centre cell and the length leaves equal margins in its
  line; and the centre holds one entry.
* rot90: a slot and its three quarter turns, in fours (a slot through the
  centre would cross its own turn, so none goes there).
* mirror-lr, mirror-tb: a slot and its reflection, or a slot that is its
  own (centred on the axis across it, or lying along the axis).
* none: any slot.

The slots of the entries share no cell and never lie side by side (no cell
of one next to a cell of another), every end of a slot is a block, and the
grid with just those blocks must keep the rules (pybridge.patterns checks it:
no word too short beside a slot, every cell checked, connected). Entries
side by side are kept as many lines apart, and from the grid's edge, as
they fit (APART: newspapers space long entries so). Entries go
across when they can, down when they are too long for a row or their count
needs a down slot. Beyond 15x15 the pattern keeps open the cells beside the
letters that seldom start or end a word (Frame.beside), so that the words
crossing the entries neither start nor end with them.

The slots are found by a search over orbits in a random order drawn from
the pattern's seed (so a seed gives the same placement), longest entries
first; a search that runs out of slots proves that no placement exists.
Requests that no placement can meet are told before it, with the reason:
an entry longer than the grid, or shorter than the rules allow, or more
entries of a length than the symmetry can pair up.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pybridge.errors import CrosswordError, InputError, UsageError, shown
from pybridge.lexicon import JOINERS
from pybridge.options import Symmetry
from pybridge.readers import describe_char
from pybridge.search.kernel import Lcg
from pybridge.symmetry import Cell, images
from pybridge.wording import and_list

PLACEMENT_NODES = 5_000  # orbits tried before a search for slots gives up
# Parallel entries are kept as far apart as they fit: first MOST_APART
# lines between them and as many between each and the grid's edge, then
# one line fewer to the edge, then one line fewer between them, and so on
# (APART) down to apart (1 line) anywhere. Long entries close together, or
# close to the edge, are crossed by words with two given letters, and
# packed words run along them: make 21x21 --theme with 15, 15 and 11
# letters, the pool of 64 patterns per seed (seeds 1-3) ranked as make
# ranks it, the 4 ranked easiest filled at floor 25 for 5 s of CPU:
# entries on rows 4, 10, 16 (5 lines between, 4 to the edge) 7-10 of 64
# ruled out at the line by the cheap proofs and 2 of 12 filled; on rows 5,
# 10, 15 (4 between) 31-34 and none filled; 6, 10, 14: 43-46 and none; 3,
# 10, 17 (3 to the edge) 1-2 but none filled, 6 of 12 proved unfillable. At
# 15x15, 15-letter entries on rows 2 and 12 leave 2 lines to the edge, and
# no pattern of the pool had a fill at all
# (docs/benchmarks.md#theme-entries-session-6).
MOST_APART = 5
APART = (*((n, edge) for n in range(MOST_APART, 0, -1) for edge in (n, n - 1)),)
# Letters that seldom start (RARE_FIRST) or end (RARE_LAST) a word: the
# shipped list's words of 3-8 letters from its acceptable line (38,898)
# start with each of these, or end with it, at most 0.4 (0.3) times as often
# as the letter comes in them at all (E starts 0.27 times as often, I ends
# 0.07 times). An entry's letter there fixes the first or last letter of
# the word crossing it, and a grid whose crossings end in A, C, I or O
# often has no fill from the list's words of 25 and up at all: make 21x21
# --theme "a piece of cake" "plain sailing", seeds 1-8, the 3 patterns
# ranked easiest of each first pool, filled at floor 25 within 10 s: 7 of
# 24 filled and 8 proved unfillable; with the cells beside such letters
# kept open (patterns.py, beyond 15x15) 11 filled and 2 proved unfillable
# (docs/benchmarks.md#theme-entries-at-21x21).
RARE_FIRST = frozenset("EINOUXY")
RARE_LAST = frozenset("ABCIJOQUV")


class ImpossibleTheme(UsageError):
    """No symmetric pattern of the size can hold the theme entries."""


class ThemeNotPlaced(CrosswordError):
    """The search for slots gave up before it found a placement or proved
    that none exists (pybridge.patterns tells it as PatternNotFound)."""


@dataclass(frozen=True)
class Placed:
    """A theme entry in its slot: its first cell and its direction."""

    word: str
    row: int
    col: int
    across: bool

    @property
    def cells(self) -> tuple[Cell, ...]:
        if self.across:
            return tuple((self.row, self.col + k) for k in range(len(self.word)))
        return tuple((self.row + k, self.col) for k in range(len(self.word)))

    def to_json(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "row": self.row,
            "col": self.col,
            "direction": "across" if self.across else "down",
        }


@dataclass(frozen=True)
class Frame:
    """The theme entries in their slots, and the blocks at the slots' ends."""

    entries: tuple[Placed, ...]
    blocked: frozenset[Cell]
    apart: tuple[int, int] = APART[0]  # the lines between entries, and to the edge (APART)

    @property
    def kept(self) -> frozenset[Cell]:
        return frozenset(cell for entry in self.entries for cell in entry.cells)

    def beside(self, rows: int, cols: int) -> frozenset[Cell]:
        """The cells to keep open beside the entries' letters, so that no
        letter that seldom starts a word (RARE_FIRST) starts the word
        crossing it, and none that seldom ends one (RARE_LAST) ends it: the
        cell before such a letter, or after it, across the entry (but the
        blocks the slots' ends need)."""
        found = set()
        for entry in self.entries:
            dr, dc = (1, 0) if entry.across else (0, 1)
            for (r, c), letter in zip(entry.cells, entry.word, strict=True):
                if letter in RARE_FIRST and min(r - dr, c - dc) >= 0:
                    found.add((r - dr, c - dc))
                if letter in RARE_LAST and r + dr < rows and c + dc < cols:
                    found.add((r + dr, c + dc))
        return frozenset(found) - self.blocked


# ---------------------------------------------------------------- the entries


def entry(text: str) -> str:
    """A theme entry as dictionaries spell it: upper case (NFC), without
    spaces, hyphens and apostrophes; UsageError unless letters remain."""
    word = _spelled(text)
    bad = next((k for k, ch in enumerate(word) if not ch.isalpha()), None)
    if bad is not None:
        raise UsageError(
            f"a theme entry is letters only (spaces, hyphens and apostrophes are dropped): "
            f"{shown(text.strip())!r} has {describe_char(word[bad])}"
        )
    if not word:
        raise UsageError("a theme entry is letters only, not an empty one")
    return word


def _bad_column(line: str) -> int:
    """The 1-based column of the first character of `line` that is neither a
    letter nor a joiner, surrounding whitespace apart."""
    offset = len(line) - len(line.lstrip())
    stripped = line.strip()
    return (
        offset
        + 1
        + next((k for k, ch in enumerate(stripped) if not (ch.isalpha() or ch in JOINERS)), 0)
    )


def _spelled(text: str) -> str:
    word = unicodedata.normalize("NFC", text.upper())
    for joiner in JOINERS:
        word = word.replace(joiner, "")
    return word.strip()


def entries(texts: Sequence[str]) -> tuple[str, ...]:
    """The theme entries, normalised, each once (UsageError for a repeat:
    each slot of a crossword holds a different word)."""
    words = tuple(entry(text) for text in texts)
    repeated = [word for word, n in Counter(words).items() if n > 1]
    if repeated:
        raise UsageError(f"a theme entry is given twice: {repeated[0]}")
    return words


def read_entries(path: str) -> tuple[str, ...]:
    """The theme entries of a file, one per line (UTF-8; blank lines skipped);
    InputError naming the line for an entry that is not letters."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text ({err.reason})", path) from None
    except OSError as err:
        raise InputError(f"cannot read the theme file: {err.strerror or err}", path) from None
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            found.append(entry(line))
        except UsageError:
            column = _bad_column(line)
            raise InputError(
                f"a theme entry is letters only, not {describe_char(line[column - 1])}",
                path,
                number,
                column,
                line,
            ) from None
    if not found:
        raise InputError("no theme entry in this file: expected one entry per line", path)
    return entries(found)


# ---------------------------------------------------------------- slots and orbits


@dataclass(frozen=True)
class _Slot:
    cells: tuple[Cell, ...]  # in reading order
    across: bool


def _slot(cells: Sequence[Cell]) -> _Slot:
    ordered = tuple(sorted(cells))
    return _Slot(ordered, len({r for r, _ in ordered}) == 1)


def _ends(slot: _Slot, rows: int, cols: int, min_length: int) -> list[Cell]:
    """The blocks a slot needs: the cell just before it and the cell just
    after it, inside the grid, and beyond each the cells up to the edge when
    they are too few for a word ("###SUNFLOWER###")."""
    (r0, c0), (r1, c1) = slot.cells[0], slot.cells[-1]
    dr, dc = (0, 1) if slot.across else (1, 0)
    found = []
    for (r, c), (sr, sc) in (((r0, c0), (-dr, -dc)), ((r1, c1), (dr, dc))):
        beyond = []
        r, c = r + sr, c + sc
        while 0 <= r < rows and 0 <= c < cols:
            beyond.append((r, c))
            r, c = r + sr, c + sc
        found.extend(beyond if len(beyond) <= min_length else beyond[:1])
    return found


def _near(cells: Sequence[Cell], across: bool, reach: int = 1) -> set[Cell]:
    """The cells, their neighbours along the slot, and the cells up to
    `reach` lines away on either side (1: the four neighbours)."""
    side = [(k, 0) if across else (0, k) for k in range(-reach, reach + 1)]
    steps = [*side, (0, 1), (0, -1), (1, 0), (-1, 0)]
    return {(r + dr, c + dc) for r, c in cells for dr, dc in steps}


@dataclass(frozen=True)
class _Orbit:
    """A slot and its images: the slots that hold entries of one length together."""

    slots: tuple[_Slot, ...]
    cells: frozenset[Cell]
    blocked: frozenset[Cell]
    near: frozenset[Cell]  # its cells and their neighbours
    zones: tuple[frozenset[Cell], ...]  # by k: its cells and those within k lines beside them
    apart: int  # the lines between its own slots (up to MOST_APART)
    edge: int  # the lines between its slots and the grid's edges along them

    @property
    def size(self) -> int:
        return len(self.slots)

    @property
    def across(self) -> bool:
        return self.slots[0].across


def _orbit(
    first: _Slot, rows: int, cols: int, symmetry: Symmetry, min_length: int
) -> _Orbit | None:
    """The orbit of a slot, or None when its images overlap or touch."""
    moves = len(images(0, 0, rows, cols, symmetry))
    found: list[_Slot] = []
    for k in range(moves):
        image = _slot([images(r, c, rows, cols, symmetry)[k] for r, c in first.cells])
        if image not in found:
            found.append(image)
    cells: set[Cell] = set()
    near: set[Cell] = set()
    for slot in found:
        if _near(slot.cells, slot.across) & cells:
            return None
        cells.update(slot.cells)
        near |= _near(slot.cells, slot.across)
    blocked = frozenset(end for slot in found for end in _ends(slot, rows, cols, min_length))
    if blocked & cells:
        return None
    slots = tuple(sorted(found, key=lambda s: s.cells))
    zones = tuple(
        frozenset(cell for slot in slots for cell in _near(slot.cells, slot.across, k))
        for k in range(MOST_APART + 1)
    )
    edge = min(_to_edge(slot, rows, cols) for slot in slots)
    return _Orbit(slots, frozenset(cells), blocked, frozenset(near), zones, _apart(slots), edge)


def _apart(slots: Sequence[_Slot]) -> int:
    """The most lines (up to MOST_APART) between the slots of an orbit."""
    for k in range(1, MOST_APART + 1):
        for one in slots:
            reach = _near(one.cells, one.across, k)
            if any(other is not one and reach & set(other.cells) for other in slots):
                return k - 1
    return MOST_APART


def _to_edge(slot: _Slot, rows: int, cols: int) -> int:
    """The lines between a slot and the nearer edge of the grid along it."""
    line, last = (slot.cells[0][0], rows - 1) if slot.across else (slot.cells[0][1], cols - 1)
    return min(line, last - line)


@cache
def _orbits(
    length: int, rows: int, cols: int, symmetry: Symmetry, min_length: int
) -> tuple[_Orbit, ...]:
    """Every orbit of slots of `length` cells, each once, across slots first."""
    found: dict[frozenset[Cell], _Orbit] = {}
    for across in (True, False):
        lines, span = (rows, cols) if across else (cols, rows)
        for line in range(lines):
            for start in range(span - length + 1):
                cells = [(line, start + k) if across else (start + k, line) for k in range(length)]
                orbit = _orbit(_slot(cells), rows, cols, symmetry, min_length)
                if orbit is not None and orbit.cells not in found:
                    found[orbit.cells] = orbit
    return tuple(found.values())


# ---------------------------------------------------------------- the requests no placement meets


def impossibility(
    words: Sequence[str],
    rows: int,
    cols: int,
    symmetry: Symmetry,
    min_length: int,
    max_length: int | None,
) -> str | None:
    """Why no pattern of the size can hold the entries in symmetric slots,
    from their lengths alone; None when that does not show it."""
    size = f"a {rows}x{cols} grid"
    for word in words:
        if len(word) < min_length:
            return (
                f"the theme entry {word} has {len(word)} letters, fewer than a word's least "
                f"({min_length})"
            )
        if max_length is not None and len(word) > max_length:
            return (
                f"the theme entry {word} has {len(word)} letters, more than a word's most "
                f"({max_length})"
            )
        if len(word) > max(rows, cols):
            return f"the theme entry {word} has {len(word)} letters: no line of {size} is that long"
    counts = Counter(len(word) for word in words)
    central = []  # the lengths that need a slot through the centre (rot180)
    for length, count in sorted(counts.items(), reverse=True):
        orbits = _orbits(length, rows, cols, symmetry, min_length)
        sizes = Counter(orbit.size for orbit in orbits)
        if _makes(count, sizes):
            if symmetry == "rot180" and count % 2:
                central.append(length)
            continue
        return _unpaired(length, count, sizes, size, symmetry)
    if len(central) > 1:
        odd = and_list([f"{counts[n]} of {n} letters" for n in central])
        return (
            f"theme entries {odd}: an odd count of one length needs a slot through the "
            f"centre of {size} (rot180 symmetry pairs every other slot with its image), and "
            "only one entry can go through the centre: give all lengths but one an even count"
        )
    return None


def counted(n: int) -> str:
    """'1 theme entry', 'n theme entries'."""
    return f"{n} theme {'entry' if n == 1 else 'entries'}"


def _makes(count: int, sizes: Counter[int]) -> bool:
    """Whether orbits of these sizes (so many of each) can hold `count` slots."""
    reachable = {0}
    for size, available in sizes.items():
        reachable = {
            n + size * k for n in reachable for k in range(available + 1) if n + size * k <= count
        }
    return count in reachable


def _unpaired(length: int, count: int, sizes: Counter[int], size: str, symmetry: Symmetry) -> str:
    entries = f"{counted(count)} of {length} letters"
    if not sizes:
        return f"{entries}: {size} has no slot of {length} letters that keeps the rules"
    if symmetry == "rot180":
        return (
            f"{entries}: with rot180 symmetry entries of one length come in pairs (a slot and "
            f"its image), and an odd one out needs a slot through the centre, which {size} "
            f"has for no {length}-letter entry (the centre must be its middle letter)"
        )
    if symmetry == "rot90":
        return (
            f"{entries}: with rot90 symmetry entries of one length come in fours (a slot and its "
            "three quarter turns)"
        )
    return (
        f"{entries}: with {symmetry} symmetry entries of one length come in pairs (a slot and "
        f"its reflection), and an odd one out must be its own reflection (centred on the "
        f"axis, or along it), which no {length}-letter slot of {size} is"
    )


# ---------------------------------------------------------------- the search


class _GaveUp(Exception):
    """The search tried PLACEMENT_NODES orbits."""


def place(
    words: Sequence[str],
    rows: int,
    cols: int,
    symmetry: Symmetry,
    min_length: int,
    rng: Lcg,
    keeps_rules: Callable[[frozenset[Cell], frozenset[Cell]], bool],
    apart: tuple[int, int] = APART[0],
) -> Frame | None:
    """The entries in symmetric slots, in an order drawn from `rng`: the
    first placement found whose cells and blocks (the slots' ends)
    `keeps_rules`, or None when there is none (asked of each placement on the
    way, it must hold of a placement's part when it holds of the whole);
    the entries as far apart as they fit, from `apart` on in APART (the
    first, unless a search before found they do not fit so). ThemeNotPlaced
    when the search gives up."""
    counts = Counter(len(word) for word in words)
    lengths = sorted(counts, reverse=True)
    choices = {
        n: _shuffled(_orbits(n, rows, cols, symmetry, min_length), rng, rows, cols) for n in lengths
    }
    for level in APART[APART.index(apart) :]:
        try:
            chosen = _Search(counts, lengths, choices, keeps_rules, level).run()
        except _GaveUp:
            if level != APART[-1]:
                continue
            raise ThemeNotPlaced(
                f"no placement of the {counted(len(words))} in symmetric slots of "
                f"a {rows}x{cols} grid found after trying {PLACEMENT_NODES} slots: try fewer "
                "or shorter entries"
            ) from None
        if chosen is not None:
            return _frame(words, chosen, rng, level)
    return None


def _shuffled(orbits: Sequence[_Orbit], rng: Lcg, rows: int, cols: int) -> list[_Orbit]:
    """The orbits in random order, those across first (a theme runs across),
    and of those the ones off the grid's edges first."""
    order = list(orbits)
    rng.shuffle(order)
    return sorted(order, key=lambda orbit: (not orbit.across, _on_edge(orbit, rows, cols)))


def _on_edge(orbit: _Orbit, rows: int, cols: int) -> bool:
    """Whether a slot of the orbit runs along the grid's edge."""
    first = orbit.slots[0].cells[0]
    line, last = (first[0], rows - 1) if orbit.across else (first[1], cols - 1)
    return line in (0, last)


@dataclass
class _Search:
    counts: Counter[int]
    lengths: list[int]
    choices: dict[int, list[_Orbit]]
    keeps_rules: Callable[[frozenset[Cell], frozenset[Cell]], bool]
    apart: tuple[int, int]  # the lines kept between the entries, and to the edge
    nodes: int = 0

    def run(self) -> list[_Orbit] | None:
        return self._fill(
            0, self.counts[self.lengths[0]], 0, [], frozenset(), frozenset(), frozenset()
        )

    def _fill(
        self,
        at: int,
        left: int,
        start: int,
        chosen: list[_Orbit],
        near: frozenset[Cell],
        cells: frozenset[Cell],
        blocked: frozenset[Cell],
    ) -> list[_Orbit] | None:
        """Orbits for the `left` entries of length lengths[at] still without
        a slot, from choices[start:] on (each set of orbits is tried once)."""
        if left == 0:
            if at + 1 == len(self.lengths):
                return chosen
            following = self.lengths[at + 1]
            return self._fill(at + 1, self.counts[following], 0, chosen, near, cells, blocked)
        options = self.choices[self.lengths[at]]
        for k in range(start, len(options)):
            orbit = options[k]
            if orbit.size > left or orbit.blocked & cells or orbit.cells & near:
                continue
            lines, edge = self.apart
            if orbit.apart < lines or orbit.edge < edge or orbit.zones[lines] & cells:
                continue
            self.nodes += 1
            if self.nodes > PLACEMENT_NODES:
                raise _GaveUp
            now_blocked = blocked | orbit.blocked
            if not self.keeps_rules(cells | orbit.cells, now_blocked):
                continue
            found = self._fill(
                at,
                left - orbit.size,
                k + 1,
                [*chosen, orbit],
                near | orbit.near,
                cells | orbit.cells,
                now_blocked,
            )
            if found is not None:
                return found
        return None


def _frame(words: Sequence[str], chosen: list[_Orbit], rng: Lcg, apart: tuple[int, int]) -> Frame:
    """The words dealt out at random to the slots of their lengths."""
    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    for group in by_length.values():
        rng.shuffle(group)
    placed = []
    for orbit in chosen:
        for slot in orbit.slots:
            word = by_length[len(slot.cells)].pop()
            (row, col) = slot.cells[0]
            placed.append(Placed(word, row, col, slot.across))
    placed.sort(key=lambda p: (p.row, p.col, not p.across))
    blocked = frozenset(cell for orbit in chosen for cell in orbit.blocked)
    return Frame(tuple(placed), blocked, apart)
