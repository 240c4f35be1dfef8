"""Proofs that a puzzle has no solution, each with its reason in words.

Layers, cheapest first (`prove` runs the first four, `explain` all five):

  length       the word lengths and the site lengths differ;
  no-fit       a site that no listed word fits, or a listed word that fits
               no site;
  hall         a pigeonhole: k sites of one length that between them fit
               fewer than k listed words (found by a maximum matching of sites
               to word copies, length by length; König's alternating paths
               from an unmatched site give the set);
  propagation  letters propagated through the crossings (each cell keeps the
               letters that the words still fitting its sites agree on), with
               the pigeonhole and "every copy taken" (sites that fit nothing
               but one word use up its copies, so it leaves every other site)
               in the loop, leave a site with no word;
  search       the exhaustive search finds nothing.

A proof names a core: sites that cannot all be filled. What a core's
sub-puzzle asks, how a propagation core is traced back, and why one pass of
deletion (`explain`) leaves a minimal core are in docs/proofs.md (#cores,
#minimality); this module is their implementation.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict, deque
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Literal

from pybridge import engines
from pybridge.bitsets import (
    Letters,
    Settled,
    Table,
    letters_left,
    members,
    tables,
    words_without,
)
from pybridge.layout import Layout, Site, layout_of
from pybridge.model import BLOCK, OPEN, Puzzle
from pybridge.scores import score_text
from pybridge.search import engine as python_engine
from pybridge.search.kernel import Counters, Request, SearchTimeout, check_clock, deadline, late
from pybridge.search.registry import default_strategy
from pybridge.wording import and_list, plural, where, word_length

Layer = Literal["length", "no-fit", "hall", "propagation", "search"]
LAYERS: tuple[Layer, ...] = ("length", "no-fit", "hall", "propagation", "search")
MINIMISE_SECONDS = 10.0  # explain's budget for shrinking the core when no timeout is given
CORE_MARK = "*"
NAMED_SITES = 30  # a reason names at most this many sites, then says how many more
NAMED_WORDS = 60  # and at most this many words


@dataclass(frozen=True)
class Proof:
    """Why the puzzle has no solution. `core`: sites that cannot all be
    filled; `words`: the listed words the argument is about (in lexicon
    mode only those it counts); `nodes`: the
    size of the exhaustive search ("search" only); `minimal`: dropping any one
    site of the core makes its sub-puzzle solvable (checked by `explain`)."""

    layer: Layer
    reason: str
    core: tuple[Site, ...]
    words: tuple[str, ...]
    nodes: int | None = None
    minimal: bool = True


# ---------------------------------------------------------------- the model

# Sets of words are bitmasks over the words of one length: bit u of a set of
# n-letter words stands for model.words[n][u]. Every set the layers use is
# of one length (a site's words, a pigeonhole's words), and numbering words
# within their length keeps the sets of a big dictionary small.


@dataclass(frozen=True)
class _Model:
    """The puzzle as the layers see it. `words` gives per length its words,
    each once, in listed order; `copies` how often each is listed (1 in
    lexicon mode); `tables` the words of every length as bitsets, whose
    masks give per position, per letter, the words with that letter there."""

    puzzle: Puzzle
    layout: Layout
    sites: tuple[Site, ...]
    words: dict[int, tuple[str, ...]]
    copies: dict[int, tuple[int, ...]]
    tables: dict[int, Table]
    candidates: tuple[int, ...]  # per site: the words of its length that fit it

    @cached_property
    def around(self) -> tuple[tuple[tuple[int, int, int], ...], ...]:
        """Per site, (i, other, j) for each crossing (position i of the site
        is position j of `other`), in the order of the crossings' ids. Found
        when first asked for: the layers before propagation need none."""
        return tuple(
            tuple((i, t, j) for i, t, j, _ in sorted(arcs, key=lambda arc: arc[3]))
            for arcs in self.layout.arcs
        )

    @cached_property
    def copied_words(self) -> tuple[str, ...]:
        """The words of the sites' lengths, each as often as it is listed,
        for searches of sub-puzzles (which see only the order of the words
        of each length and their copies). A dictionary's words are distinct
        and already in that order: they are taken as they are, so that the
        engine finds their tables made (bitsets.tables keeps the last few)."""
        if self.lexicon:
            return tuple(self.puzzle.words)
        return tuple(
            word
            for n, group in self.words.items()
            for word, copies in zip(group, self.copies[n], strict=True)
            for _ in range(copies)
        )

    @property
    def lexicon(self) -> bool:
        return self.puzzle.mode == "lexicon"

    @property
    def noun(self) -> str:
        """What the words are called in reasons."""
        return f"dictionary word{self.scoring}" if self.lexicon else "listed word"

    def counted(self, n: int) -> str:
        """'1 listed word', '2 dictionary words scoring 40 or more'."""
        return plural(n, "dictionary word" if self.lexicon else "listed word") + self.scoring

    @property
    def scoring(self) -> str:
        """How the dictionary was cut (--min-score), for the reasons."""
        scores = self.puzzle.scores
        if not self.lexicon or scores is None or scores.floor is None:
            return ""
        return f" scoring {score_text(scores.floor)} or more"

    def every(self, length: int) -> int:
        """The set of all words of `length`."""
        return (1 << len(self.words.get(length, ()))) - 1


def _model(puzzle: Puzzle, layout: Layout, at: float | None = None) -> _Model:
    """The model of `puzzle`; SearchTimeout if the clock passes `at` first."""
    sites = layout.sites
    table = tables(tuple(puzzle.words))
    # Only words of a site's length can be placed (in exact mode, once the
    # lengths match, that is every word).
    lengths = sorted({site.length for site in sites} & table.keys())
    words = {n: table[n].words for n in lengths}
    # a lexicon's words are distinct (a dictionary lists a word once)
    copies = {
        n: table[n].copies if puzzle.mode == "exact" else (1,) * len(table[n].words)
        for n in lengths
    }
    candidates = []
    for site in sites:
        check_clock(at, site.index)
        candidates.append(_fitting(puzzle, site, table))
    return _Model(puzzle, layout, sites, words, copies, table, tuple(candidates))


def _fitting(puzzle: Puzzle, site: Site, tables: Mapping[int, Table]) -> int:
    """The words of `site`'s length that agree with its predefined letters."""
    table = tables.get(site.length)
    if table is None:  # no words of this length
        return 0
    fit, grid = table.full, puzzle.grid
    for k, (r, c) in enumerate(site.cells):
        ch = grid[r][c]
        if ch != BLOCK and ch != OPEN:
            fit &= table.masks[k].get(ch, 0)
    return fit


