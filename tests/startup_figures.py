"""Start-up figures: how long a command takes from the shell, this checkout
against another (each with its own .venv), in alternating runs in one
session, as docs/benchmarks.md quotes them.

    .venv/bin/python tests/startup_figures.py --base ../base [--runs 15]
        [--command "solve data/demo.dat"] [--command "--help"]

Prints each command's median wall time in both checkouts, the ratio of the
medians (this one / base), and the load of the machine before and after.
A benchmark, not a test: the machine is shared, so only the ratio of
alternating runs means much.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = ("solve data/demo.dat", "--help")


def _seconds(checkout: Path, command: str) -> float:
    """One run of `crossword COMMAND` in `checkout`, from its own .venv."""
    program = checkout / ".venv" / "bin" / "crossword"
    started = time.perf_counter()
    subprocess.run(
        [str(program), *command.split()],
        cwd=checkout,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return time.perf_counter() - started


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
    print(f"load before: {_load()}")
    for command in commands:
        for checkout in checkouts.values():  # warm the file cache and compiled files
            _seconds(checkout, command)
        times: dict[str, list[float]] = {name: [] for name in checkouts}
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                times[name].append(_seconds(checkout, command))
        this, base = (statistics.median(times[name]) for name in ("this", "base"))
        print(
            f"crossword {command}: median {this:.3f} s here, {base:.3f} s at base "
            f"({args.runs} alternating runs each); ratio {this / base:.3f}"
        )
    print(f"load after: {_load()}")


if __name__ == "__main__":
    main()
