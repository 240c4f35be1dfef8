"""The on-disk cache, and the bitset tables it keeps for long word lists."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pybridge import bitsets, cache
from pybridge.bitsets import tables


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test's own (not created yet)."""
    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CROSSWORD_NO_CACHE", raising=False)
    return tmp_path / "cache"


def test_where_the_cache_lives(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CROSSWORD_CACHE_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "crossword-pybridge"
    for ignored in ("", "relative/cache"):
        monkeypatch.setenv("XDG_CACHE_HOME", ignored)
        assert cache.cache_dir() == tmp_path / "home" / ".cache" / "crossword-pybridge"
    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("CROSSWORD_NO_CACHE", "1")
    assert cache.cache_dir() is None


def test_an_entry_reads_back_until_it_is_damaged(folder: Path) -> None:
    assert cache.read("e") is None
    cache.write("e", {"format": 3}, b"\x00\xffbody\n")
    [written] = folder.iterdir()  # no temporary file left beside it
    meta, body = cache.read("e") or ({}, b"")
    assert meta["format"] == 3
    assert body == b"\x00\xffbody\n"
    written.write_bytes(written.read_bytes()[:-1])  # truncated
    assert cache.read("e") is None
    written.write_bytes(b"not json\n")
    assert cache.read("e") is None


def test_nothing_is_written_with_the_cache_off(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROSSWORD_NO_CACHE", "1")
    cache.write("e", {}, b"x")
    assert cache.read("e") is None
    assert not folder.exists()


def long_list(seed: int, repeats: bool = False) -> tuple[str, ...]:
    """At least CACHED_FROM words of lengths 1, 3, 5 to 7 and 40 (masks of one
    byte and of many limbs), some non-ASCII; with `repeats`, some listed twice."""
    rng = random.Random(seed)
    letters = "abcdeéßЖ"
    words = [
        "".join(rng.choice(letters) for _ in range(rng.choice((1, 3, 5, 6, 7, 40))))
        for _ in range(bitsets.CACHED_FROM * 3 // 2)
    ]
    listed = tuple(words) if repeats else tuple(dict.fromkeys(words))
    assert len(listed) >= bitsets.CACHED_FROM
    return listed


def fresh(words: tuple[str, ...]) -> dict[int, bitsets.Table]:
    tables.cache_clear()  # the in-memory copy: make the next call read the disk
    return tables(words)


def built(words: tuple[str, ...]) -> dict[int, bitsets.Table]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROSSWORD_NO_CACHE", "1")
        return fresh(words)


@pytest.mark.parametrize("repeats", [False, True])
def test_tables_read_back_equal_the_built_ones(folder: Path, repeats: bool) -> None:
    words = long_list(1, repeats)
    expected = built(words)
    assert not folder.exists()
    assert fresh(words) == expected  # writes the entry
    [entry] = folder.glob("*.tables")
    assert fresh(words) == expected  # reads it
    assert any(t.copies != (1,) * len(t.words) for t in expected.values()) == repeats
    entry.write_bytes(entry.read_bytes()[:-3])  # damaged: built again, and rewritten
    assert fresh(words) == expected
    assert fresh(words) == expected


def test_tables_are_read_back_only_for_the_same_words(folder: Path) -> None:
    words = long_list(2)
    fresh(words)
    other = (*words[:-1], "zz")
    assert fresh(other) == built(other)
    assert len(list(folder.glob("*.tables"))) == 2


def test_an_entry_that_does_not_fit_its_words_is_not_taken(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = long_list(3)
    expected = built(words)
    fresh(words)
    [entry] = folder.glob("*.tables")
    meta, body = cache.read(entry.name) or ({}, b"")
    meta["tables"] = meta["tables"][1:]  # a length missing
    cache.write(entry.name, meta, body)
    assert bitsets._cached(entry.name, bitsets._groups(words)) is None
    assert fresh(words) == expected


def test_short_lists_and_lists_with_line_breaks_are_not_cached(folder: Path) -> None:
    few = long_list(4)[: bitsets.CACHED_FROM - 1]
    odd = (*long_list(5), "a\nb")
    for words in (few, odd, ("ab",), ("cd",), ()):
        assert fresh(words) == built(words)
    assert not folder.exists()


def test_a_grammars_parser_is_kept_and_read_back_only_when_signed(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pybridge import readers

    monkeypatch.setattr(readers, "_parser", readers._parser.__wrapped__)  # no per-process copy
    sample = "ab\ncd\n\n..\n..\n"  # a P-99 file: words, a blank line, the framework
    built = readers._parser("p99")
    [entry] = folder.iterdir()
    assert entry.name.endswith(".grammar")
    assert readers._parser("p99").parse(sample) == built.parse(sample)  # read back
    from lark import Lark

    load = Lark.load
    loads: list[object] = []
    monkeypatch.setattr(Lark, "load", lambda *a: loads.append(a) or load(*a))
    readers._parser("p99")
    assert len(loads) == 1  # the tables came from the entry
    kept = entry.read_bytes()
    entry.write_bytes(kept[:-1] + bytes([kept[-1] ^ 1]))  # not as signed
    assert readers._parser("p99").parse(sample) == built.parse(sample)
    assert len(loads) == 1  # built again: the edited entry was never unpickled
    cache.write(entry.name, {"grammar": "p99"}, b"signed, but no tables")
    assert readers._parser("p99").parse(sample) == built.parse(sample)  # built again
    assert len(loads) == 2
    rewritten = cache.read(entry.name)
    assert rewritten is not None
    assert rewritten[1] != b"signed, but no tables"  # the good tables written again
