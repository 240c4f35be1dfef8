"""The journal of a split search (solve --split --journal FILE): one JSON
object a line, written as each cube's verdict comes and flushed to the disk,
so that a run stopped after hours (Ctrl-C, a crash, a reboot) loses at most
the cubes under way, and `--resume` redoes none that finished
(docs/cli.md#the-journal).

The first line is the header: what was split (the grid, a digest of the
dictionary, the seed, the depth) and the split itself (every cube's
placements, and the counts of the refuted ones), so a resumed run needs no
split again and cannot mix two puzzles. Each later line is a cube's verdict
(CubeVerdict.to_json). A last line cut short by a crash is ignored."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from pybridge.cubes import Cube, Split
from pybridge.errors import InputError, OutputError, UsageError
from pybridge.model import Puzzle
from pybridge.service.cubes import WHOLE, CubeVerdict

KIND = "crossword split journal"
VERSION = 1


def words_digest(words: tuple[str, ...]) -> str:
    """A digest of a word list, in order: the same list, the same digest."""
    digest = hashlib.blake2b(digest_size=16)
    for word in words:
        digest.update(word.encode("utf-8", "surrogatepass") + b"\n")
    return digest.hexdigest()


def identity(puzzle: Puzzle, seed: int | None, asked: dict[str, int | None]) -> dict[str, Any]:
    """What a journal is of: the grid, the words, the seed, the split asked."""
    return {
        "grid": list(puzzle.grid),
        "mode": puzzle.mode,
        "words": len(puzzle.words),
        "words_digest": words_digest(puzzle.words),
        "seed": seed,
        "split": asked,
    }


def header(ident: dict[str, Any], the_split: Split) -> dict[str, Any]:
    return {
        "journal": KIND,
        "version": VERSION,
        **ident,
        "split_engine": the_split.engine,
        "depth": the_split.depth,
        "split_nodes": the_split.nodes,
        "split_backtracks": the_split.backtracks,
        "split_seconds": round(the_split.seconds, 4),
        "root_failed": the_split.root_failed,
        "refuted_at_split": [[list(p) for p in path] for path in the_split.refuted],
        "cubes": [[list(p) for p in cube.placements] for cube in the_split.cubes],
    }


def read(path: str) -> tuple[dict[str, Any], dict[int, CubeVerdict]]:
    """A journal's header and its verdicts by cube (the last of each cube)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise InputError(f"cannot read the journal: {err.strerror}", path) from None
    lines = text.split("\n")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError:
        raise InputError("not a journal of crossword solve --split", path, 1) from None
    if not isinstance(head, dict) or head.get("journal") != KIND:
        raise InputError("not a journal of crossword solve --split", path, 1)
    if head.get("version") != VERSION:
        raise InputError(f"a journal of version {head.get('version')}, not {VERSION}", path, 1)
    verdicts: dict[int, CubeVerdict] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            verdict = CubeVerdict.from_json(json.loads(line))
        except (json.JSONDecodeError, KeyError, ValueError, TypeError):
            if number == len(lines) or (number == len(lines) - 1 and not lines[-1]):
                continue  # the last line, cut short by a crash
            raise InputError("expected a cube's verdict (a JSON object)", path, number) from None
        if verdict.number != WHOLE and not 0 <= verdict.number < len(head["cubes"]):
            raise InputError(f"cube {verdict.number} is not in the split", path, number)
        verdicts[verdict.number] = verdict
    return head, verdicts


def split_from(head: dict[str, Any], engine: str) -> Split:
    """The split a journal's header holds."""
    cubes = tuple(
        Cube(i, tuple((int(s), str(w)) for s, w in path)) for i, path in enumerate(head["cubes"])
    )
    refuted = tuple(tuple((int(s), str(w)) for s, w in path) for path in head["refuted_at_split"])
    return Split(
        "split",
        cubes,
        refuted,
        bool(head["root_failed"]),
        int(head["depth"]),
        head["seed"],
        str(head.get("split_engine") or engine),
        int(head["split_nodes"]),
        int(head["split_backtracks"]),
        float(head["split_seconds"]),
    )


def check_same(head: dict[str, Any], ident: dict[str, Any], path: str) -> None:
    """UsageError when the journal is of another grid, word list, seed or split."""
    for key, value in ident.items():
        if head.get(key) != value:
            raise UsageError(
                f"{path} is the journal of another search (its {key.replace('_', ' ')} "
                "differs): give another --journal file, or the options it was made with"
            )


class Writer:
    """Appends lines to a journal, each flushed to the disk."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def line(self, data: dict[str, Any]) -> None:
        try:
            self.stream.write(json.dumps(data, ensure_ascii=False) + "\n")
            self.stream.flush()
            os.fsync(self.stream.fileno())
        except OSError as err:
            raise OutputError(f"cannot write the journal: {err.strerror}") from None

    def verdict(self, verdict: CubeVerdict) -> None:
        self.line(verdict.to_json())


@contextmanager
def opened(path: str, fresh: dict[str, Any] | None) -> Iterator[Writer]:
    """A Writer appending to the journal at `path`; with `fresh` (a new
    journal's header), the file is made anew with it first."""
    try:
        stream = open(path, "w" if fresh is not None else "a", encoding="utf-8")  # noqa: SIM115
    except OSError as err:
        raise OutputError(f"cannot write the journal {path}: {err.strerror}") from None
    with stream:
        writer = Writer(stream)
        if fresh is not None:
            writer.line(fresh)
        yield writer
