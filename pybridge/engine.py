"""The pure-Python engine: prolog/crossword.pl's search, step for step.

Each strategy is a generator that yields once per solution, so the first
solution costs only the search up to it. Where Prolog unifies a site's cell
variables with a word, this engine writes letters into a dict of cells and
takes them out again on the way back. The choices, their order and the two
counters (nodes: words placed; backtracks: dead ends) are defined in
crossword.pl's header and must stay identical to it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from pybridge.model import Cell

STRATEGIES = ("given", "sorted", "mrv")
_CLOCK_EVERY = 512  # nodes between looks at the clock


class SearchTimeout(Exception):
    """The deadline passed during the search."""


@dataclass
class Counters:
    nodes: int = 0
    backtracks: int = 0
    deadline: float | None = field(default=None, repr=False)

    def node(self) -> None:
        self.nodes += 1
        if (
            self.deadline is not None
            and self.nodes % _CLOCK_EVERY == 0
            and time.perf_counter() > self.deadline
        ):
            raise SearchTimeout

    def dead_end(self) -> None:
        self.backtracks += 1


class Board:
    """Letters written into cells, with the writes of each placement undoable."""

    def __init__(self, givens: Mapping[Cell, str]) -> None:
        self.letters: dict[Cell, str] = dict(givens)

    def fits(self, word: str, cells: Sequence[Cell]) -> bool:
        letters = self.letters
        for ch, cell in zip(word, cells, strict=True):
            got = letters.get(cell)
            if got is not None and got != ch:
                return False
        return True

    def place(self, word: str, cells: Sequence[Cell]) -> list[Cell] | None:
        """Write `word` into `cells`; the cells newly written, or None on a clash."""
        if not self.fits(word, cells):
            return None
        written = [cell for cell in cells if cell not in self.letters]
        for ch, cell in zip(word, cells, strict=True):
            self.letters[cell] = ch
        return written

    def erase(self, written: list[Cell]) -> None:
        for cell in written:
            del self.letters[cell]

    def read(self, cells: Sequence[Cell]) -> str:
        return "".join(self.letters[cell] for cell in cells)


def search(
    words: Sequence[str],
    sites: Sequence[Sequence[Cell]],
    givens: Mapping[Cell, str],
    strategy: str,
    counters: Counters,
) -> Generator[list[str], None, None]:
    """Yield each solution as the word of every site, in site order."""
    board = Board(givens)
    if strategy == "given":
        steps = _in_order(list(words), list(range(len(sites))), sites, board, counters)
    elif strategy == "sorted":
        order = length_frequency_order([len(s) for s in sites])
        word_order = length_frequency_order([len(w) for w in words])
        steps = _in_order([words[k] for k in word_order], order, sites, board, counters)
    elif strategy == "mrv":
        steps = _mrv(words, sites, board, counters)
    else:
        raise ValueError(f"unknown strategy {strategy!r}")
    for _ in steps:
        yield [board.read(cells) for cells in sites]


def length_frequency_order(lengths: Sequence[int]) -> list[int]:
    """Indices ordered by how often their length occurs (rare first), ties to
    the longer length, stable otherwise."""
    freq = Counter(lengths)
    return sorted(range(len(lengths)), key=lambda k: (freq[lengths[k]], -lengths[k]))


def _previous_copies(words: Sequence[str]) -> list[int | None]:
    """For each word, the position of its previous identical copy, if any."""
    last: dict[str, int] = {}
    previous: list[int | None] = []
    for k, word in enumerate(words):
        previous.append(last.get(word))
        last[word] = k
    return previous


def _in_order(
    words: list[str],
    order: list[int],
    sites: Sequence[Sequence[Cell]],
    board: Board,
    counters: Counters,
) -> Iterator[None]:
    """given/sorted: word k takes one of the remaining sites, tried in
    `order`; a copy of a word only takes a site after its previous copy's."""
    previous = _previous_copies(words)
    position_of: list[int] = [-1] * len(words)  # where (in `order`) word k went
    used = [False] * len(order)

    def place(k: int) -> Iterator[None]:
        if k == len(words):
            yield None
            return
        word = words[k]
        prev = previous[k]
        after = -1 if prev is None else position_of[prev]
        for p, site in enumerate(order):
            if used[p] or len(sites[site]) != len(word) or p <= after:
                continue
            written = board.place(word, sites[site])
            if written is None:
                counters.dead_end()
                continue
            counters.node()
            used[p], position_of[k] = True, p
            yield from place(k + 1)
            used[p] = False
            board.erase(written)

    return place(0)


