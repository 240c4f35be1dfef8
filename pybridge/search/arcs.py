"""arcs: what the wdeg and valued families share, specified in
docs/search.md#wdeg (propagation, choice of site, placing a word) and
docs/search.md#valued, which follows it; prolog/arcs.pl is its twin.

A Net holds each site's domain, a bitset (a Python int) over the words of
its length (see pybridge.bitsets), the copies of each word left, the sites
still open and the crossings' weights; it propagates letter-level arc
consistency over the crossings, places a word (its last copy leaving the
other open sites of its length) and chooses the site of smallest
|D| / wdeg. A family's Search is a Net with its own order of words,
regions, restarts or bounds on top.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Final

from pybridge.bitops import at_most, count, differ, members, missing, overlap, revise
from pybridge.bitsets import Settled, Table, tables
from pybridge.layout import Arc as Link
from pybridge.layout import Layout
from pybridge.model import Cell
from pybridge.search.kernel import Counters


class Arc:
    """A link from a site s (its position i) to a site t (its position j)
    at a crossing, with what a revision along it reads: at j in t's words,
    per letter the words without it (`without`) and the words with it
    (`masks`), and the letters there (`there`). A class, not a tuple: the
    compiled search reads one field of it where a tuple would be unpacked
    whole (docs/benchmarks.md, "Per node, session 5")."""

    __slots__ = ("crossing", "i", "j", "masks", "t", "there", "without")

    def __init__(
        self, i: int, t: int, j: int, crossing: int, at_j: tuple[list[int], list[int], int]
    ) -> None:
        self.i, self.t, self.j, self.crossing = i, t, j, crossing
        self.without, self.masks, self.there = at_j


# Inside the Net a set of letters is an int, bit c standing for the Net's
# letter c (Net.code: the letters of the word list, in order), so that the
# letters of a position are a few integer operations, not a set built.
Bits = tuple[int, ...]  # per position of a site: its words' letters there, as bits
Support = tuple[int, Bits]  # a site's domain when last revised from, and its letters
State = tuple[list[int], list[Support | None]]  # the domains, and their supports
Saved = tuple[int, int, Support | None]  # a site, and its domain and support before a change
# a popped site's letters, and per arc along which some went: those gone
# since it was last revised from (before that, those of t's words it lacks),
# those left, and the arc
Change = tuple[int, int, Arc]
Revisions = tuple[Bits, list[Change]]

# up to this many words left, a revision reads their letters rather than
# testing each letter of the last revision against the domain (an AND each)
FEW_WORDS: Final = 16


class Net:
    """The domains of a grid's sites over a word list, and their propagation."""

    def __init__(self, words: tuple[str, ...], layout: Layout, counters: Counters) -> None:
        """Every site open with the words of its length that have its given
        letters, every weight 1, every copy left. `words`: the list whose
        distinct words, in order of first listing, the bits stand for."""
        self.shared = tables(words)  # the tables' own answer (see bitsets.Settled)
        self.tables = dict(self.shared)
        for cells in layout.cells:  # a length without words has an empty table
            n = len(cells)
            self.tables.setdefault(n, Table((), (), 0, tuple({} for _ in range(n))))
        self.left = {n: list(t.copies) for n, t in self.tables.items()}  # copies not placed
        self.lengths = [len(cells) for cells in layout.cells]
        self.weights = [1] * len(layout.crossings)
        self.code, columns = _letter_codes(words)  # letter -> its bit; see _letter_codes
        self.columns = {n: columns.get(n, ("",) * n) for n in self.tables}
        by_code = {n: _by_code(t, self.code) for n, t in self.tables.items()}
        # per length and position: per letter code the words with it there;
        # and the letters there
        self.bits = {n: tuple(having for _, having, _ in b) for n, b in by_code.items()}
        self.there = {n: tuple(there for _, _, there in b) for n, b in by_code.items()}
        self.arcs = _arcs(layout.arcs, self.lengths, by_code)
        # per site, its length's columns and words by letter (as letters() reads them)
        self.site_columns = [self.columns[n] for n in self.lengths]
        self.site_bits = [self.bits[n] for n in self.lengths]
        self.by_length: dict[int, list[int]] = {}
        for s, n in enumerate(self.lengths):
            self.by_length.setdefault(n, []).append(s)
        self.root = [self._initial(cells, layout.givens) for cells in layout.cells]
        self.counters = counters
        self.dom = list(self.root)
        self.sup: list[Support | None] = [None] * len(self.lengths)  # see propagate
        self.open = [True] * len(self.lengths)
        self.live: list[list[Arc]] = []  # per site, its arcs to open sites (see recount)
        self.wdegs: list[int] = []  # see recount
        self.recount()
        self.counted: list[tuple[int, int]] = [(-1, 0)] * len(self.lengths)  # (domain, its size)
        # the domains and supports changed since the root, as they were
        # before (see snapshot): undone on backtracking, where a copy of
        # every site's per level made memory grow with sites x depth
        self.trail: list[Saved] = []
        self.epoch = 0  # bumped at every snapshot and restore
        self.stamp = [-1] * len(self.lengths)  # per site the epoch it was last trailed in

    def _initial(self, cells: Sequence[Cell], givens: Mapping[Cell, str]) -> int:
        """The words of the site's length with its given letters."""
        table = self.tables[len(cells)]
        domain = table.full
        for p, cell in enumerate(cells):
            if cell in givens:
                domain &= table.masks[p].get(givens[cell], 0)
        return domain

    def supports(self, settled: Settled) -> list[Support | None]:
        """The supports of a root fixpoint found elsewhere (bitsets.Settled,
        letters as sets), with the Net's letters as bits."""
        code = self.code
        return [
            (domain, tuple(sum(1 << code[c] for c in position) for position in letters))
            for domain, letters in settled.supports
        ]

    def words(self) -> list[str]:
        """The word of every site (each holds one), in site order."""
        return [
            self.tables[n].words[d.bit_length() - 1]
            for n, d in zip(self.lengths, self.dom, strict=True)
        ]

    # -- the trail -----------------------------------------------------------

    def snapshot(self) -> int:
        """A mark to restore the domains and supports to: the trail's length."""
        self.epoch += 1
        return len(self.trail)

    def restore(self, mark: int) -> None:
        """The domains and supports as they were at `mark` (see snapshot)."""
        trail, dom, sup = self.trail, self.dom, self.sup
        while len(trail) > mark:
            s, domain, support = trail.pop()
            dom[s], sup[s] = domain, support
        self.epoch += 1

    def save(self, s: int) -> None:
        """Trail s's domain and support before they change, once a mark:
        restoring to a mark puts back the oldest values trailed after it."""
        if self.stamp[s] != self.epoch:
            self.stamp[s] = self.epoch
            self.trail.append((s, self.dom[s], self.sup[s]))

    def reset(self, state: State) -> None:
        """Every site's domain and support as in `state` (a whole copy), and
        an empty trail."""
        self.dom[:], self.sup[:] = state
        self.trail.clear()
        self.epoch += 1

    def since(self, mark: int) -> dict[int, Saved]:
        """Per site changed since `mark` its domain and support then."""
        then: dict[int, Saved] = {}
        for saved in reversed(self.trail[mark:]):
            then[saved[0]] = saved
        return then

    # -- open sites and their weights ----------------------------------------

    def recount(self) -> None:
        """live[s], s's arcs to open sites, and wdegs[s], the weights of
        those crossings, for every site s (open or not); kept up to date as
        sites close and open and as weights grow, as propagate reads live
        at every pop and choose reads wdegs for every open site at every node."""
        self.live = [[arc for arc in arcs if self.open[arc.t]] for arcs in self.arcs]
        self.wdegs = [sum(self.weights[arc.crossing] for arc in arcs) for arcs in self.live]

    def close(self, s: int, sign: int) -> None:
        """Update wdegs and the neighbours' live arcs when s closes (sign -1)
        or opens again (+1)."""
        for arc in self.arcs[s]:
            t = arc.t
            self.wdegs[t] += sign * self.weights[arc.crossing]
            self.live[t] = [other for other in self.arcs[t] if self.open[other.t]]

    def choose(self, region: Sequence[int]) -> int:
        """The site of smallest |D| / wdeg (ties: lowest index; region ascending)."""
        best, best_size, best_weight = -1, 0, 0
        dom, counted, wdegs = self.dom, self.counted, self.wdegs
        for s in region:
            domain, last = dom[s], counted[s]
            if last[0] is domain:
                size = last[1]
            else:  # counting costs up to a microsecond on a big domain: once
                size = count(domain)
                counted[s] = (domain, size)
            weight = wdegs[s]
            if best < 0 or size * best_weight < best_size * weight:
                best, best_size, best_weight = s, size, weight
        return best

    # -- placing and propagating ---------------------------------------------

    def place(self, s: int, k: int) -> bool:
        """Put word k in site s and propagate; False on a wipe-out. The
        caller undoes it with unplace."""
        n = self.lengths[s]
        self.open[s] = False
        self.close(s, -1)
        self.left[n][k] -= 1
        bit = 1 << k
        self.save(s)
        self.dom[s] = bit
        changed = [s]
        if self.left[n][k]:
            return self.propagate(changed)
        for t in self.by_length[n]:  # the last copy: the word leaves its length's open sites
            if self.open[t] and self.dom[t] & bit:
                self.save(t)
                self.dom[t] ^= bit
                if not self.dom[t]:
                    self.counters.dead_end()
                    return False
                changed.append(t)
        return self.propagate(changed)

    def unplace(self, s: int, k: int, mark: int) -> None:
        """Undo place(s, k): the domains as at `mark`, s open, the copy back."""
        self.restore(mark)
        self.open[s] = True
        self.close(s, +1)
        self.left[self.lengths[s]][k] += 1

    def propagate(self, changed: list[int]) -> bool:
        """Letter-level arc consistency from the `changed` sites; False on a
        wipe-out (a dead end; the weight of the crossing that emptied a
        domain grows by 1).

        sup[s] holds the letters each position of s had when s was last
        revised from: every open neighbour already agrees with them, so a
        crossing whose letters did not change since needs no revision (the
        revisions skipped would change nothing)."""
        queue, queued = deque(changed), set(changed)
        dom, sup, live = self.dom, self.sup, self.live
        while queue:
            s = queue.popleft()
            queued.discard(s)
            arcs = live[s]
            if not arcs:
                continue
            now, changes = self.letters(s, sup[s], arcs)
            self.save(s)
            sup[s] = (dom[s], now)
            for gone, alive, arc in changes:
                t = arc.t
                # t agrees with s's letters before (gone and alive; before
                # the first revision, any letter), and has only the letters
                # it had at its own last revision from: one it lacks takes
                # nothing (bitops.revise: one OR per letter alive or one AND
                # per letter gone, whichever are fewer)
                last = sup[t]
                has = arc.there if last is None else last[1][arc.j]
                kept = revise(dom[t], has, gone, alive, arc.without, arc.masks)
                if kept == dom[t]:
                    continue
                if not kept:
                    self.weights[arc.crossing] += 1
                    self.wdegs[s] += 1  # t is open
                    if self.open[s]:
                        self.wdegs[t] += 1
                    self.counters.dead_end()
                    return False
                self.save(t)
                dom[t] = kept
                if t not in queued:
                    queue.append(t)
                    queued.add(t)
        return True

    def letters(self, s: int, last: Support | None, arcs: list[Arc]) -> Revisions:
        """The letters the words of D(s) have at the positions of the `arcs`
        (the others keep their last letters, or none; the last letters
        themselves if none changed), and the arcs along which some went
        (see Revisions). One AND per letter of a position, in the loop
        here: this is where the search spends most of its time, so the
        paths of bitsets.letters_left are written out again here, with
        the changes found on the way, rather than called and compared
        afterwards (docs/benchmarks.md, "Engine speed per node (Python)")."""
        domain = self.dom[s]
        if not domain or last is None:
            return self._first_letters(s, last, arcs)
        before, columns, bits = last[1], self.site_columns[s], self.site_bits[s]
        lost = differ(last[0], domain)  # the one word lost, or -1 (none) or -2 (more)
        if lost == -1:
            return before, []
        changes = list[Change]()
        if lost >= 0:  # one word lost: the commonest case
            for arc in arcs:
                i = arc.i
                column = columns[i]
                c = ord(column[lost])
                if before[i] >> c & 1 and not overlap(domain, bits[i][c]):
                    changes.append((1 << c, before[i] ^ 1 << c, arc))
        elif at_most(domain, 1):  # one word left (as a word placed): its letters
            k = domain.bit_length() - 1
            for arc in arcs:
                i = arc.i
                column = columns[i]
                letter = 1 << ord(column[k])
                others = before[i] & ~letter
                if others:
                    changes.append((others, before[i] & letter, arc))
        elif at_most(domain, FEW_WORDS):  # a few words left: read their letters
            words = members(domain)
            for arc in arcs:
                i = arc.i
                column = columns[i]
                alive = 0
                for k in words:
                    alive |= 1 << ord(column[k])
                if count(alive) < count(before[i]):  # alive within before[i]
                    changes.append((before[i] & ~alive, alive, arc))
        else:
            for arc in arcs:
                i = arc.i
                gone = missing(domain, before[i], bits[i])
                if gone:
                    changes.append((gone, before[i] ^ gone, arc))
        if not changes:
            return before, changes
        now = list(before)
        for _, alive, arc in changes:
            now[arc.i] = alive
        return tuple(now), changes

    def _first_letters(self, s: int, last: Support | None, arcs: list[Arc]) -> Revisions:
        """letters() for a site never revised from (every letter of t's
        words is to be checked) or whose domain is empty (no letter left)."""
        n, domain = self.lengths[s], self.dom[s]
        table, bits = self.tables[n], self.bits[n]
        now = [0] * len(table.masks)  # a position no arc reads has no letters
        if domain:
            for arc in arcs:
                i = arc.i
                there = self.there[n][i]
                now[i] = there if domain == table.full else there ^ missing(domain, there, bits[i])
        changes: list[Change] = []
        for arc in arcs:
            i = arc.i
            had = arc.there if last is None else last[1][i]
            if had != now[i]:
                changes.append((had & ~now[i], now[i], arc))
        return tuple(now), changes


