"""Batches of puzzles (`make --count N`, `wordsearch make --count N`):
made on a Dask cluster by pybridge.service.batch, each verified, written
to a folder with an index (docs/cli.md#batches)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from pybridge.commands.common import out, written
from pybridge.errors import OutputError, UsageError, shown
from pybridge.service import batch
from pybridge.service.answers import EXIT_BY_STATUS

INDEX = "index.json"


def folder_for(path: str | None) -> Path:
    """The batch's folder: made if missing; refused if it holds files."""
    if path is None:
        raise UsageError("--count N writes its puzzles to a folder: give it with --folder DIR")
    folder = Path(path)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"--folder {shown(path)}: not an empty folder (a batch never overwrites)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise OutputError(f"cannot make the folder {path}: {err.strerror}") from None
    return folder


def write_batch(
    folder: Path,
    kind: tuple[str, str, str],
    made: Iterator[tuple[batch.Order, Any]],
    entry: Callable[[batch.Order, Any], tuple[dict[str, Any], str | None, dict[str, Any]]],
    settings: dict[str, Any],
    count: int,
) -> int:
    """Write each puzzle as it comes (STEM-001.txt and .json; `kind` is
    the stem, the noun and its plural), tell it on stdout, then the index;
    the exit code (the worst puzzle's)."""
    stem, noun, nouns = kind
    index: list[dict[str, Any]] = []
    statuses: list[str] = []
    seen: dict[str, int] = {}  # each text written, and its puzzle's number
    for order, puzzle in made:
        row, text, document = entry(order, puzzle)
        name = f"{stem}-{order.number + 1:03d}"
        if text is not None and text in seen:
            first = seen[text]
            row = {**row, "status": "repeat", "summary": f"the same as puzzle {first}: not written"}
            text = None
        if text is not None:
            seen[text] = order.number + 1
            body = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
            _write(folder / f"{name}.txt", text + "\n")
            _write(folder / f"{name}.json", body)
            row = {**row, "text": f"{name}.txt", "json": f"{name}.json", "verified": True}
        index.append({"number": order.number + 1, "seed": order.seed, **row})
        statuses.append(row["status"])
        out(f"{order.number + 1}: {row['summary']}")
    made_count = sum(s == "solved" for s in statuses)
    doc = {"kind": stem, "count": count, "made": made_count, **settings, "puzzles": index}
    index_path = folder / INDEX
    _write(index_path, json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    made_noun = f"{made_count} {noun if made_count == 1 else nouns}"
    out(f"wrote {made_noun} of {count} to {folder} (index: {index_path})")
    for worst in ("timeout", "unsolvable"):
        if worst in statuses or (worst == "timeout" and "repeat" in statuses):
            return EXIT_BY_STATUS[worst]
    return EXIT_BY_STATUS["solved"]


def _write(path: Path, text: str) -> None:
    written("a file of the batch", str(path), lambda: path.write_text(text, encoding="utf-8"))


def told_seed(seed: int | None, again: str) -> int:
    first = batch.first_seed(seed)
    if seed is None:
        print(f"seed {first} ({again} --seed {first} makes this batch again)", file=sys.stderr)
    return first
