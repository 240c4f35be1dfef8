"""The wdeg strategy in the Python engine: the bitset tables it reads, its
regions and their probe, its restarts, and fills of real benchmark grids.
(That the Prolog engine mirrors it is tested with the other strategies.)"""

from __future__ import annotations

import gc
import itertools
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from puzzlegen import open_square

from pybridge.bitsets import Settled, letters_left, members, tables
from pybridge.gridfiles import load_lexicon_puzzle
from pybridge.layout import find_sites, layout_of
from pybridge.model import Puzzle
from pybridge.proofs import prove_settling
from pybridge.search import wdeg
from pybridge.search.kernel import Counters, Lcg, Request
from pybridge.solver import run
from pybridge.verify import problems

WORDS = st.lists(st.text("abcé", min_size=1, max_size=4), max_size=30)


@given(st.integers(min_value=0, max_value=2**300))
def test_members_are_the_set_bits(words: int) -> None:
    assert members(words) == [k for k in range(words.bit_length()) if words >> k & 1]


@given(WORDS)
def test_the_masks_say_which_words_have_which_letter_where(listed: list[str]) -> None:
    table = tables(tuple(listed))
    assert sorted(w for t in table.values() for w in t.words) == sorted(set(listed))
    for t in table.values():
        assert t.full == (1 << len(t.words)) - 1
        for p, masks in enumerate(t.masks):
            for letter, mask in masks.items():
                assert [t.words[k] for k in members(mask)] == [w for w in t.words if w[p] == letter]


@given(st.lists(st.text("abc", min_size=3, max_size=3), min_size=1, max_size=40), st.data())
def test_letters_left_are_the_letters_of_the_words_left(
    listed: list[str], data: st.DataObject
) -> None:
    table = tables(tuple(listed))[3]
    subset = st.integers(min_value=1, max_value=table.full).map(lambda d: d & table.full)
    earlier = data.draw(subset.filter(bool))
    domain = data.draw(subset.map(lambda d: d & earlier).filter(bool))
    positions = data.draw(st.lists(st.sampled_from([0, 1, 2]), unique=True))

    def exact(words: int) -> tuple[frozenset[str], ...]:
        return tuple(frozenset(table.words[k][p] for k in members(words)) for p in range(3))

    unread = frozenset("?")  # a position outside `positions` keeps what it had
    last = (earlier, tuple(exact(earlier)[p] if p in positions else unread for p in range(3)))
    for letters in (
        letters_left(table, domain, positions, None),
        letters_left(table, domain, positions, last),
    ):
        for p in positions:
            assert letters[p] == exact(domain)[p]
    kept = letters_left(table, domain, positions, last)
    assert all(kept[p] == unread for p in range(3) if p not in positions)
    one_lost = (earlier ^ domain).bit_count() <= 1
    if one_lost and all(exact(domain)[p] == exact(earlier)[p] for p in positions):
        assert kept is last[1]  # what lets propagation skip the crossings


def lexicon_grid(rows: tuple[str, ...], words: list[str]) -> Puzzle:
    return Puzzle(tuple(words), rows, format="grid", mode="lexicon")


def wdeg_search(
    puzzle: Puzzle, counters: Counters, seed: int | None = None, settled: Settled | None = None
) -> Iterator[list[str]]:
    request = Request(layout_of(puzzle), puzzle.words, "wdeg", seed=seed, settled=settled)
    return wdeg.solutions(request, counters)


def search(puzzle: Puzzle) -> tuple[list[list[str]], Counters]:
    counters = Counters()
    return list(wdeg_search(puzzle, counters)), counters


# Two regions: a 2x2 square with many fills from the 2-letter words over a, b,
# c, and a 3x3 square whose only letter-consistent fill is symmetric, so it
# needs one word twice: unfillable, but only the search can tell.
TWO_REGIONS = ("..#...", "..#...", "###...")
PAIRS = ["".join(p) for p in itertools.product("abc", repeat=2)]
SYMMETRIC = ["abc", "bde", "cef"]


def test_a_site_without_words_is_a_dead_end_at_the_root() -> None:
    # no 3-letter word, and no word fits the predefined letter: no letters
    # there, so the crossing sites lose every word before any is placed
    for rows in (("..#...", "..#..."), ("x.", "..")):
        puzzle = lexicon_grid(rows, ["ab", "ba", "aa"])
        fills, counters = search(puzzle)
        assert (fills, counters.nodes, counters.backtracks) == ([], 0, 1)


