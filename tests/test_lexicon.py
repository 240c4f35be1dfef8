"""Readers for construction mode (pybridge.lexicon): every grid and
dictionary of ../shared loads as documented, normalisation and merging of
dictionaries, the dictionary cache, and bad input reported with its file,
line and column."""

from __future__ import annotations

import csv
import os
import tempfile
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pybridge import lexicon
from pybridge.errors import InputError, UsageError
from pybridge.gridfiles import load_grid, parse_grid, sniff_grid
from pybridge.layout import find_sites
from pybridge.lexicon import Dictionary, load_dictionary
from pybridge.model import Puzzle


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every dictionary loaded here is cached in a temporary folder, never in
    the user's cache (module-scoped, so hypothesis tests may use it too)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROSSWORD_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        patch.delenv("CROSSWORD_NO_CACHE", raising=False)
        yield


def corpus(shared: Path, *parts: str) -> Path:
    return shared.joinpath("corpus", *parts)


def rp_dict(shared: Path, name: str) -> Path:
    return corpus(shared, "rp2016", "dicts", name)


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def rp_error(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_grid(text, "g.txt", "rp2016")
    return caught.value


def assert_lexicon_grid(puzzle: Puzzle, format: str) -> None:
    assert puzzle.mode == "lexicon"
    assert puzzle.words == ()
    assert puzzle.format == format
    assert all(len(row) == puzzle.width for row in puzzle.grid)


# ---------------------------------------------------------------- CS50


def test_every_cs50_structure_loads(shared: Path) -> None:
    cs50 = corpus(shared, "cs50")
    paths = [*cs50.glob("structure*.txt"), *cs50.glob("check50-fixtures/test_structure*.txt")]
    assert len(paths) == 6
    for path in paths:
        [puzzle] = load_grid(path)
        assert_lexicon_grid(puzzle, "cs50")
        assert puzzle.source == str(path)
        assert set("".join(puzzle.grid)) == {"#", "."}
        assert find_sites(puzzle), path


def test_cs50_structure0_cells_and_sites(shared: Path) -> None:
    [puzzle] = load_grid(corpus(shared, "cs50", "structure0.txt"))
    assert puzzle.grid == ("#...#", "#.##.", "#.##.", "#.##.", "#....")
    lengths = sorted((site.direction, site.length) for site in find_sites(puzzle))
    assert lengths == [("across", 3), ("across", 4), ("down", 4), ("down", 5)]


def test_cs50_any_character_but_underscore_is_blocked_and_short_lines_padded() -> None:
    [puzzle] = parse_grid("_ _.x\n\n#__\t\n", "s.txt")
    assert puzzle.format == "cs50"
    assert puzzle.grid == (".#.##", "#####", "#..##")
    assert puzzle.row_widths == (5, 0, 4)


def test_cs50_empty_structure_is_an_error() -> None:
    with pytest.raises(InputError, match="the structure file is empty"):
        parse_grid("\n\n", "s.txt", "cs50")


# ---------------------------------------------------------------- RP 2016

GRID_A = ("...##", "....#", ".....", "#....", "##...")


def test_every_rp2016_grid_file_loads(shared: Path) -> None:
    paths = sorted(corpus(shared, "rp2016", "grids").glob("*.txt"))
    assert len(paths) >= 10
    for path in paths:
        puzzles = load_grid(path)
        assert puzzles, path
        for puzzle in puzzles:
            assert_lexicon_grid(puzzle, "rp2016")


def test_grilles1_holds_grids_a_b_c(shared: Path) -> None:
    path = corpus(shared, "rp2016", "grids", "grilles1.txt")
    puzzles = load_grid(path)
    assert [(p.height, p.width) for p in puzzles] == [(5, 5), (7, 7), (9, 9)]
    assert [p.source for p in puzzles] == [f"{path}#{n}" for n in (1, 2, 3)]
    assert puzzles[0].grid == GRID_A
    assert puzzles[0].row_widths == (5,) * 5
    assert load_grid(path, grid=2) == [puzzles[1]]


def test_grid_number_out_of_range_names_the_count(shared: Path) -> None:
    path = corpus(shared, "rp2016", "grids", "grilles1.txt")
    for number in (0, 4):
        with pytest.raises(InputError, match=r"there is no grid \d: the file holds 3 grids"):
            load_grid(path, grid=number)


def test_grille1_stops_at_its_early_end_marker(shared: Path) -> None:
    path = corpus(shared, "rp2016", "grids", "grille1.txt")
    [puzzle] = load_grid(path)
    assert puzzle.grid == GRID_A
    assert puzzle.source == str(path)  # one grid: no "#1"


def test_zero_mots_has_no_site_and_zero_noires_no_block(shared: Path) -> None:
    grids = corpus(shared, "rp2016", "grids")
    [black] = load_grid(grids / "zeroMots.txt")
    assert black.grid == ("#" * 10,) * 10
    assert find_sites(black) == ()
    [white] = load_grid(grids / "zeroNoires.txt")
    assert white.grid == ("...",) * 3
    assert len(find_sites(white)) == 6


def test_rp2016_crlf_leading_blank_lines_tabs_and_no_final_newline() -> None:
    puzzles = parse_grid("\r\n\r\n2 2\r\n0\t1\r\n1 0\r\n\r\n\r\n1 3\r\n0 0 0\r\n\r\n0 0")
    assert [p.grid for p in puzzles] == [(".#", "#."), ("...",)]
    assert [p.source for p in puzzles] == ["<grid>#1", "<grid>#2"]


def test_rp2016_end_marker_is_optional_and_what_follows_it_unread() -> None:
    assert parse_grid("1 2\n0 1\n")[0].grid == (".#",)
    [puzzle] = parse_grid("1 2\n0 1\n\n0 0\n\nnot a grid\n7 7\n")
    assert puzzle.grid == (".#",)


def test_rp2016_two_column_rows_are_rows_not_headers() -> None:
    [puzzle] = parse_grid("3 2\n0 0\n1 0\n0 0\n\n0 0\n")
    assert puzzle.grid == ("..", "#.", "..")


@given(st.lists(st.lists(st.booleans(), min_size=1, max_size=6), min_size=1, max_size=6))
def test_rp2016_grid_round_trips(cells: list[list[bool]]) -> None:
    width = len(cells[0])
    rows = [(row * width)[:width] for row in cells]
    text = f"{len(rows)} {width}\n" + "".join(
        " ".join("1" if black else "0" for black in row) + "\n" for row in rows
    )
    [puzzle] = parse_grid(text + "\n0 0\n")
    assert puzzle.grid == tuple("".join("#" if b else "." for b in row) for row in rows)


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        (
            "2 2\n0 1 1\n0 0\n",
            "expected 2 values (the header on line 1 says 2 columns), found more",
            2,
            5,
        ),
        ("2 2\n0\n0 0\n", "expected 2 values (the header on line 1 says 2 columns), found 1", 2, 2),
        ("2 2\n0 2\n0 0\n", "expected 0 (open) or 1 (black), separated by spaces, found '2'", 2, 3),
        ("2 2\n01\n0 0\n", "found '01'", 2, 1),
        ("\n2 2\n0 1\n\n0 0\n", "the header on line 2 says 2 rows, found 1", 3, 4),
        ("2 2\n0 1\n1 0\n1 1\n", "expected a blank line after the last one", 4, 1),
        (
            "2x2\n0 1\n",
            "expected the grid header `rows cols` (two whole numbers), found '2x2'",
            1,
            1,
        ),
        ("2\n0 1\n", "two numbers, found one", 1, 2),
        ("0 0 0 1 1\n", "two numbers, found more (is the header missing?)", 1, 5),
        ("2 0\n", "a grid needs at least one row and one column", 1, 3),
        ("-1 2\n", "found '-1'", 1, 1),
        ("  0 0\n1 1\n0 1\n", "the file ends (`0 0`) before its first grid", 1, 3),
    ],
)
def test_rp2016_errors_point_at_the_value(text: str, message: str, line: int, column: int) -> None:
    err = rp_error(text)
    assert message in err.message
    assert (err.source, err.line, err.column) == ("g.txt", line, column)
    assert err.text == text.split("\n")[line - 1]
    assert str(err).startswith(f"g.txt:{line}:{column}: error: ")