def _single(words: int) -> bool:
    """Whether a (non-empty) set holds a single word."""
    return words & (words - 1) == 0


def _pattern(puzzle: Puzzle, site: Site) -> str:
    return "".join(puzzle.given(cell) or OPEN for cell in site.cells)


def _core(model: _Model, indices: Iterable[int]) -> tuple[Site, ...]:
    return tuple(model.sites[s] for s in sorted(indices))


def _listed(model: _Model, length: int, words: int) -> tuple[str, ...]:
    return tuple(model.words[length][u] for u in members(words))


def _named(model: _Model, length: int, words: int) -> tuple[str, ...]:
    """The words an argument about every word of `words` names: in lexicon
    mode none, as they may be a good part of the dictionary."""
    return () if model.lexicon else _listed(model, length, words)


def _copies(model: _Model, length: int, words: int) -> tuple[str, ...]:
    """The words of a set, each as often as it is listed."""
    group, copies = model.words.get(length, ()), model.copies.get(length, ())
    return tuple(group[u] for u in members(words) for _ in range(copies[u]))


# ---------------------------------------------------------------- length


def _differing_lengths(puzzle: Puzzle, sites: Sequence[Site]) -> dict[int, tuple[int, int]]:
    """Per length whose words and sites differ in number: (words, sites)."""
    words = Counter(len(w) for w in puzzle.words)
    slots = Counter(site.length for site in sites)
    return {
        n: (words[n], slots[n]) for n in sorted(words.keys() | slots.keys()) if words[n] != slots[n]
    }


def length_mismatch(puzzle: Puzzle, sites: Sequence[Site]) -> str | None:
    """Why the word lengths cannot match the site lengths, or None if they can."""
    differ = _differing_lengths(puzzle, sites)
    if not differ:
        return None
    parts = [
        f"{plural(words, word_length(n) + ' word')} for {plural(slots, word_length(n) + ' site')}"
        for n, (words, slots) in differ.items()
    ]
    return "word and site lengths differ: " + "; ".join(parts)


