"""Runs the searches that tests/test_compiled.py compares between the two
forms of the Python engine (pybridge/compiled.py), in this process's form
(CROSSWORD_INTERPRETED says which), and prints one JSON line per search:
what both forms must agree on, nothing of the timing. The first line is the
form in use. With `prolog`, the same searches in the Prolog engine, whose
two forms tests/test_prolog_kernel.py compares (arcs.pl's revision with its
C kernel or without: CROSSWORD_PURE_PROLOG says which).

    python tests/compiled_runs.py SHARED_DIR [python|prolog]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pybridge
from pybridge import bridge, compiled
from pybridge.solver import STRATEGIES

P99 = ("p7_09a", "p7_09b", "p7_09c", "p7_09d")
CORPUS = tuple(f"p99/{n}" for n in P99) + tuple(
    f"fillin/{n}" for n in ("2", "3", "4", "5", "6", "7", "9", "12")
)
# given and sorted are exponential on these, wdeg and valued slow on fillin/12
SLOW = {("given", f"fillin/{n}") for n in ("5", "6", "7", "9", "12")} | {
    ("given", "p99/p7_09b"),
    ("given", "p99/p7_09d"),
    ("sorted", "fillin/12"),
    ("wdeg", "fillin/12"),
    ("valued", "fillin/12"),
}
VANBEEK_WDEG = ("g05.01", "g15.01", "g15.04", "g19.02", "g21.04")  # scowl55
VALUED = (("g05.03", "min"), ("g05.05", "min"), ("g05.06", "min"), ("puzzle03", "min"))


def key(outcome: pybridge.Outcome) -> dict[str, Any]:
    return {
        "status": outcome.status,
        "grids": [solution.grid for solution in outcome.solutions],
        "count": outcome.count,
        "nodes": outcome.stats.nodes,
        "backtracks": outcome.stats.backtracks,
        "improvements": [(str(b.value), b.nodes, b.solution.grid) for b in outcome.improvements],
    }


def corpus(shared: Path, name: str) -> pybridge.Puzzle:
    kind, stem = name.split("/")
    folder = shared / "corpus" / kind
    if kind == "p99":
        return pybridge.load(folder / f"{stem}.dat")
    return pybridge.load(folder / f"puzzle{stem}", words=folder / f"words{stem}")


def main(shared: Path, engine: str = "python") -> None:
    form = compiled.form() if engine == "python" else bridge.revision_form()
    print(json.dumps({"form": form}), flush=True)
    for name in CORPUS:
        puzzle = corpus(shared, name)
        for strategy in STRATEGIES:
            if (strategy, name) in SLOW or (strategy in ("given", "sorted") and name == "fillin/1"):
                continue
            outcome = pybridge.run(puzzle, engine=engine, strategy=strategy, limit=20)
            print(json.dumps({"case": [name, strategy], **key(outcome)}), flush=True)
    grids, dicts = shared / "bench" / "grids" / "vanbeek", shared / "bench" / "dicts"
    for grid in VANBEEK_WDEG:
        puzzle = pybridge.load(grids / f"{grid}.txt", dictionary=dicts / "scowl55.txt")
        outcome = pybridge.run(puzzle, engine=engine, strategy="wdeg")
        print(json.dumps({"case": [grid, "wdeg"], **key(outcome)}), flush=True)
    scored = dicts / "scored" / "scowl55-wordfreq.txt"
    for grid, objective in VALUED:
        puzzle = pybridge.load(grids / f"{grid}.txt", dictionary=scored)
        outcome = pybridge.run(puzzle, engine=engine, maximize=objective)  # type: ignore[arg-type]
        print(json.dumps({"case": [grid, objective], **key(outcome)}), flush=True)


def in_child(shared: Path, engine: str, variable: str, value: str, timeout: float) -> list[Any]:
    """The JSON lines of this script run on `engine` in a process of its
    own, with the environment's `variable` (which form runs) set to `value`."""
    done = subprocess.run(
        [sys.executable, __file__, str(shared), engine],
        capture_output=True,
        text=True,
        env={**os.environ, variable: value},
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines()]


if __name__ == "__main__":
    main(Path(sys.argv[1]), *sys.argv[2:3])