@lru_cache(maxsize=4)
def _letter_codes(words: tuple[str, ...]) -> tuple[dict[str, int], dict[int, tuple[str, ...]]]:
    """The letters of tables(words), each numbered in order (its bit in the
    Net's letter sets); and per length and position the column of its
    words' letters there, each letter written as the character whose code
    is its number: ord(column[k]) is word k's letter's number, read in
    place, where a dictionary lookup per letter cost a tenth of a 5x5
    search (docs/benchmarks.md, "Per node, session 5")."""
    shared = tables(words)
    letters = {c for t in shared.values() for position in t.masks for c in position}
    code = {c: k for k, c in enumerate(sorted(letters))}
    numbered = {ord(c): k for c, k in code.items()}
    columns = {}
    for n, t in shared.items():
        joined = "".join(t.words).translate(numbered)  # word k's letters from k * n on
        columns[n] = tuple(joined[p::n] for p in range(n))
    return code, columns


def _arcs(
    links: Sequence[Sequence[Link]],
    lengths: Sequence[int],
    by_code: Mapping[int, tuple[tuple[list[int], list[int], int], ...]],
) -> list[list[Arc]]:
    """Each site's links with the masks a revision along them reads."""
    return [
        [Arc(i, t, j, x, by_code[lengths[t]][j]) for i, t, j, x in site_links]
        for site_links in links
    ]


def _by_code(table: Table, code: Mapping[str, int]) -> tuple[tuple[list[int], list[int], int], ...]:
    """Per position of the table's words: per letter code the words without
    it there and the words with it there, and the letters there (as bits).
    A revision ANDs the former into a domain: one operation per letter
    lost, on the domain's size, where OR-ing the words with the letters
    would build sets the size of the whole table."""
    found = []
    for masks in table.masks:
        without, having, there = [table.full] * len(code), [0] * len(code), 0
        for c, words in masks.items():
            without[code[c]], having[code[c]] = table.full ^ words, words
            there |= 1 << code[c]
        found.append((without, having, there))
    return tuple(found)
