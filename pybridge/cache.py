"""The on-disk cache: work on a big dictionary that a repeat run can read back.

Two kinds of entry live here, each named after a hash of what it was made
from: a dictionary file's normalised words (pybridge.lexicon) and a word
list's bitset tables (pybridge.bitsets).  An entry is one line of JSON (what its maker needs to
read it back, and the SHA-256 of the rest, which catches a truncated or
damaged entry) then the body, bytes of its maker's choosing.  Bodies are
plain data, never code, so a shared or tampered cache runs nothing.  The
cache only ever saves time: any trouble with it means doing the work again,
and the directory can be deleted at any moment.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any


def cache_dir() -> Path | None:
    """Where cache entries live: CROSSWORD_CACHE_DIR, else
    $XDG_CACHE_HOME/crossword-pybridge, else ~/.cache/crossword-pybridge;
    None when CROSSWORD_NO_CACHE is set (to anything but 0)."""
    if os.environ.get("CROSSWORD_NO_CACHE", "") not in ("", "0"):
        return None
    chosen = os.environ.get("CROSSWORD_CACHE_DIR", "")
    if chosen:
        return Path(chosen)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    try:  # the XDG spec says a relative $XDG_CACHE_HOME is to be ignored
        base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    except RuntimeError:  # no home directory to be found
        return None
    return base / "crossword-pybridge"


def entry(name: str) -> Path | None:
    """The path of the entry `name`; None when caching is off."""
    directory = cache_dir()
    return None if directory is None else directory / name


# The largest entry read back: the words or tables of a dictionary at its
# size limit (pybridge.readers.LIMITS_MB) stay well below it.
MAX_ENTRY_BYTES = 2 << 30


def _read_regular(path: Path) -> bytes | None:
    """The bytes of `path` if it is a regular file of at most MAX_ENTRY_BYTES;
    None for a FIFO, a device, a folder or an oversized file (never blocking)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, "rb", buffering=0) as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES:
            return None
        data = stream.read(info.st_size + 1)
        while len(data) <= info.st_size:  # a short read: read on, bounded
            more = stream.read(info.st_size + 1 - len(data))
            if not more:
                break
            data += more
    return data if len(data) == info.st_size else None


def read(name: str) -> tuple[dict[str, Any], bytes] | None:
    """The header and body of the entry `name`; None if caching is off or
    the entry is missing, damaged, or not a regular file of a sane size (a
    FIFO or a device in its place is ignored, never read: the caller then
    does the work again and writes a good entry over it)."""
    path = entry(name)
    if path is None:
        return None
    try:
        data = _read_regular(path)
        if data is None:
            return None
        header, _, body = data.partition(b"\n")
        meta = json.loads(header)
        if not isinstance(meta, dict) or meta.get("sha256") != hashlib.sha256(body).hexdigest():
            return None
    except (OSError, ValueError, RecursionError):
        return None
    return meta, body


def write(name: str, meta: dict[str, Any], body: bytes) -> None:
    """Write the entry `name` whole or not at all: readers, and other writers
    of the same entry, only ever see a finished one.  Errors are swallowed:
    without the entry the next run is only slower."""
    path = entry(name)
    if path is None:
        return
    header = json.dumps({**meta, "sha256": hashlib.sha256(body).hexdigest()})
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(header.encode("utf-8") + b"\n" + body)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