def test_rp2016_empty_file_is_an_error() -> None:
    for text in ("", "\n\n"):
        assert "the file is empty: expected a grid header" in rp_error(text).message


def test_rp2016_error_in_a_later_grid_of_a_file(tmp_path: Path) -> None:
    path = write(tmp_path, "g.txt", "1 1\r\n0\r\n\r\n2 2\r\n0 1\r\n1 0 x\r\n\r\n0 0\r\n")
    with pytest.raises(InputError) as caught:
        load_grid(path, grid=1)  # the whole file is checked up to `0 0`
    assert (caught.value.source, caught.value.line, caught.value.column) == (str(path), 6, 5)


# ---------------------------------------------------------------- plain grids


def test_every_bench_grid_loads(shared: Path) -> None:
    paths = [
        p
        for p in sorted((shared / "bench" / "grids").rglob("*.txt"))
        if not p.name.endswith(".words.txt")  # a word list, read by load_dictionary below
    ]
    assert len(paths) >= 100
    for path in paths:
        [puzzle] = load_grid(path)
        assert_lexicon_grid(puzzle, "grid")
        assert puzzle.source == str(path)


def test_vanbeek_grids_match_their_index(shared: Path) -> None:
    folder = shared / "bench" / "grids" / "vanbeek"
    with (folder / "INDEX.tsv").open(encoding="utf-8", newline="") as index:
        rows = list(csv.DictReader(index, delimiter="\t"))
    assert len(rows) == 72
    for row in rows:
        [puzzle] = load_grid(folder / f"{row['file']}.txt")
        sites = find_sites(puzzle)
        measured = (
            puzzle.width,
            puzzle.height,
            "".join(puzzle.grid).count("#"),
            len(sites),
            max(site.length for site in sites),
        )
        expected = tuple(int(row[key]) for key in ("width", "height", "black"))
        expected += (int(row["slots(len>=2)"]), int(row["max_len"]))
        assert measured == expected, row["file"]


