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

- server: `crossword serve --dict scowl55.txt`, then issue 39 item 1's
  request (every fill of an open 2x7 grid, timeout 20): the answer's
  solutions, bytes and time, and the peak RSS of the server and of the
  worker that searched; then item 4's dropped request (a search of 30 s,
  the client gone after 3 s): the CPU-seconds of search after it left,
  per engine.

    .venv/bin/python tests/harden_figures.py check [--grids N]
    .venv/bin/python tests/harden_figures.py overshoot [--timeout SECONDS] [--engines E,E]
    .venv/bin/python tests/harden_figures.py server
    .venv/bin/python tests/harden_figures.py memory [--grids 65:0.1:1,b69:0.1:1]
        [--engines prolog,python] [--timeout SECONDS]

- memory: issue 39 item 5's exact puzzles solved with wdeg, without the
  proofs: SIZE:BLOCKS:SEED is tests/puzzlegen.exact_grid (a random filled
  grid, a share BLOCKS of its cells blocked, and its words), bSIZE:SHARE:SEED
  tests/puzzlegen.block_grid (blocks of 4 x 5 random letters, a SHARE of
  them with two fills; b129 is the issue's 129 x 129, 4,914 sites); sites,
  status, nodes, backtracks, the CPU and wall seconds of the run, the
  process's peak RSS over its own peak before the search, and for Prolog
  its global and trail stacks as allocated and the bytes its garbage
  collections freed.

- proofs: issue 38's four slow `--maximize min` proofs (van Beek's g05.01,
  g05.02, g05.06 and puzzle09 with scowl55's scored list, as
  tests/quality_figures.py proofs runs them), each in a fresh process as
  a command would: the CPU of reading the grid and the list, then of the
  whole ascent, and of each of its steps (the strategy, the words asked
  for, the verdict, nodes, CPU, and of it the Prolog engine's own as
  statistics(cputime) tells), so that the time between the searches (the
  floors' lists, the bridge) shows; with --profile, SWI-Prolog's profile/1
  of the whole ascent (its top predicates by their own time).

    .venv/bin/python tests/harden_figures.py proofs [--grids g05.01,puzzle09]
        [--engine prolog|python] [--profile N]

- start: what starting the Prolog engine costs a command, each round in a
  fresh process (medians of the rounds' CPU): importing pyswip (which
  loads libswipl and initialises SWI-Prolog), consulting crossword.pl (with
  kernel.pl, layout.pl and the libraries they load), loading wdeg.pl (with
  arcs.pl) and valued.pl, as a --maximize proof does, and the bridge's
  check of GMP's limbs.

    .venv/bin/python tests/harden_figures.py start [--rounds 9]

Each grid or cell runs in a process of its own, after a warm-up run in it
(loading SWI-Prolog and sending the dictionary are not the search's); not
the proofs, which count what a command pays.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import SHARED

SCOWL = SHARED / "bench" / "dicts" / "scowl55.txt"
SCORED = SHARED / "bench" / "dicts" / "scored" / "scowl55-wordfreq.txt"
HARD = SHARED / "bench" / "grids" / "vanbeek" / "g21.10.txt"
PROOFS = "g05.01,g05.02,g05.06,puzzle09"  # issue 38's slow --maximize min proofs

CHECK_ONE = """
import json, sys, time
import pybridge
from pybridge import proofs
from pybridge.solver import run
puzzle = pybridge.load(sys.argv[1], dictionary=sys.argv[2])
run(puzzle, timeout=5)  # warm-up: Prolog loaded, the dictionary sent, the tables built
started = time.perf_counter()
outcome = run(puzzle)  # the proof's own time: solve's search
verdict = time.perf_counter() - started
assert outcome.status == "unsolvable", outcome.status
shrunk = proofs.shrink(outcome.puzzle, outcome.proof, seconds=proofs.shrink_seconds(verdict, None))
check_seconds = time.perf_counter() - started  # check: the verdict, then the core in its budget
started = time.perf_counter()
full = proofs.shrink(outcome.puzzle, outcome.proof, seconds=600)
print(json.dumps({
    "sites": len(outcome.proof.core), "proof_seconds": verdict,
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


MEMORY_ONE = """
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from puzzlegen import block_grid, exact_grid
import pybridge
from pybridge.model import Puzzle
engine, timeout = sys.argv[2], float(sys.argv[6])
size, blocks, seed = sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
pybridge.run(Puzzle(("AB", "AB"), ("..", "##", ".."), "grid"), engine=engine, prove=False)
if size.startswith("b"):
    puzzle = block_grid(int(size[1:]), blocks, seed)
else:
    puzzle = exact_grid(int(size), blocks, seed)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started, wall = time.process_time(), time.perf_counter()
out = pybridge.run(puzzle, engine=engine, strategy="wdeg", prove=False, timeout=timeout)
cpu, wall = time.process_time() - started, time.perf_counter() - wall
stacks = {}
if engine == "prolog":
    from pyswip import Prolog
    for key in ("global", "trail", "garbage_collection"):
        stacks[key] = list(Prolog.query(f"statistics({key}, X)"))[0]["X"]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"sites": len(puzzle.words), "status": out.status, "nodes": out.stats.nodes,
                  "backtracks": out.stats.backtracks, "cpu": cpu, "wall": wall,
                  "before": before, "peak": peak, **stacks}))
