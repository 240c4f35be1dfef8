"""The shape of the package: one layout, one registry of strategies whose
families each have a Prolog twin, no import cycles, one exception hierarchy."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import pybridge
from pybridge import bridge, cli, engines
from pybridge.errors import CrosswordError, EngineError, UsageError
from pybridge.layout import Crossing, layout_of, of_cells
from pybridge.model import Puzzle
from pybridge.readers import load
from pybridge.search import registry
from pybridge.search.kernel import Request

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "demo.dat"
PLUS = Puzzle((), ("#.#", "...", "#.#"), format="grid", mode="lexicon")  # one crossing


# ---------------------------------------------------------------- imports


def test_no_import_cycles(shared_dir: Path) -> None:
    checker = shared_dir / "tools" / "import_cycles.py"
    done = subprocess.run(
        [sys.executable, str(checker), str(ROOT / "pybridge")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r" 0 in import cycles", done.stdout), done.stdout


def test_importing_the_package_loads_no_prolog() -> None:
    code = "import sys, pybridge, pybridge.cli; print('pyswip' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


# ---------------------------------------------------------------- registry


def test_every_family_has_a_prolog_twin_of_its_name() -> None:
    for family in registry.FAMILIES:
        name = family.__name__.rsplit(".", 1)[-1]
        twin = ROOT / "prolog" / f"{name}.pl"
        assert twin.is_file(), f"{family.__name__} has no twin {twin}"
        assert f":- module({name}," in twin.read_text(encoding="utf-8")
        assert {s.family for s in family.STRATEGIES} == {name}
    for shared in ("layout", "kernel", "arcs"):  # shared by families, not one
        assert (ROOT / "prolog" / f"{shared}.pl").is_file()


def test_the_cli_offers_exactly_the_registered_strategies() -> None:
    parser = cli.build_parser()
    solve = next(
        action.choices[name]
        for action in parser._actions
        if action.choices and isinstance(action.choices, dict)
        for name in action.choices
        if name == "solve"
    )
    strategy = next(a for a in solve._actions if "--strategy" in a.option_strings)
    assert tuple(strategy.choices) == registry.STRATEGIES
    assert pybridge.STRATEGIES == registry.STRATEGIES


@pytest.mark.skipif(not bridge.available(), reason="SWI-Prolog cannot be loaded")
def test_prolog_knows_exactly_the_registered_strategies() -> None:
    assert tuple(bridge.strategies()) == registry.STRATEGIES


def _names(text: str) -> tuple[str, ...]:
    """The strategy names of a list written `a|b|c`, `a,b,c` or with links."""
    return tuple(re.findall(r"[a-z][a-z0-9]*", text))


def test_the_docs_name_exactly_the_registered_strategies() -> None:
    search = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    cli_md = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    contents = re.search(r"strategies\s+((?:\[\w+\]\(#\w+\),?\s*)+)·", search)
    assert contents is not None, "docs/search.md's contents list no strategies"
    assert tuple(re.findall(r"\[(\w+)\]", contents.group(1))) == registry.STRATEGIES
    headings = re.findall(r"^## (\S+)$", search, re.MULTILINE)
    assert tuple(h for h in headings if h in registry.REGISTRY) == registry.STRATEGIES
    synopsis = re.search(r"crossword solve FILE .*?\[--strategy ([a-z0-9|]+)\]", cli_md, re.S)
    assert synopsis is not None
    assert _names(synopsis.group(1)) == registry.STRATEGIES
    bench = re.search(r"`--strategies S,…` \| comma-separated, from `([a-z0-9,]+)`", cli_md)
    assert bench is not None
    assert _names(bench.group(1)) == registry.LEXICON_STRATEGIES
    seeded = re.search(r"with `--seed`: `([a-z0-9,]+)`", cli_md)
    assert seeded is not None
    assert _names(seeded.group(1)) == registry.SEEDED_STRATEGIES
    exact_only = " and ".join(f"`{name}`" for name in registry.EXACT_ONLY_STRATEGIES)
    assert f"{exact_only} need a word list" in cli_md
    assert f"{exact_only} place listed words one by one" in search


def test_registry_modes_and_seeds() -> None:
    assert registry.strategies_for("exact") == registry.STRATEGIES
    assert registry.strategies_for("lexicon") == registry.LEXICON_STRATEGIES
    assert "given" not in registry.SEEDED_STRATEGIES
    assert "wdeg" in registry.SEEDED_STRATEGIES
    with pytest.raises(UsageError, match="takes no seed"):
        registry.check("sorted", "exact", 3)
    with pytest.raises(UsageError, match="does not apply to a lexicon puzzle"):
        registry.check("given", "lexicon")


# ---------------------------------------------------------------- layout


def test_crossings_are_numbered_in_the_order_of_their_sites_and_positions() -> None:
    # 1-Across (0) crosses 1-Down (1) and 2-Down (2); 3-Across (3) crosses both downs.
    puzzle = Puzzle((), ("...", ".#.", "..."), format="grid", mode="lexicon")
    layout = layout_of(puzzle)
    assert [s.label for s in layout.sites] == ["1-Across", "1-Down", "2-Down", "3-Across"]
    assert layout.crossings == (
        Crossing(0, 0, 0, 1, 0),
        Crossing(1, 0, 2, 2, 0),
        Crossing(2, 1, 2, 3, 0),
        Crossing(3, 2, 2, 3, 2),
    )
    # each site's arcs by position here: (i, t, j, id)
    assert layout.arcs == (
        ((0, 1, 0, 0), (2, 2, 0, 1)),
        ((0, 0, 0, 0), (2, 3, 0, 2)),
        ((0, 0, 2, 1), (2, 3, 2, 3)),
        ((0, 1, 2, 2), (2, 2, 2, 3)),
    )


def test_a_restricted_layout_keeps_its_sites_crossings_and_givens() -> None:
    puzzle = Puzzle((), ("A..", ".#.", "..."), format="grid", mode="lexicon")
    layout = layout_of(puzzle)
    assert layout.givens == {(0, 0): "A"}
    part = layout.restricted([1, 3])
    assert [s.label for s in part.sites] == ["1-Down", "3-Across"]
    assert [s.index for s in part.sites] == [0, 1]
    assert part.crossings == (Crossing(0, 0, 2, 1, 0),)
    assert part.givens == {(0, 0): "A"}
    assert layout.restricted([3]).givens == {}


def test_a_layout_from_cells_alone() -> None:
    layout = of_cells([[(0, 0), (0, 1)], [(0, 1), (1, 1)]], {(1, 1): "x", (5, 5): "y"})
    assert [s.direction for s in layout.sites] == ["across", "down"]
    assert layout.crossings == (Crossing(0, 0, 1, 1, 0),)
    assert layout.givens == {(1, 1): "x"}  # a letter outside every site is no given


# ---------------------------------------------------------------- errors


def test_bad_requests_raise_usage_errors() -> None:
    puzzle = load(DEMO)
    bad: list[dict[str, object]] = [
        {"engine": "lisp"},
        {"strategy": "nope"},
        {"seed": -1},
        {"strategy": "given", "seed": 1},
        {"timeout": 0},
    ]
    for options in bad:
        with pytest.raises(UsageError):
            pybridge.run(puzzle, **options)  # type: ignore[arg-type]
        with pytest.raises(UsageError):
            next(pybridge.solve(puzzle, **options))  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        pybridge.load(DEMO, format="crossword")
    assert issubclass(UsageError, CrosswordError)
    assert issubclass(UsageError, ValueError)  # what a bad engine or seed raised before
    assert issubclass(EngineError, CrosswordError)


def _failing_mode(limit: int | None, count: bool) -> str:
    return "no_such_mode"  # a term solve/8 does not know: the Prolog goal throws


@pytest.mark.skipif(not bridge.available(), reason="SWI-Prolog cannot be loaded")
def test_a_prolog_failure_is_an_engine_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bridge.wire, "mode", _failing_mode)
    request = Request(layout_of(load(DEMO)), load(DEMO).words, "mrv")
    with pytest.raises(EngineError, match="the Prolog engine failed"):
        engines.search("prolog", request)
    # and the CLI says so with an exit code of its own
    assert cli.main(["solve", str(DEMO), "--engine", "prolog"]) == cli.EXIT_ENGINE_FAILED
    monkeypatch.undo()
    assert engines.search("prolog", request).status == "solved"  # the engine still works
