"""Proofs of unsolvability: each layer on our own unsolvable puzzles, the
core of every proof checked by an independent brute-force fill (it cannot
be filled, and it can once any one of its sites is dropped), and soundness
on random puzzles: a proof never comes for a solvable puzzle."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from puzzlegen import break_one_letter, puzzles

from pybridge.layout import Site, find_sites, layout_of
from pybridge.model import Puzzle
from pybridge.proofs import (
    LAYERS,
    Proof,
    core_grid,
    explain,
    length_mismatch,
    proof_json,
    proof_sentence,
    prove,
)
from pybridge.readers import load
from pybridge.solver import run

UNSOLVABLE = Path(__file__).resolve().parents[1] / "data" / "unsolvable"

# Every puzzle of data/unsolvable: the layer prove() reports (None: no cheap
# layer applies) and the layer explain() reports for the minimal core, with
# the core's size.
EXAMPLES: dict[str, tuple[str | None, str, int]] = {
    "no-fit/split-letters.dat": ("no-fit", "no-fit", 1),
    "no-fit/stray-word.dat": ("no-fit", "no-fit", 3),
    "hall/corner.dat": ("hall", "hall", 2),
    "hall/three-s.dat": ("hall", "hall", 3),
    "propagation/chomp.dat": ("propagation", "propagation", 3),
    "propagation/fillin3.grid": ("propagation", "propagation", 4),
    "search/frame.dat": (None, "search", 4),
    "search/ring.dat": (None, "search", 3),
}


def load_example(name: str) -> Puzzle:
    path = UNSOLVABLE / name
    if path.suffix == ".grid":
        return load(path, path.with_suffix(".words"))
    return load(path)


# ---------------------------------------------------------------- the oracle


def fillable(puzzle: Puzzle, sites: Sequence[Site]) -> bool:
    """Whether each of `sites` can take its own copy of a listed word, the
    words agreeing where sites cross and with the predefined letters. Plain
    backtracking, sharing no code with the engines or the proofs."""
    left = Counter(puzzle.words)
    letters = {
        cell: ch for site in sites for cell in site.cells if (ch := puzzle.given(cell)) is not None
    }

    def fits(word: str, site: Site) -> bool:
        return len(word) == site.length and all(
            letters.get(cell, ch) == ch for cell, ch in zip(site.cells, word, strict=True)
        )

    def fill(k: int) -> bool:
        if k == len(sites):
            return True
        site = sites[k]
        for word in [w for w, n in left.items() if n and fits(w, site)]:
            new = [cell for cell in site.cells if cell not in letters]
            letters.update(zip(site.cells, word, strict=True))
            left[word] -= 1
            if fill(k + 1):
                return True
            left[word] += 1
            for cell in new:
                del letters[cell]
        return False

    return fill(0)


def assert_minimal_core(puzzle: Puzzle, proof: Proof) -> None:
    core = list(proof.core)
    assert core, "a proof names at least one site"
    assert not fillable(puzzle, core), "the core can be filled"
    for k in range(len(core)):
        assert fillable(puzzle, core[:k] + core[k + 1 :]), f"the core without {core[k].label}"


def has_solution(puzzle: Puzzle) -> bool:
    outcome = run(puzzle, engine="python")
    assert outcome.status != "timeout"
    return outcome.status == "solved"


# ---------------------------------------------------------------- length


def test_p7_09c_fails_on_lengths(shared_dir: Path) -> None:
    puzzle = load(shared_dir / "corpus" / "p99" / "p7_09c.dat")
    for proof in (prove(puzzle), explain(puzzle)):
        assert proof is not None
        assert proof.layer == "length"
        assert proof.reason == length_mismatch(puzzle, find_sites(puzzle))
        assert {site.length for site in proof.core} == {5, 6}
        assert not proof.minimal
        assert proof_sentence(proof).startswith("the puzzle has no solution: word and site")


@pytest.mark.parametrize("name", ["p7_09a", "p7_09b", "p7_09d"])
def test_solvable_corpus_puzzles_get_no_proof(shared_dir: Path, name: str) -> None:
    puzzle = load(shared_dir / "corpus" / "p99" / f"{name}.dat")
    assert prove(puzzle) is None
    assert explain(puzzle) is None


# ---------------------------------------------------------------- our examples


# The length layer's own examples: a counting argument, not a sub-puzzle core.
LENGTH_EXAMPLES = {
    "length/mouse.dat": "3 three-letter words for 4 three-letter sites; "
    "1 five-letter word for 0 five-letter sites",
    "length/short.dat": "1 two-letter word for 0 two-letter sites; "
    "3 three-letter words for 4 three-letter sites",
}


@pytest.mark.parametrize("name", LENGTH_EXAMPLES)
def test_length_examples_name_every_mismatched_length(name: str) -> None:
    puzzle = load_example(name)
    for proof in (prove(puzzle), explain(puzzle)):
        assert proof is not None
        assert proof.layer == "length"
        assert proof.reason == f"word and site lengths differ: {LENGTH_EXAMPLES[name]}"
    for engine in ("prolog", "python"):
        assert run(puzzle, engine=engine, prove=False).status == "unsolvable"


def test_every_example_is_listed() -> None:
    found = {
        str(path.relative_to(UNSOLVABLE))
        for path in UNSOLVABLE.rglob("*")
        if path.suffix in (".dat", ".grid")
    }
    assert found == set(EXAMPLES) | set(LENGTH_EXAMPLES)
    assert {name.split("/")[0] for name in EXAMPLES} == set(LAYERS) - {"length"}


@pytest.mark.parametrize("name", EXAMPLES)
@pytest.mark.parametrize("engine", ["python", "prolog"])
def test_example_is_unsolvable_with_matching_lengths(name: str, engine: str) -> None:
    puzzle = load_example(name)
    assert length_mismatch(puzzle, find_sites(puzzle)) is None
    outcome = run(puzzle, engine=engine, limit=None)
    assert outcome.status == "unsolvable"


@pytest.mark.parametrize("name", EXAMPLES)
def test_prove_reports_the_cheapest_layer(name: str) -> None:
    puzzle = load_example(name)
    layer = EXAMPLES[name][0]
    proof = prove(puzzle)
    assert (proof and proof.layer) == layer
    if proof is not None:
        assert not fillable(puzzle, proof.core), "prove's core can be filled"


@pytest.mark.parametrize("name", EXAMPLES)
def test_explain_finds_a_minimal_core(name: str) -> None:
    puzzle = load_example(name)
    _, layer, size = EXAMPLES[name]
    proof = explain(puzzle)
    assert proof is not None
    assert (proof.layer, len(proof.core), proof.minimal) == (layer, size, True)
    assert name.split("/")[0] == layer
    assert_minimal_core(puzzle, proof)
    assert (proof.nodes is not None) == (layer == "search")


def test_a_site_no_word_fits() -> None:
    puzzle = load_example("no-fit/split-letters.dat")
    proof = prove(puzzle)
    assert proof is not None
    assert proof_sentence(proof) == (
        "1-Across cannot be filled: no listed word fits its letters .H.E."
    )
    assert proof.words == ("CHOMP", "TOKEN")
    assert proof.minimal


def test_a_word_that_fits_no_site_blames_the_sites_of_its_length() -> None:
    puzzle = load_example("no-fit/stray-word.dat")
    proof = prove(puzzle)
    assert proof is not None
    assert [site.label for site in proof.core] == ["1-Down", "2-Down", "3-Down"]
    assert proof.words == ("PEG",)
    assert proof.reason == (
        "the listed word PEG fits none of the 3 3-letter sites, "
        "which leaves 2 listed words for them"
    )


def test_a_pigeonhole_names_its_sites_and_words() -> None:
    puzzle = load_example("hall/three-s.dat")
    proof = prove(puzzle)
    assert proof is not None
    assert proof_sentence(proof) == (
        "1-Across, 1-Down and 3-Down cannot all be filled: "
        "these 3 4-letter sites fit only 2 listed words: SEAT, STEM"
    )
    assert proof.words == ("SEAT", "STEM")


def test_a_pigeonhole_counts_copies() -> None:
    # 1-Down, 2-Down and 3-Down need an R in the middle: only ARK, listed twice.
    puzzle = Puzzle(
        ("ARK", "ARK", "EMU", "OWL", "PICTURE", "KITCHEN"), (".......", "R#R#R#.", ".......")
    )
    proof = explain(puzzle)
    assert proof is not None
    assert proof_sentence(proof) == (
        "1-Down, 2-Down and 3-Down cannot all be filled: "
        "these 3 3-letter sites fit only 2 listed words: ARK, ARK"
    )
    assert proof.words == ("ARK", "ARK")
    assert_minimal_core(puzzle, proof)


def test_propagation_across_three_sites() -> None:
    puzzle = load_example("propagation/chomp.dat")
    proof = explain(puzzle)
    assert proof is not None
    assert proof_sentence(proof) == (
        "1-Down, 3-Down and 4-Across cannot all be filled: once letters are propagated "
        "through the crossings, no word is left for 4-Across: the words still fitting it "
        "need N at row 3, column 5, where those still fitting 3-Down have only P"
    )


def test_propagation_can_end_in_a_pigeonhole() -> None:
    puzzle = load_example("propagation/fillin3.grid")
    proof = explain(puzzle)
    assert proof is not None
    assert proof.reason == (
        "once letters are propagated through the crossings, the 2 3-letter sites "
        "1-Across and 6-Down fit only 1 listed word: EVO"
    )
    assert proof.words == ("EVO",)


def test_a_propagation_core_keeps_every_site_it_relied_on() -> None:
    # Found by hypothesis. 2-Across (ccc or cbc) puts c at the top of 3-Down,
    # which keeps cb and ca; 4-Across then keeps only bb, and so does 5-Down:
    # two sites, one bb. Without 2-Across, 3-Down = zc, 4-Across = cb and
    # 5-Down = bb fill, so the core needs 2-Across. The tracing used to lose
    # it: 4-Across lost cb, ca and zc at once, and when 5-Down's loss first
    # reached that removal (asking about zc alone) it was marked as traced,
    # so 4-Across's own loss of cb and ca never led back to 2-Across.
    puzzle = Puzzle(
        ("cb", "cb", "bb", "ccc", "cbc", "ca", "zc"),
        ("#.####", "...###", ".#..##", ".##..#"),
    )
    assert not has_solution(puzzle)
    proof = prove(puzzle)
    assert proof is not None
    assert proof.layer == "propagation"
    assert [site.label for site in proof.core] == ["2-Across", "3-Down", "4-Across", "5-Down"]
    assert not fillable(puzzle, proof.core)
    explained = explain(puzzle)
    assert explained is not None
    assert explained.core == proof.core
    assert_minimal_core(puzzle, explained)


def test_search_reports_its_nodes() -> None:
    puzzle = load_example("search/ring.dat")
    proof = explain(puzzle)
    assert proof is not None
    # the Python engine's mrv search of the three sites places 4 words in all
    assert proof.nodes == 4
    assert proof.reason == "the search space is exhausted (4 nodes)"


def test_json_and_grid() -> None:
    puzzle = load_example("hall/corner.dat")
    proof = explain(puzzle)
    assert proof is not None
    assert proof_json(proof) == {
        "layer": "hall",
        "reason": "these 2 4-letter sites fit only 1 listed word: SELF",
        "core": [{"number": 3, "direction": "down"}, {"number": 5, "direction": "across"}],
        "words": ["SELF"],
        "nodes": None,
        "minimal": True,
    }
    assert core_grid(puzzle, proof) == ("...T#", ".#P#*", "....*", ".#.#*", "#***F")


def test_explain_with_no_time_left_proves_nothing() -> None:
    assert explain(load_example("search/frame.dat"), timeout=1e-9) is None


# ---------------------------------------------------------------- random puzzles

SMALL = {"sizes": (3, 6), "words": (3, 9), "max_length": 5}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(**SMALL))
def test_a_solvable_puzzle_gets_no_proof(made: tuple[Puzzle, tuple[str, ...]]) -> None:
    puzzle, _ = made
    assert prove(puzzle) is None
    assert explain(puzzle) is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(**SMALL), st.integers(0, 2**32 - 1))
def test_a_broken_puzzle_is_proved_unsolvable_exactly_when_it_is(
    made: tuple[Puzzle, tuple[str, ...]], seed: int
) -> None:
    puzzle = break_one_letter(made[0], random.Random(seed))
    solvable = has_solution(puzzle)
    cheap = prove(puzzle)
    if solvable:
        assert cheap is None, "prove fired on a solvable puzzle"
        assert explain(puzzle) is None
        return
    if cheap is not None:
        assert not fillable(puzzle, cheap.core)
    proof = explain(puzzle)
    assert proof is not None
    assert proof.minimal
    assert_minimal_core(puzzle, proof)


# ---------------------------------------------------------------- lexicon mode


def lexicon(words: tuple[str, ...], grid: tuple[str, ...]) -> Puzzle:
    return Puzzle(words, grid, format="grid", mode="lexicon")


def test_a_solvable_lexicon_gets_no_proof() -> None:
    # C A T    across CAT, BAP; down CUB, TOP; the other words stay unused
    # U # O
    # B A P
    puzzle = lexicon(("ZEN", "CAT", "BAP", "ODE", "CUB", "TOP", "EMU"), ("...", ".#.", "..."))
    assert has_solution(puzzle)
    assert prove(puzzle) is None
    assert explain(puzzle) is None


def test_a_lexicon_word_fills_one_site_only() -> None:
    puzzle = lexicon(("CAT", "DOGS"), ("...#...",))
    for proof in (prove(puzzle), explain(puzzle)):
        assert proof is not None
        assert proof.layer == "hall"
        assert proof_sentence(proof) == (
            "1-Across and 2-Across cannot both be filled: "
            "these 2 3-letter sites fit only 1 dictionary word: CAT"
        )
        assert proof.words == ("CAT",)
    assert_minimal_core(puzzle, proof)


def test_a_lexicon_with_no_word_for_a_letter() -> None:
    puzzle = lexicon(("CAT", "DOG", "QUAY"), ("Q..",))
    proof = prove(puzzle)
    assert proof is not None
    assert proof_sentence(proof) == (
        "1-Across cannot be filled: no dictionary word fits its letters Q.."
    )
    assert proof.words == ()  # the argument is about every 3-letter word
    assert proof.minimal


def test_a_lexicon_without_words_of_a_length() -> None:
    proof = prove(lexicon(("CAT", "DOG"), ("....",)))
    assert proof is not None
    assert proof.reason == "the dictionary has no 4-letter word"


def test_a_lexicon_leaves_words_unused() -> None:
    # Exact mode would fail on lengths and on words that fit no site.
    puzzle = lexicon(("CAT", "CA", "QUIZ", "ZZZ"), ("...", "A##"))
    assert has_solution(puzzle)
    assert prove(puzzle) is None


def test_a_lexicon_crossing_contradiction() -> None:
    puzzle = lexicon(("CAT", "OX", "DOG", "QUIZ"), ("...", ".##"))
    proof = prove(puzzle)
    assert proof is not None
    assert proof_sentence(proof) == (
        "1-Across and 1-Down cannot both be filled: once letters are propagated through "
        "the crossings, no word is left for 1-Down: the words still fitting it need O at "
        "row 1, column 1, where those still fitting 1-Across have only C or D"
    )
    explained = explain(puzzle)
    assert explained is not None
    assert explained.layer == "propagation"
    assert_minimal_core(puzzle, explained)


def test_a_lexicon_that_only_the_search_refutes() -> None:
    # AB or CD in both sites, crossing at their first letters: the same word twice.
    puzzle = lexicon(("AB", "CD"), ("..", ".#"))
    assert not has_solution(puzzle)
    assert prove(puzzle) is None
    proof = explain(puzzle)
    assert proof is not None
    assert (proof.layer, proof.words, proof.minimal) == ("search", (), True)
    assert_minimal_core(puzzle, proof)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(**SMALL), st.integers(0, 2**32 - 1))
def test_a_lexicon_is_proved_unsolvable_exactly_when_it_is(
    made: tuple[Puzzle, tuple[str, ...]], seed: int
) -> None:
    puzzle = random_lexicon(made[0], random.Random(seed))
    if has_solution(puzzle):
        assert prove(puzzle) is None, "prove fired on a solvable lexicon"
        assert explain(puzzle) is None
        return
    cheap = prove(puzzle)
    if cheap is not None:
        assert not fillable(puzzle, cheap.core)
    proof = explain(puzzle)
    assert proof is not None
    assert proof.minimal
    assert_minimal_core(puzzle, proof)


def random_lexicon(puzzle: Puzzle, rng: random.Random) -> Puzzle:
    """A dictionary around the puzzle's words: some dropped, some with a
    letter changed, some random words added; as often solvable as not."""
    alphabet = sorted({*"".join(puzzle.words), "z"})
    words = [w for w in dict.fromkeys(puzzle.words) if rng.random() < 0.8]
    for k, word in enumerate(words):
        if rng.random() < 0.3:
            i = rng.randrange(len(word))
            words[k] = word[:i] + rng.choice(alphabet) + word[i + 1 :]
    for _ in range(rng.randint(0, 6)):
        words.append("".join(rng.choices(alphabet, k=rng.randint(2, 5))))
    rng.shuffle(words)
    return lexicon(tuple(dict.fromkeys(words)), puzzle.grid)


def scowl55(shared_dir: Path) -> tuple[str, ...]:
    path = shared_dir / "bench" / "dicts" / "scowl55.txt"
    return tuple(dict.fromkeys(w.strip().upper() for w in path.open(encoding="utf-8")))


def vanbeek(shared_dir: Path, name: str) -> tuple[str, ...]:
    path = shared_dir / "bench" / "grids" / "vanbeek" / f"{name}.txt"
    return tuple(line for line in path.read_text(encoding="utf-8").splitlines() if line)


def test_a_big_dictionary_is_proved_on_quickly(shared_dir: Path) -> None:
    words = scowl55(shared_dir)
    puzzle = lexicon(words, vanbeek(shared_dir, "g15.01"))  # 78 sites, filled by other solvers
    layout = layout_of(puzzle)
    assert len(layout.sites) == 78
    assert prove(puzzle, layout=layout) is None
    best = min(_seconds(puzzle) for _ in range(3))
    assert best < 0.5
    long = lexicon(words, vanbeek(shared_dir, "g23.01"))  # a 23-letter site
    proof = prove(long)
    assert proof is not None
    assert proof.reason == "the dictionary has no 23-letter word"
    assert [site.length for site in proof.core] == [23]


# ---------------------------------------------------------------- speed


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_cheap_layers_are_fast(name: str) -> None:
    puzzle = load_example(name)
    best = min(_seconds(puzzle) for _ in range(5))
    assert best < 0.010


def _seconds(puzzle: Puzzle) -> float:
    started = time.perf_counter()
    prove(puzzle)
    return time.perf_counter() - started
