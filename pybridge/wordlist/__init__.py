"""The scored word list that ships with the package: the default dictionary
of `make`, of `solve` on a grid and of `serve`.

Scores follow the `WORD;score` convention of Crossfire and ingrid_core, 0-100:

- GOOD (50) and above: use without hesitation - familiar words and phrases;
- ACCEPTABLE (25) to 49: acceptable - less familiar words, names, some
  crosswordese;
- below 25: crosswordese, partials, abbreviations and junk, which an editor
  would send back.

The list is built by `python -m pybridge.wordlist.build` (see that module
and README.md beside this file for its sources and licences).
"""

from __future__ import annotations

from pathlib import Path

GOOD = 50
ACCEPTABLE = 25
LIST_PATH = Path(__file__).resolve().parent / "words.txt"
# The default ban list: the list's offensive entries (slurs, vulgarity), left
# out of it unless a run opts out; made from offensive.txt by the build.
BANNED_PATH = LIST_PATH.parent / "banned.txt"

__all__ = ["ACCEPTABLE", "BANNED_PATH", "GOOD", "LIST_PATH"]
