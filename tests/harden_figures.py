"""The hardening figures of issues 34 and 39 (docs/benchmarks.md), printed for
a person to read; not a test:

- check: on unfillable 15x15 grids (a pattern with STRAND typed into its
  first 6-letter across entry, scowl55 cannot fill it), the proof's own
  time (solver.run, as `solve` searches) and check's time to its answer
  (the verdict, then the core shrunk within its budget), their ratio, and
  the core's size and minimality; and the minimal core given all the time
  it needs;
- overshoot: each engine and strategy on a grid none of them fills in the
  time limit (van Beek's g21.10 with scowl55's scored list, so that
  `valued` and `--maximize` have scores), the time solver.run takes against
  the limit it was given.

    .venv/bin/python tests/harden_figures.py check [--grids N]
    .venv/bin/python tests/harden_figures.py overshoot [--timeout SECONDS] [--engines E,E]

Each grid or cell runs in a process of its own, after a warm-up run in it
(loading SWI-Prolog and sending the dictionary are not the search's).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import SHARED

SCOWL = SHARED / "bench" / "dicts" / "scowl55.txt"
SCORED = SHARED / "bench" / "dicts" / "scored" / "scowl55-wordfreq.txt"
HARD = SHARED / "bench" / "grids" / "vanbeek" / "g21.10.txt"

CHECK_ONE = """
import json, sys, time
import pybridge
from pybridge import proofs
from pybridge.solver import run
puzzle = pybridge.load(sys.argv[1], dictionary=sys.argv[2])
run(puzzle, timeout=5)  # warm-up: Prolog loaded, the dictionary sent
started = time.perf_counter()
outcome = run(puzzle)
proof_seconds = time.perf_counter() - started
assert outcome.status == "unsolvable", outcome.status
started = time.perf_counter()
outcome = run(puzzle)
verdict = time.perf_counter() - started
shrunk = proofs.shrink(outcome.puzzle, outcome.proof, seconds=proofs.shrink_seconds(verdict, None))
check_seconds = time.perf_counter() - started
started = time.perf_counter()
full = proofs.shrink(outcome.puzzle, outcome.proof, seconds=600)
print(json.dumps({
    "sites": len(outcome.proof.core), "proof_seconds": proof_seconds,
    "check_seconds": check_seconds, "core": len(shrunk.core), "minimal": shrunk.minimal,
    "full_core": len(full.core), "full_minimal": full.minimal,
    "full_seconds": time.perf_counter() - started,
}))
"""


def strand_grids(count: int, folder: Path) -> list[Path]:
    """Up to `count` unfillable grids: patterns (seeds 1, 2, ...) with STRAND
    in their first 6-letter across entry, kept when scowl55 cannot fill them."""
    from pybridge import load
    from pybridge.layout import find_sites
    from pybridge.patterns import generate
    from pybridge.solver import run

    found: list[Path] = []
    seed = 0
    while len(found) < count and seed < 40 * count:
        seed += 1
        pattern = generate(15, 15, seed=seed)
        rows = [list(row) for row in pattern.grid]
        site = next(
            (s for s in find_sites(pattern.puzzle()) if s.length == 6 and s.direction == "across"),
            None,
        )
        if site is None:
            continue
        for (r, c), letter in zip(site.cells, "STRAND", strict=True):
            rows[r][c] = letter
        path = folder / f"strand-{seed}.txt"
        path.write_text("\n".join("".join(row) for row in rows) + "\n", encoding="utf-8")
        if run(load(path, dictionary=SCOWL), timeout=60).status == "unsolvable":
            found.append(path)
    return found


def check_figures(args: argparse.Namespace) -> None:
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"harden-figures-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}")
    print("grid            sites  proof s  check s  ratio  core  minimal  | core (all the time)")
    ratios = []
    for path in strand_grids(args.grids, folder):
        ran = subprocess.run(
            [sys.executable, "-c", CHECK_ONE, str(path), str(SCOWL)],
            capture_output=True,
            text=True,
            check=True,
        )
        got = json.loads(ran.stdout)
        ratio = got["check_seconds"] / got["proof_seconds"]
        ratios.append(ratio)
        print(
            f"{path.stem:15} {got['sites']:5} {got['proof_seconds']:8.2f} "
            f"{got['check_seconds']:8.2f} {ratio:6.2f} {got['core']:5} {got['minimal']!s:8} | "
            f"{got['full_core']} sites, minimal {got['full_minimal']}, "
            f"{got['full_seconds']:.2f} s"
        )
    if ratios:
        ratios.sort()
        print(f"median ratio check/proof: {ratios[len(ratios) // 2]:.2f}")


OVERSHOOT_ONE = """
import json, sys, time
import pybridge
from pybridge.solver import run
engine, strategy, limit, grid, words = sys.argv[1:6]
limit = float(limit)
maximize = "sum" if strategy == "maximize" else None
strategy = "valued" if maximize else strategy
puzzle = pybridge.load(grid, dictionary=words)
run(puzzle, engine=engine, strategy=strategy, timeout=0.5, maximize=maximize)  # warm-up
started = time.perf_counter()
outcome = run(puzzle, engine=engine, strategy=strategy, timeout=limit, maximize=maximize)
print(json.dumps({"status": outcome.status, "seconds": time.perf_counter() - started,
                  "nodes": outcome.stats.nodes}))
"""


def overshoot_figures(args: argparse.Namespace) -> None:
    from pybridge.search.registry import LEXICON_STRATEGIES

    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}")
    print(f"# {HARD.name} with {SCORED.name}, --timeout {args.timeout:g}")
    print("engine  strategy   status    seconds  overshoot")
    for engine in args.engines.split(","):
        for strategy in (*LEXICON_STRATEGIES, "maximize"):
            command = [sys.executable, "-c", OVERSHOOT_ONE, engine, strategy]
            ran = subprocess.run(
                [*command, str(args.timeout), str(HARD), str(SCORED)],
                capture_output=True,
                text=True,
                check=True,
            )
            got = json.loads(ran.stdout)
            over = (got["seconds"] / args.timeout - 1) * 100
            print(f"{engine:7} {strategy:10} {got['status']:8} {got['seconds']:8.2f} {over:9.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    figures = parser.add_subparsers(dest="figures", required=True)
    check = figures.add_parser("check")
    check.add_argument("--grids", type=int, default=5)
    check.set_defaults(run=check_figures)
    over = figures.add_parser("overshoot")
    over.add_argument("--timeout", type=float, default=10.0)
    over.add_argument("--engines", default="prolog,python")
    over.set_defaults(run=overshoot_figures)
    args = parser.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"harden_figures: the reference data {SHARED} is absent")
    args.run(args)


if __name__ == "__main__":
    main()
