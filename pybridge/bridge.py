"""The one door to SWI-Prolog (via pyswip).

Only integers, fixed atoms and lists cross it: words travel as code lists and
cells as Row-Col pairs, so no puzzle text is ever read as Prolog source. pyswip
is imported on first use, so `import pybridge` never loads libswipl. pyswip
cannot serve two threads at once; a lock makes callers take turns.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pybridge.errors import MissingDependency
from pybridge.model import Cell
from pybridge.resources import prolog_path

STRATEGIES = ("given", "sorted", "mrv", "ac3", "lcv", "cs50", "cbj", "wdeg")
INSTALL_HINT = (
    "SWI-Prolog is needed for --engine prolog: install it with "
    "'apt-get install swi-prolog-nox' (or run ./setup.sh), or use --engine python"
)

MASK_CHUNK = 4096  # bits per piece of a big mask sent to wdeg.pl (see _mask)
_lock = threading.Lock()
_prolog: Any = None


@dataclass(frozen=True)
class RawResult:
    """What run/4 answered, as plain Python values."""

    status: str
    solutions: list[list[str]]  # per solution: the word of each site, in site order
    count: int
    nodes: int
    backtracks: int


def _engine() -> Any:
    """The Prolog instance with crossword.pl loaded; raises MissingDependency."""
    global _prolog
    if _prolog is None:
        try:
            from pyswip import Prolog
        except Exception as exc:  # pyswip raises several kinds when libswipl is absent
            raise MissingDependency(f"{INSTALL_HINT} ({exc})") from None
        prolog = Prolog()
        prolog.consult(str(prolog_path("crossword.pl")), catcherrors=True)
        _prolog = prolog
    return _prolog


def available() -> bool:
    """True when SWI-Prolog can be loaded (loads it as a side effect)."""
    try:
        _engine()
    except MissingDependency:
        return False
    return True


def _codes(text: str) -> str:
    return "[" + ",".join(str(ord(ch)) for ch in text) + "]"


def _cells(cells: Sequence[Cell]) -> str:
    return "[" + ",".join(f"{r}-{c}" for r, c in cells) + "]"


def _mode(limit: int | None, count: bool) -> str:
    if count:
        return "count"
    return "all" if limit is None else f"first({int(limit)})"


def _seed(seed: int | None) -> str:
    return "none" if seed is None else str(int(seed))


def _time_limit(timeout: float | None) -> str:
    return "none" if timeout is None else repr(float(timeout))


def search(
    words: Sequence[str],
    sites: Sequence[Sequence[Cell]],
    givens: Mapping[Cell, str],
    strategy: str,
    limit: int | None = 1,
    count: bool = False,
    timeout: float | None = None,
    seed: int | None = None,
) -> RawResult:
    """Load the puzzle into Prolog, search it, and forget it again."""
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}")
    listed = () if strategy == "wdeg" else words  # wdeg reads a dictionary loaded once
    load = "crossword:load_puzzle([{}],[{}],[{}])".format(
        ",".join(_codes(w) for w in listed),
        ",".join(_cells(s) for s in sites),
        ",".join(f"g({r},{c},{ord(ch)})" for (r, c), ch in givens.items()),
    )
    with _lock:
        prolog = _engine()
        if strategy == "wdeg":
            strategy = f"wdeg({_dictionary(prolog, words)})"
        options = f"{_seed(seed)},{_mode(limit, count)},{_time_limit(timeout)}"
        query = f"{load}, crossword:run({strategy},{options},R), R = result(S,L,C,N,B)"
        try:
            answers = list(prolog.query(query, maxresult=1))
        finally:
            list(prolog.query("crossword:reset", maxresult=1))
    answer = answers[0]
    lengths = [len(cells) for cells in sites]
    return RawResult(
        status=str(answer["S"]),
        solutions=[_split(_text(joined), lengths) for joined in answer["L"]],
        count=int(answer["C"]),
        nodes=int(answer["N"]),
        backtracks=int(answer["B"]),
    )


def load_dictionary(words: Sequence[str]) -> None:
    """Send `words` to wdeg.pl now, if it does not hold them yet, so that the
    first wdeg search with them is not charged for it (bench does this)."""
    with _lock:
        _dictionary(_engine(), words)


def _dictionary(prolog: Any, words: Sequence[str]) -> int:
    """The key of `words` as wdeg.pl keeps them, loading them first if this
    Prolog thread does not have them yet (the tables go over once, not per grid)."""
    key = dictionary_key(words)
    if not list(prolog.query(f"wdeg:dictionary_loaded({key})", maxresult=1)):
        list(prolog.query(f"wdeg:load_dictionary({key},[{_tables(words)}])", maxresult=1))
    return key


def dictionary_key(words: Sequence[str]) -> int:
    """A 64-bit digest of the word list (order and repeats included)."""
    return _digest(tuple(words))


@lru_cache(maxsize=4)  # a big dictionary takes tens of ms to digest, once per grid
def _digest(words: tuple[str, ...]) -> int:
    digest = hashlib.blake2b(digest_size=8)
    for word in words:
        digest.update(len(word).to_bytes(4, "little"))
        digest.update(word.encode("utf-8", "surrogatepass"))
    return int.from_bytes(digest.digest(), "little")


def _tables(words: Sequence[str]) -> str:
    """wdeg's tables as load_dictionary/2 takes them: only digits, code lists
    and fixed functors, so no word is ever read as Prolog source."""
    from pybridge.bitsets import tables

    return ",".join(
        "t({},[{}],[{}],[{}])".format(
            n,
            ",".join(_codes(w) for w in table.words),
            ",".join(map(str, table.copies)),
            ",".join(
                "[" + ",".join(f"{ord(c)}-{_mask(m)}" for c, m in position.items()) + "]"
                for position in table.masks
            ),
        )
        for n, table in tables(tuple(words)).items()
    )


def _mask(mask: int) -> str:
    """A bitset as Prolog reads it fast: hex, cut into MASK_CHUNK-bit pieces
    (most significant first) when longer, since Prolog's reader takes time
    quadratic in the digits of one number."""
    if mask.bit_length() <= MASK_CHUNK:
        return f"0x{mask:x}"
    low = (1 << MASK_CHUNK) - 1
    pieces = []
    while mask:
        pieces.append(f"0x{mask & low:x}")
        mask >>= MASK_CHUNK
    return "[" + ",".join(reversed(pieces)) + "]"


def _text(value: bytes | str) -> str:
    """pyswip hands SWI strings over as UTF-8 bytes."""
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _split(joined: str, lengths: Sequence[int]) -> list[str]:
    """The words of a solution, from their concatenation in site order."""
    words, start = [], 0
    for n in lengths:
        words.append(joined[start : start + n])
        start += n
    return words
