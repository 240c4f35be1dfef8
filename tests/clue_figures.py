"""The figures of suggested clues (docs/benchmarks.md#clues-and-sheets):
`crossword make --size 15x15 --seed N` run as a user runs it, with the
defaults (the shipped word list, WordNet's suggestions), once per seed; the
share of its entries that receive a suggested clue, per run and in all; and
the CPU time of `make --output pdf` (the command and its children, from
getrusage), median over the PDF runs.

    .venv/bin/python tests/clue_figures.py [--seeds 20] [--pdf-runs 5] [--show]
                                          [--keep DIR] [-- MAKE OPTIONS]

--show prints every entry with its clue (or `-` when it has none), for a
person to read the suggestions as an editor would; --keep DIR keeps each
run's JSON document and PDF sheet there. --checkout DIR runs another
checkout's commands (e.g. the commit before).

Not a test: it prints a line per run and the totals for a person to read.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 900.0  # seconds of wall time for one make under a heavy load


def children_cpu() -> float:
    """CPU seconds (user + system) of the children waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def make(
    checkout: Path, seed: int, extra: list[str], output: list[str]
) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """One `crossword make` of a 15x15: its process, CPU and wall seconds."""
    python = str(checkout / ".venv" / "bin" / "python")
    argv = [python, "-m", "pybridge", "make", "--size", "15x15", "--seed", str(seed)]
    before, started = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [*argv, *extra, "--output", *output],
        cwd=checkout,
        capture_output=True,
        text=True,
        timeout=LIMIT,
        check=False,
    )
    return done, children_cpu() - before, time.perf_counter() - started


def clue_share(seed: int, document: dict[str, Any], show: bool) -> tuple[int, int]:
    """The entries of a made crossword suggested a clue, and all its entries."""
    placements = document["solutions"][0]["placements"]
    suggested = [p for p in placements if p.get("clue_source") == "wordnet"]
    if show:
        for p in placements:
            label = f"{p['number']}{p['direction'][0].upper()}"
            print(f"  {seed:>3} {label:>4} {p['word']:<15} {p.get('clue') or '-'}")
    return len(suggested), len(placements)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="seeds 1..N (default 20)")
    parser.add_argument("--pdf-runs", type=int, default=5, help="seeds 1..N timed with pdf")
    parser.add_argument("--show", action="store_true", help="print every entry and its clue")
    parser.add_argument("--keep", type=Path, help="keep the JSON documents and PDFs here")
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("extra", nargs="*", help="more options of make (after --)")
    args = parser.parse_args()
    keep = args.keep or Path(tempfile.mkdtemp(prefix="clue-figures-"))
    keep.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(
        ["git", "-C", str(args.checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    print(f"commit {commit}; make --size 15x15 --seed N {' '.join(args.extra)}".rstrip())
    total = clued = 0
    shares = []
    for seed in range(1, args.seeds + 1):
        done, cpu, wall = make(args.checkout, seed, args.extra, ["json"])
        try:
            document = json.loads(done.stdout)
        except json.JSONDecodeError:
            print(f"seed {seed:>3}: no crossword (exit {done.returncode}): {done.stderr[-300:]}")
            continue
        (keep / f"make-{seed}.json").write_text(done.stdout, encoding="utf-8")
        n, entries = clue_share(seed, document, args.show)
        clued, total = clued + n, total + entries
        shares.append(n / entries)
        share = n / entries
        print(f"seed {seed:>3}: {n:>3} of {entries:>3} entries suggested a clue ({share:.1%})")
    if shares:
        print(
            f"suggested: {clued} of {total} entries = {clued / total:.1%}; per run median "
            f"{statistics.median(shares):.1%} ({min(shares):.1%}-{max(shares):.1%})"
        )
    cpus = []
    for seed in range(1, args.pdf_runs + 1):
        sheet = keep / f"make-{seed}.pdf"
        done, cpu, wall = make(args.checkout, seed, args.extra, ["pdf", str(sheet)])
        status = f"exit {done.returncode}" if done.returncode else f"{sheet.stat().st_size:,} bytes"
        print(f"pdf seed {seed:>3}: CPU {cpu:.2f} s, wall {wall:.1f} s, {status}")
        if done.returncode == 0:
            cpus.append(cpu)
    if cpus:
        median = statistics.median(cpus)
        print(f"make --output pdf: CPU median {median:.2f} s over {len(cpus)} runs")
    print(f"kept in {keep}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
