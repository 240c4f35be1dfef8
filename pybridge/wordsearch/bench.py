"""The word search benchmark: median time to make puzzles of three sizes
with each engine, every puzzle checked by the finder; optionally the same
word lists made by word-search-generator (PyPI), run by another Python in
which it is installed, whose puzzles are checked for a second, accidental
occurrence of a listed word, each named on stderr
(docs/benchmarks.md#word-search).

    python -m pybridge.wordsearch.bench [--dict FILE] [--runs N]
        [--engines prolog,python] [--peer PYTHON]

The word lists are drawn from the dictionary with the run's number as the
seed: words of 4 to 8 letters, no palindrome, none inside another (either
way round), since word-search-generator refuses those.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pybridge.wordsearch import finder, maker
from pybridge.wordsearch.model import LEVELS, Shape, WordPlacement
from pybridge.wordsearch.reading import entry

CASES = ((15, 20), (20, 40), (50, 300))  # (side, words)
DEFAULT_DICT = Path(__file__).resolve().parents[2].parent / "shared/bench/dicts/scowl55.txt"
SHORTEST, LONGEST = 4, 8

# Runs in the peer's Python: reads {"side", "words", "seed"} lines, prints
# what word-search-generator made of each (its public API only).
PEER_SCRIPT = """
import json, random, sys, time
from word_search_generator import WordSearch
for line in sys.stdin:
    case = json.loads(line)
    random.seed(case["seed"])
    started, cpu = time.perf_counter(), time.process_time()
    puzzle = WordSearch(" ".join(case["words"]), level=3, size=case["side"])
    grid = ["".join(row) for row in puzzle.puzzle]
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    placed = [[w.text, w.start_row, w.start_column, w.direction.name] for w in puzzle.placed_words]
    print(json.dumps({"seconds": seconds, "cpu": cpu, "grid": grid, "placed": placed}), flush=True)
"""


def pool(path: Path) -> list[str]:
    words = {entry(line) for line in path.read_text(encoding="utf-8").splitlines()}
    return sorted(w for w in words if w.isalpha() and SHORTEST <= len(w) <= LONGEST)


def word_list(words: Sequence[str], count: int, seed: int) -> list[str]:
    """`count` words drawn with `seed`: no palindrome, none inside another."""
    rng = random.Random(seed)
    chosen: list[str] = []
    while len(chosen) < count:
        word = rng.choice(words)
        if word == word[::-1] or any(
            word in other or other in word or word[::-1] in other or other[::-1] in word
            for other in chosen
        ):
            continue
        chosen.append(word)
    return chosen


def accidental(grid: Sequence[str], placements: Sequence[WordPlacement]) -> list[str]:
    """Occurrences of listed words that are neither their placement nor
    inside another placed word, in words."""
    taken = [frozenset(p.cells) for p in placements]
    found = finder.occurrences(grid, [p.word for p in placements])
    extra = []
    for placement, cells in zip(placements, taken, strict=True):
        for other in found[placement.word]:
            seen = frozenset(other.cells)
            if seen != cells and not any(seen <= t for t in taken):
                extra.append(f"{placement.word} placed at {_at(placement)}, also at {_at(other)}")
    return extra


def _at(p: WordPlacement) -> str:
    return f"row {p.row + 1}, column {p.col + 1}, going {p.direction}"


def ours(engine: str, side: int, words: list[str], seed: int) -> tuple[float, float, int]:
    """Seconds on the clock and of CPU (this process: Prolog runs in it too)
    to make the puzzle, and its nodes."""
    request = maker.request_of(words, Shape.rectangle(side, side), seed=seed)
    started, cpu = time.perf_counter(), time.process_time()
    made = maker.make(request, engine)  # it checks the puzzle with the finder itself
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    if made.status != "solved":
        raise SystemExit(f"{engine} made no {side}x{side} puzzle with seed {seed}: {made.reason}")
    return seconds, cpu, made.stats.nodes


def peer(python: str, runs: list[tuple[int, list[str], int]]) -> list[dict[str, Any]]:
    """What word-search-generator made of each run (side, words, seed)."""
    lines = "".join(json.dumps({"side": s, "words": w, "seed": k}) + "\n" for s, w, k in runs)
    done = subprocess.run(
        [python, "-c", PEER_SCRIPT],
        input=lines,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # it iterates over sets of words
    )
    if done.returncode != 0:
        raise SystemExit(f"the peer failed:\n{done.stderr}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pybridge.wordsearch.bench")
    parser.add_argument("--dict", type=Path, default=DEFAULT_DICT)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--engines", default="prolog,python")
    parser.add_argument("--peer", metavar="PYTHON", help="a Python with word-search-generator")
    args = parser.parse_args(argv)
    words = pool(args.dict)
    engines = args.engines.split(",")
    if "prolog" in engines:  # load the engine before the clock runs
        maker.make(maker.request_of(["AB"], Shape.rectangle(1, 2), seed=0), "prolog")
    print(
        f"{args.runs} runs a case, all 8 directions ({','.join(LEVELS['hard'])}), overlap allowed"
    )
    print("| grid | words | maker | median s | median CPU s | median nodes | second occurrences |")
    print("|---|---|---|---|---|---|---|")
    for side, count in CASES:
        lists = [word_list(words, count, seed) for seed in range(args.runs)]
        for engine in engines:
            timed = [ours(engine, side, lists[k], k) for k in range(args.runs)]
            clock = statistics.median(t for t, _, _ in timed)
            cpu = statistics.median(c for _, c, _ in timed)
            nodes = statistics.median(n for _, _, n in timed)
            print(
                f"| {side}x{side} | {count} | {engine} | {clock:.3f} | {cpu:.3f} | {nodes:g} "
                f"| 0 of {args.runs} (checked) |"
            )
        if args.peer:
            answers = peer(args.peer, [(side, lists[k], k) for k in range(args.runs)])
            _peer_row(side, count, answers)
    return 0


def _peer_row(side: int, count: int, answers: list[dict[str, Any]]) -> None:
    clock = statistics.median(float(a["seconds"]) for a in answers)
    cpu = statistics.median(float(a["cpu"]) for a in answers)
    placed_counts, spoiled = [], 0
    for run, answer in enumerate(answers):
        grid = [str(row) for row in answer["grid"]]
        placements = [WordPlacement.at(str(w).upper(), r, c, d) for w, r, c, d in answer["placed"]]
        placed_counts.append(len(placements))
        extra = accidental(grid, placements)
        for line in extra:
            print(f"word-search-generator, {side}x{side}, run {run}: {line}", file=sys.stderr)
        spoiled += bool(extra)
    print(
        f"| {side}x{side} | {count} (placed: median {statistics.median(placed_counts):g}) "
        f"| word-search-generator | {clock:.3f} | {cpu:.3f} | - "
        f"| {spoiled} of {len(answers)} |"
    )


if __name__ == "__main__":
    sys.exit(main())
