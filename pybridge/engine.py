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
from collections import Counter, deque
from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import NamedTuple, TypeVar

from pybridge.model import Cell

# Domain strategies: (arc consistency first?, least constraining word first?)
DOMAIN_STRATEGIES = {
    "mrv": (False, False),
    "ac3": (True, False),
    "lcv": (False, True),
    "cs50": (True, True),
    "cbj": (False, False),  # mrv's choices, with conflict-directed backjumping
}
STRATEGIES = ("given", "sorted", *DOMAIN_STRATEGIES, "wdeg")
T = TypeVar("T")


class SearchTimeout(Exception):
    """The deadline passed during the search."""


@dataclass
class Counters:
    """The two counters of crossword.pl's header, and the deadline: node()
    raises SearchTimeout once it has passed. The clock is read at every node
    (well under a microsecond): a node's cost ranges from microseconds with
    a word list to many milliseconds with a large dictionary, so no fixed
    number of nodes between looks keeps a time limit."""

    nodes: int = 0
    backtracks: int = 0
    deadline: float | None = field(default=None, repr=False)

    def node(self) -> None:
        self.nodes += 1
        self.check_clock()

    def check_clock(self) -> None:
        """Raise SearchTimeout if the deadline has passed (for work outside
        the nodes: the domains before the search, arc consistency)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchTimeout

    def dead_end(self) -> None:
        self.backtracks += 1


class Lcg:
    """Knuth's MMIX linear congruential generator, as crossword.pl has it."""

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**64

    def draw(self) -> int:
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 2**64
        return self.state >> 33

    def below(self, bound: int) -> int:
        return self.draw() % bound

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place: position i swaps with random_below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


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
    seed: int | None = None,
) -> Generator[list[str], None, None]:
    """Yield each solution as the word of every site, in site order. A seed
    shuffles the domains and breaks site ties at random (domain strategies)."""
    if seed is not None and strategy not in (*DOMAIN_STRATEGIES, "wdeg"):
        raise ValueError(f"strategy {strategy!r} takes no seed")
    if strategy == "wdeg":
        from pybridge import wdeg  # it builds on this module

        yield from wdeg.search(words, sites, givens, counters, seed)
        return
    board = Board(givens)
    if strategy == "given":
        steps = _in_order(list(words), list(range(len(sites))), sites, board, counters)
    elif strategy == "sorted":
        order = length_frequency_order([len(s) for s in sites])
        word_order = length_frequency_order([len(w) for w in words])
        steps = _in_order([words[k] for k in word_order], order, sites, board, counters)
    elif strategy in DOMAIN_STRATEGIES:
        arcs, least_constraining = DOMAIN_STRATEGIES[strategy]
        domains = _Domains(words, sites, board, counters, seed, least_constraining)
        steps = domains.search(arcs, backjump=strategy == "cbj")
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


class _Open(NamedTuple):
    """An unfilled site: `key` orders sites (smallest domain, most crossings,
    random draw, lowest index): the domain size times the number of sites
    plus the site's rank in the fixed rest of that order, so one integer
    comparison decides; `domain` lists the distinct words that fit, and
    may still hold words used up since it was filtered (the key counts
    them out; see `without` and `live`); `site` is its index. A named
    tuple: the search makes one per changed domain, and a tuple is made
    fastest."""

    key: int
    domain: tuple[int, ...]
    site: int


_by_key = itemgetter(0)  # an _Open's key


Crossing = tuple[int, int, int]  # (i, t, j): position i here is position j of site t
Depths = frozenset[int]
Pruned = tuple[_Open, Depths]  # an open site and the depths that pruned its domain


