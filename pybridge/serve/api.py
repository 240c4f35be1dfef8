"""The JSON answers of the HTTP API, as plain functions of a request body
(docs/serve.md): no HTTP here, so they are tested and reused (by the fill
workers) without a server.

/api/solve and /api/check run the jobs the commands run (pybridge.service):
the body's options are read by the rules of the command line's (the same
pybridge.service.fields, with the same messages) into the same option
objects, the puzzle is read by the service, and the answer is the document
of `--output json` with the exit code's meaning as the HTTP status (Answer).
An uploaded puzzle is written to a private temporary folder and read from
there, so that every reader, limit and message is the CLI's; messages then
name the upload (`name`), never the temporary file, and a file under --root
by its path relative to the root.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any, cast

from pybridge.curation import request_words
from pybridge.errors import (
    CrosswordError,
    EngineError,
    InputError,
    ResourceLimit,
    UsageError,
    shown,
)
from pybridge.exchange import EXCHANGE_FORMATS, with_answers
from pybridge.gridfiles import GRID_FORMATS, load_grid
from pybridge.model import Format, Puzzle
from pybridge.options import DictionaryOptions, PuzzleOptions, SearchOptions
from pybridge.progress import Progress, tick_text
from pybridge.readers import (
    FORMATS,
    load,
    read_bytes,
    read_exchange,
    read_text,
    require_site,
    sniff_exchange,
)
from pybridge.render import better_json, json_document
from pybridge.search.kernel import Tick
from pybridge.serve import workfile
from pybridge.serve.files import Files, NotFound, Refused
from pybridge.serve.limits import MAX_ANSWER_BYTES, MAX_SOLUTIONS
from pybridge.service import fields, jobs
from pybridge.service.answers import (
    EXIT_BAD_INPUT,
    EXIT_BY_STATUS,
    EXIT_INTERNAL_ERROR,
    error_text,
    internal_error_text,
    worst,
)
from pybridge.service.puzzles import Puzzles, read_puzzles
from pybridge.service.requests import pattern_options, search_options
from pybridge.solver import BetterFill

Better = Callable[[dict[str, Any]], None]  # hears of each better fill, as `improvements` lists it

# The keys of a request body that are not command-line options.
PUZZLE_KEYS = frozenset(
    {"puzzle", "puzzle_base64", "name", "path", "words", "words_base64", "words_name"}
    | {"words_path", "dict"}
)
# The keys of /api/solve, /api/check and /api/fill that curate the
# dictionary for one request: words (lists) to ban and to prefer, on top of
# the server's --ban and --prefer.
CURATION_KEYS = frozenset({"ban", "prefer"})
# The options of each route, as the command's (those a JSON body may give:
# it always answers JSON, with the stats).
ROUTE_FIELDS = {
    "solve": fields.PUZZLE + fields.SOLVE + fields.PROGRESS,
    "check": fields.PUZZLE + fields.PROGRESS,
    "grid": fields.GRID,
    "make": fields.MAKE,
}
HTTP_BY_EXIT = {0: 200, 1: 200, 3: 200, EXIT_BAD_INPUT: 400, EXIT_INTERNAL_ERROR: 500}


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: its status, its JSON body and the exit code the CLI
    would have given the same request."""

    status: int
    body: Any
    exit_code: int


def failure(err: Exception) -> Answer:
    """The answer to a request that failed, with the CLI's message: 400 bad
    input or usage, 403 a file not served, 404 no such file, 500 an engine
    failure or a bug (an engine out of memory says so, as the CLI does)."""
    if isinstance(err, ResourceLimit):
        return Answer(500, {"error": error_text(err)}, EXIT_INTERNAL_ERROR)
    if isinstance(err, MemoryError):
        message = (
            "crossword: error: the search ran out of the memory a search may use on this "
            "server (crossword serve --memory MIB)"
        )
        return Answer(500, {"error": message}, EXIT_INTERNAL_ERROR)
    if isinstance(err, EngineError) or not isinstance(err, CrosswordError):
        return Answer(500, {"error": internal_error_text(err)}, EXIT_INTERNAL_ERROR)
    status = 403 if isinstance(err, Refused) else 404 if isinstance(err, NotFound) else 400
    return Answer(status, {"error": error_text(err)}, EXIT_BAD_INPUT)