"""


def memory_figures(args: argparse.Namespace) -> None:
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}")
    print(
        "grid             engine  sites  status    nodes  backtracks   CPU s  wall s  peak MB"
        "  +search MB  stacks MB (global/trail)  GC freed MB"
    )
    for grid in args.grids.split(","):
        size, blocks, seed = grid.split(":")
        for engine in args.engines.split(","):
            command = [sys.executable, "-c", MEMORY_ONE, str(Path(__file__).parent), engine]
            ran = subprocess.run(
                [*command, size, blocks, seed, str(args.timeout)],
                capture_output=True,
                text=True,
                check=True,
            )
            got = json.loads(ran.stdout)
            mb = 1024
            stacks = gc = "-"
            if "global" in got:
                stacks = f"{got['global'] / mb**2:.0f}/{got['trail'] / mb**2:.0f}"
                gc = f"{got['garbage_collection'][1] / mb**2:.0f}"
            grew = (got["peak"] - got["before"]) / mb
            print(
                f"{grid:16} {engine:7} {got['sites']:5} {got['status']:8} {got['nodes']:7}"
                f" {got['backtracks']:11} {got['cpu']:7.1f} {got['wall']:7.1f}"
                f" {got['peak'] / mb:8.0f} {grew:11.0f}"
                f"  {stacks:>24}  {gc:>11}"
            )


PROOF_ONE = """
import json, sys, time
started = time.process_time()
from pybridge import solver
from pybridge.gridfiles import load_lexicon_puzzle
from pybridge.options import SearchOptions
grid, scored, engine, profile = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
puzzle = load_lexicon_puzzle(grid, scored)
read = time.process_time() - started
prolog = None
if engine == "prolog":
    from pybridge.bridge import session
    prolog = session.engine()

def prolog_cpu():
    if prolog is None:
        return 0.0
    return list(prolog.query("statistics(cputime, T)"))[0]["T"]

steps = []
searched = solver._run
depth = [0]

def step(puzzle, options, progress, on_better, beat=None):
    depth[0] += 1
    cpu, own = time.process_time(), prolog_cpu()
    try:
        out = searched(puzzle, options, progress, on_better, beat)
    finally:
        depth[0] -= 1
    if depth[0]:  # a step of the ascent, not the ascent itself
        steps.append({"strategy": options.strategy, "words": len(puzzle.words),
                      "status": out.status, "nodes": out.stats.nodes,
                      "cpu": time.process_time() - cpu, "prolog": prolog_cpu() - own})
    return out