def test_given_letters_are_upper_cased(shared: Path) -> None:
    path = shared / "bench" / "grids" / "fillin" / "ingrid-example-15x15.solution.txt"
    [puzzle] = load_grid(path)
    assert "".join(puzzle.grid).replace("#", "").isupper()
    assert parse_grid(".a\n#é\n")[0].grid == (".A", "#É")


def test_plain_grid_trailing_spaces_ignored_and_short_rows_padded() -> None:
    [puzzle] = parse_grid("...\n.#  \n.\n\n")
    assert puzzle.grid == ("...", ".##", ".##")
    assert puzzle.row_widths == (3, 2, 1)


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("..\n.1\n", "expected '.' (open), '#' (blocked) or a letter (given), found '1'", 2, 2),
        ("..\n. .\n", "found a space", 2, 2),
        ("..\nß.\n", "'ß' is SS in upper case, more than one letter", 2, 1),
        ("..\n\n..\n", "blank line inside the grid", 2, 1),
    ],
)
def test_plain_grid_errors(text: str, message: str, line: int, column: int | None) -> None:
    with pytest.raises(InputError) as caught:
        parse_grid(text, "g.txt", "grid")
    assert message in caught.value.message
    assert (caught.value.line, caught.value.column) == (line, column)


def test_sniffing_and_forcing_the_format() -> None:
    assert sniff_grid("\n5 5\n0 0 0 0 0\n") == "rp2016"
    assert sniff_grid("#_#\n___\n") == "cs50"
    assert sniff_grid(".#\n..\n") == "grid"
    # Forced CS50: a '.' is just another blocked character.
    assert parse_grid(".#\n_.\n", format="cs50")[0].grid == ("##", ".#")
    with pytest.raises(InputError, match="found '_'"):
        parse_grid("#_#\n", format="grid")
    with pytest.raises(ValueError, match="unknown grid format"):
        parse_grid(".", format="p99")  # type: ignore[arg-type]


