"""The line-by-line plain-grid reader agrees with the grammar, and reading
a plainly written file loads no lark.

gridfiles._plain_grid reads well-formed plain grids without lark and leaves
anything else to the grammar (grammar/fillin.lark's grid and the plain-grid
builder). Whatever it accepts, the grammar must accept and build into the
same rows; it must accept the plain grids of the benchmarks, or it saves
nothing; and the grammar's builders, plain classes now, build what lark's
Transformer built.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pybridge import gridfiles, readers
from pybridge.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
# The characters the grammar and the builder tell apart, and a few more.
_CHARS = ".#aZ\u00df\u00e9_ \t\n1"


def _by_grammar(text: str) -> list[str] | None:
    normal = readers.normalise(text)
    builder = gridfiles._PlainGridBuilder("g.txt")
    try:
        rows: list[str] = readers.parse_with(
            "fillin", "grid", normal, "g.txt", builder, readers.GRID_COMPLAINTS
        )
    except InputError:
        return None
    return rows


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_CHARS, max_size=40))
def test_what_the_plain_reader_accepts_the_grammar_reads_alike(text: str) -> None:
    plain = gridfiles._plain_grid(readers.normalise(text))
    if plain is not None:
        assert plain == _by_grammar(text)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet=".#aÉ", min_size=1, max_size=6), min_size=1, max_size=5),
    st.sampled_from(["", " ", "\t", " \t"]),
    st.integers(min_value=0, max_value=2),
)
def test_well_formed_grids_read_alike(rows: list[str], pad: str, tail: int) -> None:
    text = "".join(row + pad + "\n" for row in rows) + "\n" * tail
    plain = gridfiles._plain_grid(readers.normalise(text))
    assert plain is not None
    assert plain == _by_grammar(text)


def test_the_benchmark_grids_read_alike_both_ways(shared_dir: Path) -> None:
    paths = sorted((shared_dir / "bench" / "grids").rglob("*.txt"))
    plain_count = 0
    for path in paths:
        text = readers.normalise(path.read_text(encoding="utf-8"))
        if not readers._is_plain_grid(text):
            continue  # not a plain grid (an RP 2016 file, say)
        plain = gridfiles._plain_grid(text)
        assert plain is not None, path
        assert plain == _by_grammar(text), path
        plain_count += 1
    assert plain_count >= 72  # van Beek's, at least


@pytest.mark.parametrize(
    "text", ["", "\n", " ..\n", "..\n\n.#\n", "._\n", "\u00df.\n", "..\n \t\n#\n", "1.\n"]
)
def test_what_is_not_plain_goes_to_the_grammar(text: str) -> None:
    assert gridfiles._plain_grid(readers.normalise(text)) is None


def test_the_grammar_still_explains_a_bad_grid() -> None:
    with pytest.raises(InputError) as caught:
        gridfiles.parse_grid("..#\n.\u00df.\n", "g.txt", "grid")
    assert (caught.value.line, caught.value.column) == (2, 2)
    assert "more than one letter" in str(caught.value)


def test_reading_plain_files_and_solving_loads_no_lark() -> None:
    code = (
        "import sys\n"
        "from pybridge import gridfiles, readers\n"
        "readers.load('data/demo.dat')\n"
        "gridfiles.parse_grid('..#\\n...\\n#..\\n', 'g.txt')\n"
        "assert 'lark' not in sys.modules, 'lark was loaded'\n"
        "readers.load('data/demo.dat') and gridfiles.parse_grid(' ..\\n', 'g.txt', 'grid')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert "lark was loaded" not in done.stderr
    assert "InputError" in done.stderr  # the grammar (and lark) read the bad grid
