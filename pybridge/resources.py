"""Where the grammar and Prolog files live: inside the installed package (a
wheel ships them there) or, for a checkout or an editable install, at the top
of the repository."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The directory `grammar` or `prolog`, wherever this install keeps it."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"cannot find the {name}/ directory next to {_PACKAGE}")


def grammar_path(name: str) -> Path:
    return resource_dir("grammar") / name


def prolog_path(name: str) -> Path:
    return resource_dir("prolog") / name
