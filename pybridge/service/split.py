"""`crossword solve --split`: the job that splits a grid's search into
cubes (or takes the split from a journal it resumes), solves them on a Dask
cluster, journals each verdict and combines them (docs/cli.md#cubes)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from pybridge.cubes import Split
from pybridge.errors import UsageError, shown
from pybridge.model import Puzzle
from pybridge.options import CubeOptions, PuzzleOptions, SearchOptions
from pybridge.service import journal
from pybridge.service.cubes import (
    WHOLE,
    Conquest,
    CubeTask,
    CubeVerdict,
    Runner,
    Tally,
    conquer,
    split_of,
)
from pybridge.service.jobs import QUIET, Listener
from pybridge.service.puzzles import read_puzzles, timeout_left


def solve_split(
    source: PuzzleOptions,
    search: SearchOptions,
    cubes: CubeOptions,
    listener: Listener = QUIET,
    runner: Callable[[], contextlib.AbstractContextManager[Runner]] | None = None,
) -> Conquest:
    """Split the grid of `source` as `cubes` asks (or go on with its
    journal), solve the cubes on `runner` (default: a Dask cluster as
    `cubes` says) and combine their verdicts. `search.timeout` bounds the
    whole, the split included."""
    if cubes.resume and cubes.journal is None:
        raise UsageError("--resume goes on with a journal: give it with --journal FILE")
    if search.jobs > 1:
        raise UsageError("--split runs its cubes on --workers: leave out --jobs")
    read = read_puzzles(source, search, listener.notice)
    if len(read.puzzles) != 1:
        raise UsageError("--split solves one grid: choose one with --grid N")
    puzzle = read.puzzles[0]
    started = time.perf_counter()
    timeout = timeout_left(read.budget)
    ident = journal.identity(puzzle, search.seed, {"depth": cubes.depth, "cubes": cubes.at_least})
    done: dict[int, CubeVerdict] = {}
    fresh = None
    path = cubes.journal
    if path is not None and os.path.exists(path) and not cubes.resume:
        raise UsageError(
            f"the journal {shown(path)} exists: add --resume to go on with its run, "
            "or give another file"
        )
    if path is not None and cubes.resume and os.path.exists(path):
        head, done = journal.read(path)
        journal.check_same(head, ident, path)
        the_split = journal.split_from(head, search.engine or "prolog")
    else:
        with listener.line(f"split {shown(puzzle.source)}", timeout):
            the_split = split_of(puzzle, cubes, replace(search, timeout=timeout))
        if path is not None and the_split.status == "split":
            fresh = journal.header(ident, the_split)

    def left() -> float | None:  # of the time limit, which the cluster's start counts in
        return None if timeout is None else max(timeout - (time.perf_counter() - started), 0.0)

    make_runner = runner or _dask(cubes)
    with contextlib.ExitStack() as stack:
        writer = None
        if path is not None and the_split.status == "split":
            writer = stack.enter_context(journal.opened(path, fresh))
        if the_split.status != "split" or not the_split.cubes:
            idle = _Idle()
            ended = conquer(puzzle, the_split, replace(search, timeout=left()), cubes, idle)
            if the_split.status == "timeout":  # the time limit passed while splitting
                ended.stopped = "timeout"
            return ended
        chosen = stack.enter_context(make_runner())
        line = stack.enter_context(
            listener.cubes_line(
                len(the_split.cubes),
                lambda: {n: t for n, t in chosen.running.items() if n != WHOLE},
            )
        )

        def told(tally: Tally, verdict: CubeVerdict | None) -> None:
            line.told(tally.done, _tally_line(tally))

        conquest = conquer(
            puzzle,
            the_split,
            replace(search, timeout=left()),
            cubes,
            chosen,
            done,
            None if writer is None else writer.verdict,
            told,
        )
        lost = [n for n in getattr(chosen, "lost", []) if n != WHOLE]
        if lost:
            listener.notice(
                f"crossword: {len(lost)} cubes lost their worker (or the scheduler dropped "
                f"them) again and again and are not settled (cubes "
                f"{', '.join(map(str, lost[:10]))}); --resume runs them again"
            )
        return conquest


def _tally_line(tally: Tally) -> str:
    refuted = tally.refuted + tally.refuted_at_split
    return f"refuted {refuted}, filled {tally.filled}, timed out {tally.timeout}"


def _dask(cubes: CubeOptions) -> Callable[[], contextlib.AbstractContextManager[Runner]]:
    def make() -> contextlib.AbstractContextManager[Runner]:
        from pybridge.service.cluster import DaskRunner

        return DaskRunner(cubes.workers, cubes.scheduler)

    return make


class _Idle:
    """A runner for a split with nothing to run."""

    def __init__(self) -> None:
        self.running: dict[int, float] = {}
        self.slots = 1

    def solve(
        self, puzzle: Puzzle, tasks: Sequence[CubeTask], stop: Callable[[], bool]
    ) -> Iterator[CubeVerdict]:
        return iter(())


__all__ = ["Split", "solve_split"]
