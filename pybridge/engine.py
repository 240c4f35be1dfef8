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
from typing import TypeVar

from pybridge.bitsets import Settled
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
        return self.write(word, cells) if self.fits(word, cells) else None

    def write(self, word: str, cells: Sequence[Cell]) -> list[Cell]:
        """Write `word`, known to fit, into `cells`; the cells newly written."""
        letters = self.letters
        written = [cell for cell in cells if cell not in letters]
        letters.update(zip(cells, word, strict=True))
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
    settled: Settled | None = None,
) -> Generator[list[str], None, None]:
    """Yield each solution as the word of every site, in site order. A seed
    shuffles the domains and breaks site ties at random (domain strategies).
    `settled` (wdeg only): the root's letter fixpoint, if the proofs found it."""
    if seed is not None and strategy not in (*DOMAIN_STRATEGIES, "wdeg"):
        raise ValueError(f"strategy {strategy!r} takes no seed")
    if strategy == "wdeg":
        from pybridge import wdeg  # it builds on this module

        yield from wdeg.search(words, sites, givens, counters, seed, settled)
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


Crossing = tuple[int, int, int]  # (i, t, j): position i here is position j of site t
Depths = frozenset[int]
# What a placement changed, to put back: (site, its key, its domain) before
Changes = list[tuple[int, int, tuple[int, ...]]]


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
        self.sites_of_length: dict[int, list[int]] = {}
        for site, cells in enumerate(sites):
            self.sites_of_length.setdefault(len(cells), []).append(site)
        self.word_lengths = [len(word) for word in self.distinct]
        self.crossings = crossings_by_site(sites)
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
        # Per site, while it is open: `domains` lists the distinct words that
        # fit, and may still hold words used up since it was filtered (the
        # key counts them out; see `updated` and `live`); `keys` orders the
        # sites (smallest domain, most crossings, random draw, lowest index)
        # as the domain size times the number of sites plus the rank, so the
        # next site is min(keys). A filled site's key is filled_key, above all.
        self.domains: list[tuple[int, ...]] = []
        self.keys: list[int] = []
        self.filled_key = (len(self.distinct) + 2) * len(sites)
        # cbj: per site, the depths that pruned its domain
        self.pruned: list[Depths] = [frozenset()] * len(sites)
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
        self.domains = domains
        self.keys = [
            len(d) * len(domains) + rank for d, rank in zip(domains, self.ranks, strict=True)
        ]
        if backjump:
            return self.backjump(len(domains), 0)
        return self.step(len(domains))

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

    def narrowed(self, site: int, filled: int) -> tuple[int, ...]:
        """`fitting`, checking only the letters `filled` just wrote into
        `site`: its domain already matches every older letter."""
        cells, letters = self.sites[site], self.board.letters
        checks = [(k, letters[cells[k]]) for k in self.shared[site][filled]]
        distinct, counts = self.distinct, self.counts
        if len(checks) == 1:  # sites cross once in a crossword grid
            ((k, ch),) = checks
            return tuple(u for u in self.domains[site] if distinct[u][k] == ch and counts[u] > 0)
        return tuple(
            u
            for u in self.domains[site]
            if counts[u] > 0 and all(distinct[u][k] == c for k, c in checks)
        )

    def updated(self, filled: int, used: int) -> Changes:
        """After `used` went into `filled`: the open sites crossing `filled`
        are filtered again, and when `used` was used up, the others of its
        length that held it lose it (from the key alone: rebuilding a domain
        per site of its length at nearly every step costs more than skipping
        it where a domain is read). No other site can change, so none is
        looked at. Returns what changed, to put back (see `restore`)."""
        keys, domains, n, filled_key = self.keys, self.domains, len(self.sites), self.filled_key
        changed: Changes = []
        neighbours = self.shared[filled]
        for t in neighbours:
            if (key0 := keys[t]) != filled_key:
                domain = self.narrowed(t, filled)  # a subset: as long only if the same
                if (key := len(domain) * n + self.ranks[t]) != key0:
                    changed.append((t, key0, domains[t]))
                    keys[t], domains[t] = key, domain
        if self.counts[used] == 0:
            for t in self.sites_of_length[self.word_lengths[used]]:
                if keys[t] != filled_key and t not in neighbours and used in domains[t]:
                    changed.append((t, keys[t], domains[t]))
                    keys[t] -= n
        return changed

    def restore(self, changed: Changes) -> None:
        for t, key, domain in changed:
            self.keys[t], self.domains[t] = key, domain

    def live(self, site: int) -> Sequence[int]:
        """The site's domain without the words used up since it was filtered."""
        return tuple(filter(self.counts.__getitem__, self.domains[site]))

    def choose(self) -> tuple[int, int]:
        """The next site (smallest key: keys differ) and its key."""
        key = min(self.keys)
        return self.keys.index(key), key

    def value_order(self, best: int) -> Sequence[int]:
        """The words of the chosen site's domain in the order they are tried:
        as listed, or least constraining first (stable on ties)."""
        if not self.least_constraining:
            return self.live(best)
        distinct = self.distinct
        tallies = []
        for i, t, j in self.crossings[best]:
            if self.keys[t] != self.filled_key:
                domain = self.live(t)
                tallies.append((i, len(domain), Counter(distinct[v][j] for v in domain)))
        return sorted(
            self.live(best),
            key=lambda u: sum(size - tally[distinct[u][i]] for i, size, tally in tallies),
        )

    def step(self, left: int) -> Iterator[None]:
        """Fill the `left` open sites."""
        if not left:
            yield None
            return
        best, key = self.choose()
        if key < len(self.sites):  # an empty domain
            self.counters.dead_end()
            return
        self.keys[best] = self.filled_key
        cells = self.sites[best]
        for u in self.value_order(best):
            written = self.board.write(self.distinct[u], cells)  # domains hold fitting words
            self.counters.node()
            self.counts[u] -= 1
            changed = self.updated(best, u)
            yield from self.step(left - 1)
            self.restore(changed)
            self.counts[u] += 1
            self.board.erase(written)
        self.keys[best] = key

    def backjump(self, left: int, depth: int) -> Generator[None, None, Depths]:
        """cbj: mrv's search, where each open site also has the depths whose
        placements pruned its domain (`pruned`). Yields per solution and
        returns the conflict set of the subtree once it is exhausted (see
        crossword.pl's header)."""
        if not left:
            self.solutions += 1
            yield None
            return frozenset()  # never read: the parent has found a solution
        best, key = self.choose()
        if key < len(self.sites):  # an empty domain
            self.counters.dead_end()
            return self.pruned[best]
        self.keys[best] = self.filled_key
        cells, before = self.sites[best], self.solutions
        conflicts: set[int] = set()
        for u in self.live(best):
            written = self.board.write(self.distinct[u], cells)  # domains hold fitting words
            self.counters.node()
            self.counts[u] -= 1
            copies = self.placed_at[u]
            self.placed_at[u] = copies | {depth}
            changed = self.updated(best, u)
            blamed = self.blame(changed, u, depth)
            child = yield from self.backjump(left - 1, depth + 1)
            for t, by in blamed:
                self.pruned[t] = by
            self.restore(changed)
            self.placed_at[u] = copies
            self.counts[u] += 1
            self.board.erase(written)
            if self.solutions > before:
                continue  # the level answers every earlier depth, whatever child says
            if depth not in child:
                self.keys[best] = key
                return child  # this placement played no part in the failure
            conflicts |= child - {depth}
        self.keys[best] = key
        if self.solutions > before:  # stay chronological so enumeration is complete
            return frozenset(range(depth))
        return frozenset(conflicts) | self.pruned[best]

    def blame(self, changed: Changes, used: int, depth: int) -> list[tuple[int, Depths]]:
        """Add to `pruned` the depths to blame for the domains that shrank:
        the current one, and when the word just placed was used up and left
        the domain, every depth that placed a copy of it (together they used
        it up: blaming the last alone would lose solutions). Returns what
        `pruned` held before, to put back."""
        before = []
        for t, _, domain in changed:
            by = self.pruned[t]
            before.append((t, by))
            if self.counts[used] == 0 and used in domain:
                self.pruned[t] = by | self.placed_at[used]
            else:
                self.pruned[t] = by | {depth}
        return before


def crossings_by_site(sites: Sequence[Sequence[Cell]]) -> list[list[Crossing]]:
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
        if len(shared) == 2 and shared[0][0] != shared[1][0]:  # nearly every crossing
            (s, p), (t, q) = shared
            crossings[s].append((p, t, q))
            crossings[t].append((q, s, p))
            continue
        for s, p in shared:
            crossings[s].extend((p, t, q) for t, q in shared if t != s)
    for xs in crossings:
        xs.sort()
    return crossings
