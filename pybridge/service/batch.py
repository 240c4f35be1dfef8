"""Batches: `make --count N` and `wordsearch make --count N` make N puzzles
on the cube runner's Dask cluster (pybridge.service.cluster: a LocalCluster
of --workers processes, or --scheduler's), one puzzle a task, each task a
call of the service layer's job (construct, the word search maker). Each
puzzle is verified here, by the independent verifier (a crossword) or the
word search finder (every word once), before it is written
(docs/cli.md#batches).

Puzzle i (from 0) of a crossword batch starts from pattern seed S + i x
tries, so no two puzzles try the same patterns, and its fill's search
draws from seed 2i (wdeg draws from two seeds); a word search batch's puzzle i has seed S + i. S is
--seed, or one drawn and told. A puzzle the same as an earlier one (a small
grid has few patterns) is told and not written."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pybridge import verify
from pybridge.construct import Construction, construct
from pybridge.errors import EngineError
from pybridge.lexicon import Dictionary
from pybridge.model import Puzzle
from pybridge.options import MakeOptions
from pybridge.search.kernel import Lcg

if TYPE_CHECKING:
    from pybridge.wordsearch.model import Made, Request

SEEDS = 2**31  # a batch's first seed, when drawn, is below this


def first_seed(seed: int | None) -> int:
    """The batch's first seed: `seed`, or one drawn (and told by the caller)."""
    return random.randrange(SEEDS) if seed is None else seed


@dataclass(frozen=True)
class Order:
    """Puzzle `number` (from 0) of a batch, and the seed it starts from."""

    number: int
    seed: int


def crossword_orders(count: int, seed: int) -> list[Order]:
    """Puzzle 0 from `seed` (make --seed's own crossword), the others from
    seeds drawn from it: make draws its later patterns' seeds from its
    first, so nearby seeds (N, N + 1, ...) would share most patterns."""
    draws = Lcg(seed)
    return [Order(i, seed if i == 0 else draws.below(SEEDS)) for i in range(count)]


def word_search_orders(count: int, seed: int) -> list[Order]:
    return [Order(i, seed + i) for i in range(count)]


def make_one(shared: tuple[Dictionary, MakeOptions], order: Order) -> Construction:
    """A worker's task: one crossword, as `crossword make --seed` makes it."""
    words, options = shared
    asked = replace(options, pattern=replace(options.pattern, seed=order.seed))
    return construct(words.words, asked, scores=words.scores)


def fill_of(made: Construction) -> tuple[str, ...] | None:
    """A made crossword's filled grid (to tell a repeat), or None."""
    return None if made.solution is None else tuple(made.solution.grid)


def crossword_problems(words: Sequence[str], made: Construction) -> list[str]:
    """What is wrong with a made crossword's fill, checked again here by the
    independent verifier against the dictionary as read (empty: nothing)."""
    if made.status != "solved" or made.solution is None or made.pattern is None:
        return []
    frame = Puzzle(tuple(words), tuple(made.pattern.grid), "grid", mode="lexicon")
    return verify.problems(frame, made.solution.grid)


def word_search_one(request: Request, order: Order) -> Made:
    """A worker's task: one word search, as `wordsearch make --seed` makes it."""
    from pybridge.service.jobs import wordsearch_make

    return wordsearch_make(replace(request, seed=order.seed))


def word_search_problems(made: Made) -> list[str]:
    """Each listed word must be found exactly once in the grid made."""
    from pybridge import wordsearch

    if made.status != "solved":
        return []
    found = wordsearch.solve(made.grid, made.request.words)
    problems = [f"{word!r} is not in the grid" for word in found.missing]
    readings: dict[str, set[frozenset[tuple[int, int]]]] = {}
    for placement in found.found:  # a palindrome read both ways is one occurrence
        readings.setdefault(placement.word, set()).add(frozenset(placement.cells))
    problems += [
        f"{word!r} is in the grid {len(cells)} times"
        for word, cells in readings.items()
        if len(cells) > 1
    ]
    return problems


Work = Callable[[Any, Order], Any]


def run_batch(
    work: Work,
    shared: Any,
    orders: Sequence[Order],
    workers: int,
    scheduler: str | None,
    checked: Callable[[Any], list[str]],
) -> Iterator[tuple[Order, Any]]:
    """(order, what `work` made) for each order, in the orders' order once
    they end (the tasks run at once on the cluster); each checked first:
    EngineError when `checked` finds a problem."""
    from pybridge.service.cluster import DaskRunner

    ended: dict[int, Any] = {}
    following = 0
    with DaskRunner(workers, scheduler) as runner:
        for order, made in runner.map(work, shared, list(orders), name="puzzle"):
            problems = checked(made)
            if problems:
                raise EngineError(f"puzzle {order.number + 1} is wrong: {'; '.join(problems)}")
            ended[order.number] = made
            while following in ended:
                yield orders[following], ended.pop(following)
                following += 1
        if runner.lost:
            raise EngineError(f"{len(runner.lost)} puzzles lost their workers again and again")