def answered(work: Callable[[], Answer]) -> Answer:
    """work(), or the failure it raised as an Answer."""
    try:
        return work()
    except Exception as err:
        return failure(err)


# ---------------------------------------------------------------- the options


def option_values(command: str, body: Mapping[str, Any]) -> dict[str, Any]:
    """The options a request body gives (every key but the puzzle's), read
    as the command line reads them: `"timeout": 5` as `--timeout=5`,
    `"count": true` as `--count` (see fields.json_values). A pattern takes
    no puzzle, and its route is /api/pattern."""
    if command == "grid":
        return fields.json_values(ROUTE_FIELDS["grid"], body, "/api/pattern", frozenset())
    other = PUZZLE_KEYS | CURATION_KEYS
    return fields.json_values(ROUTE_FIELDS[command], body, f"/api/{command}", other)


# ---------------------------------------------------------------- the puzzle files

_UNSAFE_NAME = re.compile(r"[^\w.+ -]")


def _file_name(name: object, default: str) -> str:
    """A safe base name for an upload, from the name the client gave."""
    if not isinstance(name, str):
        return default
    base = _UNSAFE_NAME.sub("_", PurePosixPath(name.replace("\\", "/")).name)[:100].strip()
    return default if not base or base.startswith(".") else base


@dataclass
class Sources:
    """The puzzle files of one request, and how messages name them."""

    puzzle: str
    words: str | None
    shown_as: dict[str, str]  # real path -> the name a message shows

    def name(self, source: str) -> str:
        """`source` (a path, maybe with `#N`) as the client knows it."""
        path, hash_mark, number = source.rpartition("#")
        if hash_mark and path in self.shown_as:
            return f"{self.shown_as[path]}#{number}"
        return self.shown_as.get(source, source)

    def renamed(self, puzzle: Puzzle) -> Puzzle:
        return replace(puzzle, source=self.name(puzzle.source))

    def explained(self, err: Exception) -> Exception:
        """`err` with its file named as the client knows it."""
        if isinstance(err, InputError):
            err.source = self.name(err.source)
        return err


def _content(body: Mapping[str, Any], key: str) -> bytes | None:
    """A file's bytes sent as text (`key`) or in base64 (`key_base64`)."""
    text, encoded = body.get(key), body.get(f"{key}_base64")
    if text is not None and encoded is not None:
        raise UsageError(f'give "{key}" or "{key}_base64", not both')
    if text is not None:
        if not isinstance(text, str):
            raise UsageError(f'"{key}" must be the text of a file')
        return text.encode("utf-8", "surrogatepass")
    if encoded is None:
        return None
    try:
        return base64.b64decode(encoded if isinstance(encoded, str) else b"?", validate=True)
    except (binascii.Error, ValueError):
        raise UsageError(f'"{key}_base64" must be a file\'s bytes in base64') from None


def _file(
    body: Mapping[str, Any], files: Files, folder: Path, keys: tuple[str, str, str, str]
) -> tuple[str, str] | None:
    """The file that `keys` (content, path, name, default name) give, as a
    path to read and the name messages show; None when none is given."""
    key, path_key, name_key, default = keys
    content, path = _content(body, key), body.get(path_key)
    if content is not None and path is not None:
        raise UsageError(f'give "{key}" or "{path_key}", not both')
    if path is not None:
        return os.fspath(files.under_root(path)), str(path)
    if content is None:
        return None
    name = _file_name(body.get(name_key), default)
    folder.mkdir()
    (folder / name).write_bytes(content)
    return os.fspath(folder / name), name


PUZZLE = ("puzzle", "path", "name", "puzzle")
WORDS = ("words", "words_path", "words_name", "words")


