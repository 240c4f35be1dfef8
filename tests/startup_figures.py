"""Start-up figures: how long a command takes from the shell, this checkout
against another (each with its own .venv), in alternating runs in one
session, as docs/benchmarks.md quotes them.

    .venv/bin/python tests/startup_figures.py --base ../base [--runs 15]
        [--command "solve data/demo.dat"] [--command "--help"]

Prints each command's median wall and CPU time (user and system) in both
checkouts, the ratio of the medians (this one / base), and the load of the machine before and after.
Both checkouts' bytecode is compiled first (`python -m compileall`), as an
installed package's is: with PYTHONDONTWRITEBYTECODE set, a checkout without
it would compile every module at every start.
A benchmark, not a test: the machine is shared, so only the ratio of
alternating runs means much.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("solve data/demo.dat", "--help")


def _seconds(checkout: Path, command: str) -> tuple[float, float]:
    """One run of `crossword COMMAND` in `checkout`, from its own .venv: its
    wall seconds and its CPU seconds (user and system)."""
    program = checkout / ".venv" / "bin" / "crossword"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [str(program), *command.split()],
        cwd=checkout,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout")
    parser.add_argument("--runs", type=int, default=15, help="runs per command and checkout")
    parser.add_argument("--command", action="append", help="a crossword command line")
    args = parser.parse_args()
    commands = args.command or list(COMMANDS)
    checkouts = {"this": ROOT, "base": args.base.resolve()}
    for checkout in checkouts.values():
        python = checkout / ".venv" / "bin" / "python"
        compileall = [str(python), "-m", "compileall", "-q", "pybridge"]
        subprocess.run(compileall, cwd=checkout, check=True, stdout=subprocess.DEVNULL)
    print(f"load before: {_load()}")
    for command in commands:
        for checkout in checkouts.values():  # warm the file cache and compiled files
            _seconds(checkout, command)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                times[name].append(_seconds(checkout, command))
        for kind, k in (("wall", 0), ("CPU", 1)):
            this, base = (statistics.median(t[k] for t in times[n]) for n in ("this", "base"))
            print(
                f"crossword {command}: {kind} median {this:.3f} s here, {base:.3f} s at base "
                f"({args.runs} alternating runs each); ratio {this / base:.3f}"
            )
    print(f"load after: {_load()}")


if __name__ == "__main__":
    main()
