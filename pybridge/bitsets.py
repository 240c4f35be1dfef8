"""Words of one length as bitsets, the tables the proofs and wdeg read.

Bit k of a set of n-letter words stands for the k-th distinct n-letter word,
in order of first listing. `Table.masks[p][c]` is the set of words with
letter c at position p, so "the words that fit" is a few big-integer ANDs.
Building the tables of a big dictionary costs up to a few tenths of a
second, so they are kept in memory for the last few word lists seen, and a
long list's on disk too (see "cache" below).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, groupby

from pybridge import cache
from pybridge.bitops import members as members  # (re-exported: the proofs and serve read it here)

FEW_WORDS = 128  # of a length: up to this many, the masks are built word by word

Letters = tuple[frozenset[str], ...]  # per position of a site: the letters its words have there


@dataclass(frozen=True)
class Table:
    """The distinct words of one length, as bitsets."""

    words: tuple[str, ...]
    copies: tuple[int, ...]  # how many times each word is listed
    full: int  # every word
    masks: tuple[dict[str, int], ...]  # per position: letter -> the words with it there


def _letter_sets(column: str) -> dict[str, int]:
    """Per letter of `column` (the letters at one position of the words),
    the words with that letter there. Each set is read as a binary numeral
    from the column with that letter made 1 and every other 0: a few times
    faster than a loop over the words."""
    numeral = column[::-1]  # the first word is the lowest bit
    zeros = {ord(ch): "0" for ch in set(column)}
    return {chr(code): int(numeral.translate({**zeros, code: "1"}), 2) for code in sorted(zeros)}


def _few_letter_sets(words: tuple[str, ...]) -> tuple[dict[str, int], ...]:
    """_letter_sets for every position at once, word by word: faster for a
    word list of a puzzle, slower for a dictionary."""
    masks: list[dict[str, int]] = [{} for _ in words[0]]
    bit = 1
    for word in words:
        for position, ch in zip(masks, word, strict=True):
            position[ch] = position.get(ch, 0) | bit
        bit <<= 1
    return tuple(dict(sorted(position.items())) for position in masks)


def _table(words: tuple[str, ...], copies: tuple[int, ...]) -> Table:
    if len(words) <= FEW_WORDS:
        masks = _few_letter_sets(words)
    else:
        masks = tuple(_letter_sets("".join(w[p] for w in words)) for p in range(len(words[0])))
    return Table(words, copies, (1 << len(words)) - 1, masks)


@dataclass(frozen=True)
class Settled:
    """Letter-level arc consistency over every crossing of a grid, run to its
    fixpoint before any word is placed. The fixpoint depends only on the
    domains it `start`s from (per site, the words that fit it), so a search
    handed one can skip its own root propagation and stay step for step the
    same. `supports`: per site, its final domain and the letters of its
    words at each of its crossing positions (letters_left's answer)."""

    tables: Mapping[int, Table]  # the bitsets the domains index (tables' own answer)
    start: tuple[int, ...]
    supports: tuple[tuple[int, Letters], ...]


@lru_cache(maxsize=4)
def tables(words: tuple[str, ...]) -> dict[int, Table]:
    """The distinct words by length (ascending), in order of first listing.
    A long list's masks are kept in the cache (see _cache_name)."""
    groups = _groups(words)
    name = _cache_name(words)
    found = None if name is None else _cached(name, groups)
    if found is not None:
        return found
    built = {n: _table(*group) for n, group in groups.items()}
    if name is not None:
        _store(name, built)
    return built


@lru_cache(maxsize=4)
def table_scores(words: tuple[str, ...], scores: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Per length, the scores of the words of tables(words), in their order:
    `scores` holds one per word of `words` (a word listed twice has the
    score of its first listing)."""
    score_of: dict[str, int] = {}
    for word, score in zip(words, scores, strict=True):
        score_of.setdefault(word, score)
    return {n: tuple(score_of[w] for w in t.words) for n, t in tables(words).items()}


def _groups(words: tuple[str, ...]) -> dict[int, tuple[tuple[str, ...], tuple[int, ...]]]:
    """Per length (ascending), the distinct words in order of first listing
    and how many times each is listed; sorted and grouped in C, as this is
    most of the work of a dictionary whose tables come from the cache."""
    listed = dict.fromkeys(words)  # a dict keeps the order of first listing
    counts = None if len(listed) == len(words) else Counter(words)  # counting costs more
    groups = {}
    for n, group in groupby(sorted(listed, key=len), key=len):  # sorted is stable
        distinct = tuple(group)
        copies = (1,) * len(distinct) if counts is None else tuple(counts[w] for w in distinct)
        groups[n] = (distinct, copies)
    return groups


# cache
#
# Building the masks of the 200,000 words of a big dictionary takes about
# 0.3 s; reading them back as bytes from a cache entry (pybridge.cache) takes
# a tenth of that.  The entry is named after the SHA-256 of the words; its
# header lists, per length and position, each letter with the byte length
# of its mask, and the body is the masks, little-endian, one after another.

CACHED_FROM = 10_000  # words: a shorter list is built in milliseconds, not worth an entry
CACHE_FORMAT = 1


def _cache_name(words: tuple[str, ...]) -> str | None:
    """The cache entry of the tables of `words`; None for a short list, or
    one whose words could not be joined by line breaks unambiguously."""
    if len(words) < CACHED_FROM or (joined := line_joined(words)) is None:
        return None
    digest = hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()
    return f"v{CACHE_FORMAT}-{digest}.tables"


def line_joined(words: Sequence[str]) -> str | None:
    """The words joined by line breaks; None when a word holds one (the
    join would not tell the words apart). One count in C, not a test per word."""
    joined = "\n".join(words)
    return joined if joined.count("\n") == max(len(words) - 1, 0) else None


def _store(name: str, built: Mapping[int, Table]) -> None:
    layout, pieces = [], []
    for n, table in built.items():
        positions = []
        for masks in table.masks:
            sized = []
            for letter, mask in masks.items():
                piece = mask.to_bytes((mask.bit_length() + 7) // 8, "little")
                pieces.append(piece)
                sized.append((letter, len(piece)))
            positions.append(sized)
        layout.append([n, positions])
    cache.write(name, {"format": CACHE_FORMAT, "tables": layout}, b"".join(pieces))


def _cached(
    name: str, groups: Mapping[int, tuple[tuple[str, ...], tuple[int, ...]]]
) -> dict[int, Table] | None:
    """The tables kept in a cache entry; None if it is missing or does not
    fit the `groups` (per length, the words and their copies)."""
    kept = cache.read(name)
    if kept is None:
        return None
    meta, body = kept
    view, start, found = memoryview(body), 0, {}
    try:
        if meta["format"] != CACHE_FORMAT or [n for n, _ in meta["tables"]] != list(groups):
            return None
        for n, positions in meta["tables"]:
            words, copies = groups[n]
            masks = []
            for sized in positions:
                position = {}
                for letter, size in sized:
                    position[str(letter)] = int.from_bytes(view[start : start + size], "little")
                    start += size
                if sum(m.bit_count() for m in position.values()) != len(words):
                    return None  # each word has one letter at each position
                masks.append(position)
            if len(masks) != n:
                return None
            found[n] = Table(words, copies, (1 << len(words)) - 1, tuple(masks))
    except (KeyError, TypeError, ValueError):
        return None
    return found if start == len(body) else None


def letters_left(
    table: Table, domain: int, positions: Sequence[int], last: tuple[int, Letters] | None
) -> Letters:
    """The letters that the words of `domain` (a nonempty set of the table's
    words) have at each of the `positions`; the other positions keep the
    letters of `last`, or none. `last`: an earlier domain that holds this one,
    and its letters, so that only a letter of a word lost since can go. A
    position whose letters all stay keeps the very set of `last`, and when
    no position lost a letter, the letters of `last` come back themselves
    (the commonest case): a caller can tell both by `is`."""
    if last is None:
        known = [frozenset[str]()] * len(table.masks)
        for p in positions:
            masks = table.masks[p]
            known[p] = frozenset(masks) if domain == table.full else _kept(masks, masks, domain)
        return tuple(known)
    lost = last[0] ^ domain
    if not lost & (lost - 1):  # one word lost, or none: the commonest case
        return _without_word(last[1], domain, table, lost, positions)
    changed: list[frozenset[str]] | None = None  # a position whose letters stay keeps its set
    for p in positions:
        had = last[1][p]
        alive = _kept(had, table.masks[p], domain)
        if len(alive) < len(had):
            changed = changed or list(last[1])
            changed[p] = alive
    return last[1] if changed is None else tuple(changed)


def words_without(
    masks: Mapping[str, int], before: frozenset[str] | None, now: frozenset[str]
) -> int:
    """The words of a position (`masks`: letter -> the words with it there)
    whose letter there was among the letters `before` (None: any letter) of
    the crossing position and is not among those it has `now`: the words
    that a revision takes away, given that they agreed with `before`."""
    gone = 0
    for letter in (masks.keys() if before is None else before) - now:
        gone |= masks.get(letter, 0)
    return gone


def _kept(letters: Collection[str], masks: Mapping[str, int], domain: int) -> frozenset[str]:
    """The `letters` that some word of `domain` has at the position whose
    words by letter are `masks`: one AND per letter, looped in C (a
    collection yields its letters in the same order both times)."""
    return frozenset(compress(letters, map(domain.__and__, map(masks.__getitem__, letters))))


def _without_word(
    letters: Letters, domain: int, table: Table, lost: int, positions: Sequence[int]
) -> Letters:
    """`letters` without each letter of the `lost` word (one bit, or none)
    that no word of `domain` has at its position; `letters` itself if none goes."""
    if not lost:
        return letters
    word, known = table.words[lost.bit_length() - 1], None
    for p in positions:
        if not domain & table.masks[p][word[p]]:
            known = known or list(letters)
            known[p] = known[p] - {word[p]}
    return letters if known is None else tuple(known)