def length_proof(puzzle: Puzzle, sites: tuple[Site, ...]) -> Proof | None:
    """The length layer (exact mode): a proof when the lengths differ."""
    reason = length_mismatch(puzzle, sites)
    if reason is None:
        return None
    differ = _differing_lengths(puzzle, sites)
    core = tuple(site for site in sites if site.length in differ)
    listed = tuple(w for w in puzzle.words if len(w) in differ)
    return Proof("length", reason, core, listed, minimal=False)


# ---------------------------------------------------------------- no-fit


def _site_without_words(model: _Model, kept: frozenset[int]) -> Proof | None:
    """The first kept site that no listed word fits."""
    for s in sorted(kept):
        if model.candidates[s]:
            continue
        site = model.sites[s]
        same_length = model.every(site.length)
        reason = (
            f"no {model.noun} fits its letters {_pattern(model.puzzle, site)}"
            if same_length
            else _no_words_of_length(model, site.length)
        )
        return Proof("no-fit", reason, (site,), _named(model, site.length, same_length))
    return None


def _no_words_of_length(model: _Model, length: int) -> str:
    if model.lexicon:
        return f"the dictionary has no {length}-letter word{model.scoring}"
    return f"no {length}-letter word is listed"


def _word_without_site(model: _Model) -> Proof | None:
    """Exact mode: a listed word that fits no site; its core is the sites of
    its length, left with fewer word copies than sites. A lexicon's words
    need not all be placed."""
    if model.lexicon:
        return None
    groups: dict[int, list[int]] = defaultdict(list)
    for s, site in enumerate(model.sites):
        groups[site.length].append(s)
    for length, words in model.words.items():
        group = groups[length]
        placeable = 0
        for s in group:
            placeable |= model.candidates[s]
        stray = model.every(length) & ~placeable
        if not stray:
            continue
        word = words[members(stray)[0]]
        left = len(_copies(model, length, placeable))
        reason = (
            f"the listed word {word} fits none of the {len(group)} {length}-letter sites, "
            f"which leaves {plural(left, 'listed word')} for them"
        )
        return Proof("no-fit", reason, _core(model, group), (word,), minimal=False)
    return None


# ---------------------------------------------------------------- hall


def _deficient(
    model: _Model,
    kept: frozenset[int],
    domains: Mapping[int, int],
    lengths: Collection[int] | None = None,
    at: float | None = None,
) -> tuple[list[int], int] | None:
    """Sites of one length that between them fit fewer word copies than
    there are sites, with the words they fit; None when every length (of
    `lengths`, if given) has a matching that fills all its sites.
    SearchTimeout if the clock passes `at` first."""
    groups: dict[int, list[int]] = defaultdict(list)
    for s in sorted(kept):
        length = model.sites[s].length
        if lengths is None or length in lengths:
            groups[length].append(s)
    for length, group in groups.items():
        matching = _Matching(domains, model.copies.get(length, ()))
        for k, s in enumerate(group):
            check_clock(at, k)
            if not matching.augment(s, set()):
                return matching.alternating(s)
    return None


class _Matching:
    """Sites matched to distinct word copies (a word's copies are its
    capacity), grown by Kuhn's augmenting paths."""

    def __init__(self, domains: Mapping[int, int], copies: Sequence[int]) -> None:
        self.domains = domains
        self.copies = copies
        self.holders: dict[int, list[int]] = defaultdict(list)
        self.full = 0  # the words whose copies are all taken

    def augment(self, site: int, seen: set[int]) -> bool:
        """Give `site` a word copy, moving matched sites along an alternating
        path if need be; False when there is no such path."""
        free = self.domains[site] & ~self.full
        if free:  # most sites need no path at all
            self._take(site, (free & -free).bit_length() - 1)
            return True
        for u in members(self.domains[site]):
            if u in seen:
                continue
            seen.add(u)
            held = self.holders[u]
            for k, other in enumerate(held):
                if self.augment(other, seen):
                    held[k] = site
                    return True
        return False

    def _take(self, site: int, u: int) -> None:
        self.holders[u].append(site)
        if len(self.holders[u]) == self.copies[u]:
            self.full |= 1 << u

    def alternating(self, start: int) -> tuple[list[int], int]:
        """The sites and words reachable by alternating paths from `start`,
        which `augment` could not match. Every such word is used up by sites
        of the set, so the set has one site more than its words have copies
        (König)."""
        sites, words = [start], 0
        for site in sites:  # grows while it is walked
            for u in members(self.domains[site] & ~words):
                words |= 1 << u
                sites.extend(t for t in self.holders[u] if t not in sites)
        return sites, words


