"""The Python engine's hot modules, compiled with mypyc when a current build
of them is here, else the very same .py files interpreted.

The .py files are the source either way: `./setup.sh` compiles MODULES into
extension modules beside them, and NATIVE, the small C file that answers
bitops.py's questions without building ints, beside its .py (`build()`; it
needs a C compiler and the Python headers, and without them the package
stays interpreted). The search is the same node for node in both forms
(tests/test_compiled.py, tests/test_bitops.py); compiled, each node costs
fewer instructions (docs/benchmarks.md, "Compiled search", "bitops in C").

Python imports an extension module before a .py file of the same name, so
`select()`, run when this module is imported (pybridge/__init__.py imports
it before any other module of the package), makes MODULES and NATIVE load
from their .py files instead when the build is missing, older than the
sources (its stamp keeps a digest of them), or CROSSWORD_INTERPRETED is
set; `form()` says which is in use (`crossword --version` prints it).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
# compiled together, as one group (a native class may only subclass a native
# class: wdeg's and valued's Search subclass arcs.Net)
MODULES = (
    "pybridge.bitsets",
    "pybridge.search.arcs",
    "pybridge.search.wdeg",
    "pybridge.search.valued",
)
# written in C beside their .py file (module.c), built with MODULES and used
# with them: one build, one form
NATIVE = ("pybridge.bitops",)
BUILT = (*MODULES, *NATIVE)
GROUP = "pybridge._compiled"  # mypyc's runtime for the group: pybridge/_compiled__mypyc*.so
STAMP = PACKAGE / "_compiled.stamp"  # written by build(): the digest of the sources it compiled
INTERPRETED = "CROSSWORD_INTERPRETED"  # set (to anything but "" or 0): never the compiled form


def source(module: str) -> Path:
    """The .py file of one of MODULES."""
    return PACKAGE.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digest() -> str:
    """The SHA-256 of the sources of MODULES and NATIVE (C and .py), in order."""
    sha = hashlib.sha256()
    for module in BUILT:
        sha.update(source(module).read_bytes())
    for module in NATIVE:
        sha.update(source(module).with_suffix(".c").read_bytes())
    return sha.hexdigest()


def _extension(module: str) -> Path | None:
    """The built extension module of one of BUILT, if there is one for
    this Python."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = source(module).with_suffix(suffix)
        if path.exists():
            return path
    return None


def why_interpreted(ignore_environment: bool = False) -> str | None:
    """Why MODULES load from their .py files; None if their build is used
    (with `ignore_environment`: would be, were CROSSWORD_INTERPRETED unset)."""
    if not ignore_environment and os.environ.get(INTERPRETED, "") not in ("", "0"):
        return f"{INTERPRETED} is set"
    if any(_extension(module) is None for module in BUILT):
        return "no compiled build: ./setup.sh makes one where a C compiler is found"
    try:
        stamp: str | None = STAMP.read_text(encoding="utf-8").strip()
    except OSError:
        stamp = None
    if stale(stamp):
        return "the compiled build is older than the source: ./setup.sh rebuilds it"
    return None


def stale(stamp: str | None) -> bool:
    """Whether a build whose stamp is `stamp` (None: none) was compiled from
    other sources than those here."""
    return stamp != digest()


class _FromSource:
    """Finds BUILT as their .py files, ahead of any extension module."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in BUILT:
            return None
        return importlib.util.spec_from_file_location(fullname, source(fullname))


_reason: str | None = None
COMPILED_FORM = "search compiled with mypyc, bitops in C"


def select() -> None:
    """Have BUILT load from their .py files unless their build is present
    and current (called once, before any of them is imported)."""
    global _reason
    _reason = why_interpreted()
    if _reason is not None and not any(isinstance(f, _FromSource) for f in sys.meta_path):
        sys.meta_path.insert(0, _FromSource())


def form() -> str:
    """Which form of the search is in use, and why, in a few words."""
    from pybridge import bitops  # imported here, after select()
    from pybridge.search import arcs

    if any(Path(m.__file__ or "").suffix == ".py" for m in (arcs, bitops)):
        return f"search interpreted ({_reason or 'the compiled build did not load'})"
    return COMPILED_FORM


def in_use() -> bool:
    """Whether the search runs compiled (form() says so)."""
    return form() == COMPILED_FORM


def build() -> None:
    """Compile MODULES with mypyc, and NATIVE from their C files, into
    extension modules beside their sources, and write the stamp. Needs mypy
    (which carries mypyc), setuptools, a C compiler and the Python headers."""
    import tempfile

    from mypyc.build import mypycify
    from setuptools import Extension, setup

    STAMP.unlink(missing_ok=True)
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="crossword-build-") as work:
        # built from a folder of its own holding only the package (a link to
        # it): setuptools would otherwise read this project's pyproject.toml
        os.symlink(PACKAGE, Path(work, "pybridge"))
        os.chdir(work)
        try:
            sources = [str(Path("pybridge", *m.split(".")[1:]).with_suffix(".py")) for m in MODULES]
            # only the compiled modules' own type errors matter here (mypy
            # strict checks the whole package elsewhere)
            flags = ["--ignore-missing-imports", "--follow-imports=silent"]
            extensions = mypycify([*flags, *sources], opt_level="3", group_name=GROUP)
            for module in NATIVE:
                c = Path("pybridge", *module.split(".")[1:]).with_suffix(".c")
                extensions.append(Extension(module, [str(c)]))
            setup(
                name="crossword-compiled",
                packages=[],
                py_modules=[],
                ext_modules=extensions,
                script_args=["--quiet", "build_ext", "--inplace"],
            )
        finally:
            os.chdir(here)
    STAMP.write_text(digest() + "\n", encoding="utf-8")


def clean() -> None:
    """Remove the compiled build (the package is then interpreted)."""
    for module in BUILT:
        while (path := _extension(module)) is not None:
            path.unlink()
    for path in PACKAGE.glob(GROUP.split(".")[-1] + "__mypyc*"):
        path.unlink()
    STAMP.unlink(missing_ok=True)


select()
