"""Words of one length as bitsets, the tables the proofs and wdeg read.

Bit k of a set of n-letter words stands for the k-th distinct n-letter word,
in order of first listing. `Table.masks[p][c]` is the set of words with
letter c at position p, so "the words that fit" is a few big-integer ANDs.
Building the tables of a big dictionary costs tens of milliseconds, so they
are kept for the last few word lists seen.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

FEW_WORDS = 128  # of a length: up to this many, the masks are built word by word


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
