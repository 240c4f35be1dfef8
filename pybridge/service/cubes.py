"""Cube and conquer, the job: split a puzzle's search (pybridge.cubes),
solve its cubes, one a task, on a runner (in this process, or on a Dask
cluster: pybridge.service.cluster), record each verdict in a journal as it
comes (pybridge.service.journal), and combine them: a fill in any cube
answers; every cube refuted is a proof that there is none
(docs/search.md#cubes, docs/cli.md#cubes).

solve_cube is what a worker runs: one cube, through the service layer's
solve job, with the cube's own time limit.

With two workers or more, the unsplit search itself (the task numbered
WHOLE, with no placements) races its cubes on one of them: wdeg restarts,
and its runs start from other sites as their weights grow, so the search
does not go through the cubes in their order, and the cube that holds the
fill it finds may take a search of its own far longer than the whole's
(g21.10: the whole fills in 21,004 nodes, in its 15th run from 30-Across;
its fill's cube, 35-Down=MONSTROSITIES, alone had not filled at 106,577).
The race answers as soon as the unsplit search would, on one worker; the
cubes alone settle what it does not (docs/search.md#cubes)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pybridge import verify
from pybridge.cubes import Cube, Placement, Split, cube_puzzle, split, split_into
from pybridge.errors import EngineError, UsageError
from pybridge.layout import Site, layout_of
from pybridge.model import Puzzle
from pybridge.options import CubeOptions, SearchOptions
from pybridge.proofs import Proof
from pybridge.solver import Outcome, Stats, Status, make_solution
from pybridge.wording import plural

STRATEGY = "wdeg"
WHOLE = -1  # the task of the unsplit search, which races the cubes


@dataclass(frozen=True)
class CubeTask:
    """One cube to solve: its number and placements, and how (the engine,
    seed, the cube's time limit, and whether to count its fills)."""

    number: int
    placements: tuple[Placement, ...]
    engine: str | None
    seed: int | None
    timeout: float | None
    count: bool = False


@dataclass(frozen=True)
class CubeVerdict:
    """What a cube's search came to: status ("solved", "unsolvable",
    "timeout"), its nodes, backtracks, wall and CPU seconds, the engine,
    the proof's layer when refuted, the first fill (the word of every site
    of the whole grid, in site order), the count (counting), the time
    limit it had and where it ran."""

    number: int
    status: str
    nodes: int
    backtracks: int
    seconds: float
    cpu: float
    engine: str
    layer: str | None = None
    fill: tuple[str, ...] | None = None
    count: int | None = None
    timeout: float | None = None
    worker: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "cube": self.number,
            "status": self.status,
            "nodes": self.nodes,
            "backtracks": self.backtracks,
            "seconds": round(self.seconds, 4),
            "cpu": round(self.cpu, 4),
            "engine": self.engine,
            "layer": self.layer,
            "fill": None if self.fill is None else list(self.fill),
            "count": self.count,
            "timeout": self.timeout,
            "worker": self.worker,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> CubeVerdict:
        fill = data.get("fill")
        return cls(
            int(str(data["cube"])),
            str(data["status"]),
            int(str(data["nodes"])),
            int(str(data["backtracks"])),
            float(str(data["seconds"])),
            float(str(data["cpu"])),
            str(data["engine"]),
            None if data.get("layer") is None else str(data["layer"]),
            None if not isinstance(fill, list) else tuple(str(w) for w in fill),
            None if data.get("count") is None else int(str(data["count"])),
            None if data.get("timeout") is None else float(str(data["timeout"])),
            str(data.get("worker") or ""),
        )


def solve_cube(puzzle: Puzzle, task: CubeTask, worker: str = "") -> CubeVerdict:
    """Solve one cube: `puzzle` with the cube's words as givens, searched by
    the service layer's solve job within the cube's time limit."""
    from pybridge.service.jobs import solve_puzzle  # the job, as any request's

    layout = layout_of(puzzle)
    given = cube_puzzle(puzzle, layout, task.placements)
    search = SearchOptions(
        engine=task.engine,
        strategy=STRATEGY,
        seed=task.seed,
        limit=None if task.count else 1,
        count=task.count,
    )
    cpu, started = time.thread_time(), time.perf_counter()
    outcome = solve_puzzle(given, search, task.timeout)
    cpu, seconds = time.thread_time() - cpu, time.perf_counter() - started
    fill = None
    if outcome.solutions:
        fill = tuple(p.word for p in outcome.solutions[0].placements)
    return CubeVerdict(
        task.number,
        outcome.status,
        outcome.stats.nodes,
        outcome.stats.backtracks,
        seconds,
        cpu,
        outcome.stats.engine,
        None if outcome.proof is None else outcome.proof.layer,
        fill,
        outcome.count,
        task.timeout,
        worker,
    )


# ---------------------------------------------------------------- runners


class Runner(Protocol):
    """Where the cubes are solved: `solve` yields each task's verdict as it
    comes (any order), taking no more of `tasks` once `stop()` returns
    True; `running` maps each cube under way to when it started; `slots`:
    how many tasks it runs at once."""

    running: dict[int, float]
    slots: int

    def solve(
        self, puzzle: Puzzle, tasks: Sequence[CubeTask], stop: Callable[[], bool]
    ) -> Iterator[CubeVerdict]: ...


class HereRunner:
    """Each cube in turn, in this process (tests, and a split without a cluster)."""

    def __init__(self) -> None:
        self.running: dict[int, float] = {}
        self.slots = 1

    def solve(
        self, puzzle: Puzzle, tasks: Sequence[CubeTask], stop: Callable[[], bool]
    ) -> Iterator[CubeVerdict]:
        for task in tasks:
            if stop():
                return
            self.running = {task.number: time.perf_counter()}
            verdict = solve_cube(puzzle, task, "here")
            self.running = {}
            yield verdict


# ---------------------------------------------------------------- the whole


@dataclass
class Tally:
    """The cubes so far: refuted (at the split and by their searches),
    filled, timed out, not run, their CPU seconds and nodes."""

    cubes: int
    refuted_at_split: int
    refuted: int = 0
    filled: int = 0
    timeout: int = 0
    cpu: float = 0.0
    nodes: int = 0
    from_journal: int = 0
    seconds: list[float] = field(default_factory=list)

    @property
    def done(self) -> int:
        return self.refuted + self.filled + self.timeout

    @property
    def not_run(self) -> int:
        return self.cubes - self.done

    def add(self, verdict: CubeVerdict) -> None:
        if verdict.status == "unsolvable":
            self.refuted += 1
        elif verdict.status == "solved":
            self.filled += 1
        else:
            self.timeout += 1
        self.cpu += verdict.cpu
        self.nodes += verdict.nodes
        self.seconds.append(verdict.seconds)

    def text(self) -> str:
        """'614 cubes (3 refuted by the split): 12 refuted, 0 filled, 1 timed
        out, 601 not run; CPU 1h02m'."""
        return (
            f"{plural(self.cubes, 'cube')} ({self.refuted_at_split} refuted by the split): "
            f"{self.refuted} refuted, {self.filled} filled, {self.timeout} timed out, "
            f"{self.not_run} not run; CPU {duration(self.cpu)}"
        )


def duration(seconds: float) -> str:
    """3725.2 -> '1h02m05s'; 42.5 -> '42.5 s'."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


@dataclass
class Conquest:
    """A split puzzle's answer: the split, each cube's verdict (by number),
    the tally, the outcome (as solve's: status, the fill, the proof, with
    the nodes of every cube searched), and whether it stopped early (the
    first fill, the time limit, Ctrl-C); `whole`: the verdict of the
    unsplit search that raced the cubes, when it ended."""

    puzzle: Puzzle
    split: Split
    verdicts: dict[int, CubeVerdict]
    tally: Tally
    outcome: Outcome
    stopped: str | None = None
    sampled: list[int] | None = None  # the cubes of a sample (--sample)
    whole: CubeVerdict | None = None

    def estimate(self) -> dict[str, object] | None:
        """With a sample: its cubes' seconds (min, median, 90th percentile,
        max), their timeouts, and the CPU hours of every cube at the
        sample's mean (a lower bound when some timed out)."""
        if self.sampled is None:
            return None
        ran = [self.verdicts[n] for n in self.sampled if n in self.verdicts]
        if not ran:
            return {"cubes": 0}
        seconds = sorted(v.seconds for v in ran)
        cpu = sum(v.cpu for v in ran) / len(ran)
        timeouts = sum(v.status == "timeout" for v in ran)

        def at(share: float) -> float:
            return seconds[min(len(seconds) - 1, int(share * len(seconds)))]

        return {
            "cubes": len(ran),
            "min": round(seconds[0], 3),
            "median": round(at(0.5), 3),
            "p90": round(at(0.9), 3),
            "max": round(seconds[-1], 3),
            "timeouts": timeouts,
            "mean_cpu": round(cpu, 3),
            "core_hours": round(cpu * len(self.split.cubes) / 3600, 3),
            "at_least": timeouts > 0,
        }

    def to_json(self) -> dict[str, object]:
        """The `cubes` object of solve's JSON (docs/cli.md#cubes)."""
        s, t = self.split, self.tally
        layout = layout_of(self.puzzle)
        return {
            "depth": s.depth,
            "seed": s.seed,
            "split_engine": s.engine,
            "split_nodes": s.nodes,
            "split_seconds": round(s.seconds, 4),
            "cubes": len(s.cubes),
            "refuted_at_split": len(s.refuted),
            "refuted": t.refuted,
            "filled": t.filled,
            "timeout": t.timeout,
            "not_run": t.not_run,
            "from_journal": t.from_journal,
            "cpu_seconds": round(t.cpu, 3),
            "nodes": t.nodes,
            "stopped": self.stopped,
            "whole": None if self.whole is None else self.whole.to_json(),
            "sample": self.estimate(),
            "list": [
                {
                    "placements": [
                        {"site": layout.sites[p].label, "index": p, "word": w}
                        for p, w in cube.placements
                    ],
                    **(
                        self.verdicts[cube.number].to_json()
                        if cube.number in self.verdicts
                        else {"cube": cube.number, "status": "not run"}
                    ),
                }
                for cube in s.cubes
            ],
        }