def test_a_single_grid_file_has_grid_1_only(tmp_path: Path) -> None:
    path = write(tmp_path, "g.txt", "..\n..\n")
    assert load_grid(path, grid=1) == load_grid(path)
    with pytest.raises(InputError, match="there is no grid 2: the file holds 1 grid,"):
        load_grid(path, grid=2)


def test_a_missing_grid_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the file") as caught:
        load_grid(tmp_path / "nope.txt")
    assert caught.value.source == str(tmp_path / "nope.txt")


# ---------------------------------------------------------------- dictionaries

RP_DICTS = {
    "133000-mots-us.txt": "cp1252",
    "135000-mots-fr.txt": "cp1252",
    "22600-mots-fr.txt": "cp1252",
    "58000-mots-us.txt": "utf-8",  # plain ASCII: both encodings read it alike
    "850-mots-us.txt": "utf-8",
}


@pytest.mark.parametrize(("name", "encoding"), RP_DICTS.items())
def test_rp2016_dictionaries_load(shared: Path, name: str, encoding: str) -> None:
    path = rp_dict(shared, name)
    dictionary = load_dictionary([path])
    assert dictionary.sources == (str(path),)
    assert dictionary.encodings == (encoding,)
    assert dictionary.weighted == ()
    assert len(dictionary.words) > 800
    assert all(word.isalpha() and word == word.upper() for word in dictionary.words)
    assert len(set(dictionary.words)) == len(dictionary.words)


def test_french_accents_are_upper_cased_and_kept(shared: Path) -> None:
    words = set(load_dictionary([rp_dict(shared, "22600-mots-fr.txt")]).words)
    assert {"ÉLÈVE", "GARÇON", "NOËL", "CŒUR", "ÊTRE", "DÈS"} <= words
    big = set(load_dictionary([rp_dict(shared, "135000-mots-fr.txt")]).words)
    assert {"ÇA", "AUJOURDHUI", "PRUDHOMME", "ENTRAPERÇU"} <= big


def test_skipped_entries_are_counted_by_reason(shared: Path) -> None:
    dictionary = load_dictionary([rp_dict(shared, "22600-mots-fr.txt")])
    assert dictionary.skipped == {
        "with '!'": 5,
        "with ')'": 3,
        "with '.'": 1,
        "duplicate": 77,
    }
    assert "skipped 77 duplicate, 5 with '!', 3 with ')', 1 with '.'" in dictionary.summary()


def test_spaces_tabs_and_hyphens_in_english_lists(shared: Path) -> None:
    small = load_dictionary([rp_dict(shared, "850-mots-us.txt")])
    assert {"YOUNG", "KEY", "WRONGABOUT"} <= set(small.words)  # 'YOUNG\t', 'WRONG ABOUT'
    assert small.skipped == {}
    medium = load_dictionary([rp_dict(shared, "58000-mots-us.txt")])
    assert {"ZULUSAARON", "CROSSBUN"} <= set(medium.words)


def test_weighted_dictionary_keeps_the_words(shared: Path) -> None:
    path = rp_dict(shared, "weighted_dicoANDROIDE_ThibaultGigant.txt")
    dictionary = load_dictionary([path])
    assert dictionary.weighted == (str(path),)
    assert dictionary.words[:3] == ("AI", "AN", "AU")
    assert {"LIA", "MONOAGENT", "METAHEURISTIQUES"} <= set(dictionary.words)
    assert dictionary.skipped == {"duplicate": 3}  # MULTI-AGENT and MULTIAGENT, ...
    assert "scores from every file" in dictionary.summary()
    assert dictionary.scores is not None
    assert dictionary.scores.score("AI") == 1
    assert str(dictionary.scores.score("AN")) == "0.012"  # as written


