"""given and sorted: the listed words placed one by one, each into one of
the sites left (docs/search.md#given, #sorted); prolog/order.pl is the twin.

Each search is a generator that yields once per solution, so the first
solution costs only the search up to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator, Iterator, Sequence

from pybridge.model import Cell
from pybridge.search.kernel import EXACT_ONLY, Board, Counters, Request, Strategy

STRATEGIES = (
    Strategy("given", "order", EXACT_ONLY, False, "words in listed order", crossings=False),
    Strategy("sorted", "order", EXACT_ONLY, False, "rare lengths first", crossings=False),
)


def solutions(request: Request, counters: Counters) -> Generator[list[str], None, None]:
    """Yield each solution as the word of every site, in site order."""
    words, sites = request.words, request.layout.cells
    board = Board(request.layout.givens)
    if request.strategy == "given":
        steps = _in_order(list(words), list(range(len(sites))), sites, board, counters)
    else:
        order = length_frequency_order([len(s) for s in sites])
        word_order = length_frequency_order([len(w) for w in words])
        steps = _in_order([words[k] for k in word_order], order, sites, board, counters)
    for _ in steps:
        yield [board.read(cells) for cells in sites]


def length_frequency_order(lengths: Sequence[int]) -> list[int]:
    """Indices ordered by how often their length occurs (rare first), ties to
    the longer length, stable otherwise."""
    freq = Counter(lengths)
    return sorted(range(len(lengths)), key=lambda k: (freq[lengths[k]], -lengths[k]))


def _previous_copies(words: Sequence[str]) -> list[int | None]:
    """For each word, the position of its previous identical copy, if any."""
    last: dict[str, int] = {}
    previous: list[int | None] = []
    for k, word in enumerate(words):
        previous.append(last.get(word))
        last[word] = k
    return previous


def _in_order(
    words: list[str],
    order: list[int],
    sites: Sequence[Sequence[Cell]],
    board: Board,
    counters: Counters,
) -> Iterator[None]:
    """Word k takes one of the remaining sites, tried in `order`; a copy of a
    word only takes a site after its previous copy's."""
    previous = _previous_copies(words)
    position_of: list[int] = [-1] * len(words)  # where (in `order`) word k went
    used = [False] * len(order)

    def place(k: int) -> Iterator[None]:
        if k == len(words):
            yield None
            return
        word = words[k]
        prev = previous[k]
        after = -1 if prev is None else position_of[prev]
        for p, site in enumerate(order):
            if used[p] or len(sites[site]) != len(word) or p <= after:
                continue
            written = board.place(word, sites[site])
            if written is None:
                counters.dead_end()
                continue
            counters.node()
            used[p], position_of[k] = True, p
            yield from place(k + 1)
            used[p] = False
            board.erase(written)

    return place(0)
