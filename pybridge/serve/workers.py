"""The searches of POST /api/solve and /api/check, in worker processes.

A search runs in a worker process of its own at a time, never in the
server's: so it can be stopped at once (the process is killed) when its
client goes away, or when it overruns its time limit, and it cannot take
more memory than a worker may (`memory`, an address-space limit set in the
worker: a request that needs more fails alone, with a clear message, and
the server's own memory stays flat). Python searches in two workers run
on two cores, not in turns under one interpreter lock.

Workers are kept between requests (starting one, loading SWI-Prolog and
sending it the served dictionaries takes seconds): at most `size` search
at once; a request that finds them all busy waits for one, at most `queue`
such requests wait, and the next is refused (503) with the time to try
again. A worker is replaced after a failure, after REQUESTS_PER_WORKER
requests, or when it holds more than half its memory.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from pybridge.errors import CrosswordError
from pybridge.serve.api import Answer, failure, run_command
from pybridge.serve.files import Files
from pybridge.serve.fills import limit_memory, warm
from pybridge.serve.limits import MEMORY_MB, QUEUE

GRACE_SECONDS = 5.0  # past its time limit, a worker that has not answered is killed
WARMING_SECONDS = 120.0  # and a worker still loading Prolog and the dictionaries, this long
POLL_SECONDS = 0.05  # how often a waiting request looks at its worker and its client
REQUESTS_PER_WORKER = 200


class Full(CrosswordError):
    """Every worker is busy and the queue is full (HTTP 503)."""


class OutOfMemory(CrosswordError):
    """A worker's search needed more memory than a worker may have."""


@dataclass
class _Worker:
    process: BaseProcess
    jobs: Connection  # the server's end: jobs go out
    news: Connection  # the server's end: answers come in
    ready: bool = False
    served: int = 0

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def discard(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.jobs.close()
        self.news.close()


class Pool:
    """The worker processes of one server's searches."""

    def __init__(
        self, size: int, files: Files, memory_mb: int = MEMORY_MB, queue: int = QUEUE
    ) -> None:
        self.size, self.files, self.memory_mb, self.queue = size, files, memory_mb, queue
        self._idle: list[_Worker] = []
        self._busy: list[_Worker] = []
        self._waiting = 0
        self._slots: asyncio.Semaphore | None = None
        self._context = multiprocessing.get_context("spawn")
        self._closed = False

    def warm(self) -> None:
        """Start the workers now, so that the first requests need not wait."""
        while len(self._idle) + len(self._busy) < self.size and not self._closed:
            self._idle.append(self._spawn())

    def pids(self) -> list[int]:
        """The workers' process ids (for the tests and the figures)."""
        return [w.pid for w in (*self._idle, *self._busy) if w.pid is not None]

    def _spawn(self) -> _Worker:
        jobs, job_sender = self._context.Pipe(duplex=False)
        news, news_sender = self._context.Pipe(duplex=False)
        process = self._context.Process(
            target=serve_requests,
            args=(jobs, news_sender, self.files, self.memory_mb),
            daemon=True,
            name="crossword-search",
        )
        process.start()
        jobs.close()
        news_sender.close()
        return _Worker(process, job_sender, news)

    async def run(
        self,
        command: str,
        body: Mapping[str, Any],
        time_limit: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> Answer | None:
        """The answer of /api/`command` to `body`, searched in a worker;
        None when the client went away first (`gone` says so; the worker
        was then stopped). Full when the queue is full."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        if self._slots.locked() and self._waiting >= self.queue:
            raise Full(
                f"the server runs {self.size} searches and {self._waiting} more wait: "
                "try again in a few seconds"
            )
        self._waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self._waiting -= 1
        try:
            if await gone():
                return None
            return await self._search(command, body, time_limit, gone)
        finally:
            self._slots.release()

    async def _search(
        self,
        command: str,
        body: Mapping[str, Any],
        time_limit: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> Answer | None:
        worker = self._idle.pop() if self._idle else self._spawn()
        self._busy.append(worker)
        keep = False
        try:
            answer = await self._answer(worker, command, body, time_limit, gone)
            keep = answer is not None and answer.status != 500 and self._healthy(worker)
            return answer
        finally:
            self._busy.remove(worker)
            if keep and not self._closed:
                self._idle.append(worker)
            else:
                worker.discard()

    async def _answer(
        self,
        worker: _Worker,
        command: str,
        body: Mapping[str, Any],
        time_limit: float,
        gone: Callable[[], Awaitable[bool]],
    ) -> Answer | None:
        try:
            worker.jobs.send((command, dict(body), time_limit))
        except OSError:
            return failure(RuntimeError("the search's worker process ended before its job"))
        sent = time.monotonic()
        while True:
            try:
                while worker.news.poll():
                    kind, value = worker.news.recv()
                    if kind == "ready":
                        worker.ready, sent = True, time.monotonic()
                    elif kind == "answer":
                        worker.served += 1
                        return value  # type: ignore[no-any-return]
            except (EOFError, OSError):
                code = worker.process.exitcode
                crashed = f"the search's worker process ended unexpectedly (exit code {code})"
                return failure(RuntimeError(crashed))
            if await gone():
                return None
            allowed = time_limit + (GRACE_SECONDS if worker.ready else WARMING_SECONDS)
            if time.monotonic() - sent > allowed:
                late = f"the search did not stop at its time limit of {time_limit:g} s"
                return failure(RuntimeError(late))
            await asyncio.sleep(POLL_SECONDS)

    def _healthy(self, worker: _Worker) -> bool:
        """Whether a worker may take another request: not too old, and not
        holding more than half the memory it may have."""
        if worker.served >= REQUESTS_PER_WORKER:
            return False
        try:
            with open(f"/proc/{worker.pid}/statm") as statm:
                resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            return True  # not Linux: no way to tell
        return resident < (self.memory_mb << 20) // 2

    def close(self) -> None:
        self._closed = True
        for worker in (*self._idle, *self._busy):
            worker.discard()
        self._idle.clear()


# ---------------------------------------------------------------- in the worker


def serve_requests(jobs: Connection, news: Connection, files: Files, memory_mb: int) -> None:
    """A worker: limit its memory, load the engines and the dictionaries,
    then answer each request sent, until the server closes the pipe.
    Ctrl-C in the server's terminal reaches its workers too: the server
    ends them itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    limit_memory(memory_mb)
    warm(files)
    news.send(("ready", None))
    while True:
        try:
            command, body, time_limit = jobs.recv()
        except EOFError:  # the server stopped
            return
        try:
            answer = run_command(command, body, files, time_limit)
        except MemoryError:
            answer = failure(OutOfMemory(_out_of_memory(memory_mb)))
        news.send(("answer", answer))


def _out_of_memory(memory_mb: int) -> str:
    return (
        f"the search needed more than the {memory_mb:,} MiB a search may use "
        "(crossword serve --memory MIB)"
    )
