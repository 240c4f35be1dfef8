"""One long-lived Prolog session: 200 puzzles solved one after another.

pyswip keeps one SWI-Prolog engine per process, so anything a run leaves
behind (facts of the last puzzle, stored solutions, an open query, a time
limit still armed) would change the answers of the runs after it. Here good
puzzles, bad input and timed-out searches are mixed in one process, and
after each the session must be clean and every answer must equal what an
independent engine (the Python mirror) and a fresh process give.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from puzzlegen import random_puzzle

from pybridge import bridge
from pybridge.errors import InputError
from pybridge.model import Puzzle
from pybridge.readers import load
from pybridge.solver import STRATEGIES, Outcome, run

REPO = Path(__file__).resolve().parents[1]
TOTAL = 200
LEFTOVERS = (
    "crossword:word(_,_)",
    "crossword:site(_,_)",
    "crossword:given(_,_,_)",
    "crossword:found(_)",
)

# Text that every reader must reject with an InputError, never reaching Prolog.
BAD_INPUT: dict[str, bytes] = {
    "empty.dat": b"",
    "digit-in-word.dat": b"AB1\nCD\n\n..\n",
    "no-framework.dat": b"AB\nCD\n",
    "blank-in-framework.dat": b"AB\n\n..\n\n..\n",
    "tab-in-framework.dat": b"AB\n\n.\t.\n",
    "not-utf8.dat": b"AB\n\xff\xfe\n\n..\n",
    "bad-mark.dat": b"AB\n\n.*\n",
}

# Searches that run for minutes with `given` (measured), cut off at once.
SLOW_WITH_GIVEN = ("p99/p7_09b.dat", "p99/p7_09d.dat")


@dataclass
class Job:
    """One solve in the session: where the puzzle comes from and how to run it."""

    label: str
    spec: dict[str, Any]  # how a fresh process rebuilds the puzzle (see CHILD)
    options: dict[str, Any] = field(default_factory=dict)
    times_out: bool = False
    bad_input: bool = False


def corpus_spec(shared: Path, name: str) -> dict[str, Any]:
    """A spec for a corpus file, "p99/x.dat" or "fillin/N" (puzzleN + wordsN)."""
    kind, stem = name.split("/")
    folder = shared / "corpus" / kind
    if kind == "p99":
        return {"path": str(folder / stem)}
    return {"path": str(folder / f"puzzle{stem}"), "words": str(folder / f"words{stem}")}


def build(spec: dict[str, Any]) -> Puzzle:
    if "seed" in spec:
        return random_puzzle(random.Random(spec["seed"]))[0]
    return load(spec["path"], spec.get("words"))


def make_jobs(shared: Path, bad_dir: Path, rng: random.Random) -> list[Job]:
    good = [f"p99/p7_09{x}.dat" for x in "abcd"] + [
        f"fillin/{n}" for n in ("1", "2", "3", "4", "5", "6", "7", "9", "12", "13", "_t15")
    ]
    files = [corpus_spec(shared, name) for name in good]
    files += [{"path": str(path)} for path in sorted((REPO / "data").glob("*.dat"))]
    for name, data in BAD_INPUT.items():
        (bad_dir / name).write_bytes(data)
    jobs: list[Job] = []
    while len(jobs) < TOTAL:
        roll = rng.random()
        if roll < 0.08:
            name = rng.choice(sorted(BAD_INPUT))
            jobs.append(Job(f"bad {name}", {"path": str(bad_dir / name)}, bad_input=True))
        elif roll < 0.16:
            name = rng.choice(SLOW_WITH_GIVEN)
            options = {"strategy": "given", "limit": None, "timeout": 0.05}
            jobs.append(Job(f"timeout {name}", corpus_spec(shared, name), options, True))
        elif roll < 0.45:
            spec = rng.choice(files)
            jobs.append(Job(spec["path"], spec, random_options(rng, ("mrv",))))
        else:
            seed = rng.randrange(2**32)
            jobs.append(Job(f"random seed {seed}", {"seed": seed}, random_options(rng)))
    return jobs


def random_options(rng: random.Random, strategies: tuple[str, ...] = STRATEGIES) -> dict[str, Any]:
    how = rng.choice(({"limit": 1}, {"limit": 3}, {"limit": None}, {"count": True}))
    return {"strategy": rng.choice(strategies), **how}


def key(outcome: Outcome) -> list[Any]:
    """Everything but the timing, as JSON would carry it."""
    return [
        outcome.status,
        [list(solution.grid) for solution in outcome.solutions],
        outcome.count,
        outcome.reason,
        outcome.stats.nodes,
        outcome.stats.backtracks,
    ]


def assert_session_clean(prolog: Any, after: str) -> None:
    for goal in LEFTOVERS:
        assert list(prolog.query(goal, maxresult=1)) == [], f"{goal} holds after {after}"
    assert list(prolog.query("X = 1", maxresult=1)) == [{"X": 1}], f"no fresh query after {after}"


def solve_job(job: Job) -> Outcome | None:
    """The Prolog engine's outcome, or None for bad input (checked to fail)."""
    if job.bad_input:
        with pytest.raises(InputError):
            build(job.spec)
        return None
    return run(build(job.spec), engine="prolog", **job.options)


