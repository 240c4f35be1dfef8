"""The service layer: one set of option objects, read alike from the
command line and from a JSON body, and the jobs both run."""

from __future__ import annotations

import argparse
import dataclasses
import io
from collections.abc import Callable
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest

import pybridge
from pybridge import cli
from pybridge.errors import UsageError
from pybridge.options import MakeOptions, PuzzleOptions, SearchOptions
from pybridge.serve.api import PUZZLE_KEYS, ROUTE_FIELDS, option_values
from pybridge.service import fields, jobs
from pybridge.service.requests import pattern_options, search_options

ROOT = Path(__file__).resolve().parents[1]
DEMO = str(ROOT / "data" / "demo.dat")


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[command]  # type: ignore[no-any-return]


def _cli_values(command: str, argv: list[str]) -> dict[str, Any] | str:
    """The values the command line gives `argv`, or its error message."""
    parser = _subparser(command)
    stderr = io.StringIO()
    try:
        with redirect_stderr(stderr):
            args = parser.parse_args(([DEMO] if command != "grid" else []) + argv)
    except SystemExit:
        return stderr.getvalue().strip().splitlines()[-1].split(": error: ", 1)[1]
    return vars(args)


def _json_values(command: str, body: dict[str, Any]) -> dict[str, Any] | str:
    try:
        return option_values(command, body)
    except UsageError as err:
        return str(err)


def _argv(body: dict[str, Any]) -> list[str]:
    argv = []
    for key, value in body.items():
        if value is True:
            argv.append(f"--{key}")
        elif value is not False and value is not None:
            argv.append(f"--{key}={value}")
    return argv


BODIES = [
    {"timeout": 5},
    {"timeout": "soon"},
    {"timeout": -1},
    {"timeout": True},
    {"seed": 3, "strategy": "mrv"},
    {"seed": "1.5"},
    {"strategy": "fastest"},
    {"strategy": "--all"},
    {"all": True, "count": True},
    {"count": True, "limit": 2},
    {"count": "yes"},
    {"limit": 0},
    {"min-score": "40"},
    {"min-score": "lots"},
    {"maximize": "sum", "engine": "python"},
    {"format": "grid", "grid": 2, "encoding": "cp1252", "answers": True},
    {"jobs": 2, "quiet": True},
    {"progress": True, "quiet": True},
]


CASES = [
    (command, body)
    for command in ("solve", "check")
    for body in BODIES
    if set(body) <= {f.name for f in ROUTE_FIELDS[command] if f.api}
]


@pytest.mark.parametrize(("command", "body"), CASES, ids=[f"{c} {b}" for c, b in CASES])
def test_a_json_body_reads_as_the_command_line(command: str, body: dict[str, Any]) -> None:
    from_cli = _cli_values(command, _argv(body))
    from_json = _json_values(command, body)
    if isinstance(from_cli, str):
        assert from_json == from_cli
    else:
        assert isinstance(from_json, dict)
        assert {k: from_cli[k] for k in from_json} == from_json


def test_grid_bodies_read_as_the_command_line() -> None:
    for body in ({"size": "9x7", "blocks": 0.2}, {"size": "big"}, {"symmetry": "spiral"}):
        from_cli, from_json = _cli_values("grid", _argv(body)), _json_values("grid", body)
        if isinstance(from_cli, str):
            assert from_json == from_cli
        else:
            assert isinstance(from_json, dict)
            assert pattern_options({**from_cli}) == pattern_options(from_json)


def test_a_body_names_only_the_routes_options() -> None:
    message = _json_values("solve", {"stats": True})
    assert isinstance(message, str)
    assert message.startswith("unknown key 'stats': /api/solve takes")
    assert "maximize" in message
    assert "words_path" in message
    assert "maximize" not in str(_json_values("check", {"help": True}))
    assert '"limit" must be a number' in str(_json_values("solve", {"limit": [1]}))
    given = option_values("solve", {"puzzle": "x", "dict": ["a"], "words": "AB"})
    assert (given["dicts"], given["words"]) == (None, None)  # the body's own keys, not options
    assert {"puzzle", "dict", "words"} <= PUZZLE_KEYS


