"""Figures of quality fill (issue 35): `--maximize min` (the ascent) against
single `--min-score` runs given the same time, on make's 15x15 patterns,
from the shipped list; and how the shipped list compares with the
independent scored list of ../shared.

    .venv/bin/python tests/quality_figures.py compare [--seconds 20] [--patterns 10] \
        [--size 15x15] [--engine prolog] [--floors 30,35,...] [--only 1,3] [--clock cpu] \
        [--no-ascent] [--nodes N]
    .venv/bin/python tests/quality_figures.py profile [--seconds 20] [--patterns 10] \
        [--levels 35-60] [--seeds=-,2,4] [--only 1,3] [--nodes N]
    .venv/bin/python tests/quality_figures.py independent
    .venv/bin/python tests/quality_figures.py proofs [--engine python] [--objective min]

compare: per pattern (make's first pattern of seeds 1..N), the ascent's min
and its better fills, and each floor's single wdeg run (status, seconds);
the verdict says whether the ascent reached the best floor a single run
filled (`--floors ""`: the ascent alone). profile: every score level of
the list from the acceptable line up (or --levels), one wdeg run per seed
of --seeds ("-": none) each (status, CPU seconds, nodes, the fill's min),
until two levels in a row are not filled by any seed: the time a floor
takes, which is what an ascent's schedule has to guess. independent: of the entries the shipped
list scores acceptable (25+) that the independent list holds, how many it
scores below its own 25. proofs: --maximize (the ascent) on van Beek's
g05.01-09 and puzzle09 with ../shared's scored list, to the proof: the
nodes, the value and the bound of each (what issue 38's proofs cost).

Run it with `nice` on a shared machine. The time limits are wall-clock,
so the load changes how far each run gets (say the load with the
figures), unless `--clock cpu` (with `--engine python`): then every time
limit counts this process's CPU seconds. `--nodes N` gives every run a
node limit too (compare: the ascent N nodes in all, each single floor N):
with a time limit too long to reach, the figures are then the same at any
load and in both engines.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from decimal import Decimal
from pathlib import Path

from pybridge.construct import make_blocks
from pybridge.lexicon import load_dictionary
from pybridge.model import Puzzle
from pybridge.options import PatternOptions, SearchOptions
from pybridge.patterns import pattern_for
from pybridge.solver import Outcome, at_least, run
from pybridge.wordlist import ACCEPTABLE, LIST_PATH

ROOT = Path(__file__).resolve().parents[1]
INDEPENDENT = ROOT.parent / "shared" / "bench" / "dicts" / "scored" / "scowl55-wordfreq.txt"
VANBEEK = ROOT.parent / "shared" / "bench" / "grids" / "vanbeek"
PROOF_GRIDS = (*(f"g05.0{n}" for n in range(1, 10)), "puzzle09")


def patterns(size: str, count: int) -> list[tuple[int, Puzzle]]:
    """make's first pattern of seeds 1..count, as puzzles of the shipped list."""
    rows, cols = (int(n) for n in size.split("x"))
    words = load_dictionary([LIST_PATH])
    made = []
    for seed in range(1, count + 1):
        shape = PatternOptions(rows, cols, blocks=make_blocks(rows, cols), seed=seed)
        made.append((seed, pattern_for(shape).puzzle(words.words, words.scores)))
    return made


def fill_min(outcome: Outcome) -> Decimal | None:
    return None if outcome.score is None else outcome.score.min


def single(
    puzzle: Puzzle,
    floor: Decimal,
    engine: str,
    seconds: float,
    seed: int | None = None,
    nodes: int | None = None,
) -> tuple[Outcome, float]:
    """One wdeg run on the words scoring at least `floor` (at most `nodes`
    nodes): its outcome and CPU seconds (this process's: the Prolog engine
    runs in it too)."""
    started = time.process_time()
    options = SearchOptions(engine, "wdeg", seed, timeout=seconds, node_limit=nodes)
    outcome = run(at_least(puzzle, floor), options)
    return outcome, time.process_time() - started


def compare(args: argparse.Namespace) -> int:
    floors = [Decimal(f) for f in args.floors.split(",")] if args.floors else []
    behind = 0
    only = None if args.only is None else {int(n) for n in args.only.split(",")}
    for seed, puzzle in patterns(args.size, args.patterns):
        if only is not None and seed not in only:
            continue
        reached, better = None, "no ascent"
        if not args.no_ascent:
            started = time.process_time()
            options = SearchOptions(
                args.engine, maximize="min", timeout=args.seconds, node_limit=args.nodes
            )
            ascent = run(puzzle, options)
            cpu = time.process_time() - started
            reached = fill_min(ascent)
            better = ", ".join(f"{b.value}@{b.seconds:.1f}s" for b in ascent.improvements)
            better += f"; {ascent.stats.nodes} nodes, {cpu:.1f} s CPU"
        singles = []
        for floor in floors:
            outcome, seconds = single(puzzle, floor, args.engine, args.seconds, nodes=args.nodes)
            singles.append((floor, outcome.status, seconds))
        filled = [floor for floor, status, _ in singles if status == "solved"]
        best = max(filled, default=None)
        worse = best is not None and (reached is None or reached < best)
        behind += worse
        shown = " ".join(f"{f}:{status[:4]}/{s:.1f}s" for f, status, s in singles)
        verdict = "BEHIND" if worse else "ok"
        print(f"pattern {seed}: ascent {reached} ({better}) | best single {best}", end=" | ")
        print(f"{shown} | {verdict}", flush=True)
    print(f"ascent behind the best single floor on {behind} of {args.patterns} patterns")
    return 0


