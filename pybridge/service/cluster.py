"""The cubes of a split search on a Dask cluster: a LocalCluster of worker
processes on this machine by default, or the cluster whose scheduler is at
tcp://HOST:8786 (docs/cli.md#cubes).

Why Dask (distributed) and not Ray: measured on this project's 2-core
machine (docs/benchmarks.md#cube-and-conquer-measured-2026-11-27), a LocalCluster of 2 workers
starts in 4-5 s and holds 214 MiB, Ray's 2 in 9-11 s and 724 MiB, and
Dask installs 24 MB of pure Python where Ray brings 240 MB of binaries.
Ray hands out a trivial task faster (0.9 ms against 3.4 ms), which a cube
of seconds to hours never notices. Both re-run the task of a worker that
dies; Dask's nanny also starts the worker again.

Each worker runs one cube at a time (one thread: pyswip serves one thread
at a time) through the service layer (pybridge.service.cubes.solve_cube),
its SWI-Prolog started in the worker's main thread when the worker starts
and its dictionary sent once. The puzzle (with its dictionary) is sent to
every worker once. The client keeps as many cubes in flight as the
cluster has threads, in the split's order, so the cubes under way are
those running, and a stop (the first fill, the time limit, Ctrl-C) has
little to cancel: the cubes in flight are cancelled, and a LocalCluster's
workers are ended with it; a remote cluster's finish theirs within their
time limit.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from types import TracebackType
from typing import Any, TypeVar

from pybridge.errors import EngineError, MissingDependency, UsageError
from pybridge.model import Puzzle
from pybridge.service.cubes import CubeTask, CubeVerdict, solve_cube

POLL = 0.5  # seconds between two looks at the clock while cubes run
PATIENCE = "300s"  # to connect to a worker or scheduler, or hear from one
DROPPED = 3  # times a task the scheduler dropped is given out again, then it is lost
CLOSING = 30  # seconds to close the client and cluster once their workers are ended
T = TypeVar("T")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        import sys

        raise MissingDependency(
            "solve --split needs Dask's distributed package: install it with "
            f"{sys.executable} -m pip install 'distributed>=2024.1' (in a checkout, "
            "the `cluster` extra: .venv/bin/python -m pip install -e '.[cluster]')"
        ) from None
    return distributed


def _start_engine() -> None:
    """In a worker's main thread, as it starts: SWI-Prolog, if it is there
    (pybridge.bridge: start the engine from the main thread before
    searching from threads)."""
    from pybridge import bridge

    bridge.available()


def _solve(puzzle: Puzzle, task: CubeTask) -> CubeVerdict:
    """A worker's task: one cube."""
    from distributed import get_worker

    return solve_cube(puzzle, task, get_worker().address)