def split_of(puzzle: Puzzle, options: CubeOptions, search: SearchOptions) -> Split:
    """The split that `options` ask for (a depth, or at least N cubes)."""
    if search.strategy not in (None, STRATEGY) or search.maximize is not None:
        raise UsageError("--split splits the wdeg search: leave out --strategy and --maximize")
    if search.unique or (search.limit != 1 and not search.count):
        raise UsageError("--split finds one fill, or counts them (--count)")
    if options.depth is not None:
        return split(puzzle, options.depth, engine=search.engine, seed=search.seed)
    assert options.at_least is not None
    return split_into(puzzle, options.at_least, engine=search.engine, seed=search.seed)


def conquer(
    puzzle: Puzzle,
    the_split: Split,
    search: SearchOptions,
    options: CubeOptions,
    runner: Runner,
    journal: dict[int, CubeVerdict] | None = None,
    record: Callable[[CubeVerdict], None] | None = None,
    told: Callable[[Tally, CubeVerdict | None], None] | None = None,
) -> Conquest:
    """Solve the cubes of `the_split` on `runner`: those the `journal`
    settled already are not run again; each verdict is `record`ed as it
    comes and `told` with the tally. With two slots or more (and
    `options.whole`), the unsplit search races the cubes, with the run's
    time limit (see the module's header). Stops at the first fill (unless
    counting), at a settled unsplit search, at `search.timeout`, or at
    Ctrl-C (KeyboardInterrupt is turned into a stop; the verdicts so far
    are kept)."""
    done = dict(journal or {})
    whole = done.pop(WHOLE, None)
    tally = Tally(len(the_split.cubes), len(the_split.refuted))
    for number in sorted(done):
        tally.add(done[number])
    tally.from_journal = len(done)
    started = time.perf_counter()
    ends = None if search.timeout is None else started + search.timeout
    cube_timeout = options.cube_timeout
    chosen = the_split.cubes if options.sample is None else sample(the_split.cubes, options.sample)
    tasks = [
        CubeTask(c.number, c.placements, search.engine, search.seed, cube_timeout, search.count)
        for c in chosen
        if c.number not in done or _again(done[c.number], cube_timeout)
    ]
    goes_on = search.count or options.sample is not None  # every cube asked is run
    for task in tasks:  # a timed-out cube run again: its old verdict goes
        if task.number in done:
            _forget(tally, done.pop(task.number))
    if whole is None and options.whole and not goes_on and runner.slots > 1:
        race = CubeTask(WHOLE, (), search.engine, search.seed, search.timeout)
        tasks.insert(0, race)
    stopped: list[str] = []

    def stop() -> bool:
        if ends is not None and time.perf_counter() >= ends:
            stopped[:] = stopped or ["timeout"]
        return bool(stopped)

    if not goes_on and any(v.status == "solved" for v in done.values()):
        stopped.append("filled")
    if whole is not None:  # the journal holds the unsplit search's answer
        stopped[:] = ["filled" if whole.status == "solved" else "refuted"]
    if told is not None:
        told(tally, None)
    try:
        for verdict in runner.solve(puzzle, tasks if not stopped else [], stop):
            if verdict.number == WHOLE:
                if verdict.status != "timeout":
                    whole = verdict
                    if record is not None:
                        record(verdict)
                    stopped[:] = ["filled" if verdict.status == "solved" else "refuted"]
                continue
            done[verdict.number] = verdict
            tally.add(verdict)
            if record is not None:
                record(verdict)
            if told is not None:
                told(tally, verdict)
            if verdict.status == "solved" and not goes_on:
                stopped[:] = ["filled"]
    except KeyboardInterrupt:
        stopped[:] = ["interrupted"]
    seconds = time.perf_counter() - started
    outcome = _outcome(puzzle, the_split, done, whole, search, seconds)
    conquest = Conquest(
        puzzle, the_split, done, tally, outcome, stopped[0] if stopped else None, whole=whole
    )
    if options.sample is not None:
        conquest.sampled = [c.number for c in chosen]
    return conquest


