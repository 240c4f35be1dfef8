"""The word search's two engines agree: on many random small requests, the
Prolog engine and the Python engine make the same puzzle (grid, places)
with the same node and backtrack counts, or both prove there is none; every
puzzle passes the independent checker, and on tiny grids brute force agrees
with the verdict. Untrusted words reach Prolog as data."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wordsearch_check import exists, problems

from pybridge import bridge
from pybridge.wordsearch.engines import search
from pybridge.wordsearch.model import DIRECTIONS, Answer, Request, Shape
from pybridge.wordsearch.search import FIRST_LIMIT

pytestmark = pytest.mark.skipif(not bridge.available(), reason="SWI-Prolog cannot be loaded")

BRUTE_FORCE_CELLS = 6  # brute force tries letters ** cells grids
TIMEOUT = 20.0  # seconds: a timeout is no verdict to compare (never met on these sizes)


@st.composite
def requests(draw: st.DrawFn) -> Request:
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    mask = [draw(st.text(".....#", min_size=cols, max_size=cols)) for _ in range(rows)]
    if "." not in "".join(mask):
        mask[0] = "." * cols
    alphabet = draw(st.sampled_from(["AB", "ABC", "ABCD", "ЖЁ"]))
    word = st.text(alphabet, min_size=2, max_size=4)
    words = draw(st.lists(word, min_size=1, max_size=4, unique=True))
    avoid = draw(st.lists(st.text(alphabet, min_size=2, max_size=3), max_size=2, unique=True))
    directions = tuple(d for d in DIRECTIONS if draw(st.booleans())) or ("E",)
    letters = draw(st.sets(st.sampled_from(alphabet), min_size=1))
    return Request(
        words=tuple(words),
        shape=Shape(tuple(mask)),
        directions=directions,
        overlap=draw(st.sampled_from(["allow", "forbid"])),
        seed=draw(st.integers(0, 2**64 - 1)),
        avoid=tuple(w for w in avoid if w not in words),
        letters=tuple(sorted(letters)),
        timeout=TIMEOUT,
    )


def rules(request: Request) -> dict[str, object]:
    return {
        "directions": request.directions,
        "overlap": request.overlap,
        "avoid": request.avoid,
        "letters": request.letters,
    }


def verdicts(request: Request) -> tuple[Answer, Answer]:
    return search("prolog", request), search("python", request)


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(requests())
def test_both_engines_make_the_same_puzzle(request: Request) -> None:
    in_prolog, in_python = verdicts(request)
    if "timeout" in (in_prolog.status, in_python.status):
        return  # counts at a time limit depend on the clock
    assert in_prolog == in_python
    if in_python.status == "solved":
        assert not problems(
            in_python.grid, request.shape.mask, request.words, in_python.places, **rules(request)
        )
    if request.shape.cells <= BRUTE_FORCE_CELLS:
        possible = exists(request.shape.mask, request.words, **rules(request))
        assert (in_python.status == "solved") == possible


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5])
def test_same_seed_same_puzzle_in_a_bigger_grid(seed: int) -> None:
    words = ("MERCURY", "VENUS", "EARTH", "MARS", "JUPITER", "SATURN", "URANUS", "NEPTUNE")
    request = Request(words, Shape.rectangle(12, 12), seed=seed, letters=tuple("AEHIMNOPRSTUVY"))
    in_prolog, in_python = verdicts(request)
    assert in_prolog == in_python
    assert in_python.status == "solved"


def test_restarts_and_dead_ends_are_counted_alike() -> None:
    # tight: 21 letters in 16 cells, many readings to hide with 3 letters
    words = ("TEA", "EAT", "ATE", "TAN", "ANT", "NET", "TEN")
    request = Request(words, Shape.rectangle(4, 4), seed=6, letters=("A", "E", "N", "T"))
    in_prolog, in_python = verdicts(request)
    assert in_prolog == in_python
    assert in_python.backtracks > FIRST_LIMIT  # so the first run stopped and a second began


@pytest.mark.parametrize(
    "words",
    [
        ("'), halt, ('", "AB"),
        ('Ä"\\', "X\\Y"),
        ("~w~a", "$'\"`"),
    ],
)
def test_hostile_words_are_data_in_prolog(words: tuple[str, ...]) -> None:
    # the readers refuse such words; here they go to both engines as they are
    letters = tuple(sorted(set("".join(words))))
    request = Request(words, Shape.rectangle(12, 12), seed=3, letters=letters)
    in_prolog, in_python = verdicts(request)
    assert in_prolog == in_python
    assert in_prolog.status == "solved"
    assert search("prolog", Request(("AB",), Shape.rectangle(1, 2), letters=("A",))).status == (
        "solved"
    )  # the engine is still there
