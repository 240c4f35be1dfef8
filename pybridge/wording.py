"""Small pieces of the sentences the package prints: counts, lists, cells.

>>> plural(1, "node"), plural(3, "node")
('1 node', '3 nodes')
>>> and_list(["A", "B", "C"]), and_list(["x", "y"], "or")
('A, B and C', 'x or y')
>>> where((0, 4)), word_length(5), word_length(23)
('row 1, column 5', 'five-letter', '23-letter')
"""

from __future__ import annotations

from collections.abc import Sequence

Cell = tuple[int, int]

_NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


def plural(n: int, noun: str) -> str:
    """'1 noun', 'n nouns'."""
    return f"{n} {noun}{'s' * (n != 1)}"


def and_list(items: Sequence[str], last: str = "and", most: int | None = None) -> str:
    """'A', 'A and B', 'A, B and C'; past `most` items, 'A, B and 3 more'
    (a sentence naming a million sites helps nobody).

    >>> and_list(["A", "B", "C", "D"], most=2)
    'A, B and 2 more'
    """
    if most is not None and len(items) > most:
        return f"{', '.join(items[:most])} {last} {len(items) - most:,} more"
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"


def where(cell: Cell) -> str:
    """A 0-based cell as a sentence says it: rows and columns from 1."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def word_length(n: int) -> str:
    """'five-letter': the number in words up to twenty."""
    return f"{_NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else n}-letter"
