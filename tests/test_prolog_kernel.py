"""The two forms of the Prolog engine's revision (prolog/arcs.pl): with the C
kernel that setup.sh builds beside it (prolog/arcs_kernel.c), and arcs.pl's
own predicates alone (CROSSWORD_PURE_PROLOG=1, or no build), search alike:
the same fills, nodes, backtracks and improvements on the corpus with every
strategy, van Beek grids with wdeg and valued runs with --maximize.

prolog/test_arcs.plt (run by tests/test_prolog.py) compares the kernel's
revisions with arcs.pl's one by one. Here each form runs in a process of its
own, as the kernel is loaded (or not) with arcs.pl."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from compiled_runs import in_child

from pybridge import bridge, cli
from pybridge.bridge import engine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PURE = "CROSSWORD_PURE_PROLOG"

pytestmark = pytest.mark.skipif(not bridge.available(), reason="SWI-Prolog is not installed")


def form(pure: bool) -> str:
    code = "from pybridge import bridge; print(bridge.revision_form())"
    env = {**os.environ, PURE: "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()


BUILT = (ROOT / "prolog" / "arcs_kernel.so").exists()


def runs(shared: Path, pure: bool) -> list[dict[str, Any]]:
    return in_child(shared, "prolog", PURE, "1" if pure else "0", 1800)


@pytest.mark.skipif(not BUILT, reason="no build of prolog/arcs_kernel.c: ./setup.sh makes one")
def test_kernel_and_prolog_revisions_search_alike(shared_dir: Path) -> None:
    pure, kernel = runs(shared_dir, True), runs(shared_dir, False)
    assert pure[0]["form"] == f"Prolog revision in Prolog ({PURE} is set)"
    assert kernel[0]["form"] == engine.KERNEL_FORM
    assert len(pure) == len(kernel) > 60
    for one, other in zip(pure[1:], kernel[1:], strict=True):
        assert one == other, f"the forms disagree on {one['case']}"
    assert sum(run["nodes"] for run in kernel[1:]) > 10_000  # searches, not proofs


@pytest.mark.skipif(not BUILT, reason="no build of prolog/arcs_kernel.c: ./setup.sh makes one")
def test_the_kernel_runs_where_it_is_built() -> None:
    assert form(pure=False) == engine.KERNEL_FORM


def test_the_prolog_revision_can_be_asked_for() -> None:
    assert form(pure=True) == f"Prolog revision in Prolog ({PURE} is set)"


def test_the_version_names_the_prolog_form(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.build_parser().parse_args(["--version"])
    assert done.value.code == 0
    assert bridge.revision_form() in capsys.readouterr().out


def prolog_copy(tmp_path: Path) -> Path:
    """A copy of prolog/'s sources and build, their times kept."""
    copy = tmp_path / "prolog"
    copy.mkdir()
    for path in (ROOT / "prolog").iterdir():
        if path.suffix in (".pl", ".so", ".c"):
            shutil.copy2(path, copy / path.name)
    return copy


def form_in(copy: Path) -> str:
    """arcs:kernel_form/1 in `copy`, as Prolog prints it."""
    done = subprocess.run(
        ["swipl", "-g", "use_module(arcs), arcs:kernel_form(F), print(F), nl", "-t", "halt"],
        cwd=copy,
        capture_output=True,
        text=True,
        env={**os.environ, PURE: "0"},
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.skipif(not BUILT, reason="no build of prolog/arcs_kernel.c: ./setup.sh makes one")
def test_a_copy_with_its_times_is_current(tmp_path: Path) -> None:
    assert form_in(prolog_copy(tmp_path)) == "c"


@pytest.mark.skipif(not BUILT, reason="no build of prolog/arcs_kernel.c: ./setup.sh makes one")
@pytest.mark.parametrize("change", ["edited", "touched"])
def test_a_stale_build_is_not_used(tmp_path: Path, change: str) -> None:
    # arcs.pl loads the kernel only when it is newer than the arcs_kernel.c
    # beside it and was built from a file of its size
    copy = prolog_copy(tmp_path)
    source = copy / "arcs_kernel.c"
    if change == "edited":
        with source.open("a") as text:
            text.write("/* changed */\n")
        os.utime(source, ns=(0, 0))  # older than the build, yet not what it was built from
    else:
        later = (copy / "arcs_kernel.so").stat().st_mtime_ns + 10**9
        os.utime(source, ns=(later, later))
    assert form_in(copy).startswith("prolog('the build of arcs_kernel.c is older than it")


SEARCH_GOAL = (
    "arcs:kernel_form(F), print(F), nl,"
    ' arcs:load_dictionary_text(7, "2 2\\nabac\\n\\n97=0x3\\n98=0x1 99=0x2\\n"),'
    " Board = [[A, _], [A, _]], Arcs = [[x(0, 1, 0, 0)], [x(0, 0, 0, 0)]],"
    " kernel:reset_counters,"
    " findall(Board, wdeg:wdeg_search(7, none, Board, Arcs, 1), Fills), print(Fills), nl"
)


@pytest.mark.skipif(not BUILT, reason="no build of prolog/arcs_kernel.c: ./setup.sh makes one")
@pytest.mark.parametrize("pure", [False, True])
def test_a_saved_state_loads_the_kernel_again(tmp_path: Path, pure: bool) -> None:
    # a saved state holding arcs.pl keeps the kernel's predicates but not its
    # library: arcs.pl decides and loads it again when the state starts
    state = tmp_path / "engine.state"
    save = (
        "consult(crossword), crossword:engine_module(wdeg),"
        f" qsave_program('{state}', [stand_alone(false), autoload(false), goal(true),"
        " toplevel(halt)])"
    )
    env = {**os.environ, PURE: "0"}
    subprocess.run(
        ["swipl", "-g", save, "-t", "halt"], cwd=ROOT / "prolog", env=env, timeout=120, check=True
    )
    done = subprocess.run(
        ["swipl", "-x", str(state), "-g", SEARCH_GOAL, "-t", "halt"],
        capture_output=True,
        text=True,
        env={**env, PURE: "1" if pure else "0"},
        timeout=60,
        check=True,
    )
    form = "prolog('CROSSWORD_PURE_PROLOG is set')" if pure else "c"
    assert done.stdout.splitlines() == [form, "[[[a,c],[a,b]],[[a,b],[a,c]]]"]
