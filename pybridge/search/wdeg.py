"""wdeg: the fast strategy for filling a grid from a dictionary, specified
in docs/search.md#wdeg (propagation, choice of site, order of words,
regions, restarts, two streams, phase); prolog/wdeg.pl is its twin, step
for step.

The domains (bitsets over the dictionary's words), their propagation,
placing a word and the choice of site are the Net's, shared with valued
(pybridge.search.arcs). The random draws are the kernel's Lcg, from the
seed or from 0.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from contextlib import closing

from pybridge.bitops import common, members
from pybridge.bitsets import Settled, table_scores
from pybridge.layout import Layout
from pybridge.search.arcs import Net, State
from pybridge.search.kernel import EVERY_MODE, Counters, Lcg, Request, Strategy

STRATEGIES = (
    Strategy(
        "wdeg",
        "wdeg",
        EVERY_MODE,
        True,
        "bitset domains, dom/wdeg with restarts, for big dictionaries",
        reads="dictionary",
        default_in=frozenset({"lexicon"}),
        seeds=2,  # its two streams draw from seeds N and N + 1 (docs/search.md#two-streams)
    ),
)
FIRST_LIMIT_EXTRA = 10
STREAMS = 2  # searches taking turns (docs/search.md#two-streams)
WEIGHT_DRAW = 3  # a seed past the default's draws weights from 1 to this (docs/search.md#weights)
GROWTH = (3, 2)  # each run's limit is the last one's times 3/2


class Restart(Exception):
    """A run reached its node limit before its first solution."""


class Search(Net):
    """One wdeg search: on the Net's domains and propagation, its choices,
    order of words, regions and restarts."""

    def __init__(
        self,
        words: Sequence[str],
        layout: Layout,
        counters: Counters,
        seed: int | None,
        settled: Settled | None = None,
        scores: Sequence[int] | None = None,
        weights: tuple[int, ...] | None = None,
    ) -> None:
        super().__init__(tuple(words), layout, counters)
        # with scores, per length the score of each word: they break ties (order)
        self.scores = None if scores is None else table_scores(tuple(words), tuple(scores))
        self.neighbours = [tuple(t for _, t, _, _ in site_links) for site_links in layout.arcs]
        # the root fixpoint, if found already from the same domains and bitsets
        self.settled = (
            settled
            if settled is not None
            and settled.tables is self.shared
            and list(settled.start) == self.root
            else None
        )
        self.lcg = Lcg(seed or 0)
        if weights is not None:  # learned by an earlier search (docs/search.md#warm-start)
            if len(weights) != len(self.weights):
                raise ValueError(f"{len(weights)} weights for {len(self.weights)} crossings")
            self.weights = list(weights)
        elif (seed or 0) >= STREAMS:  # not the default search's: its own from the first choice
            self.weights = [1 + self.lcg.below(WEIGHT_DRAW) for _ in self.weights]
        n = len(self.lengths)
        self.limit: int | None = None
        self.placed = 0  # words placed in this run
        # the phase (docs/search.md#phase): per site the word a choice put there,
        # the run's preferred word and the words at its deepest point (-1: none)
        self.word_at = [-1] * n
        self.depth = 0  # sites holding a word put there by a choice
        self.phase = [-1] * n
        self.deepest: tuple[int, list[int]] = (-1, [-1] * n)
        # the run's first choice: its site and the words tried there, the last
        # one being tried; and the (site, word) first choices refuted
        # (docs/search.md#nogoods)
        self.first: tuple[int, list[int]] = (-1, [])
        self.refuted: list[tuple[int, int]] = []

    def solutions(self) -> Generator[list[str] | int, None, None]:
        """Each fill, as the word of every site in site order; after each
        run that reached its limit, the depth of its deepest point (see
        Phase), and the next stream's turn."""
        sites = range(len(self.lengths))
        self.dom, self.open = list(self.root), [True] * len(self.lengths)
        self.trail.clear()
        self.recount()
        if self.settled is not None:
            self.dom = [domain for domain, _ in self.settled.supports]
            self.sup = self.supports(self.settled)
        else:
            self.sup = [None] * len(self.lengths)
            if not self.propagate(list(sites)):
                return
        root = (list(self.dom), list(self.sup))
        limit = 2 * len(self.lengths) + FIRST_LIMIT_EXTRA
        for run in itertools.count(1):
            self.reset(root)
            self.open = [True] * len(self.lengths)
            self.recount()
            if not self.forbid_at_root(root):
                return  # the refuted words leave some site no word: no fill
            self.start_phase(run)
            self.limit, self.placed = limit, 0
            try:
                for _ in self.fill(list(sites)):
                    self.limit = None
                    if self.counters.weights is None:  # what it learned, at the first fill
                        self.counters.weights = tuple(self.weights)
                    yield self.words()
                return
            except Restart:
                limit = limit * GROWTH[0] // GROWTH[1]
            yield self.deepest[0]

    def forbid_at_root(self, root: State) -> bool:
        """Take the refuted words out of their sites' root domains, for this
        run and the next; False if the root then fails."""
        changed: list[int] = []
        for t, w in self.refuted:
            if self.dom[t] >> w & 1:
                self.save(t)
                self.dom[t] ^= 1 << w
                if not self.dom[t]:
                    self.counters.dead_end()
                    return False
                if t not in changed:
                    changed.append(t)
        if changed:
            if not self.propagate(changed):
                return False
            root[0][:], root[1][:] = self.dom, self.sup
            self.trail.clear()  # the new root: nothing to undo below it
        return True

    def start_phase(self, run: int) -> None:
        """The words run number `run` prefers: those of the last run's
        deepest point on odd runs after the first, none on the others."""
        n = len(self.lengths)
        self.phase = self.deepest[1] if run % 2 else [-1] * n
        self.deepest = (-1, [-1] * n)

    # -- choices -----------------------------------------------------------

    def order(self, s: int) -> list[int]:
        """The words of D(s) to try, in turn (see the module's header)."""
        candidates = members(self.dom[s])
        if len(candidates) > 1:
            r = self.lcg.below(len(candidates))
            candidates = candidates[r:] + candidates[:r]
        live = self.live[s]
        if len(candidates) <= 1 or (not live and self.scores is None):
            return candidates
        n = self.lengths[s]
        columns = self.columns[n]
        looks = [(columns[arc.i], arc.masks, self.dom[arc.t]) for arc in live]
        # per look and letter number: the words of t's domain with it (-1: not
        # counted yet; counted once, for the first candidate with it)
        tallies = [[-1] * len(self.code) for _ in looks]
        scores = None if self.scores is None else self.scores[n]
        # sorted by the product of the counts, greatest first (among equals,
        # the higher-scored first), then as drawn: each key ends with the
        # candidate's place, so no two are equal and the order is a stable sort's
        ranked: list[tuple[int, int, int, int]] = []
        for at, k in enumerate(candidates):
            product = 1
            for j in range(len(looks)):
                column, masks, domain = looks[j]
                tally = tallies[j]
                c = ord(column[k])
                count = tally[c]
                if count < 0:
                    count = tally[c] = common(domain, masks[c])
                product *= count
            ranked.append((-product, 0 if scores is None else -scores[k], at, k))
        ranked.sort()
        return [k for _, _, _, k in ranked]

    def preferred(self, s: int, words: list[int]) -> list[int]:
        """`words` with the run's preferred word for s first, if it has it."""
        k = self.phase[s]
        if k < 0 or words[0] == k or not self.dom[s] >> k & 1:
            return words
        words.remove(k)
        return [k, *words]

    # -- search ------------------------------------------------------------

    def fill(self, region: list[int], placed: int | None = None) -> Generator[None, None, None]:
        """Fill the open sites of `region`; yields once per fill of them.
        `placed`: the site just filled, when the region was one part with it."""
        left = [s for s in region if self.open[s]]
        if not left:
            yield
            return
        if placed is not None and self.joined_without(placed):
            yield from self.branch(left)
            return
        parts = self.parts(left)
        if len(parts) == 1:
            yield from self.branch(left)
        else:
            yield from self.chain(parts, 0, self.snapshot())

    def branch(self, region: list[int]) -> Iterator[None]:
        s = self.choose(region)
        saved = self.snapshot()
        tried: list[int] = []
        if self.depth == 0:  # no site holds a chosen word: the run's first choice
            self.first = (s, tried)
        for k in self.preferred(s, self.order(s)):
            tried.append(k)
            self.node()
            try:
                self.word_at[s] = k
                self.depth += 1
                if self.place(s, k):
                    self.note_depth()
                    yield from self.fill(region, s)
            finally:  # also when a probe (fills_alone) is closed midway
                self.unplace(s, k, saved)
                self.word_at[s] = -1
                self.depth -= 1

    def note_depth(self) -> None:
        """Keep the words at the run's deepest point so far (docs/search.md#phase)."""
        if self.depth > self.deepest[0]:
            self.deepest = (self.depth, list(self.word_at))

    def node(self) -> None:
        self.counters.node()
        self.placed += 1
        if self.limit is not None and self.placed > self.limit:
            s, tried = self.first  # each word it tried before the last one failed
            self.refuted += [(s, k) for k in tried[:-1]]
            raise Restart

    def chain(self, parts: list[list[int]], at: int, split: int) -> Generator[None, None, None]:
        """Fill parts[at:] one after another (docs/search.md#regions), the
        earlier ones filled since the split, whose trail mark is `split`.
        (Indices, not slices: a split into thousands of parts nests as deep.)"""
        head = parts[at]
        if at + 1 == len(parts):
            yield from self.fill(head)
            return
        tried_alone = False
        # the placements of a fill left midway are undone (their finally
        # blocks) by closing it here, innermost first, not whenever the
        # generator happens to be collected (later, when compiled)
        with closing(self.fill(head)) as heads:
            for _ in heads:
                filled = False
                with closing(self.chain(parts, at + 1, split)) as tails:
                    for _ in tails:
                        filled = True
                        yield
                if not filled and not tried_alone:
                    tried_alone = True
                    if not self.fills_alone(parts, at + 1, split):
                        return

    def fills_alone(self, parts: list[list[int]], at: int, split: int) -> bool:
        """Whether parts[at:] can be filled as they were at the split (trail
        mark `split`): their domains then, and the copies of the words of
        the earlier parts (filled since) taken back."""
        saved, was_open = self.snapshot(), list(self.open)
        sites = [s for part in parts[at:] for s in part]
        done = [s for part in parts[:at] for s in part]
        then = self.since(split)
        # as if no other site were open: a word used up in the parts must not
        # fail the probe by emptying a site elsewhere
        self.open[:] = [False] * len(self.open)
        for s in sites:
            self.open[s] = True
        self.recount()
        for s in sites:
            if s in then:
                self.save(s)
                _, self.dom[s], self.sup[s] = then[s]
        taken = [(self.left[self.lengths[s]], self.dom[s].bit_length() - 1) for s in done]
        for left, k in taken:
            left[k] += 1
        probe = self.fill(sites)
        try:
            return next(probe, False) is None
        finally:
            probe.close()
            self.restore(saved)
            self.open[:] = was_open
            self.recount()
            for left, k in taken:
                left[k] -= 1

    def joined_without(self, s: int) -> bool:
        """Whether the open sites crossing the closed site s are still joined
        by open sites. A search from one of them usually meets the others
        within a few steps, far sooner than parts() would see the region."""
        ends = {t for t in self.neighbours[s] if self.open[t]}
        if len(ends) <= 1:
            return True
        start = ends.pop()
        seen, queue = {start}, deque([start])
        while queue:
            for t in self.neighbours[queue.popleft()]:
                if self.open[t] and t not in seen:
                    seen.add(t)
                    ends.discard(t)
                    if not ends:
                        return True
                    queue.append(t)
        return False

    def parts(self, left: list[int]) -> list[list[int]]:
        """The connected parts of the open sites `left`: smallest first, ties
        to the lowest index; each part ascending."""
        seen: set[int] = set()
        parts = []
        for start in left:
            if start in seen:
                continue
            seen.add(start)
            part, stack = [start], [start]
            while stack:
                s = stack.pop()
                for t in self.neighbours[s]:
                    if self.open[t] and t not in seen:
                        seen.add(t)
                        part.append(t)
                        stack.append(t)
            parts.append(sorted(part))
        return sorted(parts, key=lambda p: (len(p), p[0]))