def sample(cubes: Sequence[Cube], size: int) -> list[Cube]:
    """`size` cubes spread evenly over `cubes` (every len/size-th, from the first)."""
    if size >= len(cubes):
        return list(cubes)
    return [cubes[i * len(cubes) // size] for i in range(size)]


def _again(verdict: CubeVerdict, cube_timeout: float | None) -> bool:
    """Whether a cube the journal holds is run again: only one that timed
    out, and only when it now has longer (a settled cube never is)."""
    if verdict.status != "timeout":
        return False
    return cube_timeout is None or (verdict.timeout is not None and cube_timeout > verdict.timeout)


def _forget(tally: Tally, verdict: CubeVerdict) -> None:
    tally.timeout -= 1
    tally.cpu -= verdict.cpu
    tally.nodes -= verdict.nodes
    tally.from_journal -= 1


def _outcome(
    puzzle: Puzzle,
    the_split: Split,
    done: dict[int, CubeVerdict],
    whole: CubeVerdict | None,
    search: SearchOptions,
    seconds: float,
) -> Outcome:
    """solve's Outcome of the whole: a verified fill, the count, a proof
    that rests on every cube refuted (or on the unsplit search), or a
    time-out."""
    layout = layout_of(puzzle)
    engine = the_split.engine if search.engine is None else search.engine
    searched = [*done.values(), *([] if whole is None else [whole])]
    nodes = the_split.nodes + sum(v.nodes for v in searched)
    backtracks = the_split.backtracks + sum(v.backtracks for v in searched)
    stats = Stats(engine, STRATEGY, nodes, backtracks, seconds + the_split.seconds)
    fills = [done[n] for n in sorted(done) if done[n].fill is not None]
    if whole is not None and whole.fill is not None:
        fills.append(whole)
    settled = the_split.status == "split" and all(
        c.number in done and done[c.number].status != "timeout" for c in the_split.cubes
    )
    if whole is not None and whole.status == "unsolvable" and not search.count:
        outcome = Outcome("unsolvable", stats=stats, puzzle=puzzle)
        outcome.proof = Proof(
            "search",
            "the search space is exhausted: the unsplit search, run alongside the cubes, "
            f"refuted the grid ({plural(whole.nodes, 'node')})",
            layout.sites,
            (),
            nodes,
            minimal=False,
        )
        outcome.reason = outcome.proof.reason
        return outcome
    if search.count:
        count = sum(v.count or 0 for v in done.values())
        status: Status = "timeout" if not settled else ("solved" if count else "unsolvable")
        outcome = Outcome(status, count=count, stats=stats, puzzle=puzzle)
    elif fills:
        fill = fills[0].fill
        assert fill is not None
        solution = make_solution(puzzle, layout.sites, fill)
        problems = verify.problems(puzzle, solution.grid)
        if problems:
            which = "the unsplit search" if fills[0].number == WHOLE else f"cube {fills[0].number}"
            raise EngineError(f"{which}'s fill is wrong: {'; '.join(problems)}")
        outcome = Outcome("solved", [solution], stats=stats, puzzle=puzzle)
    elif settled:
        outcome = Outcome("unsolvable", stats=stats, puzzle=puzzle)
    else:
        outcome = Outcome("timeout", stats=stats, puzzle=puzzle)
    if outcome.status == "unsolvable":
        outcome.proof = _proof(layout.sites, the_split, done, nodes)
        outcome.reason = outcome.proof.reason
    return outcome


def _proof(
    sites: tuple[Site, ...], the_split: Split, done: dict[int, CubeVerdict], nodes: int
) -> Proof:
    """The proof of a grid without a fill that a split settled: what it
    rests on (the split's refutations, every cube refuted with its nodes,
    which the `cubes` object of the JSON lists)."""
    if the_split.root_failed:
        reason = "the propagation of the root fails (the split found no cube)"
    else:
        searched = sum(done[c.number].nodes for c in the_split.cubes)
        reason = (
            f"the search space is exhausted: a split {plural(the_split.depth, 'decision')} "
            f"deep has {plural(len(the_split.cubes), 'cube')} and "
            f"{len(the_split.refuted)} refuted by propagation alone, and every cube is "
            f"refuted ({plural(searched, 'node')} in the cubes, {nodes} in all)"
        )
    return Proof("search", reason, sites, (), nodes, minimal=False)


def cube_lines(conquest: Conquest) -> list[str]:
    """The lines solve prints after its answer: the tally and, for a proof,
    what it rests on (each cube refuted, with its nodes)."""
    lines = [f"cubes: {conquest.tally.text()}"]
    figures = conquest.estimate()
    if figures is not None and figures["cubes"]:
        bound = "at least " if figures["at_least"] else ""
        lines.append(
            f"sample of {figures['cubes']} cubes: seconds min {figures['min']}, median "
            f"{figures['median']}, 90% {figures['p90']}, max {figures['max']}; "
            f"{figures['timeouts']} timed out; mean CPU {figures['mean_cpu']} s; "
            f"the {plural(len(conquest.split.cubes), 'cube')}: {bound}"
            f"{figures['core_hours']} core-hours"
        )
    whole = conquest.whole
    if whole is not None:
        lines.append(
            f"the unsplit search, run alongside the cubes, "
            f"{'filled the grid' if whole.status == 'solved' else 'refuted the grid'} "
            f"({plural(whole.nodes, 'node')}, CPU {duration(whole.cpu)})"
        )
    if conquest.stopped == "interrupted":
        lines.append("interrupted (Ctrl-C): the figures are partial")
    if conquest.outcome.status == "unsolvable" and conquest.split.cubes and whole is None:
        layout = layout_of(conquest.puzzle)
        lines.append("the proof rests on each cube refuted:")
        for cube in conquest.split.cubes:
            v = conquest.verdicts[cube.number]
            how = f"{v.layer}, " if v.layer not in (None, "search") else ""
            lines.append(
                f"  cube {cube.number}: {cube.label(layout)}: {how}{plural(v.nodes, 'node')}"
            )
    return lines


__all__ = [
    "WHOLE",
    "Conquest",
    "Cube",
    "CubeTask",
    "CubeVerdict",
    "HereRunner",
    "Runner",
    "Tally",
    "conquer",
    "cube_lines",
    "solve_cube",
    "split_of",
]