def profile(args: argparse.Namespace) -> int:
    """Each level from --levels (default: from the acceptable line up, until
    two in a row are not filled), one wdeg run per seed of --seeds: status,
    CPU seconds, nodes and the fill's min."""
    only = None if args.only is None else {int(n) for n in args.only.split(",")}
    seeds = [None if s == "-" else int(s) for s in args.seeds.split(",")]
    for seed, puzzle in patterns(args.size, args.patterns):
        if only is not None and seed not in only:
            continue
        assert puzzle.scores is not None
        levels = [level for level in puzzle.scores.levels if level >= ACCEPTABLE]
        if args.levels is not None:
            low, _, high = args.levels.partition("-")
            levels = [level for level in levels if Decimal(low) <= level <= Decimal(high)]
        missed = 0
        found = []
        for level in levels:
            filled = False
            for run_seed in seeds:
                outcome, cpu = single(
                    puzzle, level, args.engine, args.seconds, run_seed, args.nodes
                )
                found.append(
                    f"{level}:{'-' if run_seed is None else run_seed}:{outcome.status[:4]}"
                    f"/{cpu:.2f}s/{outcome.stats.nodes}n/min{fill_min(outcome)}"
                )
                filled = filled or outcome.status == "solved"
            missed = 0 if filled else missed + 1
            if missed == 2:
                break
        print(f"pattern {seed}: " + " ".join(found), flush=True)
    return 0


def independent(_: argparse.Namespace) -> int:
    if not INDEPENDENT.exists():
        print(f"no independent list at {INDEPENDENT}", file=sys.stderr)
        return 1
    theirs = {}
    for line in INDEPENDENT.read_text(encoding="utf-8").splitlines():
        word, _, score = line.partition(";")
        theirs[word.upper()] = int(score)
    ours = {}
    for line in LIST_PATH.read_text(encoding="utf-8").splitlines():
        word, _, score = line.partition(";")
        ours[word] = int(score)
    acceptable = [word for word, score in ours.items() if score >= ACCEPTABLE]
    held = [word for word in acceptable if word in theirs]
    low = sorted((theirs[word], word) for word in held if theirs[word] < ACCEPTABLE)
    share = 100 * len(low) / len(held)
    print(
        f"shipped list: {len(acceptable)} acceptable entries; the independent list holds "
        f"{len(held)} of them and scores {len(low)} ({share:.1f}%) below {ACCEPTABLE}"
    )
    zero = sum(score == 0 for score, _ in low)
    print(
        f"{zero} of them it scores 0 (compounds, which wordfreq counts as two tokens); "
        "the others, lowest first: "
        + " ".join(f"{word} {score}" for score, word in low[zero : zero + 40])
    )
    reverse = sorted(
        (-theirs[word], word)
        for word, score in ours.items()
        if score < ACCEPTABLE and theirs.get(word, 0) >= 50
    )
    print(
        f"the other way: {len(reverse)} entries it scores 50+ are below our line: "
        + " ".join(word for _, word in reverse[:30])
    )
    return 0


def proofs(args: argparse.Namespace) -> int:
    from pybridge.gridfiles import load_lexicon_puzzle

    total = 0
    for name in PROOF_GRIDS:
        puzzle = load_lexicon_puzzle(VANBEEK / f"{name}.txt", INDEPENDENT)
        started = time.process_time()
        outcome = run(puzzle, SearchOptions(args.engine, maximize=args.objective, timeout=120))
        cpu = time.process_time() - started
        score = outcome.score
        value = None if score is None else score.objective(args.objective)
        bound = None if score is None else score.bound
        total += outcome.stats.nodes
        print(
            f"{name}: {outcome.status} {outcome.stats.nodes} nodes, {args.objective} {value}, "
            f"bound {bound}, {cpu:.2f} s CPU",
            flush=True,
        )
    print(f"total {total} nodes")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("compare", "profile", "independent", "proofs"))
    parser.add_argument("--seconds", type=float, default=20.0, help="each run's time limit")
    parser.add_argument(
        "--nodes",
        type=int,
        help="each run's node limit too (compare: the ascent's, all its steps together)",
    )
    parser.add_argument("--patterns", type=int, default=10)
    parser.add_argument("--size", default="15x15")
    parser.add_argument("--engine", default="prolog")
    parser.add_argument("--floors", default="30,35,40,45,50,55")
    parser.add_argument("--objective", default="min", choices=("min", "sum"))
    parser.add_argument("--only", help="compare, profile: these patterns only (e.g. 1,3)")
    parser.add_argument("--no-ascent", action="store_true", help="compare: the floors alone")
    parser.add_argument("--levels", help="profile: these levels only (e.g. 35-55)")
    parser.add_argument("--seeds", default="-", help="profile: wdeg's seeds (- for none)")
    parser.add_argument(
        "--clock",
        default="wall",
        choices=("wall", "cpu"),
        help="cpu: every time limit counts this process's CPU seconds (Python engine only)",
    )
    args = parser.parse_args()
    if args.clock == "cpu":
        if args.engine != "python":
            parser.error("--clock cpu needs --engine python (Prolog's time limits are wall time)")
        # the Python engine, the ascent and the proofs read the clock as time.perf_counter()
        time.perf_counter = time.process_time
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", flush=True)
    what = {"compare": compare, "profile": profile, "independent": independent, "proofs": proofs}
    done = what[args.what](args)
    print(f"load average at the end: {os.getloadavg()[0]:.1f}", flush=True)
    return done


if __name__ == "__main__":
    sys.exit(main())