def _pigeonhole_reason(model: _Model, sites: list[int], words: int, named: bool) -> str:
    length = model.sites[sites[0]].length
    copies = _copies(model, length, words)
    group = plural(len(sites), f"{length}-letter site")
    labels = [model.sites[s].label for s in sorted(sites)]
    which = f"the {group} {and_list(labels, most=NAMED_SITES)}"
    fit = f"fit only {model.counted(len(copies))}"
    return f"{which if named else 'these ' + group} {fit}" + (
        f": {_some(copies)}" if copies else ""
    )


def _some(words: Sequence[str]) -> str:
    """'A, B, C', or past NAMED_WORDS words 'A, B, ... and 9 more'."""
    shown = ", ".join(words[:NAMED_WORDS])
    return shown if len(words) <= NAMED_WORDS else f"{shown} and {len(words) - NAMED_WORDS:,} more"


def _hall(model: _Model, kept: frozenset[int], at: float | None = None) -> Proof | None:
    found = _deficient(model, kept, {s: model.candidates[s] for s in kept}, at=at)
    if found is None:
        return None
    sites, words = found
    reason = _pigeonhole_reason(model, sites, words, named=False)
    copies = _copies(model, model.sites[sites[0]].length, words)
    return Proof("hall", reason, _core(model, sites), copies, minimal=False)


# ---------------------------------------------------------------- propagation


@dataclass(frozen=True)
class _Crossed:
    """Words left a site because no word left in site `other` has their
    letter at the crossing (`position` there, `own` in the site itself)."""

    other: int
    position: int
    own: int


@dataclass(frozen=True)
class _Taken:
    """A word left a site: the sites `holders` fit nothing else and use all its copies."""

    word: int
    holders: tuple[int, ...]


