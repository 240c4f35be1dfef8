"""The Prolog modules on their own: each plunit suite passes and each module
loads cleanly.

Both run `swipl` in a subprocess with warnings and errors turned into a
non-zero exit status, so a singleton variable or a discontiguous clause
fails here, not just noise on a terminal.
"""

from __future__ import annotations

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
    result = swipl("-g", f"use_module(prolog/{module})", "-t", "halt")
    assert result.returncode == 0, shown(result)
    assert "Warning" not in result.stderr, shown(result)