@dataclass(frozen=True)
class _Open:
    """An unfilled site for mrv: `key` orders sites (smallest domain, most
    crossings, lowest index); `domain` lists the distinct words that fit."""

    key: tuple[int, int, int]
    domain: tuple[int, ...]

    @property
    def index(self) -> int:
        return self.key[2]


def _mrv(
    words: Sequence[str],
    sites: Sequence[Sequence[Cell]],
    board: Board,
    counters: Counters,
) -> Iterator[None]:
    distinct = list(dict.fromkeys(words))  # first-listed order
    left = Counter(words)
    counts = [left[w] for w in distinct]
    shared = _shared_positions(sites)
    crossings = [sum(map(len, around.values())) for around in shared]
    by_length: dict[int, list[int]] = {}
    for u, word in enumerate(distinct):
        by_length.setdefault(len(word), []).append(u)

    def fitting(site: int, candidates: Sequence[int]) -> tuple[int, ...]:
        """The candidates (all of the site's length) still left that match
        the letters already in the site."""
        letters = board.letters
        fixed = [(k, letters[cell]) for k, cell in enumerate(sites[site]) if cell in letters]
        return tuple(
            u for u in candidates if counts[u] > 0 and all(distinct[u][k] == ch for k, ch in fixed)
        )

    def narrowed(s: _Open, filled: int) -> tuple[int, ...]:
        """`fitting`, checking only the letters `filled` just wrote into s:
        the domain already matches every older letter."""
        cells = sites[s.index]
        checks = [(k, board.letters[cells[k]]) for k in shared[s.index][filled]]
        if len(checks) == 1:  # sites cross once in a crossword grid
            ((k, ch),) = checks
            return tuple(u for u in s.domain if distinct[u][k] == ch and counts[u] > 0)
        return tuple(
            u for u in s.domain if counts[u] > 0 and all(distinct[u][k] == c for k, c in checks)
        )

    def open_site(site: int, domain: tuple[int, ...]) -> _Open:
        return _Open((len(domain), -crossings[site], site), domain)

    def update(s: _Open, filled: int, used: int) -> _Open:
        if filled in shared[s.index]:
            domain = narrowed(s, filled)
        elif counts[used] == 0 and used in s.domain:
            domain = tuple(u for u in s.domain if u != used)
        else:
            return s
        return s if domain == s.domain else open_site(s.index, domain)

    def step(open_sites: list[_Open]) -> Iterator[None]:
        if not open_sites:
            yield None
            return
        best = min(open_sites, key=lambda s: s.key)
        if not best.domain:
            counters.dead_end()
            return
        rest = [s for s in open_sites if s is not best]
        cells = sites[best.index]
        for u in best.domain:
            written = board.place(distinct[u], cells)
            assert written is not None  # the domain holds only fitting words
            counters.node()
            counts[u] -= 1
            yield from step([update(s, best.index, u) for s in rest])
            counts[u] += 1
            board.erase(written)

    return step(
        [open_site(i, fitting(i, by_length.get(len(sites[i]), ()))) for i in range(len(sites))]
    )


def _shared_positions(sites: Sequence[Sequence[Cell]]) -> list[dict[int, list[int]]]:
    """For each site: every other site it crosses, with the positions (in
    this site) of the cells they share."""
    owners: dict[Cell, list[int]] = {}
    for i, cells in enumerate(sites):
        for cell in cells:
            owners.setdefault(cell, []).append(i)
    shared: list[dict[int, list[int]]] = [{} for _ in sites]
    for i, cells in enumerate(sites):
        for k, cell in enumerate(cells):
            for j in owners[cell]:
                if j != i:
                    shared[i].setdefault(j, []).append(k)
    return shared
