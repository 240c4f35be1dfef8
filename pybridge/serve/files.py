"""What the server may read, and nothing else: the files under --root (by a
path relative to it) and the --dict files (by name).

A path from a request is refused before anything is opened when it is
absolute, climbs out (`..`), names a hidden file or folder (`.git`, `.env`)
or holds a character no file name has; it is then resolved with every
symbolic link followed, and refused unless the real file still lies under
the real root, and unless it has a single name (a hard link cannot be told
from its original, which may lie anywhere). Listing the root follows the
same rules.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from pybridge.curation import curated
from pybridge.errors import CrosswordError, UsageError, shown
from pybridge.lexicon import Dictionary, load_dictionary

MAX_LISTED = 2000  # files listed under the root, at most
MAX_DEPTH = 6  # folders below the root that are listed


class Refused(CrosswordError):
    """A request for a file the server does not serve (HTTP 403)."""


class NotFound(CrosswordError):
    """A file or fill that does not exist (HTTP 404)."""


def _relative_parts(name: str) -> tuple[str, ...]:
    """The parts of a path under the root; Refused for any other path."""
    if not isinstance(name, str) or not name.strip():
        raise Refused("expected a file path relative to the served folder (--root)")
    if "\x00" in name or "\\" in name or not name.isprintable():
        raise Refused(f"not a file path: {shown(repr(name))}")
    path = PurePosixPath(name)
    if path.is_absolute():
        raise Refused(f"{shown(name)}: only paths relative to the served folder are served")
    parts = tuple(part for part in path.parts if part != ".")
    if ".." in parts:
        raise Refused(f"{shown(name)}: '..' would leave the served folder")
    if any(part.startswith(".") for part in parts):
        raise Refused(f"{shown(name)}: hidden files and folders are not served")
    if not parts:
        raise Refused(f"{shown(name)}: this is the served folder, not a file")
    return parts


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _hard_linked(path: Path) -> bool:
    """Whether a file has other names: a hard link cannot be told from its
    original, and one under the root may be a file from anywhere."""
    try:
        return os.stat(path).st_nlink > 1
    except OSError:
        return False


@dataclass(frozen=True)
class Files:
    """The served folder (None: no file is served) and the dictionaries by
    name (each file's base name; the path as given when two share one)."""

    root: Path | None = None
    dictionaries: Mapping[str, Path] = field(default_factory=dict)
    encoding: str | None = None
    banned: tuple[str, ...] = ()  # words no fill uses (serve --ban)
    preferred: tuple[str, ...] = ()  # words scoring more (serve --prefer)

    @classmethod
    def make(cls, root: str | None, dicts: Sequence[str], encoding: str | None = None) -> Files:
        """Check the root folder and name the dictionaries; UsageError when
        the root is not a folder."""
        real_root = None
        if root is not None:
            real_root = Path(os.path.realpath(root))
            if not real_root.is_dir():
                raise UsageError(f"--root {shown(root)}: not a folder")
        names: dict[str, Path] = {}
        bases = [Path(path).name for path in dicts]
        for path, base in zip(dicts, bases, strict=True):
            name = base if bases.count(base) == 1 else path
            names.setdefault(name, Path(path))
        return cls(real_root, names, encoding)

    # ------------------------------------------------------------ the root

    def under_root(self, name: str) -> Path:
        """The real path of the file `name` under the root; Refused when it is
        not there to serve, NotFound when there is no such file."""
        if self.root is None:
            raise Refused("this server serves no files: start it with --root DIR")
        parts = _relative_parts(name)
        real = Path(os.path.realpath(self.root.joinpath(*parts)))
        if not _inside(real, self.root):
            raise Refused(f"{shown(name)}: a link that leads out of the served folder")
        if not real.is_file():
            raise NotFound(f"{shown(name)}: no such file under the served folder")
        if _hard_linked(real):
            raise Refused(
                f"{shown(name)}: a file with several hard links is not served (its other "
                "names may lie outside the served folder): copy it in instead"
            )
        return real

    def listing(self) -> list[str]:
        """The files under the root (relative paths, sorted), without hidden
        ones and links that lead out; at most MAX_LISTED."""
        if self.root is None:
            return []
        found: list[str] = []
        for folder, subfolders, names in os.walk(self.root):
            here = Path(folder)
            depth = len(here.relative_to(self.root).parts)
            subfolders[:] = sorted(
                d for d in subfolders if not d.startswith(".") and depth < MAX_DEPTH
            )
            for name in sorted(names):
                if name.startswith("."):
                    continue
                real = Path(os.path.realpath(here / name))
                if _inside(real, self.root) and real.is_file() and not _hard_linked(real):
                    found.append((here / name).relative_to(self.root).as_posix())
                    if len(found) >= MAX_LISTED:
                        return found
        return found

    # ------------------------------------------------------------ dictionaries

    def dictionary_paths(self, names: object) -> list[str]:
        """The files of the dictionaries `names` (a list of names served by
        --dict); Refused for a name the server does not serve."""
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise UsageError('"dict" must be a list of dictionary names')
        paths = []
        for name in names:
            if name not in self.dictionaries:
                served = ", ".join(self.dictionaries) or "none (start the server with --dict FILE)"
                raise Refused(f"no dictionary {shown(repr(name))} here; served: {served}")
            paths.append(os.fspath(self.dictionaries[name]))
        return paths

    def dictionary(
        self, names: Sequence[str], ban: Sequence[str] = (), prefer: Sequence[str] = ()
    ) -> Dictionary:
        """The merged dictionaries `names`, less the server's banned words
        and a request's `ban`, its preferred words and a request's `prefer`
        scoring more; kept in memory (the candidate lists ask for them at
        every keystroke; each file is read once, whatever the curation)."""
        paths = tuple(self.dictionary_paths(list(names)))
        banned, preferred = self.banned + tuple(ban), self.preferred + tuple(prefer)
        return _curated(paths, self.encoding, banned, preferred)


@lru_cache(maxsize=4)
def _loaded(paths: tuple[str, ...], encoding: str | None) -> Dictionary:
    return load_dictionary(paths, encoding)


@lru_cache(maxsize=8)
def _curated(
    paths: tuple[str, ...],
    encoding: str | None,
    banned: tuple[str, ...],
    preferred: tuple[str, ...],
) -> Dictionary:
    return curated(_loaded(paths, encoding), banned, preferred)