@contextmanager
def sources(body: Mapping[str, Any], files: Files) -> Iterator[Sources]:
    """The request's puzzle (`puzzle` text, `puzzle_base64` bytes or `path`
    under the root) and word list (`words`, `words_base64` or `words_path`)
    as files, for the time of a `with`."""
    with tempfile.TemporaryDirectory(prefix="crossword-serve-") as tmp:
        puzzle = _file(body, files, Path(tmp, "puzzle"), PUZZLE)
        if puzzle is None:
            raise UsageError(
                'give the puzzle as "puzzle" (its text), "puzzle_base64" (its bytes) '
                'or "path" (a file under --root)'
            )
        words = _file(body, files, Path(tmp, "words"), WORDS)
        shown_as = {os.fspath(path): name for name, path in files.dictionaries.items()}
        shown_as.update([puzzle] + ([words] if words else []))
        found = Sources(puzzle[0], words[0] if words else None, shown_as)
        try:
            yield found
        except Exception as err:
            raise found.explained(err) from None


def request_options(
    command: str, body: Mapping[str, Any], found: Sources, files: Files, time_limit: float
) -> tuple[PuzzleOptions, SearchOptions]:
    """The puzzle and the search a request body asks for (the served
    dictionaries it names, at the server's encoding unless it gives one);
    the time limit is at most the server's. One search runs: `jobs` is
    taken, as the command takes it, and not used."""
    values = option_values(command, body)
    paths = tuple(os.fspath(path) for path in files.dictionary_paths(body.get("dict", [])))
    encoding = values["encoding"]
    if files.encoding is not None and "encoding" not in body:
        encoding = files.encoding
    # the server's --ban and --prefer curate its dictionaries; the request's, this fill
    banned = (files.banned if paths else ()) + request_words(body.get("ban"), "ban")
    preferred = (files.preferred if paths else ()) + request_words(body.get("prefer"), "prefer")
    dictionary = DictionaryOptions(paths, encoding, banned=banned, preferred=preferred)
    source = PuzzleOptions(
        found.puzzle,
        found.words,
        values["answers"],
        dictionary,
        values["grid"],
        values["format"],
    )
    search = search_options(values)
    timeout = search.timeout
    if timeout is None or timeout > time_limit:
        timeout = time_limit
    limit = search.limit
    if not search.count and (limit is None or limit > MAX_SOLUTIONS):
        limit = MAX_SOLUTIONS + 1  # one more: then the answer is known to be cut
    return source, replace(search, timeout=timeout, jobs=1, limit=limit)


# ---------------------------------------------------------------- solve and check


class Told(Progress):
    """A progress line that is never drawn: each phase and each look at the
    search under way (a Tick, about every 0.2 s) is told to `tell` instead,
    in the words the CLI's line uses (a fill worker tells the page so)."""

    def __init__(self, tell: Callable[[str], None] | None, what: str) -> None:
        super().__init__(False, what)
        self.tell = tell

    def watch(self, tick: Tick) -> None:
        super().watch(tick)
        if self.tell is not None:
            self.tell(f"{self.item or self.what}: {tick_text(tick, self.elapsed())}")

    def heard(self) -> bool:
        return self.tell is not None

    def start(self, item: str) -> None:
        super().start(item)
        if self.tell is not None:
            self.tell(item)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


class Page(jobs.Listener):
    """What the workbench hears of a job: each search's progress told to
    `tell` (Told, as "searching: ..."), each better fill to `better`, as the
    answer's `improvements` lists it."""

    def __init__(
        self, tell: Callable[[str], None] | None = None, better: Better | None = None
    ) -> None:
        self.tell = tell
        self.told_better = better

    def line(self, what: str, timeout: float | None) -> Progress:
        return Told(self.tell, "searching")

    def better(self, found: BetterFill, line: Progress) -> None:
        if self.told_better is not None:
            self.told_better(better_json(found))


def read_request(
    command: str, body: Mapping[str, Any], found: Sources, files: Files, time_limit: float
) -> tuple[Puzzles, SearchOptions]:
    """The puzzles of a request (named as the client knows them), checked
    as the command checks them before any search, and the search."""
    source, search = request_options(command, body, found, files, time_limit)
    read = read_puzzles(source, search, jobs.QUIET.notice)
    return replace(read, puzzles=[found.renamed(p) for p in read.puzzles]), search