# A fresh process: rebuilds each puzzle and prints the Prolog engine's keys.
CHILD = textwrap.dedent(
    """
    import json, sys
    sys.path[:0] = [{tests!r}, {repo!r}]
    from test_session import build, key
    from pybridge.solver import run
    jobs = json.load(sys.stdin)
    print(json.dumps([key(run(build(s), engine="prolog", **o)) for s, o in jobs]))
    """
)


def fresh_process_keys(jobs: list[Job]) -> list[Any]:
    code = CHILD.format(tests=str(REPO / "tests"), repo=str(REPO))
    child = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps([[job.spec, job.options] for job in jobs]),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
        check=False,
    )
    assert child.returncode == 0, child.stderr
    keys: list[Any] = json.loads(child.stdout)
    return keys


def test_two_hundred_puzzles_in_one_session(shared_dir: Path, tmp_path: Path) -> None:
    if not bridge.available():
        pytest.skip("SWI-Prolog cannot be loaded through pyswip")
    prolog = bridge.session.engine()
    jobs = make_jobs(shared_dir, tmp_path, random.Random(20240611))
    kinds: dict[str, int] = {"bad": 0, "timeout": 0, "solved": 0, "unsolvable": 0}
    recorded: list[tuple[Job, list[Any]]] = []
    for n, job in enumerate(jobs):
        where = f"job {n} ({job.label}, {job.options})"
        outcome = solve_job(job)
        assert_session_clean(prolog, where)
        if outcome is None:
            kinds["bad"] += 1
            continue
        kinds[outcome.status] += 1
        if job.times_out:
            assert outcome.status == "timeout", where
            continue
        python = run(build(job.spec), engine="python", **job.options)
        assert key(outcome) == key(python), where
        recorded.append((job, key(outcome)))
    assert all(kinds.values()), f"the mix lacks a kind of job: {kinds}"
    # A handful again in a fresh process: the same answers as late in the session.
    handful = recorded[-6:]
    assert fresh_process_keys([job for job, _ in handful]) == [k for _, k in handful]


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_timeout_leaves_the_next_run_unchanged(shared_dir: Path, strategy: str) -> None:
    """The same puzzle before and after a cut-off search gives the same answer."""
    small = build(corpus_spec(shared_dir, "fillin/3"))
    slow = build(corpus_spec(shared_dir, "p99/p7_09b.dat"))
    before = key(run(small, engine="prolog", strategy=strategy, limit=None))
    cut = run(slow, engine="prolog", strategy="given", timeout=0.05)
    assert cut.status == "timeout"
    assert key(run(small, engine="prolog", strategy=strategy, limit=None)) == before