def test_a_partly_numbered_list_is_not_weighted(tmp_path: Path) -> None:
    dictionary = load_dictionary([write(tmp_path, "d.txt", "ab 1\ncd\n")])
    assert dictionary.weighted == ()
    assert dictionary.words == ("CD",)
    assert dictionary.skipped == {"with a digit": 1}


def test_cs50_words2_normalises_hyphens_and_apostrophes(shared: Path) -> None:
    dictionary = load_dictionary([corpus(shared, "cs50", "words2.txt")])
    assert {"NT", "EMAIL", "AFRICANAMERICAN", "MMHMM"} <= set(dictionary.words)
    assert len(dictionary.words) == 3000


def test_ingrid_answer_words_load(shared: Path) -> None:
    path = shared / "bench" / "grids" / "fillin" / "ingrid-example-15x15.words.txt"
    assert len(load_dictionary([path]).words) == 72


def test_merging_keeps_first_occurrence_order_and_counts_duplicates(shared: Path) -> None:
    fixtures = corpus(shared, "cs50", "check50-fixtures")
    without_slope, with_slope = fixtures / "test_words3.txt", fixtures / "test_words2.txt"
    merged = load_dictionary([without_slope, with_slope])
    first = load_dictionary([without_slope]).words
    assert merged.words == (*first, "SLOPE")
    assert merged.skipped == {"duplicate": len(first)}
    assert merged.sources == (str(without_slope), str(with_slope))


def test_normalisation_of_case_joiners_and_unicode(tmp_path: Path) -> None:
    text = "Straße\ne\u0301te\u0301\nICE CREAM\nn\u2019t\nE-Mail\n  x\t\nab\tc\n3D\n\n-\nété\n"
    dictionary = load_dictionary([write(tmp_path, "d.txt", text)])
    assert dictionary.words == ("STRASSE", "ÉTÉ", "ICECREAM", "NT", "EMAIL", "X")
    assert dictionary.skipped == {"with a tab inside": 1, "with a digit": 1, "duplicate": 1}


def test_bom_and_line_endings(tmp_path: Path) -> None:
    path = write(tmp_path, "d.txt", b"\xef\xbb\xbfone\r\ntwo\rthree\nfour")
    assert load_dictionary([path]).words == ("ONE", "TWO", "THREE", "FOUR")


ENTRY = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=8)


@given(st.lists(ENTRY, max_size=20))
def test_loaded_words_are_distinct_upper_case_letters(entries: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder), "d.txt", "\n".join([*entries, "ab"]))
        words = load_dictionary([path]).words
    assert "AB" in words
    assert len(set(words)) == len(words)
    assert all(word.isalpha() and word == word.upper() for word in words)


def test_forced_encoding_error_points_at_the_byte(shared: Path) -> None:
    path = rp_dict(shared, "22600-mots-fr.txt")
    data = path.read_bytes()
    at = next(i for i, byte in enumerate(data) if byte >= 0x80)
    line = data[:at].count(b"\n") + 1
    column = at - (data.rfind(b"\n", 0, at) + 1) + 1
    with pytest.raises(InputError, match="not valid utf-8 \\(byte 0x") as caught:
        load_dictionary([path], encoding="utf-8")
    assert (caught.value.source, caught.value.line, caught.value.column) == (
        str(path),
        line,
        column,
    )
    assert load_dictionary([path], encoding="CP1252").encodings == ("cp1252",)