class _Propagation:
    """Letter propagation over the kept sites: a site keeps the words whose
    letter at each crossing some word left in the crossing site has there.
    It remembers why words left each site, so that a wipe-out can name the
    sites it really depends on. It runs after the hall layer has found, on
    the candidates of the kept sites, a matching for every length: so the
    pigeonhole in the loop need only look again at lengths whose domains
    shrank since (a length whose domains are as they were still has it)."""

    def __init__(self, model: _Model, kept: frozenset[int]) -> None:
        self.model = model
        self.kept = kept
        self.length = {s: model.sites[s].length for s in kept}
        self.shrunk: set[int] = set()  # lengths whose domains shrank since the last matching
        self.domains = {s: model.candidates[s] for s in kept}
        self.around = {s: [(i, t, j) for i, t, j in model.around[s] if t in kept] for s in kept}
        tables = model.tables
        self.site_masks = {
            s: tables[n].masks if (n := self.length[s]) in tables else () for s in kept
        }
        self.causes: dict[int, list[tuple[int, _Crossed | _Taken]]] = defaultdict(list)
        # per site, its domain and letters when last revised from (see letters_left)
        self.revised: dict[int, tuple[int, Letters]] = {}
        self.positions = {s: [i for i, _, _ in self.around[s]] for s in kept}
        self.settled: Settled | None = None  # the first fixpoint, when kept is every site

    def run(self, deadline: float | None) -> Proof | None:
        changed = sorted(self.kept)
        while changed:
            if late(deadline):
                return None
            proof = self._arc_consistency(changed)
            if proof is not None:
                return proof
            if self.settled is None and len(self.kept) == len(self.model.sites):
                self.settled = self._settled()
            found = _deficient(self.model, self.kept, self.domains, self.shrunk, deadline)
            if found is not None:
                return self._pigeonhole(*found)
            self.shrunk = set()
            changed = self._take_used_up()
        return None

    def _settled(self) -> Settled:
        """The letter-level fixpoint just reached, before any copy was taken."""
        # at a fixpoint every site was revised from since its last change
        supports = tuple(self.revised[s] for s in range(len(self.model.sites)))
        return Settled(self.model.tables, self.model.candidates, supports)

    def _table(self, site: int) -> Table:
        return self.model.tables[self._length(site)]

    def _masks(self, site: int, position: int) -> dict[str, int]:
        return self._table(site).masks[position]

    def _arc_consistency(self, changed: list[int]) -> Proof | None:
        """Revise the crossing sites of every changed site until nothing changes."""
        domains, masks = self.domains, self.site_masks
        queue, queued = deque(changed), set(changed)
        while queue:
            x = queue.popleft()
            queued.discard(x)
            last = self.revised.get(x)
            now = letters_left(self._table(x), domains[x], self.positions[x], last)
            self.revised[x] = (domains[x], now)
            before = None if last is None else last[1]
            if now is before:
                continue
            for i, y, j in self.around[x]:
                if before is not None and before[i] == now[i]:
                    continue
                # y agrees with x's letters of the last revision: only the
                # letters x lost since can take words from it
                gone = words_without(masks[y][j], None if before is None else before[i], now[i])
                removed = domains[y] & gone
                if not removed:
                    continue
                domains[y] ^= removed
                self.shrunk.add(self.length[y])
                self.causes[y].append((removed, _Crossed(x, i, j)))
                if not domains[y]:
                    allowed = [ch for ch in masks[x][i] if ch in now[i]]
                    return self._wipe_out(x, i, y, j, allowed, removed)
                if y not in queued:
                    queue.append(y)
                    queued.add(y)
        return None

    def _take_used_up(self) -> list[int]:
        """Remove a word from every other site once as many sites as it has
        copies fit nothing but it; the sites that lost a word."""
        holders: dict[tuple[int, int], list[int]] = defaultdict(list)  # (length, word)
        for s in sorted(self.kept):
            if _single(self.domains[s]):
                holders[self._length(s), self.domains[s].bit_length() - 1].append(s)
        gone: dict[int, int] = defaultdict(int)  # per length, the words used up
        for (n, u), held in holders.items():
            if len(held) >= self.model.copies[n][u]:
                gone[n] |= 1 << u
        # a site left with a single word either holds a used-up word or none
        changed = [
            s
            for s in sorted(self.kept)
            if self.domains[s] & gone[self._length(s)] and not _single(self.domains[s])
        ]
        for s in changed:
            n = self._length(s)
            for u in members(self.domains[s] & gone[n]):
                self.causes[s].append((1 << u, _Taken(u, tuple(holders[n, u]))))
            self.domains[s] &= ~gone[n]
            self.shrunk.add(n)
        return changed

    def _length(self, site: int) -> int:
        return self.length[site]

    def _wipe_out(self, x: int, i: int, y: int, j: int, allowed: list[str], last: int) -> Proof:
        site, other = self.model.sites[y], self.model.sites[x]
        needed = [ch for ch, m in self._masks(y, j).items() if last & m]
        reason = (
            f"once letters are propagated through the crossings, no word is left for "
            f"{site.label}: the words still fitting it need {and_list(sorted(needed), 'or')} at "
            f"{where(site.cells[j])}, where those still fitting {other.label} have only "
            f"{and_list(sorted(allowed), 'or')}"
        )
        core = self._support([y])
        words = _named(self.model, site.length, self.model.candidates[y])
        return Proof("propagation", reason, _core(self.model, core), words, minimal=False)

    def _pigeonhole(self, sites: list[int], words: int) -> Proof:
        reason = "once letters are propagated through the crossings, " + _pigeonhole_reason(
            self.model, sites, words, named=True
        )
        core = _core(self.model, self._support(sites))
        copies = _copies(self.model, self._length(sites[0]), words)
        return Proof("propagation", reason, core, copies, minimal=False)

    def _support(self, sites: Iterable[int]) -> set[int]:
        """`sites` and every site that the loss of their words depends on."""
        involved = set(sites)
        todo = [(s, self.model.candidates[s] & ~self.domains[s]) for s in involved]
        # Per site, the lost words whose causes are traced already. It must be
        # kept per word, not per cause: a cause first reached for some of the
        # words it removed still owes the antecedents of the others.
        traced: dict[int, int] = defaultdict(int)
        while todo:
            site, lost = todo.pop()
            involved.add(site)
            lost &= ~traced[site]
            traced[site] |= lost
            for removed, cause in self.causes[site]:
                if removed & lost:
                    todo.extend(self._antecedents(site, removed & lost, cause))
        return involved

    def _antecedents(self, site: int, lost: int, cause: _Crossed | _Taken) -> list[tuple[int, int]]:
        """The losses (site, words) that `cause` rests on for the words `lost` by `site`."""
        candidates = self.model.candidates
        if isinstance(cause, _Taken):
            return [(z, candidates[z] & ~(1 << cause.word)) for z in cause.holders]
        x = cause.other
        letters = [ch for ch, m in self._masks(site, cause.own).items() if lost & m]
        theirs = self._masks(x, cause.position)
        needed = 0
        for ch in letters:
            needed |= theirs.get(ch, 0)
        return [(x, candidates[x] & needed)]


