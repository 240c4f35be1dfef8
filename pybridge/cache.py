"""The on-disk cache: work on a big dictionary that a repeat run can read back.

Three kinds of entry live here, each named after a hash of what it was
made from: a dictionary file's normalised words (pybridge.lexicon), a word
list's bitset tables (pybridge.bitsets) and a puzzle grammar's parse tables
(pybridge.readers); and one more, where SWI-Prolog is for the `swipl` its
header names (pybridge.bridge.session).  An entry is one line of JSON (what
its maker needs to read it back) then the body, bytes of its maker's
choosing.  Bodies are plain data, so a tampered cache runs nothing: the
library that SWI-Prolog's entry names is loaded, and a grammar's tables (a
pickle, lark's own format) are unpickled, only when the entry is signed
(see below).

The cache is untrusted.  The header also holds an HMAC of the entry's name,
header and body under a secret key that is kept outside the cache folder
(see key_path), readable by this user only: an entry someone else wrote or
edited, or copied from another machine, or put under another entry's name,
fails the check and is never read, so an edited word list cannot slip a
non-word into a fill.  A cache folder (or key folder) that is not this
user's own, or that others may write into, is not used at all.  An entry
larger than its maker could have made from its source (the caller's
`most`) is not read either.  The cache only ever saves time: any trouble
with it means doing the work again, and the folder can be deleted at any
moment.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from functools import cache
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


def key_path() -> Path | None:
    """Where the secret key that signs this user's entries lives: outside
    the cache folder, so that nothing in the cache can forge an entry:
    $XDG_STATE_HOME/crossword-pybridge/cache.key, else
    ~/.local/state/crossword-pybridge/cache.key."""
    state = os.environ.get("XDG_STATE_HOME", "")
    try:  # as for the cache, a relative $XDG_STATE_HOME is ignored
        base = Path(state) if os.path.isabs(state) else Path.home() / ".local" / "state"
    except RuntimeError:
        return None
    return base / "crossword-pybridge" / "cache.key"


KEY_BYTES = 32


def _private(folder: Path, make: bool = True) -> bool:
    """Whether `folder` (made, user-only, when missing and `make`) is a
    folder of this user's that no one else may write into."""
    if make:
        with contextlib.suppress(OSError):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        info = os.stat(folder)
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and mine and not info.st_mode & 0o022


_told: set[str] = set()


def _refuse(folder: Path, what: str) -> None:
    """Say once per process why the cache is not used."""
    if str(folder) in _told or not folder.is_dir():
        return  # a folder that cannot be made is plain trouble: no notice
    _told.add(str(folder))
    print(
        f"crossword: notice: the {what} {folder} is not yours alone (another user may write "
        "into it): the dictionary cache is not used (see docs/formats.md#the-dictionary-cache)",
        file=sys.stderr,
    )


@cache
def _key(path: Path) -> bytes | None:
    """The secret key at `path`, made (random, user-only) when missing; None
    when it cannot be made or read, or is not this user's alone."""
    if not _private(path.parent):
        _refuse(path.parent, "cache key's folder")
        return None
    if not os.path.lexists(path):  # else made already: no temporary file at every start
        _make_key(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with open(fd, "rb", buffering=0) as stream:
        info = os.fstat(fd)
        mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
        if not (stat.S_ISREG(info.st_mode) and mine and not info.st_mode & 0o077):
            _refuse(path, "cache key")
            return None
        key = stream.read(KEY_BYTES + 1)
    return key if len(key) == KEY_BYTES else None


def _make_key(path: Path) -> None:
    """Put a new random key at `path`, whole or not at all, unless another
    process does first (its key is then the one kept)."""
    import tempfile  # json, hmac and tempfile load when an entry is read or written

    with contextlib.suppress(OSError):
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".key")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(os.urandom(KEY_BYTES))
            with contextlib.suppress(FileExistsError):  # another process made it first
                os.link(temporary, path)
        finally:
            os.unlink(temporary)


def entry(name: str) -> Path | None:
    """The path of the entry `name`; None when caching is off."""
    directory = cache_dir()
    return None if directory is None else directory / name


def _signing(name: str, make: bool) -> tuple[Path, bytes] | None:
    """The entry `name`'s path and the key that signs it; None when caching
    is off or the cache folder (made when missing and `make`) or the key
    cannot be trusted."""
    path, where = entry(name), key_path()
    if path is None or where is None:
        return None
    if not _private(path.parent, make):
        _refuse(path.parent, "cache folder")
        return None
    key = _key(where)
    return None if key is None else (path, key)


def _mac(key: bytes, name: str, meta: dict[str, Any]) -> str:
    """The HMAC that binds an entry's header (which holds its body's size
    and SHA-256) to its name."""
    import hmac
    import json

    signed = hmac.new(key, name.encode("utf-8") + b"\n", hashlib.sha256)
    signed.update(json.dumps(meta, sort_keys=True).encode("utf-8"))
    return signed.hexdigest()


# The largest entry read back whatever its caller allows (the words or tables
# of a dictionary at its size limit, pybridge.readers.LIMITS_MB, stay well
# below it), and the longest header line.
MAX_ENTRY_BYTES = 2 << 30
MAX_HEADER_BYTES = 64 << 20


def _read_signed(
    path: Path, name: str, key: bytes, most: int
) -> tuple[dict[str, Any], bytes] | None:
    """The header and body of the entry at `path`, if it is a regular file
    of at most `most` bytes whose header is signed by `key` for `name` and
    whose body is the size and digest the header gives.  The header is read
    and checked first: a file larger than its signed header says (a sparse
    one, say) is never read whole, nor is a FIFO or a device read at all."""
    import hmac
    import json

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with open(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > min(most, MAX_ENTRY_BYTES):
            return None
        header = stream.readline(MAX_HEADER_BYTES)
        meta = json.loads(header)
        if not isinstance(meta, dict):
            return None
        mac = meta.pop("mac", None)
        if not isinstance(mac, str) or not hmac.compare_digest(mac, _mac(key, name, meta)):
            return None
        size = meta.get("size")
        if not isinstance(size, int) or info.st_size != len(header) + size:
            return None
        body = stream.read(size + 1)
    if len(body) != size or hashlib.sha256(body).hexdigest() != meta.get("sha256"):
        return None
    return meta, body


def read(name: str, most: int = MAX_ENTRY_BYTES) -> tuple[dict[str, Any], bytes] | None:
    """The header and body of the entry `name`; None if caching is off or
    the entry is missing, damaged, not signed by this user's key, larger
    than `most` bytes (what its maker could have made from its source), or
    not a regular file (a FIFO or a device in its place is ignored, never
    read: the caller then does the work again and writes a good entry over it)."""
    signing = _signing(name, make=False)
    if signing is None:
        return None
    path, key = signing
    try:
        found = _read_signed(path, name, key, most)
    except (OSError, ValueError, RecursionError):
        return None
    if found is None:
        return None
    meta, body = found
    del meta["size"], meta["sha256"]
    return meta, body


def write(name: str, meta: dict[str, Any], body: bytes) -> None:
    """Write the entry `name` whole or not at all: readers, and other writers
    of the same entry, only ever see a finished one.  Errors are swallowed:
    without the entry the next run is only slower."""
    import json
    import tempfile

    signing = _signing(name, make=True)
    if signing is None:
        return
    path, key = signing
    meta = {**meta, "size": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    header = json.dumps({**meta, "mac": _mac(key, name, meta)})
    with contextlib.suppress(OSError):
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(header.encode("utf-8") + b"\n" + body)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
