"""Word search: reading its files, making puzzles that the independent
checker (wordsearch_check) accepts, seeds, proofs, the finder, the JSON
and the pictures."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from wordsearch_check import exists, problems

from pybridge import bridge
from pybridge.errors import InputError, UsageError
from pybridge.wordsearch import finder, maker, reading
from pybridge.wordsearch.model import LEVELS, Made, Request, Shape, WordPlacement, directions_of
from pybridge.wordsearch.pictures import draw_svg, key_path, write_picture
from pybridge.wordsearch.render import found_json, found_text, made_json, made_text
from pybridge.wordsearch.search import longest_line

DATA = Path(__file__).resolve().parents[1] / "data" / "wordsearch"
SVG = "{http://www.w3.org/2000/svg}"
NAMES = ("MATTHEW", "JOE", "MARY", "SARAH", "SALLY")
prolog = pytest.mark.skipif(not bridge.available(), reason="SWI-Prolog cannot be loaded")
ENGINES = [pytest.param("prolog", marks=prolog), "python"]


def checked(made: Made) -> list[str]:
    """The independent checker's complaints about a made puzzle."""
    request = made.request
    places = [(p.row, p.col, p.direction) for p in made.placements]
    return problems(
        made.grid,
        request.shape.mask,
        request.words,
        places,
        directions=request.directions,
        overlap=request.overlap,
        avoid=request.avoid,
        letters=request.letters,
    )


def random_words(seed: int, count: int, shared: Path) -> list[str]:
    lines = (shared / "bench" / "dicts" / "scowl55.txt").read_text(encoding="utf-8").split()
    pool = sorted({w.upper() for w in lines if w.isalpha() and 4 <= len(w) <= 8})
    return random.Random(seed).sample(pool, count)


# ---------------------------------------------------------------- reading


def test_words_are_normalised_as_dictionary_entries() -> None:
    text = "Ice cream\ne-mail\nrock'n'roll\nStraße\n\n  Ёлка  \nélan\n"
    assert reading.parse_words(text) == (
        "ICECREAM",
        "EMAIL",
        "ROCKNROLL",
        "STRASSE",
        "ЁЛКА",
        "ÉLAN",
    )


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("cat\ndo9g\n", 2, 3, "found a digit|found '9'"),
        ("cat\n\na\n", 3, 1, "one letter"),
        ("cat\ndog\nCat\n", 3, 1, "listed twice .first on line 1"),
        ("'), halt, ('\n", 1, 2, r"found '\)'"),
        ('Ä"\\\n', 1, 2, "found '\"'"),
    ],
)
def test_a_bad_word_is_an_error_at_its_line(
    text: str, line: int, column: int, message: str
) -> None:
    with pytest.raises(InputError, match=message) as caught:
        reading.parse_words(text, "words.txt")
    assert (caught.value.source, caught.value.line, caught.value.column) == (
        "words.txt",
        line,
        column,
    )


def test_masks_pad_short_rows_and_refuse_other_characters() -> None:
    assert reading.parse_mask("..\n.\n\n").mask == ("..", ".#")
    with pytest.raises(InputError, match=r"expected '\.' \(a cell\) or '#'") as caught:
        reading.parse_mask("..\n.x\n", "m")
    assert (caught.value.line, caught.value.column) == (2, 2)
    with pytest.raises(InputError, match="no cell"):
        reading.parse_mask("##\n")


def test_grids_ignore_spaces_and_need_rows_of_one_length() -> None:
    assert reading.parse_grid("c a t\nd#g\n") == ("CAT", "D#G")
    assert reading.parse_grid("\n\nab\ncd\n\nWORD LIST, 1 2 3\n") == ("AB", "CD")
    with pytest.raises(InputError, match="this row has 2 cells, the first has 3") as caught:
        reading.parse_grid("cat\ndo\n", "g")
    assert caught.value.line == 2
    with pytest.raises(InputError, match="one letter per cell") as caught:
        reading.parse_grid("aß\n", "g")
    assert caught.value.column == 2
    with pytest.raises(InputError, match="expected a letter or '#'"):
        reading.parse_grid("a.b\n", "g")