def test_a_region_that_fails_alone_ends_the_search_at_once() -> None:
    squares, _ = search(lexicon_grid(("..", ".."), PAIRS))
    assert len(squares) > 20  # the small region alone has many fills
    fills, counters = search(lexicon_grid(TWO_REGIONS, PAIRS + SYMMETRIC))
    assert fills == []
    # the small region is filled once, the large one fails, fails alone, and
    # the search stops instead of trying the other fills of the small one
    assert counters.nodes < len(squares)


def test_regions_give_every_combination_of_their_fills() -> None:
    pairs, _ = search(lexicon_grid(("..", ".."), PAIRS[:6]))
    fills, _ = search(lexicon_grid(("..#..", "..#.."), PAIRS[:6]))
    # the two squares share the words, so a combination must not repeat one
    expected = [(a, b) for a, b in itertools.product(pairs, repeat=2) if not set(a) & set(b)]
    assert len(pairs) > 2
    assert sorted(tuple(f[:2] + f[4:6]) for f in fills) == sorted(
        tuple(a[:2] + b[:2]) for a, b in expected
    )


def restarting_square() -> Puzzle:
    """wdeg takes six runs to its first fill of this square (three per
    stream), and the third ones put preferred words first."""
    return open_square(127)


def deeper_second_square() -> Puzzle:
    """The second stream's first run goes deeper than the first's in this
    square, so the second stream takes the second round first."""
    return open_square(105)


class Runs:
    """Each run's stream (0 for the first search made, 1 for the next), its
    number, the deepest point of the stream's run before it (its depth and
    words) and the words it prefers, as wdeg starts it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.log: list[tuple[int, int, tuple[int, list[int]], list[int]]] = []
        streams: list[wdeg.Search] = []
        start = wdeg.Search.start_phase

        def logged(search: wdeg.Search, run: int) -> None:
            if search not in streams:
                streams.append(search)
            before = search.deepest
            start(search, run)
            self.log.append((streams.index(search), run, before, list(search.phase)))

        monkeypatch.setattr(wdeg.Search, "start_phase", logged)


def test_restarts_keep_the_search_complete(monkeypatch: pytest.MonkeyPatch) -> None:
    # every fill, counted by wdeg (which restarts on the way to its first
    # fill, and then prefers words of earlier runs) and by mrv
    puzzle = restarting_square()
    runs = Runs(monkeypatch)
    wdeg_count = run(puzzle, engine="python", strategy="wdeg", count=True, prove=False)
    mrv_count = run(puzzle, engine="python", strategy="mrv", count=True, prove=False)
    assert len(runs.log) >= 3
    assert mrv_count.count
    assert wdeg_count.count == mrv_count.count


def test_odd_runs_prefer_the_words_of_the_last_runs_deepest_point(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = Runs(monkeypatch)
    search(restarting_square())
    for stream in (0, 1):
        log = [entry for entry in runs.log if entry[0] == stream]
        assert [number for _, number, _, _ in log] == list(range(1, len(log) + 1))
        assert len(log) >= 3
        for _, number, (depth, words), phase in log[1:]:
            # the run before reached `depth` sites with a word put by a choice
            assert depth == sum(k >= 0 for k in words) > 0
            assert phase == (words if number % 2 else [-1] * len(words))
        assert log[0][3] == [-1] * len(log[0][3])


def test_two_streams_take_turns_until_one_fills(monkeypatch: pytest.MonkeyPatch) -> None:
    seeds: list[int | None] = []
    make = wdeg.Search.__init__

    def logged(search: wdeg.Search, *args: Any) -> None:
        make(search, *args)
        seeds.append(args[3])

    monkeypatch.setattr(wdeg.Search, "__init__", logged)
    runs = Runs(monkeypatch)
    puzzle = restarting_square()
    fills, _ = search(puzzle)
    assert seeds == [0, 1]  # no seed: the streams draw from 0 and 1
    assert [(stream, number) for stream, number, _, _ in runs.log][:2] == [(0, 1), (1, 1)]
    assert len(runs.log) >= 4
    assert_deeper_first(runs.log)
    # the stream that filled went on alone: every fill, each once
    every = run(puzzle, engine="python", strategy="mrv", count=True, prove=False).count
    assert len(fills) == len({tuple(f) for f in fills}) == every
    # a run that ends within its limit ends the search: the other stream never starts
    runs.log.clear()
    assert search(lexicon_grid(TWO_REGIONS, PAIRS + SYMMETRIC))[0] == []
    assert [number for _, number, _, _ in runs.log] == [1]
    seeds.clear()
    list(itertools.islice(wdeg_search(puzzle, Counters(), 7), 1))
    assert seeds == [7, 8]


def assert_deeper_first(log: list[tuple[int, int, tuple[int, list[int]], list[int]]]) -> None:
    """Each round (the runs of one number) takes the streams in order of the
    depth of their last run's deepest point, deepest first, ties to the first."""
    rounds: dict[int, list[tuple[int, int]]] = {}
    for stream, number, (depth, _), _ in log:
        rounds.setdefault(number, []).append((stream, depth))
    for turns in rounds.values():
        assert turns == sorted(turns, key=lambda turn: (-turn[1], turn[0]))
        assert len({stream for stream, _ in turns}) == len(turns)  # one run each


