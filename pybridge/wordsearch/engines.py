"""The word search's two engines behind one call, a Request in and an
Answer out: the Python search (pybridge.wordsearch.search) and its Prolog
twin (prolog/wordsearch.pl, through pybridge.bridge).

The request reaches Prolog as data: the words, the words to avoid, the
filler's letters and the mask go as strings made through the foreign
interface; only integers and fixed atoms that we write are read as terms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from pybridge import bridge
from pybridge.errors import EngineError
from pybridge.search.kernel import Status
from pybridge.wordsearch import search as python_search
from pybridge.wordsearch.model import DIRECTIONS, Answer, Request


def prolog_search(request: Request) -> Answer:
    """The request searched by wordsearch:make_text/11."""
    shape = request.shape
    controls = [
        str(int(shape.rows)),
        str(int(shape.cols)),
        "[" + ",".join(str(DIRECTIONS.index(d)) for d in request.directions) + "]",
        "allow" if request.overlap == "allow" else "forbid",
        str(int(request.seed)),
    ]
    texts = [
        _lines(request.words),
        _lines(request.avoid),
        "".join(request.letters),
        _lines(shape.mask),
    ]
    answer = bridge.call("wordsearch", "make_text", controls, texts, request.timeout)
    if answer is None:  # another search held the engine past the time limit
        return Answer("timeout", (), (), 0, 0)
    return _answer(answer, len(request.words), shape.rows)


def _lines(items: tuple[str, ...]) -> str:
    return "".join(f"{item}\n" for item in items)


def _answer(text: str, words: int, rows: int) -> Answer:
    head, *lines = text.split("\n")
    status, nodes, backtracks = head.split()
    if status not in ("solved", "unsolvable", "timeout"):
        raise EngineError(f"the Prolog engine answered {head!r}")
    places: tuple[tuple[int, int, str], ...] = ()
    grid: tuple[str, ...] = ()
    if status == "solved":
        triples = [tuple(map(int, line.split())) for line in lines[:words]]
        places = tuple((r, c, DIRECTIONS[d]) for r, c, d in triples)
        grid = tuple(lines[words : words + rows])
    return Answer(cast(Status, status), grid, places, int(nodes), int(backtracks))


ENGINES = ("prolog", "python")
SEARCH: dict[str, Callable[[Request], Answer]] = {
    "prolog": prolog_search,
    "python": python_search.search,
}


def search(engine: str, request: Request) -> Answer:
    """The request searched by `engine` ("prolog" or "python")."""
    return SEARCH[engine](request)