def test_sizes_and_directions() -> None:
    assert reading.parse_size("15x20") == (15, 20)
    assert reading.parse_size("9") == (9, 9)
    for bad in ("0x3", "x", "3x3x3", "2000x2"):
        with pytest.raises(UsageError):
            reading.parse_size(bad)
    assert directions_of("easy") == ("E", "S")
    assert directions_of("medium") == ("E", "S", "SE", "NE")
    assert directions_of("hard") == LEVELS["hard"]
    assert len(directions_of("HARD")) == 8
    assert directions_of("sw, e") == ("E", "SW")
    with pytest.raises(UsageError, match="unknown directions"):
        directions_of("E,UP")


# ---------------------------------------------------------------- making


@pytest.mark.parametrize("engine", ENGINES)
def test_the_seed_puzzle_is_made_and_checked(engine: str) -> None:
    request = maker.request_of(NAMES, Shape.rectangle(9, 9), seed=1)
    made = maker.make(request, engine)
    assert made.status == "solved"
    assert not checked(made)
    assert [p.word for p in made.placements] == list(NAMES)
    assert made.stats.seed == 1
    assert made.stats.engine == engine


@pytest.mark.parametrize("engine", ENGINES)
def test_bigger_puzzles_pass_the_checker(engine: str, shared: Path) -> None:
    for seed, (size, count) in enumerate([(15, 20), (20, 40)]):
        words = random_words(seed, count, shared)
        made = maker.make(maker.request_of(words, Shape.rectangle(size, size), seed=seed), engine)
        assert made.status == "solved"
        assert not checked(made), checked(made)[:3]


def test_seeds_reproduce_and_differ() -> None:
    def grid(seed: int) -> tuple[str, ...]:
        return maker.make(maker.request_of(NAMES, Shape.rectangle(9, 9), seed=seed), "python").grid

    assert grid(5) == grid(5)
    assert len({grid(seed) for seed in range(6)}) == 6


def test_a_seed_is_drawn_when_none_is_given() -> None:
    seeds = {maker.request_of(NAMES).seed for _ in range(5)}
    assert len(seeds) > 1


def test_the_directions_asked_for_are_the_only_ones_used() -> None:
    for level in ("easy", "medium"):
        request = maker.request_of(NAMES, Shape.rectangle(9, 9), directions=LEVELS[level], seed=3)
        made = maker.make(request, "python")
        assert {p.direction for p in made.placements} <= set(LEVELS[level])
        assert not checked(made)


def test_overlap_forbidden_shares_no_cell() -> None:
    request = maker.request_of(NAMES, Shape.rectangle(7, 7), overlap="forbid", seed=2)
    made = maker.make(request, "python")
    cells = [cell for p in made.placements for cell in p.cells]
    assert len(cells) == len(set(cells))
    assert not checked(made)


def test_overlap_allowed_is_used_when_the_grid_is_tight() -> None:
    words = ["TEA", "EAT", "ATE", "TAN", "ANT", "NET", "TEN"]
    request = maker.request_of(words, Shape.rectangle(4, 4), seed=1)
    made = maker.make(request, "python")
    assert made.status == "solved"
    assert not checked(made)
    cells = [cell for p in made.placements for cell in p.cells]
    assert len(cells) > len(set(cells))  # 21 letters in 16 cells


def test_a_mask_is_respected() -> None:
    shape = reading.load_mask(DATA / "heart.mask")
    words = reading.load_words(DATA / "planets.txt")
    made = maker.make(maker.request_of(words, shape, seed=7), "python")
    assert made.status == "solved"
    assert not checked(made)
    holes = {(r, c) for r, row in enumerate(shape.mask) for c, ch in enumerate(row) if ch == "#"}
    assert {
        (r, c) for r, row in enumerate(made.grid) for c, ch in enumerate(row) if ch == "#"
    } == holes