solver._run = step
if profile:
    list(prolog.query("use_module(library(statistics)), profiler(_, cputime)"))
cpu = time.process_time()
out = solver.run(puzzle, SearchOptions(engine, maximize="min", timeout=120))
cpu = time.process_time() - cpu
if profile:
    list(prolog.query("profiler(_, false)"))
print(json.dumps({"read": read, "status": out.status, "nodes": out.stats.nodes,
                  "min": str(out.score.min), "bound": str(out.score.bound), "cpu": cpu,
                  "steps": steps}))
if profile:
    sys.stdout.flush()
    list(prolog.query(f"show_profile([top({profile}), cumulative(false)])"))
"""


def proof_figures(args: argparse.Namespace) -> None:
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}, {args.engine}")
    for name in args.grids.split(","):
        grid = SHARED / "bench" / "grids" / "vanbeek" / f"{name}.txt"
        command = [sys.executable, "-c", PROOF_ONE, str(grid), str(SCORED), args.engine]
        # as a user's command runs: the search in its compiled form (conftest, imported
        # for SHARED, asks the tests for the interpreted one)
        env = {k: v for k, v in os.environ.items() if k != "CROSSWORD_INTERPRETED"}
        ran = subprocess.run(
            [*command, str(args.profile)], capture_output=True, text=True, check=True, env=env
        )
        first, _, profile = ran.stdout.partition("\n")
        got = json.loads(first)
        between = got["cpu"] - sum(step["cpu"] for step in got["steps"])
        print(
            f"{name}: {got['status']} {got['nodes']} nodes, min {got['min']}, bound"
            f" {got['bound']}; CPU: imports, grid and list read {got['read']:.3f} s, ascent"
            f" {got['cpu']:.3f} s ({between:.3f} s between its steps)"
        )
        for step in got["steps"]:
            print(
                f"  {step['strategy']:6} {step['words']:6} words  {step['status']:10}"
                f" {step['nodes']:6} nodes  {step['cpu']:.3f} s CPU (Prolog {step['prolog']:.3f} s)"
            )
        if profile.strip():
            print(profile.rstrip())


START_ONE = """
import json, time
from pybridge.bridge import ffi, session
marks = [time.process_time()]
with session._told(session._remembered_location()):
    import pyswip
marks.append(time.process_time())
session.engine()
marks.append(time.process_time())
for name in ("wdeg", "valued"):
    session.load_module(name)
    marks.append(time.process_time())