class DaskRunner:
    """A Runner (pybridge.service.cubes) on a Dask cluster: a LocalCluster
    of `workers` processes, or the scheduler at `scheduler`. Use it as a
    context manager: it closes the client (and a LocalCluster) at the end."""

    def __init__(self, workers: int = 2, scheduler: str | None = None) -> None:
        distributed = _distributed()
        self.running: dict[int, float] = {}
        self.lost: list[int] = []  # cubes whose workers died too often
        self.cluster = None
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        import dask

        # a loaded machine (or a nice'd run) may take minutes to start a
        # worker or answer: the defaults (30 s) ended such runs
        dask.config.set({f"distributed.comm.timeouts.{k}": PATIENCE for k in ("connect", "tcp")})
        if scheduler is None:
            if workers < 1:
                raise UsageError(f"--workers must be at least 1, got {workers}")
            try:
                self.cluster = distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # a free port: 8787 may be taken
                    silence_logs=logging.CRITICAL,
                )
                self.client = distributed.Client(self.cluster)
            except (OSError, TimeoutError, RuntimeError) as err:
                raise EngineError(f"the local Dask cluster did not start: {err}") from None
        else:
            try:
                self.client = distributed.Client(scheduler, timeout=PATIENCE)
            except (OSError, TimeoutError) as err:
                raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
        try:
            self.client.register_plugin(_engine_plugin(distributed), name="crossword-engine")
            self.slots = max(sum(self.client.nthreads().values()), 1)
        except (OSError, TimeoutError) as err:
            self.close()
            raise EngineError(f"the Dask workers did not answer: {err}") from None

    def __enter__(self) -> DaskRunner:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """End the run's workers: a LocalCluster's at once (a cube under way
        cannot be cancelled, and a graceful close waits for it), then the
        client and the cluster. Never raises: the run's answer is found
        already, and a closing that times out (a starved machine: a nice-19
        g23.10 run ended in "internal error: TimeoutError" and no answer)
        leaves nothing behind once the workers are ended."""
        self._end_local_workers()
        with contextlib.suppress(TimeoutError, OSError):
            self.client.close(timeout=CLOSING)
        if self.cluster is not None:
            with contextlib.suppress(TimeoutError, OSError):
                self.cluster.close(timeout=CLOSING)

    def _end_local_workers(self) -> None:
        """Kill each worker process of the LocalCluster, its nanny told first
        not to start another (the cubes in flight were cancelled: a
        worker's verdict would come to nobody)."""
        if self.cluster is None:
            return
        for nanny in list(self.cluster.workers.values()):
            pid = getattr(nanny, "pid", None)
            close_gracefully = getattr(nanny, "close_gracefully", None)
            if not pid or close_gracefully is None:
                continue
            close_gracefully(reason="crossword-run-ended")
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)

    def workers(self) -> dict[str, int]:
        """Each worker's address and process id."""
        return dict(self.client.run(os.getpid))

    def solve(
        self, puzzle: Puzzle, tasks: Sequence[CubeTask], stop: Callable[[], bool]
    ) -> Iterator[CubeVerdict]:
        """The cubes' verdicts as they come (the Runner of pybridge.service.cubes)."""
        for _, verdict in self.map(_solve, puzzle, tasks, stop, "cube"):
            yield verdict

    def map(
        self,
        work: Callable[[Any, Any], T],
        shared: Any,
        items: Sequence[Any],
        stop: Callable[[], bool] = lambda: False,
        name: str = "task",
    ) -> Iterator[tuple[Any, T]]:
        """(item, work(shared, item)) for each of `items`, as they end, on
        the cluster: `shared` sent to every worker once; as many items in
        flight as the cluster has threads, given out in order; none more once
        `stop()` is true (those in flight are cancelled when the caller
        stops reading). An item whose workers died too often, or that the
        scheduler dropped (cancelled) again and again, is in `lost` (by its
        `number`, if it has one) and not yielded."""
        distributed = _distributed()
        run = uuid.uuid4().hex[:8]
        base = self._scatter(shared)
        waiting = list(reversed(range(len(items))))
        flying: dict[Any, int] = {}
        dropped: dict[int, int] = {}  # item -> times the scheduler dropped it
        try:
            while waiting or flying:
                slots = max(sum(self.client.nthreads().values()), 1)
                while waiting and len(flying) < slots and not stop():
                    k = waiting.pop()
                    key = f"{name}-{run}-{k}-{dropped.get(k, 0)}"
                    future = self.client.submit(work, base, items[k], key=key, pure=False)
                    flying[future] = k
                    self.running[getattr(items[k], "number", k)] = time.perf_counter()
                if stop() or not flying:
                    return
                try:
                    ended = distributed.wait(
                        list(flying), timeout=POLL, return_when="FIRST_COMPLETED"
                    ).done
                except TimeoutError:  # none ended in POLL seconds: look at the clock
                    continue
                except CancelledError:  # the scheduler dropped some (see below)
                    ended = {f for f in flying if f.status == "cancelled"}
                if any(f.status == "cancelled" for f in ended):
                    # the scheduler forgets the tasks that need data it lost,
                    # e.g. the puzzle's copy on a worker killed at that moment:
                    # the puzzle is sent again and those tasks run again
                    base = self._scatter(shared)
                for future in ended:
                    k = flying.pop(future)
                    item = items[k]
                    number = getattr(item, "number", None)
                    self.running.pop(k if number is None else number, None)
                    if future.status == "cancelled":
                        dropped[k] = dropped.get(k, 0) + 1
                        if dropped[k] > DROPPED:
                            self.lost.append(number if number is not None else -1)
                        else:
                            waiting.append(k)  # the next to go
                        continue
                    if future.status == "error":
                        error = future.exception()
                        if isinstance(error, distributed.KilledWorker):
                            self.lost.append(number if number is not None else -1)
                            continue
                        raise error
                    if future.status == "finished":
                        yield item, future.result()
        finally:
            if flying:  # (a LocalCluster's workers are ended by close())
                with contextlib.suppress(TimeoutError, OSError):
                    self.client.cancel(list(flying), force=True)
            self.running.clear()

    def _scatter(self, shared: Any) -> Any:
        """`shared` sent to every worker: its future."""
        try:
            return self.client.scatter(shared, broadcast=True, hash=False)
        except (OSError, TimeoutError) as err:
            raise EngineError(f"the Dask workers did not take the puzzle: {err}") from None


def _engine_plugin(distributed: Any) -> Any:
    """A worker plugin that starts SWI-Prolog in each worker's main thread
    as the worker starts (also a worker the nanny starts again after a
    crash)."""

    class EnginePlugin(distributed.WorkerPlugin):  # type: ignore[misc]
        idempotent = True

        def setup(self, worker: Any) -> None:
            _start_engine()

    return EnginePlugin()