def test_words_to_avoid_appear_nowhere() -> None:
    # the filler's letters could spell each of them anywhere
    avoid = ["MY", "YE", "ME", "JA", "OW", "SH", "WH"]
    request = maker.request_of(NAMES, Shape.rectangle(9, 9), avoid=avoid, seed=4)
    made = maker.make(request, "python")
    assert made.status == "solved"
    assert not checked(made)
    for word in avoid:
        assert not finder.occurrences(made.grid, [word])[word]


def test_a_word_inside_another_is_found_there_and_placed_too() -> None:
    words = ["CATS", "CAT", "STOP", "POTS"]
    made = maker.make(maker.request_of(words, Shape.rectangle(7, 7), seed=1), "python")
    assert not checked(made)
    found = finder.occurrences(made.grid, words)
    cats, cat = (frozenset(p.cells) for p in made.placements[:2])
    assert frozenset(cat) not in {frozenset(p.cells) for p in found["CAT"] if set(p.cells) <= cats}
    assert any(set(p.cells) < cats for p in found["CAT"])  # CAT read inside CATS
    assert len(found["POTS"]) == 2  # its own place, and inside STOP backwards


def test_palindromes_read_once() -> None:
    made = maker.make(maker.request_of(["ANNA", "RADAR", "BOB"], Shape.rectangle(6, 6), seed=9))
    assert not checked(made)
    for placement in made.placements:
        assert [p.cells for p in finder.occurrences(made.grid, [placement.word])[placement.word]]


def test_filler_letters_can_be_chosen() -> None:
    request = maker.request_of(NAMES, Shape.rectangle(9, 9), letters="xyz", seed=1)
    made = maker.make(request, "python")
    covered = {cell for p in made.placements for cell in p.cells}
    free = {made.grid[r][c] for r in range(9) for c in range(9) if (r, c) not in covered}
    assert free <= {"X", "Y", "Z"}
    assert not checked(made)


def test_unicode_words_are_placed(shared: Path) -> None:
    words = reading.load_words(DATA / "names-ru.txt")
    assert words == ("МАТВЕЙ", "ДЖО", "МЭРИ", "САРА", "САЛЛИ")  # noqa: RUF001
    made = maker.make(maker.request_of(words, Shape.rectangle(9, 9), seed=1), "python")
    assert made.status == "solved"
    assert not checked(made)
    accented = ["ÉLAN", "CAFÉ", "NAÏVE", "STRASSE"]
    made = maker.make(maker.request_of(accented, seed=2), "python")
    assert not checked(made)


def test_api_words_are_normalised_and_checked() -> None:
    request = maker.request_of(["ice cream", "Straße"], seed=0)
    assert request.words == ("ICECREAM", "STRASSE")
    for bad in (["a1"], ["cat", "CAT"], ["x"]):
        with pytest.raises(UsageError):
            maker.request_of(bad)
    with pytest.raises(UsageError, match="both a word to hide and a word to avoid"):
        maker.request_of(["cat"], avoid=["cat"])


# ---------------------------------------------------------------- proofs


def test_a_word_longer_than_every_line_is_proved_impossible() -> None:
    request = maker.request_of(["ELEPHANT", "CAT"], Shape.rectangle(5, 7), directions=("E", "S"))
    made = maker.make(request, "python")
    assert made.status == "unsolvable"
    assert made.proof is not None
    assert made.proof.layer == "length"
    assert made.proof.words == ("ELEPHANT",)
    assert "longest has 7 cells" in made.proof.reason
    assert made.stats.nodes == 0
    assert longest_line(Shape.rectangle(5, 7), LEVELS["hard"]) == 7


def test_more_letters_than_cells_without_overlap_is_proved_impossible() -> None:
    request = maker.request_of(NAMES, Shape.rectangle(3, 7), overlap="forbid")
    made = maker.make(request, "python")
    assert made.proof is not None
    assert made.proof.layer == "cells"
    assert "24 letters but the 3x7 grid has 21 cells" in made.proof.reason


def test_a_word_to_avoid_inside_a_listed_word_is_proved_impossible() -> None:
    made = maker.make(maker.request_of(["SCUNTHORPE"], avoid=["TNUC"]), "python")
    assert made.proof is not None
    assert made.proof.layer == "avoid"
    assert "holds TNUC (backwards)" in made.proof.reason


