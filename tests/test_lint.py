"""The engineering rules that tools can check: ruff clean, mypy clean, and
the Prolog module loading without a warning (see test_prolog.py)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which(name, path=str(Path(sys.executable).parent)) is None:
        pytest.fail(f"{name} is not installed next to {sys.executable}: run ./setup.sh")
    return subprocess.run(
        [sys.executable, "-m", name, *args], cwd=REPO, capture_output=True, text=True, timeout=300
    )


def test_ruff_is_clean() -> None:
    result = tool("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_is_clean() -> None:
    result = tool("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
