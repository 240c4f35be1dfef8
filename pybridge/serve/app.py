"""The web application of `crossword serve`: the page, its assets and the
JSON API (docs/serve.md), on Starlette.

Every route under /api/ answers JSON (an error as {"error": message}); the
work is done by pybridge.serve.api, .candidates and .fills in worker threads
or processes, so the event loop only reads requests and writes answers.
Limits and safety: a request body is JSON (application/json: a page of
another site cannot send it without the browser asking first, and this
server never says yes) of at most `max_upload` bytes; the Host header must
name this server (no DNS rebinding); every answer forbids framing and
loading anything from another site; searches run at most `time_limit`
seconds; at most `searches` solve or check requests search at once (others
wait their turn), and fills are bounded as pybridge.serve.fills says.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pybridge.difficulty import estimate
from pybridge.errors import UsageError
from pybridge.model import Direction
from pybridge.scores import ACCEPTABLE, json_number
from pybridge.serve import api, grids, wordsearch
from pybridge.serve.candidates import DEFAULT_LIMIT, candidate_list
from pybridge.serve.files import Files
from pybridge.serve.fills import Busy, Fills, Job, check_job, fill_time_limit, make_request
from pybridge.serve.guard import LOOPBACK_NAMES, AccessLog, Guard, Guarding, guarded_protocol
from pybridge.serve.limits import MAX_SOLUTIONS, MEMORY_MB, QUEUE
from pybridge.serve.workers import Full, Pool
from pybridge.solver import ENGINES, STRATEGIES
from pybridge.suggest import available as suggestions_available
from pybridge.wordlist import LIST_PATH

STATIC = Path(__file__).resolve().parent / "static"
MEBIBYTE = 1 << 20
JOB_KINDS = ("check", "make", "suggest")  # what POST /api/fill runs besides a fill
JOB_NAMES = '"check", "make" or "suggest"'
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


@dataclass(frozen=True)
class Settings:
    """What `crossword serve` was told: the files it may read, the time
    limit of a search, the largest request body, the most searches and
    fills at once, the host names it answers to (whatever the address it
    listens on: see pybridge.serve.guard) and the token it asks for (None:
    none, on loopback)."""

    files: Files = field(default_factory=Files)
    time_limit: float = 60.0
    max_upload: int = 16 * MEBIBYTE
    searches: int = 2
    fills: int = 2
    hosts: tuple[str, ...] = LOOPBACK_NAMES
    warm: bool = False  # start a worker for the next fill at once (the command does)
    token: str | None = None
    log: bool = False  # the access log on stderr (the command keeps one)
    memory_mb: int = MEMORY_MB  # a worker process's memory, at most
    queue: int = QUEUE  # searches that may wait for a worker


class Refusal(Exception):
    """A request refused before any work, with its HTTP status (and headers)."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.headers = headers


