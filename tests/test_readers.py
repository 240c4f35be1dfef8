"""The puzzle readers: the corpus parses, line endings and encodings are
handled, every kind of bad input is reported with its file, line and column,
and nothing but InputError ever escapes."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge.errors import InputError
from pybridge.model import Puzzle
from pybridge.readers import load, parse_fillin, parse_p99, sniff

# Tests that read ../shared take the `shared` fixture of conftest.py, which
# skips them when it is absent (and fails them when CI requires it).
REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"
SHARED = REPO.parent / "shared"
P99 = SHARED / "corpus" / "p99"
FILLIN = SHARED / "corpus" / "fillin"

P99_FILES = {"p7_09a.dat": 11, "p7_09b.dat": 59, "p7_09c.dat": 59, "p7_09d.dat": 59}
FILLIN_PUZZLES = ["1", "2", "3", "4", "5", "6", "7", "9", "12", "13", "_t15", "_t19", "_t27"]


def assert_error(err: InputError, message: str, line: int | None, column: int | None) -> None:
    assert message in err.message
    assert (err.line, err.column) == (line, column)


# ---------------------------------------------------------------- corpus


@pytest.mark.parametrize(("name", "word_count"), P99_FILES.items())
def test_corpus_p99_parses(shared: Path, name: str, word_count: int) -> None:
    path = P99 / name
    puzzle = load(path)
    assert puzzle.format == "p99"
    assert puzzle.source == str(path)
    assert len(puzzle.words) == word_count
    rows = path.read_text().split("\n\n", 1)[1].rstrip("\n").split("\n")
    assert puzzle.row_widths == tuple(len(row) for row in rows)
    assert puzzle.grid == tuple(row.replace(" ", "#").ljust(puzzle.width, "#") for row in rows)


@pytest.mark.parametrize("name", ["p7_09a", "p7_09b", "p7_09d"])
def test_corpus_p99_open_cells_are_the_expected_letters(shared: Path, name: str) -> None:
    puzzle = load(P99 / f"{name}.dat")
    solved = (P99 / "expected" / f"{name}.txt").read_text().splitlines()
    letters = {(r, c) for r, row in enumerate(solved) for c, ch in enumerate(row) if ch != " "}
    open_cells = {
        (r, c) for r, row in enumerate(puzzle.grid) for c, ch in enumerate(row) if ch != "#"
    }
    assert open_cells == letters


def test_corpus_p99_keeps_trailing_spaces_in_row_widths(shared: Path) -> None:
    puzzle = load(P99 / "p7_09b.dat")
    assert puzzle.row_widths[:4] == (25, 27, 25, 26)
    assert puzzle.width == 27


@pytest.mark.parametrize("n", FILLIN_PUZZLES)
def test_corpus_fillin_pairs_parse(shared: Path, n: str) -> None:
    grid_path, words_path = FILLIN / f"puzzle{n}", FILLIN / f"words{n}"
    puzzle = load(grid_path, words=words_path)
    assert puzzle.format == "fillin"
    assert puzzle.source == str(grid_path)
    assert list(puzzle.words) == words_path.read_text().split()
    rows = grid_path.read_text().split()
    assert puzzle.grid == tuple(row.replace("_", ".") for row in rows)


@pytest.mark.parametrize(("n", "filled"), [("1", "1"), ("3", "3a"), ("4", "4"), ("12", "12")])
def test_corpus_fillin_grid_agrees_with_the_filled_grid(shared: Path, n: str, filled: str) -> None:
    puzzle = load(FILLIN / f"puzzle{n}", words=FILLIN / f"words{n}")
    solved = (FILLIN / f"filled{filled}").read_text().split()
    for grid_row, filled_row in zip(puzzle.grid, solved, strict=True):
        assert [ch == "#" for ch in grid_row] == [ch == "#" for ch in filled_row]
        assert all(g in (".", "#", f) for g, f in zip(grid_row, filled_row, strict=True))


def test_corpus_fillin_predefined_cells(shared: Path) -> None:
    puzzle = load(FILLIN / "puzzle4", words=FILLIN / "words4")
    assert [puzzle.given((r, 0)) for r in (2, 3, 4)] == ["D", "A", "G"]
    digits = load(FILLIN / "puzzle13", words=FILLIN / "words13")
    assert digits.given((9, 8)) == "6"


def test_a_25_by_25_file_parses_well_under_a_millisecond(shared: Path) -> None:
    text = (P99 / "p7_09d.dat").read_text()
    parse_p99(text, "d")
    runs = []
    for _ in range(30):
        start = time.perf_counter()
        parse_p99(text, "d")
        runs.append(time.perf_counter() - start)
    # The minimum is the cost without the noise of a busy machine.
    median = statistics.median(runs)
    assert min(runs) < 1e-3, f"min {min(runs) * 1e3:.2f} ms, median {median * 1e3:.2f} ms"


# ---------------------------------------------------------------- text handling

SMALL = "LINUX\nPROLOG\n\n......  .\n. .  .  .\n  . ...\n"


@pytest.mark.parametrize(
    "variant",
    [
        SMALL.replace("\n", "\r\n"),
        SMALL.replace("\n", "\r"),
        SMALL.rstrip("\n"),
        "\ufeff" + SMALL,
        SMALL + "\n  \n\t\n",
        SMALL.replace("LINUX", "LINUX  \t"),
    ],
    ids=["crlf", "cr", "no-final-newline", "bom", "trailing-blank-lines", "word-trailing-space"],
)
def test_line_endings_and_blank_ends_give_the_same_puzzle(variant: str) -> None:
    expected = parse_p99(SMALL, "s")
    puzzle = parse_p99(variant, "s")
    assert puzzle == expected
    assert puzzle.row_widths == expected.row_widths == (9, 9, 7)


@pytest.mark.parametrize(
    "transform",
    [
        lambda b: b.replace(b"\n", b"\r\n"),
        lambda b: b.replace(b"\n", b"\r"),
        lambda b: b.rstrip(b"\n"),
        lambda b: b"\xef\xbb\xbf" + b,
    ],
    ids=["crlf", "cr", "no-final-newline", "bom"],
)
def test_corpus_file_variants_load_to_the_same_puzzle(
    shared: Path, tmp_path: Path, transform: Callable[[bytes], bytes]
) -> None:
    original = P99 / "p7_09b.dat"
    variant = tmp_path / "variant.dat"
    variant.write_bytes(transform(original.read_bytes()))
    expected = load(original)
    puzzle = load(variant)
    assert (puzzle.words, puzzle.grid, puzzle.row_widths) == (
        expected.words,
        expected.grid,
        expected.row_widths,
    )


def test_padding_and_grid_normalisation() -> None:
    puzzle = parse_p99("AB\n\n.A \n.\n ..\n", "p")
    assert puzzle.grid == (".A#", ".##", "#..")
    assert puzzle.row_widths == (3, 1, 3)
    assert puzzle.given((0, 1)) == "A"


# ---------------------------------------------------------------- unicode


def test_unicode_words_and_letters() -> None:
    puzzle = load(DATA / "unicode.dat")
    assert {"STRAßE", "KÄSE", "МОРЕ", "ДОМ"} <= set(puzzle.words)  # noqa: RUF001 (Cyrillic)
    given = parse_p99("ÄSSE\n\nÄ...\n", "u")
    assert given.given((0, 0)) == "Ä"


def test_text_is_normalised_to_nfc() -> None:
    decomposed = parse_p99("KA\u0308SE\n\nA\u0308...\n", "nfd")
    assert decomposed.words == ("KÄSE",)
    assert decomposed.grid == ("Ä...",)


def test_fillin_words_are_case_sensitive_and_may_hold_digits() -> None:
    puzzle = parse_fillin("a_\n__\n", "ab\nAB\n12\nß9\n", "g", "w")
    assert puzzle.words == ("ab", "AB", "12", "ß9")
    assert puzzle.grid == ("a.", "..")


def test_fillin_ragged_rows_are_padded_and_trailing_space_ignored() -> None:
    puzzle = parse_fillin("___\n_  \n__#\t\n", "abc\n", "g", "w")
    assert puzzle.grid == ("...", ".##", "..#")
    assert puzzle.row_widths == (3, 1, 3)


# ---------------------------------------------------------------- our data files


def test_data_files_parse() -> None:
    names = {path.name: load(path) for path in sorted(DATA.glob("*.dat"))}
    assert {"unicode.dat", "predefined.dat", "duplicates.dat", "single.dat"} <= names.keys()
    assert {"letters-clash.dat", "demo.dat"} <= names.keys()
    assert len(names["single.dat"].words) == 1
    assert 8 <= len(names["demo.dat"].words) <= 12
    duplicates = names["duplicates.dat"].words
    assert len(set(duplicates)) < len(duplicates)
    predefined = names["predefined.dat"]
    assert any(predefined.given((r, c)) for r in range(predefined.height) for c in range(5))


# ---------------------------------------------------------------- P-99 errors

P99_ERRORS = [
    ("", "the file is empty", 1, None),
    ("\n", "the word list is empty", 1, 1),
    ("\nABC\n\n...\n", "the word list is empty", 1, 1),
    (". .\nAB\n\n..\n", "expected a word, found '.'", 1, 1),
    ("AB\n. .\n", "a blank line must separate the word list from the framework", 2, 1),
    ("AB\nCD\nEF\n.. .\n", "expected a word or a blank line, found '.'", 4, 1),
    ("AB\nCD\nE.F\n", "found '.'", 3, 2),
    ("AB\nCD EF\n\n..\n", "found a space", 2, 3),
    ("AB\n CD\n\n..\n", "found a space", 2, 1),
    ("AB\nC1D\n\n..\n", "expected a letter (a word is made of letters only), found '1'", 2, 2),
    ("AB\nC-D\n\n..\n", "found '-'", 2, 2),
    ("AB\nC\u00a0D\n\n..\n", "found U+00A0", 2, 2),
    ("AB\n", "the framework is missing", 1, None),
    ("AB\nCD\nEF\n", "the framework is missing", 3, None),
    ("AB\n\n", "expected framework rows after the blank line", 2, None),
    ("AB\n\n \n\n", "expected framework rows after the blank line", 4, None),
    ("AB\n\n..\n\n..\n", "blank line inside the framework", 4, 1),
    ("AB\n\n..\n..\n  \n\n..\n", "blank line inside the framework", 5, 1),
    ("AB\n\n..\n\nAB\n", "blank line inside the framework", 4, 1),
    ("AB\n\n..\n.\t.\n", "tab in framework: use spaces for blocked cells", 4, 2),
    ("AB\n\n..\n.. \t\n", "tab in framework", 4, 4),
    (
        "AB\n\n.#.\n",
        "expected '.' (open), a letter (given) or a space (blocked) in the framework, found '#'",
        3,
        2,
    ),
    ("AB\n\n..\n._\n", "found '_'", 4, 2),
    ("AB\r\n\r\n..\r\n.5\r\n", "found '5'", 4, 2),
]


@pytest.mark.parametrize(("text", "message", "line", "column"), P99_ERRORS)
def test_p99_errors(text: str, message: str, line: int, column: int | None) -> None:
    with pytest.raises(InputError) as caught:
        parse_p99(text, "bad.dat")
    assert_error(caught.value, message, line, column)
    assert caught.value.source == "bad.dat"
    if column is not None:
        assert caught.value.text == text.replace("\r\n", "\n").split("\n")[line - 1]


def test_error_text_shows_the_line_and_a_caret() -> None:
    with pytest.raises(InputError) as caught:
        parse_p99("AB\nC1D\n\n..\n", "bad.dat")
    assert str(caught.value) == (
        "bad.dat:2:2: error: expected a letter (a word is made of letters only), found '1'\n"
        "    C1D\n"
        "     ^"
    )


# ---------------------------------------------------------------- fill-in errors

FILLIN_GRID_ERRORS = [
    ("", "the grid is empty", 1, None),
    ("\n__\n", "the grid must start on the first line", 1, 1),
    ("__\n\n__\n", "blank line inside the grid", 2, 1),
    ("__\n_#\n\n\n#_\n", "blank line inside the grid", 3, 1),
    (
        "__\n_ _\n",
        "expected '_' (open), '#' (blocked), a letter or a digit (given), found a space",
        2,
        2,
    ),
    (" __\n", "found a space", 1, 1),
    ("_.\n", "found '.'", 1, 2),
    ("__\n_\t_\n", "found a tab", 2, 2),
]

FILLIN_WORDS_ERRORS = [
    ("", "the word list is empty", 1, None),
    ("\n\n", "the word list must start on the first line", 1, 1),
    ("ab\n\ncd\n", "blank line inside the word list", 2, 1),
    ("ab\nc-d\n", "expected a letter or a digit (one word per line), found '-'", 2, 2),
    ("ab\nc d\n", "found a space", 2, 2),
    ("ab\n cd\n", "found a space", 2, 1),
]


@pytest.mark.parametrize(("text", "message", "line", "column"), FILLIN_GRID_ERRORS)
def test_fillin_grid_errors(text: str, message: str, line: int, column: int | None) -> None:
    with pytest.raises(InputError) as caught:
        parse_fillin(text, "ab\n", "puzzle", "words")
    assert_error(caught.value, message, line, column)
    assert caught.value.source == "puzzle"


@pytest.mark.parametrize(("text", "message", "line", "column"), FILLIN_WORDS_ERRORS)
def test_fillin_words_errors(text: str, message: str, line: int, column: int | None) -> None:
    with pytest.raises(InputError) as caught:
        parse_fillin("__\n", text, "puzzle", "words")
    assert_error(caught.value, message, line, column)
    assert caught.value.source == "words"


# ---------------------------------------------------------------- files


def test_missing_file_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.dat"
    with pytest.raises(InputError) as caught:
        load(missing)
    assert caught.value.source == str(missing)
    assert "cannot read the file" in caught.value.message
    assert str(missing) in str(caught.value)


def test_missing_words_file_is_named(tmp_path: Path) -> None:
    grid = tmp_path / "grid"
    grid.write_text("___\n")
    with pytest.raises(InputError) as caught:
        load(grid, words=tmp_path / "nope")
    assert caught.value.source == str(tmp_path / "nope")


@pytest.mark.parametrize(
    ("data", "line", "column"),
    [
        (b"AB\nC\xffD\n\n..\n", 2, 2),
        (b"\xef\xbb\xbf\xe2\x28\xa1\n", 1, 1),
        (b"AB\r\nCD\r\n\r\n.\xc3\x84\x80\n", 4, 3),
        (b"AB\rCD\r\r..\xed\xa0\x80\n", 4, 3),
    ],
    ids=["lf", "bom", "crlf-after-a-letter", "cr-surrogate"],
)
def test_invalid_utf8_is_located(tmp_path: Path, data: bytes, line: int, column: int) -> None:
    path = tmp_path / "bad.dat"
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        load(path)
    assert_error(caught.value, "not valid UTF-8", line, column)
    assert caught.value.source == str(path)


def test_fillin_needs_words(tmp_path: Path) -> None:
    grid = tmp_path / "grid"
    grid.write_text("_#\n__\n")
    with pytest.raises(InputError, match="--words"):
        load(grid)


def test_p99_refuses_a_words_file() -> None:
    with pytest.raises(InputError, match="--words is only for fill-in"):
        load(DATA / "single.dat", words=DATA / "single.dat")


def test_forced_format_wins(tmp_path: Path) -> None:
    grid = tmp_path / "grid"
    grid.write_text("ABC\n")
    words = tmp_path / "words"
    words.write_text("ABC\n")
    puzzle = load(grid, words=words, format="fillin")
    assert (puzzle.format, puzzle.grid, puzzle.words) == ("fillin", ("ABC",), ("ABC",))
    with pytest.raises(InputError, match="the framework is missing"):
        load(grid, format="p99")


# ---------------------------------------------------------------- sniffing


def test_sniff_corpus(shared: Path) -> None:
    for name in P99_FILES:
        assert sniff((P99 / name).read_text()) == "p99"
    for n in FILLIN_PUZZLES:
        assert sniff((FILLIN / f"puzzle{n}").read_text()) == "fillin"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AB\n\n..\n", "p99"),
        ("ABC\n\n. .\n...\n", "p99"),
        ("__#\n#__\n", "fillin"),
        ("A_\n", "fillin"),
        ("___\n_._\n", "fillin"),
        ("", "p99"),
    ],
)
def test_sniff(text: str, expected: str) -> None:
    assert sniff(text) == expected


def test_load_sniffs(shared: Path) -> None:
    assert load(FILLIN / "puzzle2", words=FILLIN / "words2").format == "fillin"
    assert load(P99 / "p7_09a.dat").format == "p99"


# ---------------------------------------------------------------- robustness

PUZZLE_CHARS = st.sampled_from(list("AZaß\u00c4\u0416.._ _#\t\n\n\r19-\u0308\ufeff"))
TEXT = st.text(PUZZLE_CHARS | st.characters(), max_size=80)


def parses_or_reports(parse: Callable[[], Puzzle]) -> None:
    """`parse()` returns a Puzzle or raises InputError, nothing else, and an
    error is always one of the explained ones, never the reader's fallback."""
    try:
        outcome: Puzzle | InputError = parse()
    except InputError as err:
        outcome = err
    if isinstance(outcome, InputError):
        assert str(outcome).startswith(f"{outcome.source}:")
        assert outcome.message not in ("unexpected line", "unexpected text")
    else:
        assert isinstance(outcome, Puzzle)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_any_text_as_p99_is_a_puzzle_or_an_input_error(text: str) -> None:
    parses_or_reports(lambda: parse_p99(text, "random.dat"))


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_any_text_as_fillin_is_a_puzzle_or_an_input_error(grid: str, words: str) -> None:
    parses_or_reports(lambda: parse_fillin(grid, words, "grid", "words"))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["AB", "CD", "", " ", ". .", "..", "A.", "\t", "_#"]), max_size=8))
def test_any_arrangement_of_lines_is_a_puzzle_or_an_input_error(lines: list[str]) -> None:
    text = "\n".join(lines)
    parses_or_reports(lambda: parse_p99(text, "lines.dat"))
    parses_or_reports(lambda: parse_fillin(text, text, "grid", "words"))