def test_the_stream_that_went_deeper_takes_the_next_round_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = Runs(monkeypatch)
    fills, _ = search(deeper_second_square())
    assert [(stream, number) for stream, number, _, _ in runs.log][:4] == [
        (0, 1),
        (1, 1),
        (1, 2),
        (0, 2),
    ]
    assert runs.log[2][2][0] > runs.log[3][2][0]  # the depths their first runs reached
    assert_deeper_first(runs.log)
    every = run(deeper_second_square(), engine="python", strategy="mrv", count=True, prove=False)
    assert len(fills) == len({tuple(f) for f in fills}) == every.count


def test_the_preferred_word_goes_first_when_the_domain_has_it() -> None:
    puzzle = lexicon_grid(("...",), ["abc", "abd", "abe", "abf"])
    state = wdeg.Search(puzzle.words, layout_of(puzzle), Counters(), None)
    state.dom = [0b1011]  # abc, abd and abf
    state.phase = [3]
    assert state.preferred(0, [0, 1, 3]) == [3, 0, 1]
    assert state.preferred(0, [3, 0, 1]) == [3, 0, 1]
    state.phase = [2]  # abe has left the domain
    assert state.preferred(0, [0, 1, 3]) == [0, 1, 3]
    state.phase = [-1]
    assert state.preferred(0, [1, 0, 3]) == [1, 0, 3]


def test_a_seed_past_the_default_searchs_draws_the_initial_weights() -> None:
    puzzle = restarting_square()
    layout = layout_of(puzzle)
    for seed in (None, 0, 1):  # the default search's streams
        search = wdeg.Search(puzzle.words, layout, Counters(), seed)
        assert search.weights == [1] * len(layout.crossings)
    lcg = Lcg(5)
    drawn = [1 + lcg.below(wdeg.WEIGHT_DRAW) for _ in layout.crossings]
    search = wdeg.Search(puzzle.words, layout, Counters(), 5)
    assert search.weights == drawn
    assert len(set(drawn)) > 1
    assert search.lcg.state == lcg.state  # the word order draws on from there