@pytest.mark.parametrize("engine", ENGINES)
def test_an_exhausted_search_is_a_proof(engine: str) -> None:
    words = reading.load_words(DATA / "eye.txt")  # EYE holds YE backwards; no room for YE
    request = maker.request_of(words, Shape.rectangle(3, 3), seed=1)
    made = maker.make(request, engine)
    assert made.status == "unsolvable"
    assert made.proof is not None
    assert made.proof.layer == "search"
    assert made.stats.nodes == 452


def test_the_exhausted_search_agrees_with_brute_force() -> None:
    words = reading.load_words(DATA / "eye.txt")
    for rows, cols in ((1, 3), (2, 3), (1, 5)):
        request = maker.request_of(words, Shape.rectangle(rows, cols), seed=1)
        made = maker.make(request, "python")
        possible = exists(request.shape.mask, words, letters=request.letters)
        assert (made.status == "solved") == possible, (rows, cols)


# ---------------------------------------------------------------- solve


@pytest.mark.parametrize("engine", ENGINES)
def test_solve_finds_every_placement_make_made(engine: str, shared: Path) -> None:
    for seed in range(3):
        words = random_words(seed + 10, 25, shared)
        made = maker.make(maker.request_of(words, Shape.rectangle(15, 15), seed=seed), engine)
        found = finder.find(made.grid, made.request.words)
        assert not found.missing
        places = {(p.word, frozenset(p.cells)) for p in found.found}
        for placement in made.placements:
            assert (placement.word, frozenset(placement.cells)) in places


def test_the_finder_reads_all_eight_directions_and_not_across_holes() -> None:
    grid = ("CAT", "A#A", "TAC")
    found = finder.occurrences(grid, ["CAT", "CA"])
    assert {p.direction for p in found["CAT"]} == {"E", "S", "W", "N"}
    assert len(found["CA"]) == 4
    diagonal = finder.occurrences(("AB.", "CDE", "FGH"), ["DH", "GE", "HDA"])
    assert [p.direction for p in diagonal["DH"]] == ["SE"]
    assert [p.direction for p in diagonal["GE"]] == ["NE"]
    assert [(p.row, p.col, p.direction) for p in diagonal["HDA"]] == [(2, 2, "NW")]
    assert finder.occurrences(("A#A",), ["AA"])["AA"] == []


def test_a_palindrome_is_one_occurrence_in_its_forward_direction() -> None:
    found = finder.occurrences(("XBOBX",), ["BOB"])["BOB"]
    assert [(p.row, p.col, p.direction) for p in found] == [(0, 1, "E")]


def test_solve_names_the_missing_words() -> None:
    found = finder.find(("CAT", "XXX"), ["CAT", "DOG"])
    assert found.missing == ("DOG",)
    assert found_json(found) == {
        "found": [
            {"word": "CAT", "row": 0, "col": 0, "direction": "E", "cells": [[0, 0], [0, 1], [0, 2]]}
        ],
        "missing": ["DOG"],
    }
    text = found_text(found)
    assert "CAT  E   from row 1, column 1" in text
    assert "DOG  not found" in text
    assert text.endswith("missing: DOG")


# ---------------------------------------------------------------- output


def test_the_json_of_make() -> None:
    made = maker.make(maker.request_of(NAMES, Shape.rectangle(9, 9), seed=1), "python")
    doc = made_json(made)
    assert list(doc) == ["status", "grid", "placements", "stats"]
    assert doc["status"] == "solved"
    assert len(doc["grid"]) == 9
    first = doc["placements"][0]
    assert list(first) == ["word", "row", "col", "direction", "cells"]
    assert first["word"] == "MATTHEW"
    assert len(first["cells"]) == 7
    assert first["cells"][0] == [first["row"], first["col"]]
    assert list(doc["stats"]) == ["engine", "nodes", "backtracks", "seconds", "seed"]
    unsolvable = made_json(maker.make(maker.request_of(["ABCDEFGHIJ"], Shape.rectangle(3, 3))))
    assert unsolvable["status"] == "unsolvable"
    assert unsolvable["grid"] == []
    assert unsolvable["proof"]["layer"] == "length"
    assert unsolvable["reason"] == unsolvable["proof"]["reason"]


