"""Fuzzing the command line: whatever the files hold, `crossword solve`
answers with an exit code of 0-3 and never a traceback.

Files are random text or corpus files with a few mutations (lines dropped,
characters swapped, bytes that break UTF-8, CRLF line ends). Exit code 0
must come with solutions that pass the verifier on the re-read puzzle, and
exit code 2 with a message on stderr.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

from conftest import SHARED
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from puzzlegen import Grid, puzzles

from pybridge.cli import main
from pybridge.model import OPEN, Puzzle
from pybridge.verify import problems

REPO = Path(__file__).resolve().parents[1]
ENGINES = (["--engine", "python"], ["--engine", "prolog"] if shutil.which("swipl") else [])
EXIT_CODES = {0, 1, 2, 3}

# print_blob: a failure prints the @reproduce_failure line that replays it
FUZZ = settings(
    max_examples=35,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def seed_files() -> list[tuple[Path, Path | None]]:
    """Corpus puzzles to mutate (the grid, with its word file for fill-in)."""
    files: list[tuple[Path, Path | None]] = [(p, None) for p in sorted(REPO.glob("data/*.dat"))]
    if SHARED.is_dir():
        p99 = SHARED / "corpus" / "p99"
        fillin = SHARED / "corpus" / "fillin"
        files += [(p99 / f"p7_09{x}.dat", None) for x in "abd"]
        files += [(fillin / f"puzzle{n}", fillin / f"words{n}") for n in ("1", "2", "3", "5", "7")]
    return files


SEEDS = seed_files()


def solve(tmp: Path, puzzle: bytes, words: bytes | None, engine: list[str]) -> None:
    """Run `crossword solve` on the files and check what it promises."""
    grid_file = tmp / "puzzle"
    grid_file.write_bytes(puzzle)
    argv = ["solve", str(grid_file), "--timeout", "2", "--output", "json", *engine]
    words_file = None
    if words is not None:
        words_file = tmp / "words"
        words_file.write_bytes(words)
        argv += ["--words", str(words_file)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    assert code in EXIT_CODES, f"exit {code}\n{err.getvalue()}"
    event(f"exit {code}")
    if code == 2:
        assert "error" in err.getvalue(), "exit 2 without a message"
        return
    doc: dict[str, Any] = json.loads(out.getvalue())
    assert doc["status"] == {0: "solved", 1: "unsolvable", 3: "timeout"}[code]
    if code == 0:
        reread = as_solved(grid_file, words_file)
        assert doc["solutions"]
        for solution in doc["solutions"]:
            assert problems(reread, solution["grid"]) == []


def as_solved(grid_file: Path, words_file: Path | None) -> Puzzle:
    """The puzzle read again as `crossword solve` read it (through the
    service: a plain grid given no word list is filled from the shipped
    list, as the command does; pybridge.load alone would refuse it)."""
    from pybridge.options import PuzzleOptions, SearchOptions
    from pybridge.service.puzzles import read_puzzles

    source = PuzzleOptions(str(grid_file), None if words_file is None else str(words_file))
    [puzzle] = read_puzzles(source, SearchOptions(), lambda text: None).puzzles
    return puzzle


# ---------------------------------------------------------------- mutations

Mutation = tuple[str, int, int]
MUTATION = st.tuples(
    st.sampled_from(["drop-line", "swap", "bad-byte", "crlf", "crlf-all", "delete"]),
    st.integers(0, 10**6),
    st.integers(0, 3),
)
BAD_BYTES = (b"\xff", b"\xc3", b"\x80", b"\xe2\x82", b"\x00")


def mutate(data: bytes, mutation: Mutation) -> bytes:
    """`data` with one mutation at position `at` (wrapped to its length)."""
    kind, at, pick = mutation
    if kind == "crlf-all":
        return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
    if not data:
        return BAD_BYTES[pick] if kind == "bad-byte" else data
    i = at % len(data)
    if kind == "drop-line":
        lines = data.split(b"\n")
        del lines[at % len(lines)]
        return b"\n".join(lines)
    if kind == "swap":
        j = (i + 1 + pick) % len(data)
        swapped = bytearray(data)
        swapped[i], swapped[j] = data[j], data[i]
        return bytes(swapped)
    if kind == "bad-byte":
        return data[:i] + BAD_BYTES[pick] + data[i + 1 :]
    if kind == "crlf":
        return data[:i] + b"\r\n" + data[i:]
    return data[:i] + data[i + 1 + pick :]  # delete


def mutated(data: bytes, mutations: list[Mutation]) -> bytes:
    for mutation in mutations:
        data = mutate(data, mutation)
    return data


@FUZZ
@given(
    seed=st.sampled_from(SEEDS),
    mutations=st.lists(MUTATION, min_size=1, max_size=3),
    in_words=st.booleans(),
    engine=st.sampled_from(ENGINES),
)
def test_mutated_corpus_files(
    shared_dir: Path,  # skips (or fails, in CI) when ../shared is absent
    tmp_path: Path,
    seed: tuple[Path, Path | None],
    mutations: list[Mutation],
    in_words: bool,
    engine: list[str],
) -> None:
    grid_file, words_file = seed
    puzzle = grid_file.read_bytes()
    words = None if words_file is None else words_file.read_bytes()
    if words is not None and in_words:
        words = mutated(words, mutations)
    else:
        puzzle = mutated(puzzle, mutations)
    solve(tmp_path, puzzle, words, engine)


# ---------------------------------------------------------------- random text

# Characters that mean something to one of the formats, and a few that do not.
MARKS = "AB.. # _\n\n\r\tÄé1-"
TEXT = st.text(alphabet=MARKS, max_size=80).map(lambda t: t.encode("utf-8"))
RANDOM_FILE = st.one_of(TEXT, st.binary(max_size=60))


@FUZZ
@given(
    puzzle=RANDOM_FILE,
    words=st.one_of(st.none(), RANDOM_FILE),
    engine=st.sampled_from(ENGINES),
)
def test_random_files(
    tmp_path: Path, puzzle: bytes, words: bytes | None, engine: list[str]
) -> None:
    solve(tmp_path, puzzle, words, engine)


def fillin_files(puzzle: Puzzle) -> tuple[bytes, bytes]:
    """A generated puzzle as a fill-in grid file and word file."""
    grid = "".join(row.replace(OPEN, "_") + "\n" for row in puzzle.grid)
    words = "".join(word + "\n" for word in puzzle.words)
    return grid.encode("utf-8"), words.encode("utf-8")


@FUZZ
@given(
    case=puzzles(),
    mutations=st.lists(MUTATION, max_size=2),
    in_words=st.booleans(),
    engine=st.sampled_from(ENGINES),
)
def test_generated_fillin_puzzles(
    tmp_path: Path,
    case: tuple[Puzzle, Grid],
    mutations: list[Mutation],
    in_words: bool,
    engine: list[str],
) -> None:
    """Solvable puzzles, most of them intact, so that many runs end in a
    solution to verify; the rest are mutated like the corpus files."""
    grid, words = fillin_files(case[0])
    if in_words:
        words = mutated(words, mutations)
    else:
        grid = mutated(grid, mutations)
    solve(tmp_path, grid, words, engine)


def test_a_plain_grid_without_words_reads_back_as_it_was_solved(tmp_path: Path) -> None:
    """A mutation can leave a plain grid and no word list: `solve` fills it
    from the shipped list (exit 0), and the check reads it back the same way
    (pybridge.load alone refuses a grid without its dictionary)."""
    from unittest import mock

    with mock.patch(f"{__name__}.event"):  # hypothesis counts events only inside its tests
        solve(tmp_path, b"...\n...\n...\n", None, ["--engine", "python"])
