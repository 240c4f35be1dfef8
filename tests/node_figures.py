"""Node counts of this checkout against another (a refactor must leave the
search as it was): the corpus x every strategy x both engines (`crossword
compare`), van Beek's grids x wdeg x both engines (`crossword bench`), and
--maximize min|sum --strategy valued on g05.01-09 x both engines
(`crossword solve`); each run in both checkouts in turn, then every cell
that ended in both compared:
status, solutions, nodes, backtracks (and for --maximize the bound, whether
optimal, and every better fill's value and nodes). A cell that reached its
time limit in either checkout is left out (its nodes depend on the clock).

    .venv/bin/python tests/node_figures.py --base ../base [--timeout 10]
        [--parts corpus,vanbeek,maximize]

Needs ../shared. Prints a table in docs/benchmarks.md's form and every
difference; exits 1 when a cell differs. It is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
Cell = tuple[str, ...]
PARTS = ("corpus", "vanbeek", "maximize")


def crossword(checkout: Path, arguments: list[str]) -> subprocess.CompletedProcess[str]:
    command = ["nice", str(checkout / ".venv" / "bin" / "crossword"), *arguments]
    return subprocess.run(command, cwd=checkout, capture_output=True, text=True, check=False)


def corpus_runs(timeout: float) -> Iterator[tuple[str, list[str]]]:
    """compare's runs: the P-99 and fill-in corpus, then CS50 per word list."""
    corpus = SHARED / "corpus"
    fillin = sorted(str(p) for p in (corpus / "fillin").glob("puzzle*"))
    common = ["--repeat", "1", "--timeout", str(timeout), "--output", "json", "--quiet"]
    p99 = sorted(str(p) for p in (corpus / "p99").glob("*.dat"))
    yield "corpus", ["compare", *p99, *fillin, *common]
    for n in range(3):
        structures = [str(corpus / "cs50" / f"structure{i}.txt") for i in range(3)]
        words = ["--dict", str(corpus / "cs50" / f"words{n}.txt")]
        yield "corpus", ["compare", *structures, *words, *common]


def compare_cells(out: str) -> dict[Cell, tuple[str, Any]]:
    cells: dict[Cell, tuple[str, Any]] = {}
    for r in json.loads(out)["records"]:
        key = ("corpus", r["path"], str(r["words"]), r["engine"], r["strategy"])
        cells[key] = (r["status"], [r["solutions"], r["nodes"], r["backtracks"]])
    return cells


def vanbeek_cells(checkout: Path, timeout: float) -> dict[Cell, tuple[str, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "runs.json"
        crossword(
            checkout,
            [
                "bench",
                str(SHARED / "bench" / "grids" / "vanbeek"),
                "--dict",
                str(SHARED / "bench" / "dicts" / "scowl55.txt"),
                "--strategies",
                "wdeg",
                "--engines",
                "python,prolog",
                "--timeout",
                str(timeout),
                "--json",
                str(path),
                "--quiet",
            ],
        )
        runs = json.loads(path.read_text(encoding="utf-8"))["runs"]
    return {
        ("vanbeek", r["grid"], r["engine"], "wdeg"): (r["status"], [r["nodes"], r["backtracks"]])
        for r in runs
    }


def maximize_cells(checkout: Path, timeout: float) -> dict[Cell, tuple[str, Any]]:
    scored = SHARED / "bench" / "dicts" / "scored" / "scowl55-wordfreq.txt"
    cells: dict[Cell, tuple[str, Any]] = {}
    for n in range(1, 10):
        grid = SHARED / "bench" / "grids" / "vanbeek" / f"g05.0{n}.txt"
        for objective in ("min", "sum"):
            for engine in ("python", "prolog"):
                done = crossword(
                    checkout,
                    [
                        "solve",
                        str(grid),
                        "--dict",
                        str(scored),
                        "--maximize",
                        objective,
                        "--strategy",  # the branch and bound (plain --maximize
                        "valued",  # climbs by wdeg first since words' landing)
                        "--engine",
                        engine,
                        "--timeout",
                        str(timeout),
                        "--output",
                        "json",
                    ],
                )
                doc = json.loads(done.stdout)
                stats, score = doc["stats"], doc.get("score") or {}
                better = [(b["value"], b["nodes"]) for b in doc.get("improvements", [])]
                kept = [stats["nodes"], stats["backtracks"], score.get("bound"), better]
                kept.append(score.get("optimal"))
                cells[("maximize", grid.name, objective, engine)] = (doc["status"], kept)
    return cells


def differences(
    label: str, before: dict[Cell, tuple[str, Any]], after: dict[Cell, tuple[str, Any]]
) -> tuple[list[str], list[int]]:
    """The cells that differ, and [cells, compared, left out]."""
    found, compared, left_out = [], 0, 0
    for key in sorted(set(before) | set(after)):
        if key not in before or key not in after:
            found.append(f"{label}: {key} ran in one checkout only")
            continue
        (status_b, kept_b), (status_a, kept_a) = before[key], after[key]
        if "timeout" in (status_b, status_a):
            left_out += 1
            continue
        compared += 1
        if (status_b, kept_b) != (status_a, kept_a):
            found.append(f"{label}: {key}: before {status_b} {kept_b}, after {status_a} {kept_a}")
    return found, [len(set(before) | set(after)), compared, left_out]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout")
    parser.add_argument("--timeout", type=float, default=10.0, help="each run's limit")
    parser.add_argument("--maximize-timeout", type=float, default=20.0)
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"which, comma-separated (default: {','.join(PARTS)})",
    )
    args = parser.parse_args()
    parts = args.parts.split(",")
    sides = {"before": args.base.resolve(), "after": ROOT}
    cells: dict[str, dict[str, dict[Cell, tuple[str, Any]]]] = {s: {} for s in sides}
    for what, arguments in corpus_runs(args.timeout) if "corpus" in parts else ():
        for side, checkout in sides.items():  # alternating: the load falls on both
            done = crossword(checkout, arguments)
            cells[side].setdefault(what, {}).update(compare_cells(done.stdout))
    for side, checkout in sides.items():
        if "vanbeek" in parts:
            cells[side]["vanbeek"] = vanbeek_cells(checkout, args.timeout)
        if "maximize" in parts:
            cells[side]["maximize"] = maximize_cells(checkout, args.maximize_timeout)
    print("| what | cells | identical | time limit reached (left out) |")
    print("|---|---|---|---|")
    problems = []
    for what in parts:
        found, (total, compared, left_out) = differences(
            what, cells["before"][what], cells["after"][what]
        )
        problems += found
        print(f"| {what} | {total} | {compared - len(found)} of {compared} | {left_out} |")
    for problem in problems:
        print("DIFFERS", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
