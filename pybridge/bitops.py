"""bitops: the questions the search asks of its bitsets (Python ints over a
length's words, see pybridge.bitsets) millions of times a run, answered
without building a new int where Python would build one.

This file is their specification and their form wherever no compiled build
is in use. `./setup.sh` also compiles bitops.c, the same functions in C:
they compare the ints' digits in place, allocate nothing and stop as soon
as the answer is known (the first digit two sets share, the count passing
its bound). pybridge/compiled.py loads one form or the other, and tests
hold them to the same answers (tests/test_bitops.py) and the same search
(tests/test_compiled.py). Every argument named a set is an int >= 0.
"""

from __future__ import annotations

from collections.abc import Sequence


def overlap(a: int, b: int) -> bool:
    """Whether the sets a and b share a member."""
    return bool(a & b)


def missing(domain: int, letters: int, masks: Sequence[int]) -> int:
    """The `letters` (bit c: letter c) none of whose words (masks[c]) is in
    `domain`, as bits."""
    gone, rest = 0, letters
    while rest:
        low = rest & -rest
        if not domain & masks[low.bit_length() - 1]:
            gone |= low
        rest ^= low
    return gone


def revise(
    domain: int, has: int, gone: int, alive: int, without: Sequence[int], masks: Sequence[int]
) -> int:
    """`domain` less its words whose letter at a crossing went from the
    other side's letters there: `gone` went and `alive` stayed (letters as
    bits, c standing for letter c), and of them only the letters `has` can
    be in domain. The words with an alive letter (masks[c]) are kept, an
    OR per letter, when fewer letters are alive than gone; else those with
    a gone letter go, an AND per letter (without[c]: the words without c)."""
    if alive.bit_count() < gone.bit_count():
        keep, letters = 0, alive & has
        while letters:
            low = letters & -letters
            keep |= masks[low.bit_length() - 1]
            letters ^= low
        return domain & keep
    letters = gone & has
    while letters:
        low = letters & -letters
        domain &= without[low.bit_length() - 1]
        letters ^= low
    return domain


def at_most(words: int, n: int) -> bool:
    """Whether the set holds at most n members."""
    return words.bit_count() <= n


def count(words: int) -> int:
    """How many members the set holds."""
    return words.bit_count()


def common(a: int, b: int) -> int:
    """How many members a and b share."""
    return (a & b).bit_count()


def differ(a: int, b: int) -> int:
    """The one member in which a and b differ (in one and not the other);
    -1 if they are equal, -2 if they differ in more than one."""
    changed = a ^ b
    if not changed:
        return -1
    return changed.bit_length() - 1 if not changed & (changed - 1) else -2


def members(words: int) -> list[int]:
    """The set's members, ascending."""
    if words.bit_count() <= 16:  # a few: peel them off, lowest first
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
