"""Shared test fixtures: where the reference data of ../shared lives.

Tests that need it take the `shared_dir` fixture (or its alias `shared`): it
skips the test with a reason when ../shared is absent, and fails it instead
when CROSSWORD_REQUIRE_SHARED is set (as in CI), so data never goes missing
unnoticed.  The helpers below turn the corpus's known answers into Solutions.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# The suite runs the interpreted form of the Python engine (pybridge/compiled.py:
# some tests replace methods of the search's classes, which compiled classes
# do not allow); tests/test_compiled.py runs the compiled form beside it.
# Set before pybridge is first imported (and so inherited by the commands the
# tests start); CROSSWORD_INTERPRETED=0 runs the suite compiled.
os.environ.setdefault("CROSSWORD_INTERPRETED", "1")

from pybridge.layout import find_sites
from pybridge.model import BLOCK, Placement, Puzzle, Solution
from pybridge.readers import load

SHARED: Path = Path(__file__).resolve().parents[1].parent / "shared"


def shared_required() -> bool:
    return os.environ.get("CROSSWORD_REQUIRE_SHARED", "") not in ("", "0")


@pytest.fixture(autouse=True, scope="session")
def _private_dictionary_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Tests never write into the user's real dictionary cache, nor make its key."""
    private = {
        "CROSSWORD_CACHE_DIR": tmp_path_factory.mktemp("dictionary-cache"),
        "XDG_STATE_HOME": tmp_path_factory.mktemp("state"),
    }
    saved = {name: os.environ.get(name) for name in private}
    os.environ.update({name: str(path) for name, path in private.items()})
    yield
    for name, value in saved.items():
        if value is None:
            del os.environ[name]
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        reason = f"reference data {SHARED} is absent"
        if shared_required():
            pytest.fail(f"{reason} (CROSSWORD_REQUIRE_SHARED is set)")
        pytest.skip(reason)
    return SHARED


@pytest.fixture(scope="session")
def shared(shared_dir: Path) -> Path:
    return shared_dir


# ---------------------------------------------------------------- known answers

P99_SOLVED = ("p7_09a", "p7_09b", "p7_09d")
FILLIN_SOLVED = ("1", "2", "3a", "3b", "4", "5", "6", "7", "9", "12")
SOLVED = tuple(f"p99/{n}" for n in P99_SOLVED) + tuple(f"fillin/{n}" for n in FILLIN_SOLVED)


def corpus_puzzle(shared: Path, name: str) -> Puzzle:
    """The corpus puzzle of a SOLVED name ("p99/p7_09a", "fillin/3a")."""
    kind, stem = name.split("/")
    corpus = shared / "corpus" / kind
    if kind == "p99":
        return load(corpus / f"{stem}.dat")
    number = stem.rstrip("ab")  # 3a and 3b are the two answers of puzzle 3
    return load(corpus / f"puzzle{number}", corpus / f"words{number}")


def expected_text(shared: Path, name: str) -> str:
    """The known answer as the corpus prints it, without the final newline."""
    kind, stem = name.split("/")
    path = shared / "corpus" / "p99" / "expected" / f"{stem}.txt"
    if kind == "fillin":
        path = shared / "corpus" / "fillin" / f"filled{stem}"
    return path.read_text(encoding="utf-8").removesuffix("\n")


def solution_from_rows(puzzle: Puzzle, rows: list[str]) -> Solution:
    """A Solution holding `rows` (spaces or '#' for blocked cells), with the
    placements read off the grid at the sites of pybridge.layout."""
    grid = tuple(row.ljust(puzzle.width).replace(" ", BLOCK) for row in rows)
    placements = tuple(
        Placement(
            site.number,
            site.direction,
            site.row,
            site.col,
            site.length,
            "".join(grid[r][c] for r, c in site.cells),
        )
        for site in find_sites(puzzle)
    )
    return Solution(puzzle, grid, placements)


def known_solution(shared: Path, name: str) -> Solution:
    puzzle = corpus_puzzle(shared, name)
    return solution_from_rows(puzzle, expected_text(shared, name).split("\n"))


# ---------------------------------------------------------------- no skips in CI


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """With CROSSWORD_NO_SKIPS set (as .ci/run sets it), a skipped test fails:
    a skip there means something the project must install is missing."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and os.environ.get("CROSSWORD_NO_SKIPS", "") not in ("", "0"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, which CROSSWORD_NO_SKIPS forbids: {reason}"
