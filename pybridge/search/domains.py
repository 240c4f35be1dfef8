"""mrv, ac3, lcv, cs50 and cbj: forward checking over the domains of the
open sites (docs/search.md#mrv and the sections after it); prolog/domains.pl
is the twin, step for step.

Where Prolog unifies a site's cell variables with a word, this module writes
letters into a Board and takes them out again on the way back.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Generator, Iterator, Sequence

from pybridge.layout import Layout
from pybridge.search.kernel import EVERY_MODE, Board, Counters, Lcg, Request, Strategy

# Each strategy: (arc consistency first?, least constraining word first?)
OPTIONS = {
    "mrv": (False, False),
    "ac3": (True, False),
    "lcv": (False, True),
    "cs50": (True, True),
    "cbj": (False, False),  # mrv's choices, with conflict-directed backjumping
}
STRATEGIES = (
    Strategy(
        "mrv",
        "domains",
        EVERY_MODE,
        True,
        "the site with the fewest fitting words next, forward checking",
        default_in=frozenset({"exact"}),
    ),
    Strategy("ac3", "domains", EVERY_MODE, True, "mrv after arc consistency"),
    Strategy("lcv", "domains", EVERY_MODE, True, "mrv, least constraining word first"),
    Strategy("cs50", "domains", EVERY_MODE, True, "ac3 + lcv"),
    Strategy("cbj", "domains", EVERY_MODE, True, "mrv with conflict-directed backjumping"),
)


def solutions(request: Request, counters: Counters) -> Generator[list[str], None, None]:
    """Yield each solution as the word of every site, in site order."""
    layout = request.layout
    board = Board(layout.givens)
    arcs, least_constraining = OPTIONS[request.strategy]
    domains = _Domains(request.words, layout, board, counters, request.seed, least_constraining)
    sites = layout.cells
    for _ in domains.search(arcs, backjump=request.strategy == "cbj"):
        yield [board.read(cells) for cells in sites]


Depths = frozenset[int]
# What a placement changed, to put back: (site, its key, its domain) before
Changes = list[tuple[int, int, tuple[int, ...]]]


class _Domains:
    """mrv, ac3, lcv, cs50 and cbj: forward checking over the domains of the open
    sites, words named by their index in `distinct`."""

    def __init__(
        self,
        words: Sequence[str],
        layout: Layout,
        board: Board,
        counters: Counters,
        seed: int | None,
        least_constraining: bool,
    ) -> None:
        sites = layout.cells
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
        self.crossings = layout.arcs
        # per site, its place in the rest of the key's order: most crossings,
        # then the draw, then the index
        ties = sorted(range(len(sites)), key=lambda k: (-len(self.crossings[k]), self.draws[k]))
        self.ranks = [0] * len(sites)
        for rank, k in enumerate(ties):
            self.ranks[k] = rank
        # per site: each site it crosses -> the positions (here) of the shared cells
        self.shared: list[dict[int, list[int]]] = [{} for _ in sites]
        for s, xs in enumerate(self.crossings):
            for i, t, _, _ in xs:
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
        (the search then fails at once). The queue order is docs/search.md#ac3's."""
        queue = deque((x, i, y, j) for x, xs in enumerate(self.crossings) for i, y, j, _ in xs)
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
            for p, z, q, _ in self.crossings[x]:  # the arcs z->x, in x's crossing order
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
        for i, t, j, _ in self.crossings[best]:
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
        docs/search.md#cbj)."""
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