class _Domains:
    """mrv, ac3, lcv and cs50: forward checking over the domains of the open
    sites, words named by their index in `distinct`."""

    def __init__(
        self,
        words: Sequence[str],
        sites: Sequence[Sequence[Cell]],
        board: Board,
        counters: Counters,
        seed: int | None,
        least_constraining: bool,
    ) -> None:
        self.distinct = list(dict.fromkeys(words))  # first-listed order
        self.draws = [0] * len(sites)
        if seed is not None:
            rng = Lcg(seed)
            rng.shuffle(self.distinct)
            self.draws = [rng.draw() for _ in sites]
        left = Counter(words)
        self.counts = [left[w] for w in self.distinct]
        self.sites, self.board, self.counters = sites, board, counters
        self.site_lengths = [len(cells) for cells in sites]
        self.word_lengths = [len(word) for word in self.distinct]
        self.crossings = _crossings(sites)
        # per site, its place in the rest of the key's order: most crossings,
        # then the draw, then the index
        ties = sorted(range(len(sites)), key=lambda k: (-len(self.crossings[k]), self.draws[k]))
        self.ranks = [0] * len(sites)
        for rank, k in enumerate(ties):
            self.ranks[k] = rank
        # per site: each site it crosses -> the positions (here) of the shared cells
        self.shared: list[dict[int, list[int]]] = [{} for _ in sites]
        for s, xs in enumerate(self.crossings):
            for i, t, _ in xs:
                self.shared[s].setdefault(t, []).append(i)
        self.least_constraining = least_constraining
        self.solutions = 0  # found so far: cbj asks whether a subtree had any
        # cbj: for each word, the depths of the placements of its copies
        self.placed_at: list[Depths] = [frozenset()] * len(self.distinct)

    def search(self, arcs: bool, backjump: bool = False) -> Iterator[None]:
        by_length: dict[int, list[int]] = {}
        for u, word in enumerate(self.distinct):
            by_length.setdefault(len(word), []).append(u)
        domains = []
        for i, cells in enumerate(self.sites):
            self.counters.check_clock()
            domains.append(self.fitting(i, by_length.get(len(cells), ())))
        if arcs:
            self.arc_consistent(domains)
        open_sites = [self.open_site(i, d) for i, d in enumerate(domains)]
        if backjump:
            return self.backjump([(s, frozenset()) for s in open_sites], 0)
        return self.step(open_sites)

    def fitting(self, site: int, candidates: Sequence[int]) -> tuple[int, ...]:
        """The candidates (all of the site's length) still left that match
        the letters already in the site."""
        letters = self.board.letters
        fixed = [(k, letters[cell]) for k, cell in enumerate(self.sites[site]) if cell in letters]
        distinct, counts = self.distinct, self.counts
        if not fixed:  # an empty site: only the counts matter (a C-speed filter)
            return tuple(filter(counts.__getitem__, candidates))
        return tuple(
            u for u in candidates if counts[u] > 0 and all(distinct[u][k] == ch for k, ch in fixed)
        )

    def open_site(self, site: int, domain: tuple[int, ...]) -> _Open:
        return _Open(len(domain) * len(self.sites) + self.ranks[site], domain, site)

    def arc_consistent(self, domains: list[tuple[int, ...]]) -> None:
        """AC-3 over the crossings, in place; stops at the first empty domain
        (the search then fails at once). The queue order is crossword.pl's."""
        queue = deque((x, i, y, j) for x, xs in enumerate(self.crossings) for i, y, j in xs)
        queued = set(queue)
        distinct = self.distinct
        while queue:
            self.counters.check_clock()
            arc = queue.popleft()
            queued.discard(arc)
            x, i, y, j = arc
            letters = {distinct[v][j] for v in domains[y]}
            kept = tuple(u for u in domains[x] if distinct[u][i] in letters)
            if len(kept) == len(domains[x]):
                continue
            domains[x] = kept
            if not kept:
                return
            for p, z, q in self.crossings[x]:  # the arcs z->x, in x's crossing order
                if (z, q, x, p) not in queued:
                    queue.append((z, q, x, p))
                    queued.add((z, q, x, p))

    def narrowed(self, s: _Open, filled: int) -> tuple[int, ...]:
        """`fitting`, checking only the letters `filled` just wrote into s:
        the domain already matches every older letter."""
        cells, letters = self.sites[s.site], self.board.letters
        checks = [(k, letters[cells[k]]) for k in self.shared[s.site][filled]]
        distinct, counts = self.distinct, self.counts
        if len(checks) == 1:  # sites cross once in a crossword grid
            ((k, ch),) = checks
            return tuple(u for u in s.domain if distinct[u][k] == ch and counts[u] > 0)
        return tuple(
            u for u in s.domain if counts[u] > 0 and all(distinct[u][k] == c for k, c in checks)
        )

    def update(self, s: _Open, filled: int, used: int) -> _Open:
        if filled in self.shared[s.site]:
            return self.refiltered(s, filled)
        if self.counts[used] == 0 and self.may_hold(s.site, used) and used in s.domain:
            return self.without(s, used)
        return s

    def refiltered(self, s: _Open, filled: int) -> _Open:
        domain = self.narrowed(s, filled)  # a subset: as long only if the same
        key = len(domain) * len(self.sites) + self.ranks[s.site]
        return s if key == s.key else _Open(key, domain, s.site)

    def without(self, s: _Open, used: int) -> _Open:
        """s after `used`, in its domain, was used up: the word stays stored
        (rebuilding a domain per site of its length at nearly every step
        costs more than skipping it where a domain is read)."""
        return _Open(s.key - len(self.sites), s.domain, s.site)

    def live(self, s: _Open) -> Sequence[int]:
        """s's domain without the words used up since it was filtered."""
        return tuple(filter(self.counts.__getitem__, s.domain))

    def is_empty(self, s: _Open) -> bool:
        return s.key < len(self.sites)

    def may_hold(self, site: int, word: int) -> bool:
        """Whether `word` has the length of `site` (domains hold no other)."""
        return self.site_lengths[site] == self.word_lengths[word]

    def updated(self, rest: list[_Open], filled: int, used: int) -> list[_Open]:
        """`update` of every open site; those it cannot change (neither
        crossing `filled` nor of the length of a used-up word) stay as they are."""
        neighbours = self.shared[filled]
        gone = self.word_lengths[used] if self.counts[used] == 0 else -1
        lengths, refiltered, without = self.site_lengths, self.refiltered, self.without
        return [
            refiltered(s, filled)
            if s.site in neighbours
            else without(s, used)
            if lengths[s.site] == gone and used in s.domain
            else s
            for s in rest
        ]

    def value_order(self, best: _Open, rest: Sequence[_Open]) -> Sequence[int]:
        """The words of the chosen site's domain in the order they are tried:
        as listed, or least constraining first (stable on ties)."""
        if not self.least_constraining:
            return self.live(best)
        distinct = self.distinct
        open_sites = {s.site: s for s in rest}
        tallies = []
        for i, t, j in self.crossings[best.site]:
            if (s := open_sites.get(t)) is not None:
                domain = self.live(s)
                tallies.append((i, len(domain), Counter(distinct[v][j] for v in domain)))
        return sorted(
            self.live(best),
            key=lambda u: sum(size - tally[distinct[u][i]] for i, size, tally in tallies),
        )

    def step(self, open_sites: list[_Open]) -> Iterator[None]:
        if not open_sites:
            yield None
            return
        best = min(open_sites, key=_by_key)
        if self.is_empty(best):
            self.counters.dead_end()
            return
        rest = [s for s in open_sites if s is not best]
        cells = self.sites[best.site]
        for u in self.value_order(best, rest):
            written = self.board.place(self.distinct[u], cells)
            assert written is not None  # the domain holds only fitting words
            self.counters.node()
            self.counts[u] -= 1
            yield from self.step(self.updated(rest, best.site, u))
            self.counts[u] += 1
            self.board.erase(written)

    def backjump(self, open_sites: list[Pruned], depth: int) -> Generator[None, None, Depths]:
        """cbj: mrv's search, where each open site also carries the depths
        whose placements pruned its domain. Yields per solution and returns
        the conflict set of the subtree once it is exhausted (see
        crossword.pl's header)."""
        if not open_sites:
            self.solutions += 1
            yield None
            return frozenset()  # never read: the parent has found a solution
        best, pruned = min(open_sites, key=lambda entry: entry[0].key)
        if self.is_empty(best):
            self.counters.dead_end()
            return pruned
        rest = [entry for entry in open_sites if entry[0] is not best]
        cells, before = self.sites[best.site], self.solutions
        conflicts: set[int] = set()
        for u in self.live(best):
            written = self.board.place(self.distinct[u], cells)
            assert written is not None  # the domain holds only fitting words
            self.counters.node()
            self.counts[u] -= 1
            copies = self.placed_at[u]
            self.placed_at[u] = copies | {depth}
            narrowed = [self.pruned(s, p, best.site, u, depth) for s, p in rest]
            child = yield from self.backjump(narrowed, depth + 1)
            self.placed_at[u] = copies
            self.counts[u] += 1
            self.board.erase(written)
            if self.solutions > before:
                continue  # the level answers every earlier depth, whatever child says
            if depth not in child:
                return child  # this placement played no part in the failure
            conflicts |= child - {depth}
        if self.solutions > before:  # stay chronological so enumeration is complete
            return frozenset(range(depth))
        return frozenset(conflicts) | pruned

    def pruned(self, s: _Open, by: Depths, filled: int, used: int, depth: int) -> Pruned:
        """`update`, adding the depths to blame when the domain shrank: the
        current one, and when the word just placed was used up and leaves
        the domain, every depth that placed a copy of it (together they
        used it up: blaming the last alone would lose solutions)."""
        updated = self.update(s, filled, used)
        if updated is s:
            return s, by
        if self.counts[used] == 0 and used in s.domain:
            return updated, by | self.placed_at[used]
        return updated, by | {depth}


def _crossings(sites: Sequence[Sequence[Cell]]) -> list[list[Crossing]]:
    """For each site, its crossings (i, t, j), sorted: position i of the site
    is position j of site t."""
    first: dict[Cell, tuple[int, int]] = {}  # the first (site, position) at each cell
    owners: dict[Cell, list[tuple[int, int]]] = {}  # every one, at cells of two or more
    for s, cells in enumerate(sites):
        for p, cell in enumerate(cells):
            here = (s, p)
            there = first.setdefault(cell, here)
            if there is not here:
                owners.setdefault(cell, [there]).append(here)
    crossings: list[list[Crossing]] = [[] for _ in sites]
    for shared in owners.values():
        for s, p in shared:
            crossings[s].extend((p, t, q) for t, q in shared if t != s)
    return [sorted(xs) for xs in crossings]
