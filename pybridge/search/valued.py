"""valued: fills from a scored word list, best words first, and branch and
bound for the best fill (docs/search.md#valued); prolog/valued.pl is its
twin, step for step.

The words of each length are ranked by score, highest first (ties in order
of first listing), and a site's domain is a bitset over that ranking: the
lowest bit of a domain is its best word, so a site's best score is one
lookup, the words worth keeping are a prefix of the ranking, and trying a
domain's words in ascending order tries the best first. The domains, their
propagation, placing a word and the choice of site are the Net's, shared
with wdeg (pybridge.search.arcs).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Generator, Iterator
from functools import lru_cache

from pybridge.bitsets import members
from pybridge.search.arcs import Net
from pybridge.search.kernel import EVERY_MODE, Counters, Request, SearchTimeout, Strategy

FIRST_LIMIT_PER_SITE, FIRST_LIMIT_EXTRA = 2, 10  # a run's first node limit, per site and more
GROWTH = (3, 2)  # each run's limit is the last one's times 3/2


class Restart(Exception):
    """A run reached its node limit."""


STRATEGIES = (
    Strategy(
        "valued",
        "valued",
        EVERY_MODE,
        False,
        "best-scored words first; branch and bound with --maximize",
        reads="ranked",
        optimises=True,
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


class Search(Net):
    """One valued search: on the Net's domains and propagation (over the
    words ranked), its order of words, restarts and bounds."""

    def __init__(self, request: Request, counters: Counters) -> None:
        words, _, score_of = ranked(*listed(request))
        super().__init__(words, request.layout, counters)
        # per length: the scores of its words (descending) and their negations
        # (ascending, for bisect)
        self.scores = {n: [score_of[w] for w in t.words] for n, t in self.tables.items()}
        self.negated = {n: [-v for v in values] for n, values in self.scores.items()}
        self.objective = request.objective
        self.cap = cap(request)
        self.placed: int | None = None  # min or sum of the words placed (None: none yet)
        self.incumbent: int | None = request.beat  # the best fill's value so far
        self.open_bound: int | None = None  # noted as a timeout unwinds (see note)
        self.limit: int | None = None  # nodes the current run may count
        self.run_nodes = 0

    # -- the search ----------------------------------------------------------

    def fills(self) -> Generator[list[str], None, None]:
        """Each fill in turn; with an objective, each better than the last."""
        if not all(self.dom):  # a site that no word fits, before any crossing is looked at
            self.counters.dead_end()
            return
        if not self.propagate(list(range(len(self.lengths)))):
            return
        root = self.snapshot()
        limit: int | None = FIRST_LIMIT_PER_SITE * len(self.lengths) + FIRST_LIMIT_EXTRA
        if self.incumbent is not None:  # a fill to beat is in hand: one run to the end
            limit = None
        while True:
            self.restore(root)
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
        scores = self.scores[self.lengths[s]]
        saved, placed = self.snapshot(), self.placed
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
                self.unplace(s, k, saved)
                self.placed = placed

    def node(self) -> None:
        self.counters.node()
        self.run_nodes += 1
        if self.limit is not None and self.run_nodes > self.limit:
            raise Restart

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
                    self.save(s)
                    self.dom[s] = domain
                    changed.append(s)
            if not changed:
                return True
            if not self.propagate(changed):
                return False

    def place(self, s: int, k: int) -> bool:
        """Put word k in site s, add its score to the value placed, and
        propagate (Net.place); the caller restores the value placed."""
        if self.objective is not None:
            self.placed = self.combine(self.placed, self.scores[self.lengths[s]][k])
        return super().place(s, k)


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