ffi.whole_integers()
marks.append(time.process_time())
print(json.dumps([b - a for a, b in zip(marks, marks[1:])]))
"""
START_PARTS = ("pyswip + SWI-Prolog's start", "crossword.pl", "wdeg.pl + arcs.pl", "valued.pl",
               "GMP check")  # fmt: skip


def start_figures(args: argparse.Namespace) -> None:
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}, {args.rounds} rounds"
    )
    env = {k: v for k, v in os.environ.items() if k != "CROSSWORD_INTERPRETED"}
    rounds = []
    for _ in range(args.rounds):
        ran = subprocess.run(
            [sys.executable, "-c", START_ONE], capture_output=True, text=True, check=True, env=env
        )
        rounds.append(json.loads(ran.stdout))
    for k, part in enumerate(START_PARTS):
        print(f"{part:30} {1000 * statistics.median(r[k] for r in rounds):6.1f} ms")
    print(f"{'in all':30} {1000 * statistics.median(sum(r) for r in rounds):6.1f} ms")


def _status(pid: int, field: str) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field))


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.add(int(entry.name))
    return found


def _cpu(pid: int, waited: bool = False) -> float:
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    first = 13 if waited else 11
    return (int(stat[first]) + int(stat[first + 1])) / os.sysconf("SC_CLK_TCK")


def _post(port: int, body: dict[str, object]) -> tuple[int, bytes]:
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("POST", "/api/solve", json.dumps(body), {"Content-Type": "application/json"})
    answer = connection.getresponse()
    return answer.status, answer.read()


def server_figures(args: argparse.Namespace) -> None:
    import socket

    command = [sys.executable, "-m", "pybridge", "serve", "--port", "0", "--dict", str(SCOWL)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split(" at ", 1)[1].split()[0].rsplit(":", 1)[1][:-1])
        time.sleep(args.warm)
        print(f"# {time.strftime('%Y-%m-%d %H:%M')}, load {os.getloadavg()[0]:.1f}")
        base = _status(server.pid, "VmHWM")
        body = {"puzzle": "...#...\n...#...\n", "dict": ["scowl55.txt"], "all": True}
        started = time.perf_counter()
        status, answer = _post(port, {**body, "timeout": 20})
        seconds = time.perf_counter() - started
        doc = json.loads(answer)
        workers = {pid: _status(pid, "VmHWM") for pid in _children(server.pid)}
        print(
            f"item 1: HTTP {status}, {len(doc['solutions'])} solutions, truncated "
            f"{doc.get('truncated')}, {len(answer):,} bytes, {seconds:.2f} s; server peak RSS "
            f"{_status(server.pid, 'VmHWM') / 1024:.0f} MiB (before: {base / 1024:.0f} MiB); "
            f"workers' peak RSS {', '.join(f'{k / 1024:.0f}' for k in workers.values())} MiB"
        )
        grid = (HARD).read_text(encoding="utf-8")
        for engine in ("prolog", "python"):
            search = {"puzzle": grid, "dict": ["scowl55.txt"], "timeout": 30, "engine": engine,
                      "strategy": "cbj"}  # fmt: skip
            data = json.dumps(search).encode()
            head = (
                f"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                f"application/json\r\nContent-Length: {len(data)}\r\n\r\n"
            ).encode()
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall(head + data)
            time.sleep(3)
            busy = {pid: _cpu(pid) for pid in _children(server.pid)}
            reaped = _cpu(server.pid, waited=True)
            client.close()
            time.sleep(5)
            alive = {pid: _cpu(pid) for pid in _children(server.pid) if pid in busy}
            gone = [pid for pid in busy if pid not in alive]
            after = _cpu(server.pid, waited=True) - reaped - sum(busy[pid] for pid in gone)
            after += sum(alive[pid] - busy[pid] for pid in alive)
            print(
                f"item 4, {engine}: client gone after 3 s of a 30 s search: {after:.2f} "
                f"CPU-seconds after it left; its worker {'stopped' if gone else 'still there'}"
            )
    finally:
        server.terminate()
        server.communicate(timeout=30)


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
    server = figures.add_parser("server")
    server.add_argument("--warm", type=float, default=10.0, help="seconds for the workers to load")
    server.set_defaults(run=server_figures)
    memory = figures.add_parser("memory")
    memory.add_argument("--grids", default="65:0.1:1,b69:0.1:1,129:0.1:3,b129:0.1:1")
    memory.add_argument("--engines", default="prolog,python")
    memory.add_argument("--timeout", type=float, default=120.0)
    memory.set_defaults(run=memory_figures)
    proofs = figures.add_parser("proofs")
    proofs.add_argument("--grids", default=PROOFS)
    proofs.add_argument("--engine", default="prolog", choices=("prolog", "python"))
    proofs.add_argument("--profile", type=int, default=0, help="show the top N predicates")
    proofs.set_defaults(run=proof_figures)
    start = figures.add_parser("start")
    start.add_argument("--rounds", type=int, default=9)
    start.set_defaults(run=start_figures)
    args = parser.parse_args()
    if not SHARED.is_dir():
        sys.exit(f"harden_figures: the reference data {SHARED} is absent")
    args.run(args)


if __name__ == "__main__":
    main()
