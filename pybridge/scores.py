"""Word scores: how good a word is in a fill, as a scored word list says.

A scored list gives each word a number (`WORD;score`, the Crossfire and
ingrid_core convention, 0-100; or `WORD weight`, RP 2016's weights in
[0, 1]). The numbers are kept exactly as written: they are decimals, and
both engines reckon with integers, each score as written times `scale`
(10 to the power of the most digits after the point among them), so that a
sum or a comparison can never come out differently in Prolog and in Python.
A fill's value is shown back on the scale of the list (docs/formats.md#scored-dictionaries).

    >>> scores = Scores({"ERNE": Decimal("10"), "WATER": Decimal("0.5")})
    >>> scores.scale, scores.value("WATER"), scores.value("ERNE"), scores.value("ELSE")
    (10, 5, 100, 500)
    >>> Score.of(["ERNE", "WATER"], scores).min, Score.of(["ERNE", "WATER"], scores).sum
    (Decimal('0.5'), Decimal('10.5'))
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Context, Decimal, InvalidOperation, localcontext
from functools import cached_property
from typing import Literal

from pybridge import wordlist

Objective = Literal["min", "sum"]
OBJECTIVES: tuple[Objective, ...] = ("min", "sum")

KEPT_VALUES = 4
DEFAULT_SCORE = Decimal(50)  # an entry without a score: the middle of the usual 0-100 scale
# The acceptable line of the 0-100 scale (the shipped list's): a fill tells
# how many of its entries score below it.
ACCEPTABLE = Decimal(wordlist.ACCEPTABLE)
LOWEST = 3  # a fill's lowest-scored entries shown (more when more are below the line)
MOST_LOWEST = 10
MAX_DIGITS = 30  # digits before or after the point in a score

# Enough digits for any score (MAX_DIGITS before and after the point), times
# a scale of up to 10**MAX_DIGITS, summed over any fill: arithmetic under
# this context is exact where the default 28 digits would round, so both
# engines' integers and the figures shown are the scores as written.
EXACT = Context(prec=4 * MAX_DIGITS + 40)

# ASCII digits only: `\d` alone would read a fullwidth or an Arabic-Indic five (U+FF15, U+0665) as 5
NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?", re.ASCII)


def parse_score(text: str) -> Decimal | None:
    """The score `text` spells (a decimal number, at most MAX_DIGITS digits
    before and after the point), or None when it is not one."""
    if not NUMBER.fullmatch(text):
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only numbers
        return None
    if number and (number.adjusted() >= MAX_DIGITS or _decimals(number) > MAX_DIGITS):
        return None
    return number


def _decimals(number: Decimal) -> int:
    """How many digits after the point `number` needs."""
    exponent = number.normalize().as_tuple().exponent
    assert isinstance(exponent, int)  # finite numbers only
    return max(0, -exponent)


def score_text(number: Decimal) -> str:
    """A score as a person writes it: 40, 0.5, -2.25 (never 4E+1)."""
    text = format(number.normalize(), "f")
    return text


@dataclass(frozen=True)
class Scores:
    """The scores of a word list: `written` per word that has one, `default`
    for the others; `floor`, when set, is the least score the words still in
    the list have (`--min-score`)."""

    written: Mapping[str, Decimal]
    default: Decimal = DEFAULT_SCORE
    floor: Decimal | None = field(default=None)
    # values() of the last word lists asked for: a dictionary's take a tenth of a second
    _made: dict[tuple[str, ...], tuple[int, ...]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    @cached_property
    def scale(self) -> int:
        """10 to the power of the most digits after the point of any score
        (the default and the floor included): every score times it is an integer."""
        # the distinct scores only: a list of 66,000 words has a hundred (0.04 s less a command)
        numbers = {*self.written.values(), self.default}
        if self.floor is not None:
            numbers.add(self.floor)
        digits: int = max(map(_decimals, numbers), default=0)
        return int(10**digits)

    def score(self, word: str) -> Decimal:
        """The score of `word` as written (the default without one)."""
        return self.written.get(word, self.default)

    def value(self, word: str) -> int:
        """The score of `word` as the engines take it: times `scale`."""
        with localcontext(EXACT):
            return int(self.score(word) * self.scale)

    def values(self, words: Sequence[str]) -> tuple[int, ...]:
        """value() of each of the `words` (kept for the last few lists)."""
        listed = tuple(words)
        made = self._made.get(listed)
        if made is None:
            written, default, scale = self.written, self.default, self.scale
            with localcontext(EXACT):
                made = tuple(int(written.get(word, default) * scale) for word in listed)
            if len(self._made) >= KEPT_VALUES:
                self._made.clear()
            self._made[listed] = made
        return made

    def unscaled(self, value: int) -> Decimal:
        """An engine's integer back on the list's scale."""
        with localcontext(EXACT):
            return Decimal(value) / self.scale

    @cached_property
    def has_line(self) -> bool:
        """Whether the list is on the 0-100 scale whose acceptable line is
        ACCEPTABLE: some score above 1 (RP 2016's weights, all in [0, 1],
        have no such line)."""
        return any(score > 1 for score in self.written.values())

    @cached_property
    def levels(self) -> tuple[Decimal, ...]:
        """Every score a word of the list can have (the default too), in
        increasing order."""
        return tuple(sorted({*self.written.values(), self.default}))

    def above(self, score: Decimal) -> Decimal | None:
        """The least score of the list above `score`; None when none is."""
        levels = self.levels
        at = bisect.bisect_right(levels, score)
        return levels[at] if at < len(levels) else None

    def keeping(self, words: Sequence[str], least: Decimal) -> tuple[str, ...]:
        """The `words` that score `least` or more."""
        threshold = math.ceil(least * self.scale)  # an integer value is at least it, or not
        values = self.values(words)
        return tuple(word for word, value in zip(words, values, strict=True) if value >= threshold)

    def with_floor(self, floor: Decimal) -> Scores:
        """These scores with `floor` (the least of the words kept), what they
        worked out already carried over: an ascent asks for many floors."""
        made = replace(self, floor=floor)
        known = self.__dict__
        if "scale" in known:
            made.__dict__["scale"] = scale = max(self.scale, int(10 ** _decimals(floor)))
            if scale == self.scale:  # the same values: one cache of them
                object.__setattr__(made, "_made", self._made)
        for name in ("has_line", "levels"):
            if name in known:
                made.__dict__[name] = known[name]
        return made


@dataclass(frozen=True)
class Score:
    """A fill's scores: the lowest word score, the total and the mean (None
    without a fill); with an objective, whether the fill is optimal and the
    best value a fill can have (equal to the fill's when it is optimal;
    None when unknown). What a constructor reads besides: the fill's
    `words` (entries), its `lowest` entries with their scores (the LOWEST
    lowest, or every one below the line, at most MOST_LOWEST), and how many
    entries score `below` the ACCEPTABLE line (None when the list has no
    such line: see Scores.has_line)."""

    min: Decimal | None
    sum: Decimal | None
    mean: Decimal | None
    optimal: bool | None = None
    bound: Decimal | None = None
    words: int | None = None
    lowest: tuple[tuple[str, Decimal], ...] = ()
    below: int | None = None

    @classmethod
    def of(cls, words: Sequence[str], scores: Scores) -> Score:
        """The scores of a fill's words; the mean rounded to one digit more
        than the scores have after the point."""
        each = [scores.score(word) for word in words]
        digits = len(str(scores.scale))  # one more than the zeros of the scale
        ranked = sorted(zip(each, words, strict=True))
        below = sum(score < ACCEPTABLE for score in each) if scores.has_line else None
        shown = min(max(LOWEST, below or 0), MOST_LOWEST)
        lowest = tuple((word, score) for score, word in ranked[:shown])
        with localcontext(EXACT):
            total = sum(each, Decimal(0))
            mean = round(total / len(each), digits)
        return cls(min(each), total, mean, None, None, len(each), lowest, below)

    def objective(self, objective: Objective) -> Decimal | None:
        return self.min if objective == "min" else self.sum


def json_number(number: Decimal) -> int | float:
    """A decimal as a JSON number: an integer when it is whole."""
    return int(number) if number == number.to_integral_value() else float(number)
