"""How a puzzle, its words and a dictionary cross to Prolog, and how the
answers come back: text made here and put as Prolog strings (never read as
terms), control terms we write ourselves (integers, fixed atoms), and the
solutions split back into words (see crossword:solve/8,
arcs:load_dictionary_text/2,3 and kernel:load_scores_text/2). Plain Python:
nothing here touches pyswip.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from functools import lru_cache

from pybridge.bitsets import line_joined, table_scores, tables
from pybridge.errors import UsageError
from pybridge.model import Cell

CELL_BASE = 256  # a coordinate n travels as the character U+(256 + n); see solve/8


_MAX_COORDINATE = 0xD800 - CELL_BASE - 1  # the surrogates are no characters


def _lines(words: Sequence[str]) -> str:
    """The words joined by line breaks; a ValueError if a word holds one."""
    joined = line_joined(words)
    if joined is None:
        broken = next(word for word in words if "\n" in word)
        raise ValueError(f"a word cannot hold a line break: {broken!r}")
    return joined


def words_text(words: Sequence[str]) -> str:
    """One word per line."""
    return _lines(words) + "\n" if words else ""


def _end_to_end(words: Sequence[str]) -> str:
    """Words of one length on one line, with nothing between them."""
    return _lines(words).replace("\n", "")


class _CellTexts(dict[Cell, str]):
    """Each cell's two characters, made once: the same cells come again and
    again, and a plain dict lookup costs half an lru_cache call."""

    def __missing__(self, cell: Cell) -> str:
        r, c = cell
        if not (0 <= r <= _MAX_COORDINATE and 0 <= c <= _MAX_COORDINATE):
            raise UsageError(
                f"the Prolog engine takes rows and columns up to {_MAX_COORDINATE:,}"
                f" (counted from 0; this puzzle has cell {r},{c}): use --engine python"
            )
        if len(self) >= 1 << 16:  # bounded, as the cells of huge grids could be many
            self.clear()
        text = self[cell] = chr(CELL_BASE + r) + chr(CELL_BASE + c)
        return text


_cell_text = _CellTexts().__getitem__


def sites_text(sites: Sequence[Sequence[Cell]]) -> str:
    return "".join(["".join(map(_cell_text, cells)) + "\n" for cells in sites])


def givens_text(givens: Mapping[Cell, str]) -> str:
    return "".join(_cell_text(cell) + ch for cell, ch in givens.items())


def mode(limit: int | None, count: bool) -> str:
    if count:
        return "count"
    return "all" if limit is None else f"first({int(limit)})"


def seed(seed: int | None) -> str:
    return "none" if seed is None else str(int(seed))


def time_limit(timeout: float | None) -> str:
    return "none" if timeout is None else repr(float(timeout))


def limits(timeout: float | None, node_limit: int | None) -> str:
    """A search's time limit, and its node limit when it has one
    (crossword.pl's limits/3)."""
    if node_limit is None:
        return time_limit(timeout)
    return f"limits({time_limit(timeout)}, {int(node_limit)})"


def split(joined: str, lengths: Sequence[int]) -> list[str]:
    """The words of a solution, from their concatenation in site order."""
    words, start = [], 0
    for n in lengths:
        words.append(joined[start : start + n])
        start += n
    return words


MASK_CHUNK = 1024  # bits per piece of a big mask sent to arcs.pl (see mask)


def dictionary_text(words: Sequence[str], whole: list[int] | None = None) -> str:
    """The tables as arcs:load_dictionary_text/2,3 take them (see there): a
    string, split by string functions, so no word is read as Prolog source.
    The masks are appended to `whole` when given (to be put as integers,
    in the order of their letters in the text), else written in hex."""
    lines = []
    for n, table in tables(tuple(words)).items():
        lines.append(f"{n} {len(table.words)}\n{_end_to_end(table.words)}\n")
        every_once = all(c == 1 for c in table.copies)
        lines.append("\n" if every_once else " ".join(map(str, table.copies)) + "\n")
        for position in table.masks:
            if whole is None:
                pairs = (f"{ord(c)}={mask(m)}" for c, m in position.items())
            else:
                pairs = (str(ord(c)) for c in position)
                whole.extend(position.values())
            lines.append(" ".join(pairs) + "\n")
    return "".join(lines)


def mask(bits: int) -> str:
    """A bitset as hex pieces of MASK_CHUNK bits, most significant first:
    Prolog takes time quadratic in the digits of one number."""
    low = (1 << MASK_CHUNK) - 1
    pieces = [f"0x{bits & low:x}"]
    while bits := bits >> MASK_CHUNK:
        pieces.append(f"0x{bits & low:x}")
    return ",".join(reversed(pieces))


@lru_cache(maxsize=4)
def scores_text(words: tuple[str, ...], scores: tuple[int, ...]) -> tuple[int, str]:
    """kernel:load_scores_text/2's text for the dictionary `words`, whose
    scores are `scores` (one per word; a word listed twice has the score
    of its first listing): per length, the scores of its words in table
    order. And a key for them."""
    lines = []
    for n, values in table_scores(words, scores).items():
        lines.append(f"{n} {len(values)}\n")
        lines.append(" ".join(map(str, values)) + "\n")
    text = "".join(lines)
    digest = hashlib.blake2b(text.encode("ascii"), digest_size=8).digest()
    return int.from_bytes(digest, "little") ^ dictionary_key(words), text


def integers_key(values: Sequence[int]) -> int:
    """A 64-bit digest of a list of integers (a search's start weights)."""
    text = " ".join(map(str, values)).encode("ascii")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def dictionary_key(words: Sequence[str]) -> int:
    """A 64-bit digest of the word list (order and repeats included)."""
    return _digest(tuple(words))


@lru_cache(maxsize=4)  # a big dictionary takes milliseconds to digest, once per grid
def _digest(words: tuple[str, ...]) -> int:
    joined = line_joined(words)
    if joined is not None:  # the words can be told apart
        count = len(words).to_bytes(8, "little")  # () and ("",) join alike
        data = b"j" + count + joined.encode("utf-8", "surrogatepass")  # 5 times faster
    else:
        data = b"p" + b"".join(
            len(word).to_bytes(4, "little") + word.encode("utf-8", "surrogatepass")
            for word in words
        )
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")
