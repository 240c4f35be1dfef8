"""What a command loads before it runs: only its own module and what it
uses (pybridge.cli lists the commands with their summaries and loads the
one asked for; pybridge's API, the engines, the file formats, the pattern
maker, the clue suggester, worker processes and the progress line load when
first used; the Prolog engine loads the family of the strategy it runs, and
finds SWI-Prolog where it found it last time). Checked by the modules
loaded and the processes started, not by time: the figures are in
docs/benchmarks.md (tests/startup_figures.py)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pybridge import cli
from pybridge.search import registry

ROOT = Path(__file__).resolve().parents[1]

# Loaded by none of the commands below (each loads when its feature is used).
NOT_FOR_SOLVE = (
    "pybridge.construct",
    "pybridge.bench",
    "pybridge.compare",
    "pybridge.wordsearch",
    "pybridge.serve",
    "pybridge.sheets",
    "pybridge.acrosslite",
    "pybridge.ipuzfile",
    "pybridge.patterns",
    "pybridge.theme",
    "pybridge.difficulty",
    "pybridge.suggest",
    "nltk",
    "multiprocessing",
    "html",
    "tqdm",
    "puz",
    "ipuz",
    "starlette",
    "xml.sax",
)


def _loaded(argv: list[str]) -> set[str]:
    """The modules loaded once `crossword ARGV` has run, in a fresh process."""
    code = (
        "import json, sys, contextlib, io\n"
        "from pybridge import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    cli.main({argv!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def _of(loaded: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in loaded)


def test_help_loads_no_command_and_no_library() -> None:
    loaded = _loaded(["--help"])
    assert not [m for m in loaded if m.startswith("pybridge.commands.")]
    for heavy in ("lark", "pyswip", "pybridge.solver", "pybridge.model", "shutil", *NOT_FOR_SOLVE):
        assert not _of(loaded, heavy), heavy


def test_solve_loads_what_it_uses_alone() -> None:
    loaded = _loaded(["solve", "data/demo.dat", "--engine", "python"])
    assert {"pybridge.commands.solve", "pybridge.solver"} <= loaded
    commands = {m for m in loaded if m.startswith("pybridge.commands.")}
    assert commands <= {"pybridge.commands.common", "pybridge.commands.solve"}
    # a plainly written P-99 file is read line by line: lark waits for a text that
    # needs it; argparse's help formatters are told the terminal's width (cli._columns)
    for heavy in ("lark", "pyswip", "pybridge.bridge", "ctypes", "shutil", *NOT_FOR_SOLVE):
        assert not _of(loaded, heavy), heavy


def test_help_lists_the_commands_as_their_modules_do() -> None:
    """COMMANDS' summaries are the help each command's own parser has."""
    assert cli.build_parser(None).format_help() == cli.build_parser().format_help()
    whole = cli.build_parser()
    chosen = cli.build_parser("solve")
    assert chosen.format_usage() == whole.format_usage()


needs_prolog = pytest.mark.skipif(
    shutil.which("swipl") is None, reason="SWI-Prolog is not installed"
)

# Solves demo.dat with the Prolog engine in a fresh process; prints the
# modules of prolog/ loaded then, and the `swipl` processes started.
_PROLOG_RUN = textwrap.dedent(
    """
    import contextlib, io, json, subprocess
    started = []
    class Spy(subprocess.Popen):
        def __init__(self, args, *rest, **named):
            started.append([str(a) for a in args])
            super().__init__(args, *rest, **named)
    subprocess.Popen = Spy  # before pyswip is imported: it runs swipl to find it
    from pybridge import cli
    from pybridge.bridge import session
    with contextlib.redirect_stdout(io.StringIO()) as shown:
        code = cli.main(["solve", "data/demo.dat", "--engine", "prolog"])
    found = session.engine().query(
        "findall(M, (module_property(M, file(F)), sub_atom(F, _, _, _, '/prolog/')), Ms)",
        maxresult=1,
    )
    modules = sorted(str(m) for m in list(found)[0]["Ms"])
    swipl = [args for args in started if "swipl" in args[0]]
    print(json.dumps([code, shown.getvalue().splitlines()[0], modules, swipl]))
    """
)


def _prolog_run(env: dict[str, str]) -> tuple[int, str, list[str], list[list[str]]]:
    done = subprocess.run(
        [sys.executable, "-c", _PROLOG_RUN],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, **env},
    )
    code, first, modules, swipl = json.loads(done.stdout.splitlines()[-1])
    return code, first, modules, swipl


@needs_prolog
def test_a_prolog_search_loads_its_family_alone(tmp_path: Path) -> None:
    """crossword.pl loads the family a search runs (engine_module/1), not the
    others, nor the word search or the cube split."""
    code, first, modules, _ = _prolog_run({"CROSSWORD_NO_CACHE": "1"})
    assert (code, first) == (0, "PYTHON")
    family = registry.strategy(registry.default_strategy("exact")).family
    assert {"crossword", "kernel", "layout", family} <= set(modules)
    others = {f.__name__.rsplit(".", 1)[-1] for f in registry.FAMILIES} - {family}
    assert not (others | {"wordsearch", "cubes"}) & set(modules), modules


@needs_prolog
def test_where_swipl_is_found_once(tmp_path: Path) -> None:
    """pyswip runs `swipl --dump-runtime-variables` to find SWI-Prolog; what it
    found is kept (signed, in the cache) for that `swipl`, and the next start
    runs nothing. An entry made for another `swipl` is not used."""
    env = {"CROSSWORD_CACHE_DIR": str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path)}
    first = _prolog_run(env)
    assert first[:2] == (0, "PYTHON")
    assert first[3], "the first start asks swipl"
    again = _prolog_run(env)
    assert again[:3] == first[:3]
    assert again[3] == [], "the next start asks no one"
    entry = tmp_path / "cache" / "swipl-location"
    header = json.loads(entry.read_bytes().splitlines()[0])
    header["swipl"][2] += 1  # another swipl: re-signed, as pybridge.cache writes it
    code = (
        "import json, sys; from pybridge import cache; "
        "meta = json.loads(sys.argv[1]); [meta.pop(k) for k in ('size', 'sha256', 'mac')]; "
        "cache.write('swipl-location', meta, b'')"
    )
    subprocess.run(
        [sys.executable, "-c", code, json.dumps(header)],
        check=True,
        cwd=ROOT,
        env={**os.environ, **env},
    )
    other = _prolog_run(env)
    assert other[:3] == first[:3]
    assert other[3], "an entry for another swipl is not used"


@needs_prolog
def test_a_location_the_environment_gives_is_not_kept(tmp_path: Path) -> None:
    """LIBSWIPL_PATH and SWI_HOME_DIR hold for the process that has them: a
    start told by them keeps nothing for the next."""
    env = {"CROSSWORD_CACHE_DIR": str(tmp_path / "cache"), "XDG_STATE_HOME": str(tmp_path)}
    where = "from pyswip import core; print(core._path); print(core.SWI_HOME_DIR)"
    found = subprocess.run(
        [sys.executable, "-c", where], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    told = {**env, "LIBSWIPL_PATH": found[0], "SWI_HOME_DIR": found[1]}
    code, first, _, swipl = _prolog_run(told)
    assert (code, first, swipl) == (0, "PYTHON", [])
    assert not (tmp_path / "cache" / "swipl-location").exists()