def _error(status: int, message: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _answer(answer: api.Answer) -> JSONResponse:
    headers = {"X-Crossword-Exit-Code": str(answer.exit_code)}
    return JSONResponse(answer.body, status_code=answer.status, headers=headers)


async def json_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read up to `limit` bytes; Refusal else."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refusal(415, "crossword: error: send the request body as application/json")
    too_big = (
        f"crossword: error: the request is larger than the limit of {limit:,} bytes "
        f"({limit / MEBIBYTE:.3g} MiB, --max-upload): a file sent in base64 takes a third "
        f"more, so files of up to {largest_file(limit):,} bytes fit"
    )
    close = {"Connection": "close"}  # the rest of the body is not read: the client stops
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise Refusal(413, too_big, close)
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            raise Refusal(413, too_big, close)
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as err:
        raise Refusal(400, f"crossword: error: the request body is not JSON: {err}") from None
    except RecursionError:
        raise Refusal(400, "crossword: error: the request body nests too deeply") from None
    if not isinstance(body, dict):
        raise Refusal(400, "crossword: error: the request body must be a JSON object")
    return body


def largest_file(limit: int) -> int:
    """The largest file a request body of `limit` bytes holds in base64
    (a third more than its bytes), with room for the rest of the JSON."""
    return max(0, (limit - 4096) * 3 // 4)


Handler = Callable[[Request], Awaitable[Response]]


def refusals(handler: Handler) -> Handler:
    """Turn a Refusal into its JSON answer."""

    async def handle(request: Request) -> Response:
        try:
            return await handler(request)
        except Refusal as refusal:
            return _error(refusal.status, str(refusal), refusal.headers)

    return handle


class _SecurityHeaders:
    """Add HEADERS to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                present = {name.lower() for name, _ in headers}
                for name, value in HEADERS.items():
                    if name.lower().encode() not in present:
                        headers.append((name.lower().encode(), value.encode()))
            await send(message)

        await self.app(scope, receive, sending)


class _RefusalsAsOk:
    """A request that says `X-Crossword-Errors: ok-status` (the page's do) gets
    a refusal (a status of 400 or more) as HTTP 200, its real status in
    `X-Crossword-Status` and the same body: the page shows the message
    itself, and the browser then logs no error for an answer it expected."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = scope["type"] == "http" and any(
            name.lower() == b"x-crossword-errors" and value.strip().lower() == b"ok-status"
            for name, value in scope["headers"]
        )
        if not asked:
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] >= 400:
                headers = [
                    *message.get("headers", []),
                    (b"x-crossword-status", b"%d" % message["status"]),
                ]
                message = {**message, "status": 200, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def _version() -> str:
    try:
        return metadata.version("crossword-pybridge")
    except metadata.PackageNotFoundError:
        return "unknown"


def create_app(settings: Settings) -> Starlette:
    """The application for `settings`."""
    files = settings.files
    fills = Fills(settings.fills, files, settings.memory_mb)
    searches = asyncio.Semaphore(settings.searches)  # patterns, in threads
    pool = Pool(settings.searches, files, settings.memory_mb, settings.queue)

    async def body_of(request: Request) -> dict[str, Any]:
        return await json_body(request, settings.max_upload)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def info(request: Request) -> Response:
        dictionaries = [
            {
                "name": name,
                "words": len(found.words),
                "scored": found.scores is not None,
                "shipped": files.dictionaries[name].resolve() == LIST_PATH.resolve(),
                # a 0-100 list's acceptable line (the shipped list's 25), else null
                "line": json_number(ACCEPTABLE) if found.scores and found.scores.has_line else None,
            }
            for name in files.dictionaries
            for found in [files.dictionary([name])]
        ]
        return JSONResponse(
            {
                "version": _version(),
                "dicts": dictionaries,
                "root": files.root is not None,
                "formats": list(api.OPEN_FORMATS),
                "strategies": list(STRATEGIES),
                "engines": list(ENGINES),
                "time_limit": settings.time_limit,
                "max_upload": settings.max_upload,
                "suggest": suggestions_available(),
                "max_file": largest_file(settings.max_upload),
                "max_solutions": MAX_SOLUTIONS,
            }
        )

    async def listing(request: Request) -> Response:
        return JSONResponse({"files": await run_in_threadpool(files.listing)})

    @refusals
    async def open_puzzle(request: Request) -> Response:
        body = await body_of(request)
        return _answer(await run_in_threadpool(api.open_puzzles, body, files))

    def command(name: str) -> Handler:
        @refusals
        async def run(request: Request) -> Response:
            body = await body_of(request)
            checked = await run_in_threadpool(api.precheck, body, files, settings.time_limit, name)
            if checked is not None:  # bad input: no worker needed to say so
                return _answer(checked)
            try:
                answer = await pool.run(name, body, settings.time_limit, request.is_disconnected)
            except Full as full:
                return _error(503, f"crossword: error: {full}", {"Retry-After": "5"})
            if answer is None:  # the client went away: its search was stopped
                return Response(status_code=499)
            return _answer(answer)

        return run

    @refusals
    async def new_pattern(request: Request) -> Response:
        body = await body_of(request)
        async with searches:
            answer = await run_in_threadpool(api.pattern, body, settings.time_limit)
        return _answer(answer)

    @refusals
    async def candidates(request: Request) -> Response:
        body = await body_of(request)

        def work() -> api.Answer:
            puzzle = grids.page_puzzle(body, files)
            row, col = _cell(body)
            direction = body.get("direction", "across")
            if direction not in ("across", "down"):
                raise UsageError('"direction" must be "across" or "down"')
            limit = body.get("limit", DEFAULT_LIMIT)
            if type(limit) is not int or limit < 1:
                raise UsageError('"limit" must be a whole number of at least 1')
            scores = grids.page_scores(body, files)
            score = None if scores is None else scores.score
            found = candidate_list(puzzle, (row, col), direction, limit, score=score)
            # the acceptable line of a 0-100 list (the shipped list's 25), the grid's difficulty
            found["line"] = json_number(ACCEPTABLE) if scores and scores.has_line else None
            found["difficulty"] = estimate(puzzle).difficulty if found["verdict"] is None else None
            return api.Answer(200, found, 0)

        return _answer(await run_in_threadpool(api.answered, work))

    @refusals
    async def start_fill(request: Request) -> Response:
        body = await body_of(request)
        page = str(body.pop("page", "") or "")[:100]
        if not page and request.client is not None:
            page = request.client.host  # a client that names no page is one page

        def work() -> api.Answer:
            asked = [kind for kind in JOB_KINDS if grids.flag(body, kind)]
            command = asked[0] if len(asked) == 1 else "solve"
            if len(asked) > 1:
                raise UsageError(f"give one of {JOB_NAMES}, not several")
            for kind in JOB_KINDS:
                body.pop(kind, None)
            region = grids.cells(body.pop("region", None))
            entry = _entry(body) if command == "suggest" else None
            job = Job(body, files, settings.time_limit, region, command=command, entry=entry)
            check_job(job)
            options = "solve" if command == "suggest" else command  # suggestions: a fill a word
            if command == "make":  # its options are make's: refused now when wrong
                make_request(job.body, files, settings.time_limit)
            else:
                check = api.precheck(job.body, files, settings.time_limit, options)
                if check is not None:
                    return check
            limit = fill_time_limit(job.body, settings.time_limit, options)
            job = replace(job, time_limit=limit)
            try:
                fill = fills.start(page, job)
            except Busy as busy:
                return api.Answer(busy.status, {"error": f"crossword: error: {busy}"}, 2)
            return api.Answer(202, fill.view(), 0)

        return _answer(await run_in_threadpool(api.answered, work))

    async def fill_view(request: Request) -> Response:
        fill_id = request.path_params["fill"]
        if request.method == "DELETE":
            return _answer(
                await run_in_threadpool(api.answered, lambda: _ok(fills.cancel(fill_id)))
            )
        return _answer(await run_in_threadpool(api.answered, lambda: _ok(fills.view(fill_id))))

    @refusals
    async def suggest_clues(request: Request) -> Response:
        body = await body_of(request)

        def work() -> api.Answer:
            return api.Answer(200, grids.suggestions(body), 0)

        return _answer(await run_in_threadpool(api.answered, work))

    @refusals
    async def word_search(request: Request) -> Response:
        body = await body_of(request)
        try:
            async with searches:
                made, media = await run_in_threadpool(wordsearch.answer, body, settings.time_limit)
        except Exception as err:
            return _answer(api.failure(err))
        if isinstance(made, dict):
            return JSONResponse(made)
        kind = "pdf" if media == "application/pdf" else "svg"
        headers = {"Content-Disposition": f'attachment; filename="wordsearch.{kind}"'}
        return Response(made, media_type=media, headers=headers)

    @refusals
    async def export(request: Request) -> Response:
        body = await body_of(request)
        try:
            content, media, name = await run_in_threadpool(grids.export, body, files)
        except Exception as err:
            return _answer(api.failure(err))
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(content, media_type=media, headers=headers)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        if settings.warm:
            fills.warm()
            pool.warm()
        yield
        fills.close()
        pool.close()

    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/files", listing),
        Route("/api/open", open_puzzle, methods=["POST"]),
        Route("/api/solve", command("solve"), methods=["POST"]),
        Route("/api/check", command("check"), methods=["POST"]),
        Route("/api/candidates", candidates, methods=["POST"]),
        Route("/api/pattern", new_pattern, methods=["POST"]),
        Route("/api/fill", start_fill, methods=["POST"]),
        Route("/api/fill/{fill}", fill_view, methods=["GET", "DELETE"]),
        Route("/api/export", export, methods=["POST"]),
        Route("/api/suggest", suggest_clues, methods=["POST"]),
        Route("/api/wordsearch", word_search, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    guarding = Guarding(settings.hosts or LOOPBACK_NAMES, settings.token)
    middleware = [
        *([Middleware(AccessLog)] if settings.log else []),
        Middleware(_SecurityHeaders),
        Middleware(Guard, guarding=guarding),
        Middleware(_RefusalsAsOk),
    ]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error},
    )
    app.state.fills = fills
    app.state.pool = pool
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a wrong method) as JSON too."""
    assert isinstance(exc, HTTPException)
    message = f"crossword: error: {exc.detail}: {request.method} {request.url.path}"
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)


def _ok(view: Mapping[str, Any]) -> api.Answer:
    return api.Answer(200, dict(view), 0)


def _entry(body: dict[str, Any]) -> tuple[int, int, Direction]:
    """The entry a request for suggestions names (`row`, `col`, `direction`),
    taken out of its body (the rest is a solve's)."""
    row, col = _cell(body)
    direction = body.pop("direction", "across")
    body.pop("row")
    body.pop("col")
    if direction not in ("across", "down"):
        raise UsageError('"direction" must be "across" or "down"')
    return row, col, direction


def _cell(body: Mapping[str, Any]) -> tuple[int, int]:
    row, col = body.get("row"), body.get("col")
    if type(row) is not int or type(col) is not int:
        raise UsageError('"row" and "col" must be whole numbers (from 0)')
    return row, col


def serve(settings: Settings, sock: socket.socket) -> None:
    """Serve the application on a listening socket until Ctrl-C."""
    import uvicorn
    from uvicorn.protocols.http.h11_impl import H11Protocol

    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        access_log=False,  # the app keeps its own (guard.AccessLog)
        lifespan="on",
        http=guarded_protocol(H11Protocol),
    )
    uvicorn.Server(config).run(sockets=[sock])
