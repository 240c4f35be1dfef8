"""The line-by-line P-99 reader agrees with the grammar.

readers._plain_p99 reads well-formed files without lark and leaves anything
else to the grammar. Whatever it accepts, the grammar must accept and build
into the same Puzzle (row widths included); and it must accept the plain
files of the corpus, or it saves nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge import readers
from pybridge.errors import InputError
from pybridge.model import Puzzle

# The characters the grammar and the builder tell apart, and a few more.
_CHARS = "Ab.\u00c4 \t\n1'#"


def _by_grammar(text: str) -> Puzzle | None:
    normal = readers.normalise(text)
    try:
        puzzle: Puzzle = readers.parse_with(
            "p99", "start", normal, "t.dat", readers._P99Builder("t.dat"), readers._P99_COMPLAINTS
        )
    except InputError:
        return None
    return puzzle


def _same(a: Puzzle, b: Puzzle) -> bool:
    return a == b and a.row_widths == b.row_widths and a.source == b.source


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_CHARS, max_size=40))
def test_what_the_plain_reader_accepts_the_grammar_reads_alike(text: str) -> None:
    plain = readers._plain_p99(readers.normalise(text), "t.dat")
    if plain is not None:
        by_grammar = _by_grammar(text)
        assert by_grammar is not None
        assert _same(plain, by_grammar)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="AbÄ", min_size=1, max_size=5), min_size=1, max_size=4),
    st.lists(st.text(alphabet="A. ", min_size=1, max_size=6), min_size=1, max_size=4),
    st.sampled_from(["", " ", "\t"]),
    st.integers(min_value=1, max_value=3),
    st.integers(min_value=0, max_value=2),
)
def test_well_formed_files_read_alike(
    words: list[str], rows: list[str], pad: str, gap: int, tail: int
) -> None:
    rows = [row for row in rows if row.strip(" ")] or ["."]
    text = "".join(w + pad + "\n" for w in words) + "\n" * gap + "".join(r + "\n" for r in rows)
    text += "\n" * tail
    plain = readers._plain_p99(readers.normalise(text), "t.dat")
    by_grammar = _by_grammar(text)
    assert plain is not None
    assert by_grammar is not None
    assert _same(plain, by_grammar)


def test_the_corpus_reads_alike_both_ways(shared_dir: Path) -> None:
    paths = sorted((shared_dir / "corpus" / "p99").glob("*.dat"))
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8")
        plain = readers._plain_p99(readers.normalise(text), str(path))
        by_grammar = readers.parse_with(
            "p99",
            "start",
            readers.normalise(text),
            str(path),
            readers._P99Builder(str(path)),
            readers._P99_COMPLAINTS,
        )
        assert plain is not None, path
        assert _same(plain, by_grammar), path


@pytest.mark.parametrize(
    "text",
    ["", "\n", "A\n", "A\n\n", "A\n.\n", ". .\n", "A\n\n.\n\n.\n", "A.\n\n.\n", "A\n\n\t.\n"],
)
def test_what_is_not_plain_goes_to_the_grammar(text: str) -> None:
    assert readers._plain_p99(readers.normalise(text), "t.dat") is None
