"""The Prolog module on its own: its plunit suite passes and it loads cleanly.

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


def test_plunit_suite_passes() -> None:
    result = swipl("-g", "run_tests", "-t", "halt", "prolog/test_crossword.plt")
    assert result.returncode == 0, shown(result)
    # Guards against a suite that silently loads no tests at all.
    assert re.search(r"All \d+ tests passed", result.stderr), shown(result)


def test_module_loads_without_warnings() -> None:
    result = swipl("-g", "use_module(prolog/crossword)", "-t", "halt")
    assert result.returncode == 0, shown(result)
    assert "Warning" not in result.stderr, shown(result)
