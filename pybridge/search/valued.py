"""valued: fills from a scored word list, best words first, and branch and
bound for the best fill (docs/search.md#valued); prolog/valued.pl is its
twin, step for step.

The words of each length are ranked by score, highest first (ties in order
of first listing), and a site's domain is a bitset over that ranking (see
pybridge.bitsets): the lowest bit of a domain is its best word, so a site's
best score is one lookup, the words worth keeping are a prefix of the
ranking, and trying a domain's words in ascending order tries the best
first.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Generator, Iterator, Mapping, Sequence
from functools import lru_cache

from pybridge.bitsets import Letters, Table, letters_left, members, tables
from pybridge.model import Cell
from pybridge.search.kernel import EVERY_MODE, Counters, Request, SearchTimeout, Strategy

FIRST_LIMIT_PER_SITE, FIRST_LIMIT_EXTRA = 2, 10  # a run's first node limit, per site and more
GROWTH = (3, 2)  # each run's limit is the last one's times 3/2


Support = tuple[int, Letters]  # a site's domain when last revised from, and its letters


class Restart(Exception):
    """A run reached its node limit."""


STRATEGIES = (
    Strategy(
        "valued",
        "valued",
        EVERY_MODE,
        False,
        "best-scored words first, arc consistency; branch and bound with --maximize",
    ),
)


@lru_cache(maxsize=4)
def ranked(
    words: tuple[str, ...], scores: tuple[int, ...]
) -> tuple[tuple[str, ...], tuple[int, ...], dict[str, int]]:
    """The words by score, highest first (a stable sort: ties in listed
    order), their scores, and each word's score (that of its first
    listing): the word list as the valued strategy reads it (the Prolog
    engine is sent it)."""
    score_of: dict[str, int] = {}
    for word, score in zip(words, scores, strict=True):
        score_of.setdefault(word, score)
    ordered = tuple(sorted(words, key=lambda word: -score_of[word]))
    return ordered, tuple(score_of[word] for word in ordered), score_of


def listed(request: Request) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The request's words and their scores (0 each without scores)."""
    words = tuple(request.words)
    scores = (0,) * len(words) if request.scores is None else tuple(request.scores)
    return words, scores


