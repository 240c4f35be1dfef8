"""The Prolog modules on their own: each plunit suite passes and each module
loads cleanly.

Both run `swipl` in a subprocess with warnings and errors turned into a
non-zero exit status, so a singleton variable or a discontiguous clause
fails here, not just noise on a terminal.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SWIPL = shutil.which("swipl")
STRICT = ["--on-warning=status", "--on-error=status"]

pytestmark = pytest.mark.skipif(SWIPL is None, reason="SWI-Prolog (swipl) is not installed")

# Every module of the Prolog engine (module name = file name), entry point last.
MODULES = (
    "kernel",
    "layout",
    "order",
    "domains",
    "arcs",
    "wdeg",
    "valued",
    "wordsearch",
    "cubes",
    "crossword",
)
# One plunit suite per file; test_crossword.plt runs the families through crossword.pl.
SUITES = (
    "test_kernel.plt",
    "test_layout.plt",
    "test_arcs.plt",
    "test_crossword.plt",
    "test_wordsearch.plt",
)


def swipl(*args: str) -> subprocess.CompletedProcess[str]:
    assert SWIPL is not None
    return subprocess.run(
        [SWIPL, *STRICT, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def shown(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n--- stdout\n{result.stdout}\n--- stderr\n{result.stderr}"


def test_every_suite_is_run() -> None:
    assert sorted(SUITES) == sorted(p.name for p in (ROOT / "prolog").glob("*.plt"))
    assert sorted(MODULES) == sorted(p.stem for p in (ROOT / "prolog").glob("*.pl"))


@pytest.mark.parametrize("suite", SUITES)
def test_plunit_suite_passes(suite: str) -> None:
    result = swipl("-g", "run_tests", "-t", "halt", f"prolog/{suite}")
    assert result.returncode == 0, shown(result)
    # Guards against a suite that silently loads no tests at all.
    assert re.search(r"All \d+ tests passed", result.stderr), shown(result)


@pytest.mark.parametrize("module", MODULES)
def test_module_loads_without_warnings(module: str) -> None:
    # the .pl named: compiled from its source, not loaded from a .qlf setup.sh made
    result = swipl("-g", f"use_module('prolog/{module}.pl')", "-t", "halt")
    assert result.returncode == 0, shown(result)
    assert "Warning" not in result.stderr, shown(result)


def test_a_precompiled_module_older_than_its_source_is_not_loaded(tmp_path: Path) -> None:
    """The bridge names the modules without their extension, so that a
    .qlf setup.sh made is loaded (docs/search.md#the-prolog-files-precompiled):
    once the .pl is edited, SWI-Prolog must load the .pl, not the old .qlf."""
    source = tmp_path / "layout.pl"
    shutil.copy(ROOT / "prolog" / "layout.pl", source)
    made = swipl("-q", "-g", f"qcompile('{source}')", "-t", "halt")
    assert made.returncode == 0, shown(made)
    assert source.with_suffix(".qlf").is_file(), shown(made)
    source.write_text(source.read_text() + "\nedited_after_qlf.\n")
    qlf_time = source.with_suffix(".qlf").stat().st_mtime
    os.utime(source, (qlf_time + 10, qlf_time + 10))  # newer, whatever the clock's grain
    loaded = swipl(
        "-q", "-g", f"use_module('{tmp_path / 'layout'}'), layout:edited_after_qlf", "-t", "halt"
    )
    assert loaded.returncode == 0, shown(loaded)
    assert "Warning" not in loaded.stderr, shown(loaded)


def test_the_engine_starts_without_the_options_checker() -> None:
    """crossword.pl loads library(time) with autoloading kept to declared
    predicates, so that library(predicate_options) (17 ms at every start)
    is not loaded, nor by the modules a --maximize proof loads (wdeg.pl,
    arcs.pl, valued.pl: a library that declares options, such as filesex,
    would load it again); the autoload flag is as it was afterwards, and a
    time limit still fires."""
    checker = "source_file(F), sub_atom(F, _, _, _, predicate_options)"
    result = swipl(
        "-q",
        "-g",
        "use_module(prolog/crossword), crossword:engine_module(wdeg),"
        " crossword:engine_module(valued), current_prolog_flag(autoload, true),"
        f" \\+ ({checker}),"
        " catch(kernel:limited(0.05, (repeat, fail)), time_limit_exceeded, true)",
        "-t",
        "halt",
    )
    assert result.returncode == 0, shown(result)
    assert "Warning" not in result.stderr, shown(result)
