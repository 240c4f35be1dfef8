"""Proofs that no word search can be made, before any search
(docs/wordsearch.md#unsolvable-requests). The layers, cheapest first:

* length: a word longer than every line of the grid (or mask) in the
  directions allowed;
* cells: overlaps forbidden, and more letters than cells;
* avoid: a word to avoid inside a listed word (either way round), so
  placing that word shows it.

The exhausted search is the last layer, `search` (pybridge.wordsearch.maker).
"""

from __future__ import annotations

from pybridge.wording import plural
from pybridge.wordsearch.model import Proof, Request, total_letters
from pybridge.wordsearch.search import longest_line


def prove(request: Request) -> Proof | None:
    """The first proof that applies, or None."""
    return length_proof(request) or cells_proof(request) or avoid_proof(request)


def length_proof(request: Request) -> Proof | None:
    longest = longest_line(request.shape, request.directions)
    long_words = tuple(word for word in request.words if len(word) > longest)
    if not long_words:
        return None
    shown = ", ".join(f"{word} ({len(word)} letters)" for word in long_words)
    is_are = "is" if len(long_words) == 1 else "are"
    directions = ", ".join(request.directions)
    reason = (
        f"{shown} {is_are} longer than every line of the {request.shape.describe()} grid "
        f"in the directions {directions}: the longest has {plural(longest, 'cell')}"
    )
    return Proof("length", reason, long_words)


def cells_proof(request: Request) -> Proof | None:
    letters, cells = total_letters(request.words), request.shape.cells
    if request.overlap != "forbid" or letters <= cells:
        return None
    reason = (
        f"the {plural(len(request.words), 'word')} have {letters} letters but the "
        f"{request.shape.describe()} grid has {plural(cells, 'cell')}, and overlaps are forbidden"
    )
    return Proof("cells", reason, request.words)


def avoid_proof(request: Request) -> Proof | None:
    for word in request.words:
        for banned in request.avoid:
            if banned in word or banned[::-1] in word:
                how = "is" if banned in (word, word[::-1]) else "holds"
                backwards = "" if banned in word else " (backwards)"
                reason = (
                    f"the listed word {word} {how} {banned}{backwards}, a word to avoid: "
                    "placing it shows that word"
                )
                return Proof("avoid", reason, (word, banned))
    return None


def search_proof(request: Request, nodes: int) -> Proof:
    reason = (
        f"the search tried every placement of the {plural(len(request.words), 'word')} "
        f"({plural(nodes, 'node')}) and found none where each word appears once and "
        "the filler hides every other reading"
    )
    return Proof("search", reason, request.words)
