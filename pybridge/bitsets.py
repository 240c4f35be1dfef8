"""Words of one length as bitsets, the tables the proofs and wdeg read.

Bit k of a set of n-letter words stands for the k-th distinct n-letter word,
in order of first listing. `Table.masks[p][c]` is the set of words with
letter c at position p, so "the words that fit" is a few big-integer ANDs.
Building the tables of a big dictionary costs tens of milliseconds, so they
are kept for the last few word lists seen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress

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


def _table(listed: dict[str, int]) -> Table:
    words = tuple(listed)
    if len(words) <= FEW_WORDS:
        masks = _few_letter_sets(words)
    else:
        masks = tuple(_letter_sets("".join(w[p] for w in words)) for p in range(len(words[0])))
    return Table(words, tuple(listed.values()), (1 << len(words)) - 1, masks)


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
    """The distinct words by length (ascending), in order of first listing."""
    by_length: dict[int, dict[str, int]] = {}
    for word, n in Counter(words).items():  # a Counter keeps the order of first listing
        by_length.setdefault(len(word), {})[word] = n
    return {n: _table(group) for n, group in sorted(by_length.items())}


def members(words: int) -> list[int]:
    """The indices of a set's words, ascending."""
    if words.bit_count() <= 16:  # a few words: peel them off, lowest first
        found = []
        while words:
            low = words & -words
            found.append(low.bit_length() - 1)
            words ^= low
        return found
    text = bin(words)[:1:-1]  # else read the binary numeral, which costs per bit
    found, k = [], text.find("1")
    while k >= 0:
        found.append(k)
        k = text.find("1", k + 1)
    return found


def letters_left(
    table: Table, domain: int, positions: Sequence[int], last: tuple[int, Letters] | None
) -> Letters:
    """The letters that the words of `domain` (a nonempty set of the table's
    words) have at each of the `positions`; the other positions keep the
    letters of `last`, or none. `last`: an earlier domain that holds this one,
    and its letters, so that only a letter of a word lost since can go. When
    one word went and took no letter with it, the letters of `last` come back
    themselves (the commonest case: a caller can tell it by `is`)."""
    if last is None:
        known = [frozenset[str]()] * len(table.masks)
        for p in positions:
            masks = table.masks[p]
            known[p] = frozenset(masks) if domain == table.full else _kept(masks, masks, domain)
        return tuple(known)
    lost = last[0] ^ domain
    if not lost & (lost - 1):  # one word lost, or none: the commonest case
        return _without_word(last[1], domain, table, lost, positions)
    known = list(last[1])
    for p in positions:
        known[p] = _kept(known[p], table.masks[p], domain)
    return tuple(known)


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
