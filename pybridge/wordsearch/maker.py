"""Making a word search: check the request, try the proofs, search with the
engine asked for, and check what it made with the finder, which reads only
the grid (docs/wordsearch.md#make).
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Sequence
from dataclasses import replace

from pybridge.engines import choose_engine
from pybridge.errors import EngineError, UsageError, shown
from pybridge.wordsearch import engines, finder, proofs
from pybridge.wordsearch.model import (
    DEFAULT_LEVEL,
    LEVELS,
    Made,
    Overlap,
    Request,
    Shape,
    Stats,
    WordPlacement,
    total_letters,
)
from pybridge.wordsearch.reading import entry

SEED_BOUND = 2**32  # a seed drawn for the user fits in a short number


def default_shape(words: Sequence[str]) -> Shape:
    """A square with room for the longest word and about twice as many
    cells as letters."""
    side = max(max(map(len, words), default=2), math.ceil(math.sqrt(2 * total_letters(words))))
    return Shape.rectangle(side, side)


def request_of(
    words: Sequence[str],
    shape: Shape | None = None,
    *,
    directions: Sequence[str] = LEVELS[DEFAULT_LEVEL],
    overlap: Overlap = "allow",
    seed: int | None = None,
    avoid: Sequence[str] = (),
    letters: Sequence[str] | None = None,
    timeout: float | None = None,
) -> Request:
    """A checked request; a seed drawn at random when none is given, the
    letters of the words as the filler's when no letters are given. Words are
    normalised as the word lists are (reading.entry)."""
    words = _checked_words(words, "word to hide")
    avoid = _checked_words(avoid, "word to avoid")
    if not words:
        raise UsageError("no word to hide: give at least one")
    if seed is not None and seed < 0:
        raise UsageError(f"the seed must be an integer >= 0, got {seed}")
    if timeout is not None and not timeout > 0:
        raise UsageError(f"the time limit must be a positive number of seconds, got {timeout}")
    if overlap not in ("allow", "forbid"):
        raise UsageError(f"overlap is allow or forbid, not {shown(repr(overlap))}")
    if not directions:
        raise UsageError("no direction to place words in")
    both = sorted(set(words) & set(avoid))
    if both:
        raise UsageError(f"{shown(both[0])} is both a word to hide and a word to avoid")
    alphabet = sorted(set(entry("".join(letters if letters is not None else words))))
    if not alphabet or not "".join(alphabet).isalpha():
        raise UsageError(f"the filler takes letters only, not {shown(repr(''.join(alphabet)))}")
    return Request(
        words=tuple(words),
        shape=shape or default_shape(words),
        directions=tuple(directions),
        overlap=overlap,
        seed=secrets.randbelow(SEED_BOUND) if seed is None else seed,
        avoid=tuple(avoid),
        letters=tuple(alphabet),
        timeout=timeout,
    )


def _checked_words(words: Sequence[str], what: str) -> tuple[str, ...]:
    checked: dict[str, None] = {}
    for word in words:
        normal = entry(word)
        if len(normal) < 2 or not normal.isalpha():
            raise UsageError(f"a {what} is two or more letters, not {shown(repr(word))}")
        if normal in checked:
            raise UsageError(f"the {what} {shown(normal)} is given twice")
        checked[normal] = None
    return tuple(checked)


def make(request: Request, engine: str | None = None) -> Made:
    """The puzzle, or why there is none (a proof), or a timeout."""
    started = time.perf_counter()
    chosen = choose_engine(engine)
    proof = proofs.prove(request)
    if proof is not None:
        stats = Stats(chosen, 0, 0, time.perf_counter() - started, request.seed)
        return Made(request, "unsolvable", (), (), stats, proof)
    timeout = request.timeout
    if timeout is not None:
        timeout = max(timeout - (time.perf_counter() - started), 0.001)
    answer = engines.search(chosen, replace(request, timeout=timeout))
    stats = Stats(
        chosen, answer.nodes, answer.backtracks, time.perf_counter() - started, request.seed
    )
    if answer.status == "unsolvable":
        proof = proofs.search_proof(request, answer.nodes)
        return Made(request, "unsolvable", (), (), stats, proof)
    if answer.status != "solved":
        return Made(request, answer.status, (), (), stats)
    placements = tuple(
        WordPlacement.at(word, r, c, d)
        for word, (r, c, d) in zip(request.words, answer.places, strict=True)
    )
    problems = finder.stray(answer.grid, placements, request.avoid)
    if problems:
        raise EngineError(f"the {chosen} engine made a wrong puzzle: {problems[0]}")
    return Made(request, "solved", answer.grid, placements, stats)