def run_command(
    command: str,
    body: Mapping[str, Any],
    files: Files,
    time_limit: float,
    tell: Callable[[str], None] | None = None,
    better: Better | None = None,
) -> Answer:
    """POST /api/solve and /api/check: the document of `crossword COMMAND
    FILE --output json`, one per grid (a list of them for a file of several
    grids, each with its `source`), and its exit code's meaning as the
    status. `tell` hears how the search goes (a fill's progress), `better`
    each better fill as it is found (with `maximize`)."""

    def work() -> Answer:
        with sources(body, files) as found:
            read, search = read_request(command, body, found, files, time_limit)
            page = Page(tell, better)
            if command == "check":
                answers = jobs.check_read(read, search, page)
            else:
                answers = jobs.solve_read(read, search, page, streams=False)
            docs, codes = [], []
            for solved in answers:
                docs.append(json_document(solved.puzzle, solved.outcome, solved.many))
                codes.append(EXIT_BY_STATUS[solved.outcome.status])
            code = worst(codes)
            capped(docs)
            return Answer(HTTP_BY_EXIT[code], docs if len(docs) > 1 else docs[0], code)

    return answered(work)


def capped(docs: list[dict[str, Any]]) -> None:
    """Cut the documents' solutions to MAX_SOLUTIONS each and MAX_ANSWER_BYTES
    in all, from the end, marking each cut document `"truncated": true`."""
    for doc in docs:
        solutions = doc.get("solutions") or []
        if len(solutions) > MAX_SOLUTIONS:
            del solutions[MAX_SOLUTIONS:]
            doc["truncated"] = True
    sizes = [[len(json.dumps(s, ensure_ascii=False)) + 2 for s in doc.get("solutions") or []]
             for doc in docs]  # fmt: skip
    room = MAX_ANSWER_BYTES - sum(
        len(json.dumps({**doc, "solutions": []}, ensure_ascii=False)) + 32 for doc in docs
    )
    for doc, each in zip(docs, sizes, strict=True):
        kept = 0
        while kept < len(each) and each[kept] <= room:
            room -= each[kept]
            kept += 1
        if kept < len(each):
            del doc["solutions"][kept:]
            doc["truncated"] = True
            room = 0


def precheck(
    body: Mapping[str, Any], files: Files, time_limit: float, command: str = "solve"
) -> Answer | None:
    """The failure that /api/solve (or /api/`command`) would answer `body`
    with before any search (bad input, bad options, a file not served), or None."""

    def work() -> Answer:
        with sources(body, files) as found:
            read_request(command, body, found, files, time_limit)
        return Answer(200, None, 0)

    answer = answered(work)
    return None if answer.status == 200 else answer


# ---------------------------------------------------------------- patterns


def pattern(body: Mapping[str, Any], time_limit: float) -> Answer:
    """POST /api/pattern: a random grid pattern, as `crossword grid --output
    json` makes it from the options of the body (by their long names:
    `size`, `blocks`, `symmetry`, `min-length`, `seed`...). When none can be
    made, `grid` is null and `reason` says why; the exit code (1: no pattern
    can meet the request, 3: none found in the attempts or the time) is in
    the answer's header, as for solve."""

    def work() -> Answer:
        options = pattern_options(option_values("grid", body))
        limit = time_limit if options.timeout is None else min(options.timeout, time_limit)
        made = jobs.pattern(replace(options, timeout=limit))
        if made.pattern is None:
            return Answer(200, {"grid": None, "reason": made.reason}, EXIT_BY_STATUS[made.status])
        return Answer(200, made.pattern.to_json(), 0)

    return answered(work)


# ---------------------------------------------------------------- open


