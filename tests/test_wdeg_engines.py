"""wdeg in both engines: on real grids filled from a real dictionary they
must give the same fills in the same order with the same node and dead-end
counts, through restarts, the runs that prefer the words of an earlier run
and the probes of split regions, and from the weights an earlier search
learned (the warm start); and the Prolog engine takes a dictionary over
once, not once per grid."""

from __future__ import annotations

import random
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from puzzlegen import open_square, random_puzzle

from pybridge import bridge, engines
from pybridge.gridfiles import load_grid
from pybridge.layout import layout_of
from pybridge.lexicon import load_dictionary
from pybridge.model import Puzzle
from pybridge.search import wdeg
from pybridge.search.kernel import Request, Result
from pybridge.solver import Outcome, run

pytestmark = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")

# (grid, seed): a plain fill, seeds that restart, a region probe ("alone"),
# runs whose preferred word goes first, words ruled out by nogoods.
BENCH_CASES = [
    ("g15.01", None),
    ("g15.01", 1),
    ("g19.02", None),  # 3 restarts, 22 probes: the second stream fills it
    ("g19.02", 2),  # 3 restarts, 19 probes; both streams draw their weights
    ("g19.02", 3),
    ("g15.04", None),  # about 8100 nodes, 12 restarts, 347 probes, 86 put first, nogoods
    ("g21.03", None),
    ("g21.03", 1),
    ("g21.03", 2),
    ("puzzle05", None),
    ("puzzle05", 1),
    ("puzzle17", None),
    ("puzzle17", 2),
]


def signature(outcome: Outcome) -> tuple[object, ...]:
    grids = [s.grid for s in outcome.solutions]
    return outcome.status, grids, outcome.stats.nodes, outcome.stats.backtracks


def both(puzzle: Puzzle, **options: Any) -> tuple[Outcome, Outcome]:
    python, prolog = (
        run(puzzle, engine=e, strategy="wdeg", prove=False, **options) for e in ("python", "prolog")
    )
    return python, prolog


@pytest.fixture(scope="module")
def scowl55(shared_dir: Path) -> tuple[str, ...]:
    return load_dictionary([shared_dir / "bench" / "dicts" / "scowl55.txt"]).words


def bench_grid(shared_dir: Path, name: str, words: tuple[str, ...]) -> Puzzle:
    grid = load_grid(shared_dir / "bench" / "grids" / "vanbeek" / f"{name}.txt")[0]
    return replace(grid, words=words, mode="lexicon")


