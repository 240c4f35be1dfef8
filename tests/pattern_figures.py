"""The figures of newspaper patterns (docs/benchmarks.md#newspaper-patterns):
`crossword grid` and `crossword make` run as a user runs them, once per
seed, each pattern measured by the independent checker (pattern_check) from
its rows alone: words, blocks, mean word length, cheater blocks; for make
also the wall and CPU time of the whole command (the CPU time is what a
loaded machine does not inflate), the patterns tried, the fill's score and
its entries below the acceptable line (from a scored list: the shipped one
when no --dict is given).

    .venv/bin/python tests/pattern_figures.py grid [--sizes 15x15,21x21] [--seeds 20]
    .venv/bin/python tests/pattern_figures.py make [--dict FILE] [--seeds 20] [-- MAKE OPTIONS]

(--checkout DIR runs another checkout's commands, e.g. the commit before.)
Each pattern is also checked against the default rules (rot180, words of 3
letters or more, every cell checked, connected, the newspaper limits by
the size), so the summary counts the patterns that break them.

Not a test: it prints a line per run and the medians for a person to read.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pattern_check import (
    figures,
    rule_breaks,
)  # tests/ is not a package: from the folder on the path

ROOT = Path(__file__).resolve().parents[1]


def cpu_of_children() -> float:
    """The user and system time of the children waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def newspaper_limits(rows: int, cols: int) -> tuple[int | None, int | None]:
    """The default limits on words and cheater blocks as docs/cli.md states
    them (#newspaper-patterns), written here from the docs, not the
    generator: words 78 + 62 x (cells - 225) / 216, cheaters one per 54
    cells and at least 4, none below 81 cells."""
    cells = rows * cols
    if cells < 81:
        return None, None
    return round(78 + 62 * (cells - 225) / 216), max(4, round(cells / 54))


def run(
    argv: list[str], limit: float, checkout: Path
) -> tuple[dict[str, Any] | None, float, float, str]:
    """The JSON document of a command (None when it printed none), its wall
    and CPU time and its stderr."""
    python = str(checkout / ".venv" / "bin" / "python")
    started, cpu = time.perf_counter(), cpu_of_children()
    try:
        done = subprocess.run(
            [python, "-m", "pybridge", *argv, "--output", "json"],
            cwd=checkout,
            capture_output=True,
            text=True,
            timeout=limit,
            check=False,
        )
    except subprocess.TimeoutExpired:
        seconds = time.perf_counter() - started
        return None, seconds, cpu_of_children() - cpu, "killed after the time limit"
    seconds, cpu = time.perf_counter() - started, cpu_of_children() - cpu
    try:
        return json.loads(done.stdout), seconds, cpu, done.stderr
    except json.JSONDecodeError:
        return None, seconds, cpu, done.stderr


def measure(
    command: str, size: str, seed: int, extra: list[str], limit: float, checkout: Path
) -> dict[str, Any]:
    argv = [command, "--size", size, "--seed", str(seed), *extra]
    doc, seconds, cpu, err = run(argv, limit, checkout)
    row: dict[str, Any] = {"size": size, "seed": seed, "seconds": seconds, "cpu": cpu}
    if doc is None:
        return {**row, "status": "error", "error": err.strip().splitlines()[-1:]}
    pattern = doc if command == "grid" else doc.get("pattern")
    row["status"] = "solved" if command == "grid" else doc["status"]
    if command == "make":
        row["tries"] = len(doc["tries"])
        score = doc.get("score") or {}
        row["min_score"], row["mean_score"] = score.get("min"), score.get("mean")
        row["below"] = score.get("below")
    if pattern and pattern.get("grid"):
        grid = pattern["grid"]
        found = figures(grid)
        rows, cols = (int(n) for n in size.split("x"))
        max_words, max_cheaters = newspaper_limits(rows, cols)
        # the default rules (extra options that change them are not read here)
        breaks = rule_breaks(grid, "rot180", max_words=max_words, max_cheaters=max_cheaters)
        row.update(
            breaks=len(breaks),
            words=found.words,
            blocks=found.blocks,
            mean_length=found.mean_length,
            cheaters=found.cheaters,
        )
    return row


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    middle = statistics.median(values)
    return f"{middle:g} ({min(values):g}-{max(values):g})"


def summary(rows: list[dict[str, Any]]) -> str:
    made = [r for r in rows if "words" in r]
    parts = [
        f"{len(made)}/{len(rows)} made",
        f"words {spread([r['words'] for r in made])}",
        f"blocks {spread([r['blocks'] for r in made])}",
        f"mean length {spread([round(r['mean_length'], 2) for r in made])}",
        f"cheaters {spread([r['cheaters'] for r in made])}",
        f"breaking the default rules {sum(r['breaks'] > 0 for r in made)}",
        f"time {spread([round(r['seconds'], 2) for r in rows])} s",
        f"CPU {spread([round(r['cpu'], 2) for r in rows])} s",
    ]
    if "tries" in rows[0]:
        parts.append(f"tries {spread([r['tries'] for r in rows if 'tries' in r])}")
        scored = [r["mean_score"] for r in made if r.get("mean_score") is not None]
        if scored:
            parts.append(f"mean score {spread([round(s, 1) for s in scored])}")
        below = [r["below"] for r in made if r.get("below") is not None]
        if below:
            parts.append(f"below the line {spread(below)}")
    return ", ".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("grid", "make"))
    parser.add_argument("--sizes", default="15x15,21x21")
    parser.add_argument("--seeds", type=int, default=20, help="seeds 1..N")
    parser.add_argument("--dict", action="append", default=[], help="make's dictionaries")
    parser.add_argument("--limit", type=float, default=300, help="seconds per run at most")
    parser.add_argument(
        "--checkout", type=Path, default=ROOT, help="run this checkout's .venv (default: this one)"
    )
    args, more = parser.parse_known_args()  # the others are the command's own
    extra = [*(f"--dict={d}" for d in args.dict), *(a for a in more if a != "--")]
    for size in args.sizes.split(","):
        rows = []
        for seed in range(1, args.seeds + 1):
            row = measure(args.command, size, seed, extra, args.limit, args.checkout.resolve())
            rows.append(row)
            shown = {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}
            print(json.dumps(shown))
        print(f"{args.command} {size}: {summary(rows)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