# ---------------------------------------------------------------- the layers


def _cheap(model: _Model, kept: frozenset[int], deadline: float | None) -> Proof | None:
    """Layers (b)-(d) on the sub-puzzle of `kept`."""
    return (
        _site_without_words(model, kept)
        or _hall(model, kept, deadline)
        or _Propagation(model, kept).run(deadline)
    )


def _length_layer(puzzle: Puzzle, sites: tuple[Site, ...]) -> Proof | None:
    """Layer (a), exact mode only: a lexicon leaves most words unused, so
    its lengths need not match."""
    return None if puzzle.mode == "lexicon" else length_proof(puzzle, sites)


def _prove_whole(model: _Model, deadline: float | None) -> tuple[Proof | None, Settled | None]:
    """Layers (b)-(d) on the whole puzzle (in exact mode, once its lengths
    match), and the propagation's first fixpoint when it got that far."""
    everything = frozenset(range(len(model.sites)))
    proof = _site_without_words(model, everything) or _word_without_site(model)
    proof = proof or _hall(model, everything, deadline)
    if proof is not None or late(deadline) or model.layout.arcs_by(deadline) is None:
        return proof, None
    propagation = _Propagation(model, everything)
    return propagation.run(deadline), propagation.settled


def prove(
    puzzle: Puzzle, *, layout: Layout | None = None, timeout: float | None = None
) -> Proof | None:
    """A proof from the cheap layers (length, no-fit, hall, propagation), or
    None when none applies within `timeout` seconds. The core is the set of
    sites the argument uses, not yet shrunk (minimal is False unless it is a
    single site); a proof here is never wrong, None proves nothing. `layout`
    saves building it again when the caller has it."""
    return prove_settling(puzzle, layout=layout, timeout=timeout)[0]


def prove_settling(
    puzzle: Puzzle, *, layout: Layout | None = None, timeout: float | None = None
) -> tuple[Proof | None, Settled | None]:
    """prove()'s answer, and when no proof was found, the letter-level
    fixpoint its propagation reached first (None if it did not get there),
    which spares the wdeg search its root propagation."""
    at = deadline(timeout)
    try:
        layout = layout_of(puzzle, at) if layout is None else layout
        proof = _length_layer(puzzle, layout.sites)
        if proof is not None:
            return proof, None
        proof, settled = _prove_whole(_model(puzzle, layout, at), at)
    except SearchTimeout:  # a huge puzzle: no proof within the time
        return None, None
    return proof, None if proof is not None else settled


def explain(
    puzzle: Puzzle, *, timeout: float | None = None, engine: str | None = "python"
) -> Proof | None:
    """Like `prove`, then the exhaustive search with `engine` (None picks
    one, as engines.choose_engine does) if no cheap layer applies, then the
    core shrunk to a minimal one by the Python engine. None when the puzzle
    has a solution or the time ran out before a proof was found. `timeout`
    bounds the whole call; without it the search is unbounded and the
    shrinking gets MINIMISE_SECONDS. When the shrinking runs out of time the
    core found so far is returned with minimal False."""
    at = deadline(timeout)
    try:
        layout = layout_of(puzzle, at)
        length = _length_layer(puzzle, layout.sites)
        if length is not None:
            return length
        model = _model(puzzle, layout, at)
        proof = _prove_whole(model, at)[0] or _searched(model, engine, at)
    except SearchTimeout:
        return None
    if proof is None:
        return None
    budget = at if at is not None else time.perf_counter() + MINIMISE_SECONDS
    return _minimise(model, proof, budget)


