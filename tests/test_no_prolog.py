"""The Python engine works where SWI-Prolog is missing, and importing the
package never loads libswipl."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Makes `import pyswip` fail inside the child, as on a machine without SWI-Prolog.
BLOCK_PYSWIP = "import sys; sys.modules['pyswip'] = None\n"


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_import_and_python_engine_never_load_libswipl() -> None:
    child = run_python(
        """
        import sys
        import pybridge
        puzzle = pybridge.load("data/demo.dat")
        solution = next(pybridge.solve(puzzle, engine="python"))
        assert solution.placements
        maps = open("/proc/self/maps").read()
        print("pyswip" in sys.modules, "libswipl" in maps)
        """
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["False", "False"]


def test_default_engine_falls_back_to_python_with_a_notice() -> None:
    child = run_python(
        BLOCK_PYSWIP
        + """
import pybridge
outcome = pybridge.run(pybridge.load("data/demo.dat"))
print(outcome.status, outcome.stats.engine)
"""
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.split() == ["solved", "python"]
    notices = child.stderr.strip().splitlines()
    assert len(notices) == 1
    assert "SWI-Prolog not found" in notices[0]


def test_explicit_prolog_engine_says_how_to_install() -> None:
    child = run_python(
        BLOCK_PYSWIP
        + """
import pybridge
try:
    pybridge.run(pybridge.load("data/demo.dat"), engine="prolog")
except pybridge.MissingDependency as err:
    print(err)
"""
    )
    assert child.returncode == 0, child.stderr
    assert "apt-get install swi-prolog-nox" in child.stdout


def test_version_without_prolog_names_the_python_form_alone() -> None:
    child = run_python(
        BLOCK_PYSWIP
        + """
from pybridge import cli
try:
    cli.main(["--version"])
except SystemExit as done:
    assert done.code == 0
"""
    )
    assert child.returncode == 0, child.stderr
    assert "; no Prolog engine (" in child.stdout