def test_the_text_of_make_reads_back_in_solve() -> None:
    shape = reading.load_mask(DATA / "heart.mask")
    made = maker.make(maker.request_of(reading.load_words(DATA / "planets.txt"), shape, seed=7))
    grid_part, words_part = made_text(made).split("\n\n")
    assert reading.parse_grid(grid_part) == made.grid
    assert reading.parse_words(words_part.replace("  ", "\n")) == made.request.words


def test_the_svg_sheet_and_key(tmp_path: Path) -> None:
    made = maker.make(maker.request_of(NAMES, Shape.rectangle(9, 9), seed=1), "python")
    sheet = ET.fromstring(draw_svg(made.grid, NAMES))
    texts = [t.text for t in sheet.iter(f"{SVG}text")]
    assert len(texts) == 81 + 5
    assert texts[-5:] == list(NAMES)
    key = ET.fromstring(draw_svg(made.grid, NAMES, made.placements))
    outlines = [r for r in key.iter(f"{SVG}rect") if r.get("rx")]
    assert len(outlines) == 5
    assert [r.find(f"{SVG}title").text for r in outlines] == list(NAMES)  # type: ignore[union-attr]
    assert key_path(tmp_path / "p.svg") == tmp_path / "p-key.svg"


def test_the_png_key_outlines_each_answer(tmp_path: Path) -> None:
    from PIL import Image

    made = maker.make(maker.request_of(NAMES, Shape.rectangle(9, 9), seed=1), "python")
    plain = write_picture(made.grid, NAMES, tmp_path / "p.png")
    key = write_picture(made.grid, NAMES, tmp_path / "k.png", made.placements)
    with Image.open(plain) as a, Image.open(key) as b:
        assert a.size == b.size
        colours_a = {c for _, c in a.getcolors(1 << 16) or []}  # type: ignore[misc]
        colours_b = {c for _, c in b.getcolors(1 << 16) or []}  # type: ignore[misc]
    assert (214, 39, 40) in colours_b - colours_a  # the first outline's red


def test_holes_are_blank_in_pictures() -> None:
    svg = draw_svg(("A#", "BC"), ["AB"])
    assert [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")] == ["A", "B", "C", "AB"]


def test_requests_are_plain_values() -> None:
    request = Request(("AB",), Shape.rectangle(1, 2), seed=3)
    assert request == Request(("AB",), Shape.rectangle(1, 2), seed=3)


def test_the_benchmark_word_lists_and_its_check_of_other_makers() -> None:
    from pybridge.wordsearch import bench

    pool = ["CAT", "CATS", "STAC", "ANNA", "DOG", "BIRD", "FISH", "HORSE", "OX"]
    chosen = bench.word_list(pool, 5, seed=1)
    assert chosen == bench.word_list(pool, 5, seed=1)
    assert "ANNA" not in chosen
    for a in chosen:
        assert not any(a != b and (a in b or a[::-1] in b) for b in chosen)
    cat = WordPlacement.at("CAT", 0, 0, "E")
    assert bench.accidental(("CATXX", "XXXXX", "TACXX"), [cat]) == [
        "CAT placed at row 1, column 1, going E, also at row 3, column 3, going W"
    ]
    assert bench.accidental(("CATS",), [WordPlacement.at("CATS", 0, 0, "E"), cat]) == []


def test_a_wrong_puzzle_from_an_engine_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from pybridge.errors import EngineError
    from pybridge.wordsearch import engines
    from pybridge.wordsearch.model import Answer

    def sloppy(request: Request) -> Answer:  # CAT placed, and CAT again by the filler
        return Answer("solved", ("CATXCAT",), ((0, 0, "E"),), 1, 0)

    monkeypatch.setitem(engines.SEARCH, "python", sloppy)
    request = maker.request_of(["cat"], Shape.rectangle(1, 7), seed=0)
    with pytest.raises(EngineError, match="CAT also occurs at row 1, column 5, going E"):
        maker.make(request, "python")
