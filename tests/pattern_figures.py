"""The figures of newspaper patterns (docs/benchmarks.md#newspaper-patterns):
`crossword grid` and `crossword make` run as a user runs them, once per
seed, each pattern measured by the independent checker (pattern_check) from
its rows alone: words, blocks, mean word length, cheater blocks; for make
also the wall and CPU time of the whole command (CPU: the command's own
process, user + system), the patterns tried, the fill's score (from a
scored list) and its entries below the acceptable line. The load average is
printed at the start and the end (this machine is shared: CPU seconds are
the figure to compare, wall seconds say what a user waited).

    .venv/bin/python tests/pattern_figures.py grid [--sizes 15x15,21x21] [--seeds 20]
    .venv/bin/python tests/pattern_figures.py make [--dict FILE] [--seeds 20] [--fills FILE] \
        [-- MAKE OPTIONS]

make's default dictionary is the shipped word list; --fills FILE writes
each fill's grid and entries (lowest score first) for a person to read.

(--checkout DIR runs another checkout's commands, e.g. the commit before.)

Not a test: it prints a line per run and the medians for a person to read.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pattern_check import figures  # tests/ is not a package: from the folder on the path

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(
    argv: list[str], limit: float, checkout: Path
) -> tuple[dict[str, Any] | None, float, str, float]:
    """The JSON document of a command (None when it printed none), its wall
    time, its stderr and its CPU time."""
    python = str(checkout / ".venv" / "bin" / "python")
    started = time.perf_counter()
    cpu = _children_cpu()
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
        return None, time.perf_counter() - started, "killed after the time limit", 0.0
    seconds = time.perf_counter() - started
    cpu = _children_cpu() - cpu
    try:
        return json.loads(done.stdout), seconds, done.stderr, cpu
    except json.JSONDecodeError:
        return None, seconds, done.stderr, cpu


def measure(
    command: str, size: str, seed: int, extra: list[str], limit: float, checkout: Path
) -> dict[str, Any]:
    argv = [command, "--size", size, "--seed", str(seed), *extra]
    doc, seconds, err, cpu = run(argv, limit, checkout)
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
        solutions = doc.get("solutions") or [{}]
        row["fill"] = "\n".join(solutions[0].get("grid", []))
        row["entries"] = [p["word"] for p in solutions[0].get("placements", [])]
    if pattern and pattern.get("grid"):
        found = figures(pattern["grid"])
        row.update(
            words=found.words,
            blocks=found.blocks,
            mean_length=found.mean_length,
            cheaters=found.cheaters,
        )
    return row


def _scores(paths: list[str]) -> dict[str, float]:
    """The words' scores of the dictionaries (the shipped list by default)."""
    from pybridge.lexicon import load_dictionary
    from pybridge.wordlist import LIST_PATH

    dictionary = load_dictionary(paths or [str(LIST_PATH)])
    if dictionary.scores is None:
        return {}
    return {word: float(dictionary.scores.score(word)) for word in dictionary.words}


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
        f"time {spread([round(r['seconds'], 2) for r in rows])} s",
        f"cpu {spread([round(r['cpu'], 2) for r in rows])} s",
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
    parser.add_argument("--fills", type=Path, help="write each fill and its entries here")
    args, more = parser.parse_known_args()  # the others are the command's own
    extra = [*(f"--dict={d}" for d in args.dict), *(a for a in more if a != "--")]
    if args.command == "make":
        extra.append("--no-suggest")  # the clues are not measured here
    fills = args.fills.open("w", encoding="utf-8") if args.fills else None
    scores = _scores(args.dict) if fills is not None else {}
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", flush=True)
    for size in args.sizes.split(","):
        rows = []
        for seed in range(1, args.seeds + 1):
            row = measure(args.command, size, seed, extra, args.limit, args.checkout.resolve())
            rows.append(row)
            fill, entries = row.pop("fill", None), row.pop("entries", [])
            if fills is not None and fill:
                ranked = sorted((scores.get(word, 50), word) for word in entries)
                listed = " ".join(f"{word} {score:g}" for score, word in ranked)
                fills.write(f"== {size} seed {seed}\n{fill}\n{listed}\n\n")
                fills.flush()
            shown = {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}
            print(json.dumps(shown), flush=True)
        print(f"{args.command} {size}: {summary(rows)}", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