def test_undecodable_bytes_without_an_encoding(tmp_path: Path) -> None:
    path = write(tmp_path, "d.txt", b"ab\r\ncd\x81e\r\n")
    with pytest.raises(InputError, match="neither UTF-8 nor cp1252 \\(byte 0x81\\)") as caught:
        load_dictionary([path])
    assert (caught.value.line, caught.value.column) == (2, 3)


def test_unknown_encoding_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="unknown encoding 'klingon'"):
        load_dictionary([write(tmp_path, "d.txt", "ab\n")], encoding="klingon")


def test_empty_and_missing_dictionaries(tmp_path: Path) -> None:
    empty = write(tmp_path, "empty.txt", "\n123\n!!\n")
    with pytest.raises(InputError, match="no usable entry") as caught:
        load_dictionary([write(tmp_path, "ok.txt", "ab\n"), empty])
    assert caught.value.source == str(empty)
    assert "1 with a digit" in caught.value.message
    with pytest.raises(InputError, match="cannot read the dictionary") as missing:
        load_dictionary([tmp_path / "nope.txt"])
    assert missing.value.source == str(tmp_path / "nope.txt")


# ---------------------------------------------------------------- dictionary cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test's own (not created yet)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(folder))
    return folder


def counted_decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources decoded from now on, one entry per decoding."""
    decoded: list[str] = []
    decode = lexicon._decode

    def counting(data: bytes, codec: str | None, source: str) -> tuple[str, str]:
        decoded.append(source)
        return decode(data, codec, source)

    monkeypatch.setattr(lexicon, "_decode", counting)
    return decoded


def uncached(paths: list[Path], encoding: str | None = None) -> Dictionary:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROSSWORD_NO_CACHE", "1")
        return load_dictionary(paths, encoding)


def mixed_files(tmp_path: Path) -> list[Path]:
    """Files with duplicates within and across them, skipped lines, cp1252
    bytes and weights: everything a cache entry has to carry."""
    return [
        write(tmp_path, "a.txt", "Apple\nbanana\napple\n3D\nn't\n"),
        write(tmp_path, "b.txt", "Banana\ncaf\xe9\nx!\n".encode("cp1252")),
        write(tmp_path, "w.txt", "cafe 1.5\nNT 2\nzed 3\n"),
    ]


def test_cached_loads_equal_uncached_ones(tmp_path: Path, cache: Path) -> None:
    paths = mixed_files(tmp_path)
    expected = uncached(paths)
    assert expected.skipped == {"duplicate": 3, "with a digit": 1, "with '!'": 1}
    assert expected.encodings == ("utf-8", "cp1252", "utf-8")
    assert expected.weighted == (str(paths[2]),)
    assert not cache.exists()
    assert load_dictionary(paths) == expected  # writes the entries
    assert len(list(cache.glob("*.words"))) == 3
    assert load_dictionary(paths) == expected  # reads them
    for order in (paths[::-1], [paths[1], paths[0], paths[1]]):
        assert load_dictionary(order) == uncached(order)
    assert load_dictionary(paths, "latin-1") == uncached(paths, "latin-1")


@pytest.mark.parametrize(
    "names",
    [
        ["22600-mots-fr.txt"],
        ["133000-mots-us.txt"],
        ["weighted_dicoANDROIDE_ThibaultGigant.txt"],
        ["850-mots-us.txt", "58000-mots-us.txt", "850-mots-us.txt"],
    ],
)
def test_cached_shared_dictionaries_equal_uncached_ones(
    shared: Path, cache: Path, names: list[str]
) -> None:
    paths = [rp_dict(shared, name) for name in names]
    expected = uncached(paths)
    assert load_dictionary(paths) == expected
    assert load_dictionary(paths) == expected


def test_a_second_load_reads_the_cache_until_the_file_changes(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded = counted_decodes(monkeypatch)
    path = write(tmp_path, "d.txt", "one\ntwo\n")
    first = load_dictionary([path])
    assert load_dictionary([path]) == first
    assert decoded == [str(path)]
    write(tmp_path, "d.txt", "one\ntwo\nthree\n")
    assert load_dictionary([path]).words == ("ONE", "TWO", "THREE")
    assert len(decoded) == 2
    load_dictionary([path], encoding="utf-8")  # a forced encoding has entries of its own
    assert len(decoded) == 3
    assert len(list(cache.glob("*.words"))) == 3


def test_the_same_bytes_elsewhere_share_an_entry(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decoded = counted_decodes(monkeypatch)
    here, there = write(tmp_path, "a.txt", "ab\n"), write(tmp_path, "b.txt", "ab\n")
    assert load_dictionary([here]).sources == (str(here),)
    assert load_dictionary([there]).sources == (str(there),)
    assert decoded == [str(here)]


def spoil_truncate(data: bytes) -> bytes:
    return data[:-3]


def spoil_body(data: bytes) -> bytes:
    return data.replace(b"BANANA", b"BANANO")


def spoil_header(data: bytes) -> bytes:
    return b'["not", "an", "entry"]' + data[data.index(b"\n") :]


def spoil_format(data: bytes) -> bytes:
    current = f'"format": {lexicon.CACHE_FORMAT}'.encode()
    return data.replace(current, b'"format": 0', 1)


def spoil_counts(data: bytes) -> bytes:
    return data.replace(b'"duplicate": 1', b'"duplicate": "one"', 1)


def spoil_bytes(data: bytes) -> bytes:
    return b"\xff\xfe\x00" + data[3:]


def spoil_all(data: bytes) -> bytes:
    return b""


@pytest.mark.parametrize(
    "spoil",
    [spoil_truncate, spoil_body, spoil_header, spoil_format, spoil_counts, spoil_bytes, spoil_all],
)
def test_a_bad_entry_is_ignored_and_rewritten(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, spoil: Callable[[bytes], bytes]
) -> None:
    path = mixed_files(tmp_path)[0]
    expected = load_dictionary([path])
    [entry] = cache.glob("*.words")
    good = entry.read_bytes()
    spoiled = spoil(good)
    assert spoiled != good
    entry.write_bytes(spoiled)
    decoded = counted_decodes(monkeypatch)
    assert load_dictionary([path]) == expected
    assert decoded == [str(path)]
    assert entry.read_bytes() == good


@pytest.mark.parametrize(("value", "cached"), [("1", False), ("yes", False), ("0", True)])
def test_crossword_no_cache_turns_it_off(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, value: str, cached: bool
) -> None:
    monkeypatch.setenv("CROSSWORD_NO_CACHE", value)
    decoded = counted_decodes(monkeypatch)
    path = write(tmp_path, "d.txt", "ab\n")
    load_dictionary([path])
    assert load_dictionary([path]).words == ("AB",)
    assert cache.exists() is cached
    assert len(decoded) == (1 if cached else 2)


def test_an_unusable_cache_still_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "d.txt", "ab\ncd\n")
    blocker = write(tmp_path, "a-file", "not a folder")
    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(blocker / "cache"))  # cannot be created
    assert load_dictionary([path]).words == ("AB", "CD")
    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(blocker))  # not a folder
    assert load_dictionary([path]).words == ("AB", "CD")
    assert blocker.read_text() == "not a folder"


def test_a_failed_write_leaves_no_temporary_file(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(source: object, target: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", failing)
    path = write(tmp_path, "d.txt", "ab\n")
    assert load_dictionary([path]).words == ("AB",)
    assert list(cache.iterdir()) == []


def test_entries_are_written_whole(tmp_path: Path, cache: Path) -> None:
    path = mixed_files(tmp_path)[0]
    load_dictionary([path])
    [entry] = cache.iterdir()  # no temporary file left beside it
    header, body = entry.read_text(encoding="utf-8").split("\n", 1)
    assert body == "APPLE\nBANANA\nNT"
    assert '"encoding": "utf-8"' in header


# ---------------------------------------------------------------- scored dictionaries


def test_semicolon_scores_are_kept_as_written(tmp_path: Path) -> None:
    path = write(tmp_path, "s.txt", "water;60\nerne;12\nice cream ; 7.25\nnoscore\n")
    dictionary = load_dictionary([path])
    assert dictionary.words == ("WATER", "ERNE", "ICECREAM", "NOSCORE")
    scores = dictionary.scores
    assert scores is not None
    assert [str(scores.score(w)) for w in dictionary.words] == ["60", "12", "7.25", "50"]
    assert scores.scale == 100  # two digits after the point: integers times 100
    assert scores.values(dictionary.words) == (6000, 1200, 725, 5000)
    assert dictionary.weighted == (str(path),)


def test_a_line_whose_score_is_no_number_is_skipped_and_counted(tmp_path: Path) -> None:
    text = "water;60\nerne;lots\nsea;\nsky;1e99\n;\n"  # 1e99: too many digits
    dictionary = load_dictionary([write(tmp_path, "s.txt", text)])
    assert dictionary.words == ("WATER",)
    assert dictionary.skipped == {"with a score that is not a number": 4}
    assert "skipped 4 with a score that is not a number" in dictionary.summary()
    with pytest.raises(InputError, match="with a score that is not a number"):
        load_dictionary([write(tmp_path, "t.txt", "water;\n")])


def test_a_duplicate_keeps_its_first_score_within_and_across_files(tmp_path: Path) -> None:
    first = write(tmp_path, "a.txt", "Ice-Cream;30\nicecream;90\nplain\n")
    second = write(tmp_path, "b.txt", "PLAIN;99\nnew;1\n")
    dictionary = load_dictionary([first, second])
    assert dictionary.words == ("ICECREAM", "PLAIN", "NEW")
    assert dictionary.skipped == {"duplicate": 2}
    scores = dictionary.scores
    assert scores is not None
    assert (scores.score("ICECREAM"), scores.score("PLAIN"), scores.score("NEW")) == (30, 50, 1)


def test_an_unscored_file_merged_with_a_scored_one_counts_the_default(tmp_path: Path) -> None:
    scored = write(tmp_path, "a.txt", "ab;5\n")
    plain = write(tmp_path, "b.txt", "cd\nab\n")
    dictionary = load_dictionary([plain, scored])
    assert dictionary.weighted == (str(scored),)
    assert dictionary.scores is not None
    assert dictionary.scores.score("AB") == 50  # its first occurrence has none
    assert load_dictionary([plain]).scores is None


def test_cp1252_scored_lists_decode(tmp_path: Path) -> None:
    path = write(tmp_path, "s.txt", "café;40\r\nnaïve;0.5\r\n".encode("cp1252"))
    dictionary = load_dictionary([path])
    assert dictionary.encodings == ("cp1252",)
    assert dictionary.words == ("CAFÉ", "NAÏVE")
    assert dictionary.scores is not None
    assert [str(dictionary.scores.score(w)) for w in dictionary.words] == ["40", "0.5"]


def test_weights_of_every_line_are_scores(tmp_path: Path) -> None:
    path = write(tmp_path, "w.txt", "AI 1\nAN 0.012\n\nBD 1E-3\n")
    dictionary = load_dictionary([path])
    assert dictionary.words == ("AI", "AN", "BD")
    assert dictionary.scores is not None
    assert [str(dictionary.scores.score(w)) for w in dictionary.words] == ["1", "0.012", "0.001"]


def test_scores_survive_the_cache(tmp_path: Path, cache: Path) -> None:
    path = write(tmp_path, "s.txt", "water;60\nerne;12.5\nplain\n")
    expected = uncached([path])
    assert load_dictionary([path]) == expected  # writes the entry
    assert load_dictionary([path]) == expected  # reads it
    assert expected.scores is not None
    assert expected.scores.score("ERNE") == Decimal("12.5")