def test_the_search_options_of_the_command_line() -> None:
    values = _cli_values("solve", ["--all", "--seed", "2", "--min-score", "40"])
    assert isinstance(values, dict)
    search = search_options(values)
    assert (search.limit, search.seed, str(search.min_score), search.jobs) == (None, 2, "40", 1)
    assert search_options({**values, "all": False, "limit": None}).limit == 1


def test_options_are_frozen_values() -> None:
    options = SearchOptions(strategy="wdeg")
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.strategy = "mrv"  # type: ignore[misc]
    assert MakeOptions().pattern.blocks is None  # grid's default
    assert hash(options) == hash(SearchOptions(strategy="wdeg"))


def test_run_takes_options_or_keywords_not_both() -> None:
    puzzle = pybridge.load(DEMO)
    by_options = pybridge.run(puzzle, SearchOptions(engine="python", strategy="sorted"))
    by_keywords = pybridge.run(puzzle, engine="python", strategy="sorted")
    assert by_options.solutions == by_keywords.solutions
    assert by_options.stats.nodes == by_keywords.stats.nodes
    with pytest.raises(UsageError, match="not both"):
        pybridge.run(puzzle, SearchOptions(), strategy="sorted")
    with pytest.raises(TypeError):
        pybridge.run(puzzle, strategi="sorted")
    assert next(pybridge.solve(puzzle, SearchOptions(engine="python"))).grid[0] == "PYTHON#####"


def test_the_jobs_hear_their_listener() -> None:
    heard: list[str] = []

    class Heard(jobs.Listener):
        def puzzle(self, puzzle: pybridge.Puzzle, many: bool) -> None:
            heard.append(f"puzzle {Path(puzzle.source).name} {many}")

        def notice(self, text: str) -> None:
            heard.append(text)

    source = PuzzleOptions(str(ROOT / "data" / "unsolvable" / "hall" / "three-s.dat"))
    [checked] = jobs.check(source, SearchOptions(engine="python"), Heard())
    assert checked.outcome.proof is not None
    assert checked.outcome.proof.minimal
    assert heard == ["puzzle three-s.dat False"]
    made = jobs.pattern(
        pattern_options(fields.json_values(fields.GRID, {"seed": 1}, "", frozenset()))
    )
    assert made.status == "solved"
    assert made.pattern is not None
    impossible = pattern_options({**_values_of_grid(), "size": (4, 4), "blocks": 0.9})
    assert jobs.pattern(impossible).status == "unsolvable"


def _values_of_grid() -> dict[str, Any]:
    return fields.json_values(fields.GRID, {}, "", frozenset())


def test_a_search_no_one_hears_is_given_no_watch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search whose progress no one hears (--quiet, stderr no terminal, a
    job with no page to tell) is given no watch, so that the Prolog engine
    arms none; a drawn line, or the workbench's Told, gets its watch."""
    from pybridge.progress import Progress
    from pybridge.serve.api import Told

    given: list[object] = []
    monkeypatch.setattr(jobs, "run", lambda *args, progress=None, **kw: given.append(progress))
    demo = pybridge.load(str(Path(__file__).resolve().parents[1] / "data" / "demo.dat"))

    class Drawn(jobs.Listener):
        def line(self, what: str, timeout: float | None) -> Progress:
            return Progress(True, what, stream=io.StringIO())

    class Page(jobs.Listener):
        def __init__(self, tell: Callable[[str], None] | None) -> None:
            self.tell = tell

        def line(self, what: str, timeout: float | None) -> Progress:
            return Told(self.tell, what)

    for listener in (jobs.QUIET, Drawn(), Page(lambda text: None), Page(None)):
        jobs.solve_puzzle(demo, SearchOptions(engine="python"), None, listener)
    quiet, drawn, page, no_page = given
    assert quiet is None
    assert no_page is None
    assert callable(drawn)
    assert callable(page)
