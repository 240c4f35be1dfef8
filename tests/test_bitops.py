"""pybridge/bitops.py and its C form (bitops.c, built by ./setup.sh): the
same answer to every question, on sets of every size the search meets (the
C form reads the ints' digits 64 bits at a time: sizes around each multiple
of 60 and 64 bits matter), and the same errors on what is no set.

The suite imports the interpreted form (tests/conftest.py); the C form is
loaded here from its built file, beside it."""

from __future__ import annotations

import importlib.machinery
import importlib.util
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge import bitops, compiled

FUNCTIONS = ("overlap", "missing", "revise", "at_most", "count", "common", "differ", "members")


def _built() -> ModuleType | None:
    path = compiled._extension("pybridge.bitops")
    if path is None or compiled.why_interpreted(ignore_environment=True) is not None:
        return None
    loader = importlib.machinery.ExtensionFileLoader("pybridge.bitops", str(path))
    spec = importlib.util.spec_from_file_location("pybridge.bitops", path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


C = _built()
needs_c = pytest.mark.skipif(C is None, reason=f"no C build: {compiled.why_interpreted(True)}")


def sets() -> st.SearchStrategy[int]:
    """Sets of up to a few thousand members: dense, sparse, and built of runs."""
    width = st.integers(0, 3000)
    dense = width.flatmap(lambda n: st.integers(0, (1 << n) - 1))
    sparse = st.lists(st.integers(0, 3000), max_size=40).map(lambda ks: sum({1 << k for k in ks}))
    runs = st.tuples(st.integers(0, 2000), st.integers(0, 300)).map(
        lambda r: ((1 << r[1]) - 1) << r[0]
    )
    return st.one_of(dense, sparse, runs, st.sampled_from([0, 1, 1 << 59, 1 << 60, 1 << 64]))


def test_the_interpreted_form_is_the_py_file() -> None:
    assert bitops.__file__ is not None
    assert bitops.__file__.endswith("bitops.py")


def test_the_c_form_has_every_function() -> None:
    if C is None:
        pytest.skip(f"no C build: {compiled.why_interpreted(True)}")
    assert all(callable(getattr(C, name)) for name in FUNCTIONS)


@needs_c
@settings(max_examples=400, deadline=None)
@given(sets(), sets(), st.integers(-2, 70))
def test_both_forms_answer_alike(a: int, b: int, n: int) -> None:
    assert C is not None
    for name, args in (
        ("overlap", (a, b)),
        ("at_most", (a, n)),
        ("count", (a,)),
        ("common", (a, b)),
        ("differ", (a, b)),
        ("differ", (a, a ^ (1 << n if n >= 0 else 0))),
        ("members", (a,)),
    ):
        assert getattr(C, name)(*args) == getattr(bitops, name)(*args), (name, args)


@needs_c
@settings(max_examples=200, deadline=None)
@given(sets(), st.lists(sets(), min_size=1, max_size=70), st.integers(0, (1 << 70) - 1))
def test_both_forms_find_the_same_missing_letters(domain: int, masks: list[int], draw: int) -> None:
    assert C is not None
    letters = draw & ((1 << len(masks)) - 1)  # letters beyond 64 take the C form's wide way
    assert C.missing(domain, letters, masks) == bitops.missing(domain, letters, masks)


@needs_c
@settings(max_examples=300, deadline=None)
@given(
    sets(),
    st.lists(st.tuples(sets(), sets()), min_size=1, max_size=70),
    st.tuples(*[st.integers(0, (1 << 70) - 1)] * 3),
)
def test_both_forms_revise_alike(
    domain: int, tables: list[tuple[int, int]], draws: tuple[int, int, int]
) -> None:
    assert C is not None
    without, masks = [w for w, _ in tables], [m for _, m in tables]
    has, gone, alive = (draw & ((1 << len(tables)) - 1) for draw in draws)
    args = (domain, has, gone, alive, without, masks)
    assert C.revise(*args) == bitops.revise(*args)
    if C.revise(*args) == domain:  # nothing went: the domain itself, no new int
        assert C.revise(*args) is domain


def test_revise_keeps_the_words_of_letters_left() -> None:
    # words 0-3 of letters 0, 1, 2, 0 at the crossing
    masks, without = [0b1001, 0b0010, 0b0100], [0b0110, 0b1101, 0b1011]
    assert bitops.revise(0b1111, 0b111, 0b110, 0b001, without, masks) == 0b1001  # by an OR
    assert bitops.revise(0b1111, 0b111, 0b001, 0b110, without, masks) == 0b0110  # by an AND
    assert bitops.revise(0b1111, 0b011, 0b100, 0b011, without, masks) == 0b1111  # has no letter 2


def test_missing_letters_are_bits() -> None:
    masks = [0b0011, 0b0100, 0b1000, 0b0001]  # the words of letters 0, 1, 2, 3
    assert bitops.missing(0b0001, 0b1111, masks) == 0b0110
    assert bitops.missing(0b1111, 0b1111, masks) == 0
    assert bitops.missing(0b0001, 0b0101, masks) == 0b0100


def test_differ_names_the_one_member_apart() -> None:
    assert bitops.differ(0b1011, 0b1011) == -1
    assert bitops.differ(0b1011, 0b0011) == 3
    assert bitops.differ(1 << 700, 0) == 700
    assert bitops.differ(0b1011, 0b0001) == -2


@needs_c
def test_the_c_form_refuses_what_is_no_set() -> None:
    assert C is not None
    with pytest.raises(ValueError, match="a set is an int >= 0"):
        C.overlap(-1, 1)
    with pytest.raises(TypeError):
        C.count("1")
    with pytest.raises(IndexError):
        C.missing(1, 0b10, [1])
    with pytest.raises(TypeError):
        C.members()
    with pytest.raises(IndexError):
        C.revise(1, 0b10, 0b10, 0b10, [1], [1])
    with pytest.raises(TypeError):
        C.revise(1, 1, 1, 0, (1,), [1])