# A verdict's core is shrunk (`shrink`) for as long as the verdict took, and
# at least this long: a small puzzle's core is minimal within milliseconds.
SHRINK_LEAST_SECONDS = 0.5


def shrink_seconds(verdict_seconds: float, left: float | None) -> float:
    """How long `crossword check` shrinks a core after a verdict that took
    `verdict_seconds`, with `left` seconds of its time limit left (None: no
    limit): as long again (so the answer comes within twice the proof's own
    time), at least SHRINK_LEAST_SECONDS, never past the limit."""
    seconds = max(verdict_seconds, SHRINK_LEAST_SECONDS)
    return seconds if left is None else max(min(seconds, left), 0.0)


def shrink(puzzle: Puzzle, proof: Proof, *, seconds: float, layout: Layout | None = None) -> Proof:
    """`proof` (a verdict of solver.run on `puzzle`) with its core shrunk for
    at most `seconds`: minimal when the shrinking ended in time, else the
    smallest core found so far with minimal False. A proof of the length
    layer, or one already minimal, is returned as it is."""
    if proof.layer == "length" or proof.minimal:
        return proof
    at = time.perf_counter() + seconds
    try:
        layout = layout_of(puzzle, at) if layout is None else layout
        model = _model(puzzle, layout, at)
    except SearchTimeout:
        return proof
    return _minimise(model, proof, at)


# ---------------------------------------------------------------- search


def _search_proof(model: _Model, kept: Iterable[int], nodes: int) -> Proof:
    core = _core(model, kept)
    fitting: dict[int, int] = defaultdict(int)  # per length, the words that fit a core site
    for site in core:
        fitting[site.length] |= model.candidates[site.index]
    words = tuple(w for n, fit in fitting.items() for w in _named(model, n, fit))
    reason = f"the search space is exhausted ({plural(nodes, 'node')}){cut_words(model.puzzle)}"
    return Proof("search", reason, core, words, nodes, minimal=False)


def cut_words(puzzle: Puzzle) -> str:
    """', with the dictionary words scoring N or more' after --min-score."""
    scores = puzzle.scores
    if puzzle.mode != "lexicon" or scores is None or scores.floor is None:
        return ""
    return f", with the dictionary words scoring {score_text(scores.floor)} or more"


def _searched(model: _Model, engine: str | None, at: float | None) -> Proof | None:
    """Layer (e) on the whole puzzle: a proof if the search exhausts it."""
    remaining = None if at is None else at - time.perf_counter()
    if remaining is not None and remaining <= 0:
        return None
    strategy = default_strategy(model.puzzle.mode)
    request = Request(model.layout, model.puzzle.words, strategy, limit=1, timeout=remaining)
    result = engines.search(engines.choose_engine(engine), request)
    if result.status != "unsolvable":
        return None
    return _search_proof(model, range(len(model.sites)), result.nodes)


def _exhaust(
    model: _Model, kept: frozenset[int], at: float | None, strategy: str = "mrv"
) -> int | None:
    """The node count of the Python engine's search of `kept`'s sub-puzzle
    when it finds no solution, None when it finds one; SearchTimeout when
    the deadline passes first. The mrv and wdeg strategies fill every given
    site with distinct word copies and do not ask for every word to be used:
    exactly the sub-puzzle's question."""
    counters = Counters(deadline=at)
    request = Request(model.layout.restricted(kept), model.copied_words, strategy)
    steps = python_engine.solutions(request, counters)
    try:
        found = next(steps, None)
    finally:
        steps.close()
    return counters.nodes if found is None else None


def _refute(
    model: _Model, kept: frozenset[int], deadline: float | None, strategy: str = "mrv"
) -> Proof | None:
    """A proof that the sub-puzzle of `kept` has no solution, or None when it
    has one; SearchTimeout when the deadline passes first."""
    proof = _cheap(model, kept, deadline)
    if proof is not None:
        return proof
    nodes = _exhaust(model, kept, deadline, strategy)
    return None if nodes is None else _search_proof(model, kept, nodes)


# A core of more sites than this is first looked for near its most
# constrained site (see _grown) before sites are dropped one at a time.
GROW_FROM = 12