class Search:
    """One valued search: domains, propagation, choices, bounds."""

    def __init__(self, request: Request, counters: Counters) -> None:
        layout = request.layout
        words, _, score_of = ranked(*listed(request))
        self.tables = dict(tables(words))
        for cells in layout.cells:  # a length without words has an empty table
            n = len(cells)
            self.tables.setdefault(n, Table((), (), 0, tuple({} for _ in range(n))))
        # per length: the scores of its words (descending) and their negations
        # (ascending, for bisect)
        self.scores = {n: [score_of[w] for w in t.words] for n, t in self.tables.items()}
        self.negated = {n: [-v for v in values] for n, values in self.scores.items()}
        without = {n: _without(t) for n, t in self.tables.items()}
        self.left = {n: list(t.copies) for n, t in self.tables.items()}
        self.lengths = layout.lengths
        self.sup: list[Support | None] = [None] * len(self.lengths)  # see propagate
        self.arcs = layout.arcs
        # per site, its arcs with the masks a revision along them reads
        self.revising = [
            [(i, t, j, x, without[self.lengths[t]][j]) for i, t, j, x in arcs] for arcs in self.arcs
        ]
        self.weights = [1] * len(layout.crossings)
        self.by_length: dict[int, list[int]] = {}
        for s, n in enumerate(self.lengths):
            self.by_length.setdefault(n, []).append(s)
        self.dom = [self._initial(cells, layout.givens) for cells in layout.cells]
        self.open = [True] * len(self.lengths)
        self.counters = counters
        self.objective = request.objective
        self.cap = cap(request)
        self.placed: int | None = None  # min or sum of the words placed (None: none yet)
        self.incumbent: int | None = None  # the best fill's value so far
        self.open_bound: int | None = None  # noted as a timeout unwinds (see note)
        self.limit: int | None = None  # nodes the current run may count
        self.run_nodes = 0

    def _initial(self, cells: Sequence[Cell], givens: Mapping[Cell, str]) -> int:
        """The words of the site's length with its given letters."""
        table = self.tables[len(cells)]
        domain = table.full
        for p, cell in enumerate(cells):
            if cell in givens:
                domain &= table.masks[p].get(givens[cell], 0)
        return domain

    # -- the search ----------------------------------------------------------

    def fills(self) -> Generator[list[str], None, None]:
        """Each fill in turn; with an objective, each better than the last."""
        if not all(self.dom):  # a site that no word fits, before any crossing is looked at
            self.counters.dead_end()
            return
        if not self.propagate(list(range(len(self.lengths)))):
            return
        root = (list(self.dom), list(self.sup))
        limit: int | None = FIRST_LIMIT_PER_SITE * len(self.lengths) + FIRST_LIMIT_EXTRA
        while True:
            self.dom[:], self.sup[:] = root
            self.limit, self.run_nodes = limit, 0
            try:
                for words in self.fill():
                    self.limit = limit = None  # this run goes on to the end
                    yield words
                return
            except Restart:
                assert limit is not None
                limit = limit * GROWTH[0] // GROWTH[1]

    def fill(self) -> Iterator[list[str]]:
        if self.incumbent is not None and not self.bound_step():
            return
        left = [s for s, is_open in enumerate(self.open) if is_open]
        if not left:
            if self.objective is not None:
                self.incumbent = self.placed
            yield self.words()
            return
        s = self.choose(left)
        rest = self.rest(left, s)
        n = self.lengths[s]
        scores, copies = self.scores[n], self.left[n]
        saved = (list(self.dom), list(self.sup), self.placed)
        candidates = members(self.dom[s])
        for at, k in enumerate(candidates):
            if not self.worth(rest, scores[k]):
                return
            try:
                self.node()
            except SearchTimeout:
                self.note(rest, scores[k])
                raise
            try:
                if self.place(s, k):
                    yield from self.fill()
            except SearchTimeout:
                if at + 1 < len(candidates):
                    self.note(rest, scores[candidates[at + 1]])
                raise
            finally:
                self.dom[:], self.sup[:], self.placed = saved
                self.open[s] = True
                copies[k] += 1

    def node(self) -> None:
        self.counters.node()
        self.run_nodes += 1
        if self.limit is not None and self.run_nodes > self.limit:
            raise Restart

    def words(self) -> list[str]:
        return [
            self.tables[n].words[d.bit_length() - 1]
            for n, d in zip(self.lengths, self.dom, strict=True)
        ]

    # -- values and bounds ---------------------------------------------------

    def combine(self, value: int | None, score: int) -> int:
        """`value` (None: no word yet) with one word of `score` more."""
        if value is None:
            return score
        return min(value, score) if self.objective == "min" else value + score

    def best(self, s: int) -> int:
        """The best score left in D(s) (not empty): its lowest bit's."""
        domain = self.dom[s]
        return self.scores[self.lengths[s]][(domain & -domain).bit_length() - 1]

    def rest(self, left: list[int], chosen: int) -> int | None:
        """The value of the words placed with the best of every open site
        but `chosen` (None: no word at all)."""
        value = self.placed
        if self.objective is None:
            return value
        for t in left:
            if t != chosen:
                value = self.combine(value, self.best(t))
        return value

    def worth(self, rest: int | None, score: int) -> bool:
        """Whether a word of `score` at the chosen site may still lead to a
        better fill than the best so far."""
        if self.incumbent is None:
            return True
        if self.cap is not None and self.incumbent >= self.cap:
            return False
        return self.combine(rest, score) > self.incumbent

    def note(self, rest: int | None, score: int) -> None:
        """A timeout unwinds past a level whose words from `score` down are
        not searched yet: their best value is at most rest with score."""
        bound = self.combine(rest, score)
        if self.open_bound is None or bound > self.open_bound:
            self.open_bound = bound

    def bound(self) -> int | None:
        """The greatest value a fill can have, as far as the search got."""
        if self.open_bound is None:
            return self.incumbent
        if self.incumbent is None:
            return self.open_bound
        return max(self.incumbent, self.open_bound)

    def bound_step(self) -> bool:
        """Keep in each open domain only the words that can still be part of
        a better fill than the best so far, and propagate, to a fixpoint;
        False (a dead end) when a domain empties or the words placed
        cannot be beaten."""
        incumbent = self.incumbent
        assert incumbent is not None
        while True:
            left = [s for s, is_open in enumerate(self.open) if is_open]
            total = self.rest(left, -1)
            if total is None or total <= incumbent:
                self.counters.dead_end()
                return False
            changed = []
            for s in left:
                # sum: what the others give at best, taken from what beats the best
                cut = incumbent if self.objective == "min" else incumbent - (total - self.best(s))
                n = self.lengths[s]
                keep = bisect_left(self.negated[n], -cut)  # the words scoring above cut
                domain = self.dom[s] & ((1 << keep) - 1)
                if domain != self.dom[s]:
                    self.dom[s] = domain
                    changed.append(s)
            if not changed:
                return True
            if not self.propagate(changed):
                return False

    # -- placing and propagating -------------------------------------------

    def place(self, s: int, k: int) -> bool:
        """Put word k in site s and propagate; False on a dead end. The
        caller restores the domains, s's openness, the value placed and the copy."""
        n = self.lengths[s]
        self.open[s] = False
        self.left[n][k] -= 1
        bit = 1 << k
        self.dom[s] = bit
        if self.objective is not None:
            self.placed = self.combine(self.placed, self.scores[n][k])
        changed = [s]
        if not self.left[n][k]:
            for t in self.by_length[n]:
                if self.open[t] and self.dom[t] & bit:
                    self.dom[t] ^= bit
                    if not self.dom[t]:
                        self.counters.dead_end()
                        return False
                    changed.append(t)
        return self.propagate(changed)

    def propagate(self, changed: list[int]) -> bool:
        """Letter-level arc consistency from the `changed` sites to its
        fixpoint; False (one dead end, and the weight of the crossing that
        emptied a domain grows by 1) when a domain empties.

        sup[s] holds s's domain when s was last revised from and the letters
        of its words then: its open neighbours agree with those letters, so
        only the letters lost since can take words from them (the revisions
        skipped would change nothing)."""
        queue, queued = deque(changed), set(changed)
        dom, open_, sup = self.dom, self.open, self.sup
        while queue:
            s = queue.popleft()
            queued.discard(s)
            arcs = [arc for arc in self.revising[s] if open_[arc[1]]]
            if not arcs:
                continue
            last = sup[s]
            table = self.tables[self.lengths[s]]
            now = letters_left(table, dom[s], [arc[0] for arc in arcs], last)
            sup[s] = (dom[s], now)
            before = None if last is None else last[1]
            if now is before:  # no letter changed: nothing to revise
                continue
            for i, t, _, x, without in arcs:
                had = without.keys() if before is None else before[i]
                if had is now[i]:
                    continue
                kept = dom[t]
                for letter in had - now[i]:
                    if letter in without:
                        kept &= without[letter]
                if kept == dom[t]:
                    continue
                if not kept:
                    self.weights[x] += 1
                    self.counters.dead_end()
                    return False
                dom[t] = kept
                if t not in queued:
                    queue.append(t)
                    queued.add(t)
        return True

    def choose(self, left: list[int]) -> int:
        """The open site of smallest |D| / (its crossings with open sites),
        ties to the lowest index."""
        best, best_size, best_degree = -1, 0, 0
        for s in left:
            size = self.dom[s].bit_count()
            degree = sum(self.weights[x] for _, t, _, x in self.arcs[s] if self.open[t])
            if best < 0 or size * best_degree < best_size * degree:
                best, best_size, best_degree = s, size, degree
        return best


def _without(table: Table) -> tuple[dict[str, int], ...]:
    """Per position: letter -> the words without it there."""
    return tuple({c: table.full ^ words for c, words in masks.items()} for masks in table.masks)


def cap(request: Request) -> int | None:
    """When there are as many words (copies) as sites, as in exact mode,
    every fill places every one, so its value is known before the search:
    no fill can beat the first (the Prolog engine is sent this value).
    None otherwise."""
    words, scores = listed(request)
    if request.objective is None or not words or len(words) != len(request.layout.sites):
        return None
    score_of = ranked(words, scores)[2]
    values = [score_of[w] for w in words]
    return min(values) if request.objective == "min" else sum(values)


def solutions(request: Request, counters: Counters) -> Iterator[list[str]]:
    """Each fill (with an objective: each better than the last)."""
    return Search(request, counters).fills()