def _looks_p99(text: str) -> bool:
    """Whether a text without a given format reads as P-99 (its first line a
    word) rather than as a grid to fill from a dictionary."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first.isalpha() and text.count("\n\n") + text.count("\r\n\r\n") > 0


OPEN_FORMATS = FORMATS + GRID_FORMATS + EXCHANGE_FORMATS


def open_puzzles(body: Mapping[str, Any], files: Files) -> Answer:
    """POST /api/open: the grids of a puzzle file, read as `solve` reads them,
    for the page to edit: rows ('#' blocked, '.' open, letters given), the
    mode, the word list of an exact puzzle (with `answers`, a .puz or ipuz
    crossword's own answers), and what a .puz or ipuz file publishes."""

    def work() -> Answer:
        fmt = body.get("format")
        if fmt is not None and fmt not in OPEN_FORMATS:
            raise UsageError(f'"format" must be one of {", ".join(OPEN_FORMATS)}')
        unknown = set(body) - PUZZLE_KEYS - {"format", "answers"}
        if unknown:
            raise UsageError(f"unknown key {shown(repr(sorted(unknown)[0]))} for /api/open")
        with sources(body, files) as found:
            work = None if fmt is not None else workfile.document(read_bytes(found.puzzle))
            if work is not None:  # the page's own work file (or JSON export)
                name = found.name(found.puzzle)
                return Answer(200, {"grids": [workfile.read_work(work, name).grid_json()]}, 0)
            puzzles = _opened(found, cast("Format | None", fmt), body.get("answers") is True)
            grids = [_grid_json(found.renamed(_has_site(p, fmt is None))) for p in puzzles]
        return Answer(200, {"grids": grids}, 0)

    return answered(work)


NO_PUZZLE = (
    "this does not read as a puzzle: taken for a CS50 structure file (it holds '_', which "
    "CS50 reads as an open cell, and any other character as a block), it has {}; if it is "
    "a puzzle, choose its format"
)
# A row of a CS50 structure file as people write them: open cells and blocks,
# no letter or digit (a `_` inside words, as in `__init__.py`, is prose).
_STRUCTURE_ROW = re.compile(r"[^\w]*_[\W_]*")


def _has_site(puzzle: Puzzle, sniffed: bool) -> Puzzle:
    """`puzzle`, or InputError when it has nothing to fill; a text whose
    format was guessed as CS50 (any `_` in it) and holds no entry is most
    likely no puzzle at all (a README, say), and the message says so."""
    try:
        return require_site(puzzle)
    except InputError:
        if not (sniffed and puzzle.format == "cs50"):
            raise
    message = NO_PUZZLE.format("no entry of two or more open cells")
    raise InputError(message, puzzle.source) from None


def _opened(found: Sources, fmt: Format | None, answers: bool) -> list[Puzzle]:
    """The grids of a file, as solve reads it with or without --dict."""
    data = read_bytes(found.puzzle)
    exchange = fmt if fmt in EXCHANGE_FORMATS else None if fmt else sniff_exchange(data)
    if exchange is not None:
        puzzle = read_exchange(data, found.puzzle, exchange)
        return [with_answers(puzzle) if answers else puzzle]
    if answers:
        raise UsageError("the file's own answers come with a .puz or .ipuz crossword")
    if fmt in GRID_FORMATS:
        return load_grid(found.puzzle, format=fmt)
    if fmt is not None or found.words is not None:
        return [load(found.puzzle, found.words, fmt)]
    text = read_text(found.puzzle)
    if _looks_p99(text):
        return [load(found.puzzle)]
    puzzles = load_grid(found.puzzle)
    if puzzles[0].format == "cs50" and not any(map(_STRUCTURE_ROW.fullmatch, text.split("\n"))):
        message = NO_PUZZLE.format("no row of open cells and blocks alone (its '_' are in words)")
        raise InputError(message, found.name(found.puzzle))
    return puzzles


def _grid_json(puzzle: Puzzle) -> dict[str, Any]:
    """A grid for the page; from a .puz or ipuz file, what it publishes too:
    its title, author and clues, and its solution's rows (null when it has
    none that can be used), so that an export opens as it was written."""
    exact = puzzle.mode == "exact" and bool(puzzle.words)  # a crossword alone has no words
    published = puzzle.published
    return {
        "source": puzzle.source,
        "format": puzzle.format,
        "mode": "exact" if exact else "lexicon",
        "rows": list(puzzle.grid),
        "words": list(puzzle.words) if exact else None,
        "title": published.title if published else None,
        "answers": published is not None and published.solution is not None,
        "author": published.author if published else None,
        "clues": None
        if published is None
        else [
            {"number": clue.number, "direction": clue.direction, "clue": clue.text}
            for clue in published.clues
        ],
        "solution": list(published.solution) if published and published.solution else None,
    }