def test_the_words_a_first_choice_refuted_leave_the_root_for_good(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starts: list[tuple[list[tuple[int, int]], list[int]]] = []
    forbid_at_root = wdeg.Search.forbid_at_root

    def logged(search: wdeg.Search, root: Any) -> bool:
        kept = forbid_at_root(search, root)
        starts.append((list(search.refuted), list(root[0])))
        return kept

    monkeypatch.setattr(wdeg.Search, "forbid_at_root", logged)
    rng = random.Random(60)  # a 4x4 square whose first choice refutes a word in a run
    words = {"".join(rng.choice("abcd") for _ in range(4)) for _ in range(40)}
    puzzle = lexicon_grid(("....",) * 4, sorted(words))
    fills, _ = search(puzzle)
    assert any(refuted for refuted, _ in starts)
    for refuted, root in starts:
        assert all(not root[s] >> k & 1 for s, k in refuted)
    # only words without a fill go: every fill is still found, each once
    every = run(puzzle, engine="python", strategy="mrv", count=True, prove=False).count
    assert len(fills) == len({tuple(f) for f in fills}) == every


def test_a_hard_grid_is_filled_after_restarts(shared_dir: Path) -> None:
    puzzle = load_lexicon_puzzle(
        shared_dir / "bench" / "grids" / "vanbeek" / "g15.04.txt",
        shared_dir / "bench" / "dicts" / "scowl55.txt",
    )
    outcome = run(puzzle, engine="python", strategy="wdeg", timeout=60)
    first_limit = 2 * len(find_sites(puzzle)) + wdeg.FIRST_LIMIT_EXTRA
    assert outcome.status == "solved"
    assert outcome.stats.nodes > first_limit  # so at least one restart
    assert problems(puzzle, outcome.solutions[0].grid) == []


@pytest.mark.parametrize("grid", ["g15.01", "g19.02", "g21.02", "puzzle17"])
def test_bench_grids_fill_and_verify(shared_dir: Path, grid: str) -> None:
    puzzle = load_lexicon_puzzle(
        shared_dir / "bench" / "grids" / "vanbeek" / f"{grid}.txt",
        shared_dir / "bench" / "dicts" / "scowl55.txt",
    )
    outcome = run(puzzle, engine="python", strategy="wdeg", timeout=60)
    assert outcome.status == "solved"
    assert problems(puzzle, outcome.solutions[0].grid) == []
    again = run(puzzle, engine="python", strategy="wdeg", timeout=60)
    assert again.solutions[0].grid == outcome.solutions[0].grid
    assert again.stats.nodes == outcome.stats.nodes


def search_with(puzzle: Puzzle, settled: Settled | None) -> tuple[list[list[str]], int, int]:
    counters = Counters()
    fills = list(itertools.islice(wdeg_search(puzzle, counters, 3, settled), 50))
    return fills, counters.nodes, counters.backtracks


SQUARE_WORDS = ["".join(w) for w in itertools.product("abne", repeat=3)][::3]


@pytest.mark.parametrize(
    "rows", [("...", "...", "..."), ("a..", "...", "..."), ("...#...", "...#...", "...#...")]
)
def test_the_proofs_fixpoint_spares_the_root_propagation_and_changes_nothing(
    rows: tuple[str, ...],
) -> None:
    puzzle = lexicon_grid(rows, SQUARE_WORDS)
    proof, settled = prove_settling(puzzle)
    assert proof is None
    assert settled is not None
    # the proofs' fixpoint is the one wdeg's own root propagation reaches
    alone = wdeg.Search(puzzle.words, layout_of(puzzle), Counters(), None)
    n = len(alone.root)
    alone.dom, alone.open, alone.sup = list(alone.root), [True] * n, [None] * n
    alone.recount()
    assert alone.propagate(list(range(n)))
    assert alone.dom == [domain for domain, _ in settled.supports]
    handed_over = alone.supports(settled)  # its letters as the Net's bits
    assert [sup for sup in alone.sup if sup] == [
        support for s, support in enumerate(handed_over) if alone.sup[s]
    ]
    handed = search_with(puzzle, settled)
    assert handed == search_with(puzzle, None)
    assert handed[0]  # the comparison saw fills, not just two empty searches


def test_a_fixpoint_from_other_domains_is_not_used() -> None:
    _, settled = prove_settling(lexicon_grid(("...", "...", "..."), SQUARE_WORDS))
    assert settled is not None
    other = lexicon_grid(("a..", "...", "..."), SQUARE_WORDS)  # a given letter: other domains
    search = wdeg.Search(other.words, layout_of(other), Counters(), None, settled)
    assert search.settled is None
    assert search_with(other, settled) == search_with(other, None)


def test_the_searches_leave_no_cyclic_garbage() -> None:
    # solver runs the Python engine with the cyclic collector off: sound only
    # while a search (restarts, regions, probes and all) makes no cycles
    puzzles = [
        (lexicon_grid(("....",) * 4, ["".join(w) for w in itertools.product("abn", repeat=4)]), 5),
        (lexicon_grid(TWO_REGIONS, PAIRS + SYMMETRIC), None),
        (lexicon_grid(("..#..", "..#.."), PAIRS[:6]), None),
    ]
    for strategy in ("wdeg", "mrv", "cbj"):
        for puzzle, limit in puzzles:
            gc.collect()
            was_on = gc.isenabled()
            gc.disable()
            try:
                outcome = run(puzzle, engine="python", strategy=strategy, limit=limit)
                assert outcome.status in ("solved", "unsolvable")
                assert gc.collect() == 0
            finally:
                if was_on:
                    gc.enable()
