"""What a command loads before it runs: only its own module and what it
uses (pybridge.cli lists the commands with their summaries and loads the
one asked for; pybridge's API, the engines, the file formats and the
progress line load when first used). Checked by the modules loaded, not by
time: the figures are in docs/benchmarks.md (tests/startup_figures.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pybridge import cli

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
    for heavy in ("lark", "pyswip", "pybridge.solver", "pybridge.model", *NOT_FOR_SOLVE):
        assert not _of(loaded, heavy), heavy


def test_solve_loads_what_it_uses_alone() -> None:
    loaded = _loaded(["solve", "data/demo.dat", "--engine", "python"])
    assert {"pybridge.commands.solve", "pybridge.solver", "lark"} <= loaded
    commands = {m for m in loaded if m.startswith("pybridge.commands.")}
    assert commands <= {"pybridge.commands.common", "pybridge.commands.solve"}
    for heavy in ("pyswip", *NOT_FOR_SOLVE):
        assert not _of(loaded, heavy), heavy


def test_help_lists_the_commands_as_their_modules_do() -> None:
    """COMMANDS' summaries are the help each command's own parser has."""
    assert cli.build_parser(None).format_help() == cli.build_parser().format_help()
    whole = cli.build_parser()
    chosen = cli.build_parser("solve")
    assert chosen.format_usage() == whole.format_usage()