def _minimise(model: _Model, proof: Proof, deadline: float) -> Proof:
    """Shrink the core within `deadline`: a large one by growing a small
    unsolvable part near its most constrained site (_grown), then by
    dropping the core's sites one at a time, keeping each drop that leaves
    an unsolvable sub-puzzle (whose own proof may drop more at once). Each
    test gets a share of the time left; a site whose test runs out of it is
    kept, and the core is then not known to be minimal."""
    strategy = default_strategy(model.puzzle.mode)
    settled = True
    if len(proof.core) > GROW_FROM:
        proof, settled = _grown(model, proof, deadline, strategy)
    for site in proof.core:
        indices = frozenset(s.index for s in proof.core)
        if site.index not in indices:
            continue  # a smaller proof already left it out
        try:
            smaller = _refute(model, indices - {site.index}, _share(deadline, 2), strategy)
        except SearchTimeout:
            settled = False  # kept without knowing whether it is needed
            continue
        if smaller is not None:
            proof = smaller
    return replace(proof, minimal=settled)


def _share(deadline: float, parts: int) -> float:
    """The clock reading a test may run to: 1/`parts` of the time left."""
    now = time.perf_counter()
    return now + max(deadline - now, 0.0) / parts


def _grown(model: _Model, proof: Proof, deadline: float, strategy: str) -> tuple[Proof, bool]:
    """A proof about part of a large core: the sites nearest its most
    constrained one (fewest candidates; nearness through crossings), 4,
    then a quarter more at each step, until one such part is shown
    unsolvable (a part that can be filled is most often shown so in
    milliseconds, so the steps are small). The proof as it was when none
    is (a part that ran out of its share of the time counts as fillable),
    and False when a part ran out of time."""
    order = _nearest_first(model, [site.index for site in proof.core])
    settled, size = True, 4
    while size < len(order):
        try:
            smaller = _refute(model, frozenset(order[:size]), _share(deadline, 3), strategy)
        except SearchTimeout:
            settled, smaller = False, None
        if smaller is not None:
            return smaller, True
        if time.perf_counter() >= deadline:
            break
        size = max(size + 1, size * 5 // 4)
    return proof, settled


def _nearest_first(model: _Model, core: Sequence[int]) -> list[int]:
    """The core's sites, breadth first through their crossings from the one
    with the fewest candidates, the tighter first among neighbours; then any
    not reached."""
    inside = set(core)

    def tightness(s: int) -> tuple[int, int]:
        return model.candidates[s].bit_count(), s

    order: list[int] = []
    seen: set[int] = set()
    for start in sorted(core, key=tightness):
        if start in seen:
            continue
        seen.add(start)
        order.append(start)
        walked = len(order) - 1
        while walked < len(order):  # the order grows while it is walked
            near = {t for _, t, _ in model.around[order[walked]] if t in inside and t not in seen}
            walked += 1
            for t in sorted(near, key=tightness):
                seen.add(t)
                order.append(t)
    return order


# ---------------------------------------------------------------- output


def proof_sentence(proof: Proof) -> str:
    """'3-Across, 7-Down and 9-Across cannot all be filled: <reason>'."""
    if proof.layer == "length" or not proof.core:
        return f"the puzzle has no solution: {proof.reason}"
    labels = [site.label for site in proof.core]
    both = {1: "", 2: " both"}.get(len(labels), " all")
    how = f"cannot{both} be filled"
    return f"{and_list(labels, most=NAMED_SITES)} {how}: {proof.reason}"


def proof_json(proof: Proof) -> dict[str, Any]:
    """The proof as JSON data: layer, reason, core (number and direction of
    each site), words, and the node count and minimality."""
    return {
        "layer": proof.layer,
        "reason": proof.reason,
        "core": [{"number": site.number, "direction": site.direction} for site in proof.core],
        "words": list(proof.words),
        "nodes": proof.nodes,
        "minimal": proof.minimal,
    }


def core_grid(puzzle: Puzzle, proof: Proof) -> tuple[str, ...]:
    """The framework rows with CORE_MARK on every open cell of the core
    (predefined letters and blocked cells as they are)."""
    marked = {cell for site in proof.core for cell in site.cells}
    return tuple(
        "".join(CORE_MARK if ch == OPEN and (r, c) in marked else ch for c, ch in enumerate(row))
        for r, row in enumerate(puzzle.grid)
    )