def solutions(request: Request, counters: Counters) -> Iterator[list[str]]:
    """Yield each fill of the sites from the (distinct) words, as the word of
    every site. `request.settled`: the root's fixpoint, when the proofs found it."""
    first = request.seed or 0
    streams = [_stream(request, counters, first + i) for i in range(STREAMS)]
    return _in_turn(streams, counters)


def _stream(
    request: Request, counters: Counters, seed: int
) -> Generator[list[str] | int, None, None]:
    """One stream's runs; its search is made at its first turn (most grids
    are filled in the first stream's first run)."""
    search = Search(
        request.words,
        request.layout,
        counters,
        seed,
        request.settled,
        request.scores,
        request.weights,
    )
    yield from search.solutions()


def _in_turn(
    streams: list[Generator[list[str] | int, None, None]], counters: Counters
) -> Iterator[list[str]]:
    """The fills of the first stream to find one, its runs and the other
    streams' taken in rounds until then (docs/search.md#two-streams)."""
    depths = [0] * len(streams)  # of each stream's last run's deepest point
    try:
        while True:
            for k in sorted(range(len(streams)), key=lambda k: -depths[k]):  # stable: ties by k
                for fill in streams[k]:
                    if isinstance(fill, int):  # a restart: the next stream's turn
                        depths[k] = fill
                        counters.restart(fill)
                        break
                    yield fill
                else:  # a run that found its fills, or none, within its limit
                    return
    finally:
        for stream in streams:
            stream.close()
