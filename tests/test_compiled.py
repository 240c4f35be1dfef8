"""The two forms of the Python engine (pybridge/compiled.py): the search's
modules compiled with mypyc, and the same .py files interpreted, search
alike: the same fills, nodes, backtracks and improvements on the corpus with
every strategy, van Beek grids with wdeg and valued runs with --maximize.

The rest of the suite runs the interpreted form (tests/conftest.py): some
tests replace methods of the search's classes, which a compiled class does
not allow. Here each form runs in a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from compiled_runs import in_child

from pybridge import cli, compiled

HERE = Path(__file__).resolve().parent
BUILT = compiled.why_interpreted(ignore_environment=True) is None


def runs(shared: Path, interpreted: bool) -> list[dict[str, Any]]:
    return in_child(shared, "python", compiled.INTERPRETED, "1" if interpreted else "0", 900)


@pytest.mark.skipif(not BUILT, reason=f"no compiled build: {compiled.why_interpreted()}")
def test_compiled_and_interpreted_search_alike(shared_dir: Path) -> None:
    interpreted, built = runs(shared_dir, True), runs(shared_dir, False)
    assert interpreted[0]["form"].startswith("search interpreted")
    assert built[0]["form"] == compiled.COMPILED_FORM
    assert len(interpreted) == len(built) > 60
    for one, other in zip(interpreted[1:], built[1:], strict=True):
        assert one == other, f"the forms disagree on {one['case']}"
    assert sum(run["nodes"] for run in built[1:]) > 10_000  # searches, not proofs


def test_the_interpreted_form_can_be_asked_for() -> None:
    code = "from pybridge import compiled; print(compiled.form())"
    env = {**os.environ, compiled.INTERPRETED: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.startswith("search interpreted (CROSSWORD_INTERPRETED is set)")


def test_the_version_names_the_form(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert compiled.form() in capsys.readouterr().out


def test_a_build_older_than_its_sources_is_not_used() -> None:
    # the stamp holds the digest of the sources compiled; another digest
    # means they changed since, and the .py files are used
    assert compiled.stale("0" * 64)
    assert compiled.stale(None)
    assert not compiled.stale(compiled.digest())