class Events:
    """Counts the Python engine's restarts, region probes, the words its
    phase puts first and the words its first choices refuted."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.restarts = 0
        self.probes = 0
        self.preferred = 0
        self.refuted = 0
        node, fills_alone = wdeg.Search.node, wdeg.Search.fills_alone
        preferred = wdeg.Search.preferred

        def counted_node(search: wdeg.Search) -> None:
            try:
                node(search)
            except wdeg.Restart:
                self.restarts += 1
                self.refuted = max(self.refuted, len(search.refuted))
                raise

        def counted_fills_alone(search: wdeg.Search, *args: Any) -> bool:
            self.probes += 1
            return fills_alone(search, *args)

        def counted_preferred(search: wdeg.Search, s: int, words: list[int]) -> list[int]:
            first = words[0]
            words = preferred(search, s, words)
            self.preferred += words[0] != first
            return words

        monkeypatch.setattr(wdeg.Search, "preferred", counted_preferred)
        monkeypatch.setattr(wdeg.Search, "node", counted_node)
        monkeypatch.setattr(wdeg.Search, "fills_alone", counted_fills_alone)


@pytest.mark.parametrize(("name", "seed"), BENCH_CASES)
def test_engines_agree_on_bench_grids(
    shared_dir: Path,
    scowl55: tuple[str, ...],
    name: str,
    seed: int | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzle = bench_grid(shared_dir, name, scowl55)
    events = Events(monkeypatch)
    python, prolog = both(puzzle, seed=seed, limit=2, timeout=120)
    assert python.status == "solved"
    assert len(python.solutions) == 2
    assert signature(prolog) == signature(python)
    if (name, seed) in (("g19.02", None), ("g19.02", 2), ("g15.04", None)):
        assert events.restarts > 0, "the case no longer restarts: pick another"
    if (name, seed) == ("g15.04", None):
        assert events.preferred > 0, "the phase no longer puts a word first: pick another"

    if (name, seed) == ("g19.02", None):  # the streams take turns, one run each
        assert events.restarts % 2 == 1, "the first stream fills it now: pick another"
    if name == "g21.03" or (name, seed) == ("g19.02", None):
        assert events.probes > 0, "the case no longer probes a split: pick another"


def learned(result: Result) -> tuple[object, ...]:
    return result.status, result.solutions, result.nodes, result.backtracks, result.weights


# (grid, seed of the search that learns, seed of the one that starts from
# what it learned): a fill after restarts, and a seed that would draw its weights
WARM_CASES = [("g19.02", None, None), ("g19.02", None, 2), ("g15.04", None, None)]


@pytest.mark.parametrize(("name", "seed", "again"), WARM_CASES)
def test_engines_agree_from_learned_weights(
    shared_dir: Path, scowl55: tuple[str, ...], name: str, seed: int | None, again: int | None
) -> None:
    """A search's Result.weights (its crossings' weights at its fill) are
    the same in both engines, and a search started from them
    (Request.weights, the ascent's warm start) is the same search in both:
    fills, nodes, dead ends and what it learned in turn."""
    puzzle = bench_grid(shared_dir, name, scowl55)
    request = Request(layout_of(puzzle), puzzle.words, "wdeg", seed=seed, timeout=120)
    first = [engines.search(e, request) for e in ("python", "prolog")]
    assert learned(first[1]) == learned(first[0])
    weights = first[0].weights
    assert weights is not None
    assert len(weights) == len(request.layout.crossings)
    assert max(weights) > 1, "no dead end: pick a case that learns"
    warm = replace(request, seed=again, weights=weights)
    second = [engines.search(e, warm) for e in ("python", "prolog")]
    assert learned(second[1]) == learned(second[0])
    assert second[0].status == "solved"
    fresh = engines.search("python", replace(request, seed=again))
    assert learned(fresh) != learned(second[0]), "the start weights changed nothing"


def test_no_fill_learns_no_weights(shared_dir: Path) -> None:
    words = load_dictionary([shared_dir / "bench" / "dicts" / "scowl35.txt"]).words
    puzzle = bench_grid(shared_dir, "g15.04", words)  # no fill (see below)
    request = Request(layout_of(puzzle), puzzle.words, "wdeg", timeout=300)
    for engine in ("python", "prolog"):
        assert engines.search(engine, request).weights is None
        assert engines.search(engine, replace(request, node_limit=10)).weights is None


def test_start_weights_must_be_one_per_crossing() -> None:
    puzzle = Puzzle(("ab", "ac"), ("..", ".#"), format="grid", mode="lexicon")
    request = Request(layout_of(puzzle), puzzle.words, "wdeg", weights=(1, 1))
    with pytest.raises(ValueError, match="2 weights for 1 crossings"):
        engines.search("python", request)


def test_engines_agree_on_a_proof_that_refuted_words_shorten(
    shared_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """g15.04 has no fill from scowl35: the search shows it after runs whose
    first choices refuted words, which later runs take out of the root (in
    about 500 nodes; some 2,000 without)."""
    words = load_dictionary([shared_dir / "bench" / "dicts" / "scowl35.txt"]).words
    puzzle = bench_grid(shared_dir, "g15.04", words)
    events = Events(monkeypatch)
    python, prolog = both(puzzle, timeout=300)
    assert python.status == "unsolvable"
    assert signature(prolog) == signature(python)
    assert events.restarts > 0
    assert events.refuted > 0


@pytest.mark.parametrize(
    "draws",
    [127, 105],  # six runs to the first fill; the second stream takes round 2 first
)
def test_engines_agree_on_squares_that_restart(draws: int) -> None:
    python, prolog = both(open_square(draws), limit=None)
    assert python.status == "solved"
    assert signature(prolog) == signature(python)


def synthetic_words(count: int, rng: random.Random) -> tuple[str, ...]:
    words = ("".join(rng.choice("aeinrst") for _ in range(rng.randint(3, 5))) for _ in range(count))
    return tuple(dict.fromkeys(words))


def test_prolog_takes_a_dictionary_over_once(monkeypatch: pytest.MonkeyPatch) -> None:
    words = synthetic_words(400, random.Random(55))
    sent = []
    text = bridge.wire.dictionary_text
    monkeypatch.setattr(
        bridge.wire, "dictionary_text", lambda w, *whole: sent.append(len(w)) or text(w, *whole)
    )
    grids = [("....", "....", "....", "...."), ("...#", "....", "....", "#...")]
    for rows in grids:
        puzzle = Puzzle(words, rows, format="grid", mode="lexicon")
        python, prolog = both(puzzle, limit=3)
        assert signature(prolog) == signature(python)
    assert sent == [len(words)]


def test_exact_mode_with_repeated_words() -> None:
    """A word square: each word goes across and down, so each is listed twice."""
    puzzle = Puzzle(("bat", "are", "tea", "tea", "are", "bat"), ("...",) * 3, format="grid")
    python, prolog = both(puzzle, limit=None)
    assert signature(prolog) == signature(python)
    assert [s.grid for s in python.solutions] == [("bat", "are", "tea")]


def test_big_masks_cross_in_pieces() -> None:
    mask = (1 << (2 * bridge.wire.MASK_CHUNK + 7)) | (1 << bridge.wire.MASK_CHUNK) | 5
    pieces = [int(p, 16) for p in bridge.wire.mask(mask).split(",")]
    assert len(pieces) == 3
    value = 0
    for piece in pieces:
        value = (value << bridge.wire.MASK_CHUNK) | piece
    assert value == mask
    assert bridge.wire.mask(6) == "0x6"
    assert bridge.wire.mask(0) == "0x0"


@pytest.mark.parametrize("whole", [True, False])
def test_a_dictionary_with_masks_of_many_pieces_searches_alike(
    whole: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over 2 * MASK_CHUNK words of one length, and words that would be
    Prolog code if they were ever read as text; the masks put as integers
    whole, or sent as hex text (the path for an SWI-Prolog without GMP)."""
    if not whole:
        monkeypatch.setattr(bridge.ffi, "whole_integers", lambda: None)
    rng = random.Random(7 if whole else 8)  # other words, so that they are sent again
    words = tuple(
        dict.fromkeys("".join(rng.choice("abcdefg") for _ in range(5)) for _ in range(3000))
    )
    assert len(words) > 2 * bridge.wire.MASK_CHUNK
    odd = ("'),halt,('", 'ä"\\x', "a b=c")  # lengths 10, 4, 5
    puzzle = Puzzle(
        words + odd, (".....", ".#.#.", ".....", ".#.#.", "....."), format="grid", mode="lexicon"
    )
    python, prolog = both(puzzle, limit=3)
    assert signature(prolog) == signature(python)
    assert python.status == "solved"


# Grids with sites of lengths the words lack, isolated sites, rings.
SMALL_GRIDS = [("...", ".#.", "..."), ("..", ".."), ("...",), ("..#...", "..#..."), ("x.", "..")]
SMALL_WORDS = [("abcd", "ab", "ba"), ("abcd",), ("ab", "ba", "aa", "abc"), ("abc", "bca", "cab")]


@pytest.mark.parametrize("rows", SMALL_GRIDS, ids=str)
@pytest.mark.parametrize("words", SMALL_WORDS, ids=str)
def test_small_grids_with_missing_lengths(rows: tuple[str, ...], words: tuple[str, ...]) -> None:
    puzzle = Puzzle(words, rows, format="grid", mode="lexicon")
    python, prolog = both(puzzle, limit=None)
    assert signature(python) == signature(prolog)


def test_letters_far_apart_in_code_search_alike() -> None:
    # arcs.pl finds a letter's entry by its code in a term spanning the
    # codes of a position, or in a list when they lie too far apart
    # (max_code_span/1): "a" and "中" take the list, in each revision that
    # loses one word or keeps one.
    words = ("ab", "ba", "a中", "中a", "b中", "中b", "中中", "bb")
    puzzle = Puzzle(words, ("..", ".."), format="grid", mode="lexicon")
    python, prolog = both(puzzle, limit=None)
    assert signature(python) == signature(prolog)
    assert any("中" in "".join(s.grid) for s in prolog.solutions)


def test_a_probe_ignores_open_sites_outside_its_parts() -> None:
    # Found by test_engines: a part tried alone used up the last copy of a
    # word that a site of another, still open part needed, and so "failed
    # alone"; the split was then given up and a solvable puzzle reported
    # unsolvable. The probe now sees only its own parts as open.
    puzzle, planted = random_puzzle(
        random.Random(9751), sizes=(8, 13), words=(15, 35), max_length=9
    )
    python, prolog = both(puzzle, limit=None)
    assert signature(python) == signature(prolog)
    mrv = run(puzzle, engine="python", strategy="mrv", limit=None, prove=False)
    assert sorted(s.grid for s in python.solutions) == sorted(s.grid for s in mrv.solutions)
    assert planted in {s.grid for s in python.solutions}


def test_masks_put_whole_equal_masks_sent_as_text() -> None:
    """The two ways a dictionary crosses give arcs.pl the same term: masks of
    one limb and of many, words that would be code if read as text."""
    rng = random.Random(12)
    words = (*synthetic_words(3000, rng), "'),halt,('", 'ä"\\x', "a b=c", "zz")
    prolog = bridge.session.engine()
    bridge.session.load_module("arcs")
    assert bridge.ffi.whole_integers() is not None, "Debian's SWI-Prolog is built with GMP"
    masks: list[int] = []
    text = bridge.wire.dictionary_text(words, masks)
    assert any(m >= 1 << 64 for m in masks)
    assert any(m < 1 << 64 for m in masks)
    bridge.ffi.once(b"arcs", b"load_dictionary_text", ["9901"], [text, masks])
    bridge.ffi.once(
        b"arcs", b"load_dictionary_text", ["9902"], [bridge.wire.dictionary_text(words)]
    )
    same = (  # no binding comes back: pyswip cannot read big integers
        "\\+ \\+ (arcs:dictionary(9901, T1, C1), arcs:dictionary(9902, T2, C2), T1-C1 == T2-C2)"
    )
    assert list(prolog.query(same, maxresult=1))


def test_dictionary_keys_tell_word_lists_apart() -> None:
    lists = [(), ("",), ("a", "b"), ("a\nb",), ("b", "a"), ("a", "b", "a"), ("ä",)]
    keys = {bridge.dictionary_key(words) for words in lists}
    assert len(keys) == len(lists)
    assert bridge.dictionary_key(["a", "b"]) == bridge.dictionary_key(("a", "b"))


def test_a_word_with_a_line_break_is_never_sent() -> None:
    with pytest.raises(ValueError, match="line break: 'a\\\\nb'"):
        bridge.wire.words_text(["ab", "a\nb"])
    assert bridge.wire.words_text(["ab", "c"]) == "ab\nc\n"
