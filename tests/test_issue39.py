"""Regression tests for issue 39 (hardening), one or more per numbered defect.

Each test was written to fail on the code the issue was filed against
(69aac13), in the manner of pyswip's tests/test_issues.py: the test's name
and docstring say which item it replays.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pybridge.cli import main

REPO = Path(__file__).resolve().parents[1]
needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]


def run_cli(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The real command in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "pybridge", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- item 6: internal errors


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("extra", [[], ["--maximize", "sum"], ["--strategy", "valued"]])
def test_issue39_6_scores_of_29_and_30_digits_are_reckoned_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, extra: list[str]
) -> None:
    """Item 6: a score of 29-30 significant digits (which docs/formats.md
    allows) ended in InvalidOperation, exit 4; the fill's scores must come
    out exact."""
    big = "9" * 30
    small = "0." + "0" * 29 + "1"
    lines = [f"{w};{big}" for w in ("AB", "CD", "AC", "BD")]
    lines += [f"{w};{small}" for w in ("EF", "GH", "EG", "FH")]
    dictionary = write(tmp_path / "d.txt", "\n".join(lines) + "\n")
    grid = write(tmp_path / "g.txt", "..\n..\n")
    code = main(["solve", str(grid), "--dict", str(dictionary), "--engine", engine,
                 "--output", "json", *extra])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    score = json.loads(out)["score"]
    # the two fills are AB/CD (each word scoring big) and EF/GH (small);
    # a whole number is written as a JSON integer, so exactly
    assert (score["min"], score["sum"]) in ((int(big), 4 * int(big)), (1e-30, 4e-30))
    if "--maximize" in extra:
        assert score["sum"] == 4 * int(big)
        assert score["optimal"] is True


def test_issue39_6_score_arithmetic_never_rounds() -> None:
    """Item 6: at 28 digits of decimal precision, a score times its scale
    and an engine's integer back on the list's scale were rounded."""
    from decimal import Decimal, localcontext

    from pybridge.scores import Score, Scores

    big = Decimal("123456789012345678901234567891.123456789012345678901234567891")
    scores = Scores({"AB": big, "CD": Decimal("1")})
    value = scores.value("AB")
    assert value == 123456789012345678901234567891123456789012345678901234567891
    assert scores.unscaled(value) == big
    with localcontext() as exact:
        exact.prec = 100
        assert Score.of(["AB", "CD"], scores).sum == big + 1


@pytest.mark.parametrize(
    "command",
    [
        ["solve", "{folder}", "--dict", "{dict}"],
        ["solve", "{grid}", "--dict", "{folder}"],
        ["check", "{grid}", "--dict", "{folder}"],
        ["make", "--size", "4x4", "--dict", "{folder}"],
        ["wordsearch", "make", "{folder}", "--size", "5x5"],
        ["difficulty", "{grid}", "--dict", "{folder}"],
    ],
)
def test_issue39_6_a_folder_as_a_file_is_bad_input(tmp_path: Path, command: list[str]) -> None:
    """Item 6: a folder given as the puzzle or as --dict ended in
    IsADirectoryError, exit 4, where the docs say exit 2."""
    folder = tmp_path / "folder"
    (folder / "inner").mkdir(parents=True)
    paths = {
        "folder": str(folder),
        "dict": str(write(tmp_path / "d.txt", "AB\nCD\nAC\nBD\n")),
        "grid": str(write(tmp_path / "g.txt", "..\n..\n")),
    }
    ran = run_cli(*(part.format(**paths) for part in command))
    assert ran.returncode == 2, ran.stderr
    assert "Traceback" not in ran.stderr
    assert "internal error" not in ran.stderr
    assert "folder" in ran.stderr


def test_issue39_6_an_ipuz_integer_of_5000_digits_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Item 6: an ipuz holding an integer of more than 4,300 digits ended in
    ValueError (Python's limit on int() of a long string), exit 4."""
    text = (REPO / "data" / "four.ipuz").read_text(encoding="utf-8")
    long = {'"width": 4': '"width": ' + "4" * 5000, "[1, 2, 3,": "[" + "1" * 5000 + ", 2, 3,"}
    for old, new in long.items():
        assert old in text
        bad = write(tmp_path / "big.ipuz", text.replace(old, new, 1))
        assert main(["solve", str(bad), "--answers"]) == 2
        err = capsys.readouterr().err
        assert "digits" in err
        assert "big.ipuz" in err


# ---------------------------------------------------------------- item 2: the cache as untrusted

SQUARE = "ABC\nDEF\nGHI\nADG\nBEH\nCFI\n"  # the one fill of an open 3x3 grid
FORGED = "XYZ\nUVW\nRST\nXUR\nYVS\nZWT\n"  # another word square, not in the file


def forge_words_entry(folder: Path) -> None:
    """Rewrite the cache's words entry as an attacker would: another body,
    and the header's size and SHA-256 of the body recomputed."""
    import hashlib

    [entry] = folder.glob("*.words")
    header, _, body = entry.read_bytes().partition(b"\n")
    meta = json.loads(header)
    forged = FORGED.rstrip("\n").encode("utf-8")
    assert body == SQUARE.rstrip("\n").encode("utf-8")
    for key in ("size", "sha256"):  # the sha256 of the body was the whole check at 69aac13
        if key in meta:
            meta[key] = len(forged) if key == "size" else hashlib.sha256(forged).hexdigest()
    entry.write_bytes(json.dumps(meta).encode("utf-8") + b"\n" + forged)


@pytest.mark.parametrize("engine", ENGINES)
def test_issue39_2_a_forged_cache_entry_never_reaches_a_fill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, engine: str
) -> None:
    """Item 2: with the words entry rewritten (its SHA-256 recomputed),
    solve, check and make printed the forged non-word fill with exit 0."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(folder))
    monkeypatch.delenv("CROSSWORD_NO_CACHE", raising=False)
    dictionary = write(tmp_path / "d.txt", SQUARE)
    grid = write(tmp_path / "g.txt", "...\n...\n...\n")
    first = run_cli("solve", grid, "--dict", dictionary, "--engine", engine)
    fills = ("ABC\nDEF\nGHI", "ADG\nBEH\nCFI")  # the square and its transpose
    assert first.returncode == 0, first.stderr
    assert first.stdout.startswith(fills)
    for command in (
        ["solve", grid, "--dict", dictionary],
        ["check", grid, "--dict", dictionary],
        ["make", "--size", "3x3", "--blocks", "0", "--seed", "1", "--dict", dictionary],
    ):
        forge_words_entry(folder)
        ran = run_cli(*command, "--engine", engine)
        assert ran.returncode == 0, ran.stderr
        assert not set(ran.stdout) & set("RSTUVWXYZ"), ran.stdout
        assert any(fill in ran.stdout for fill in fills), ran.stdout


def test_issue39_2_an_entry_under_another_name_or_key_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 2: an entry is bound to its name and to this user's key: one
    moved to another entry's name, or signed by another key (copied from
    another machine), is not read."""
    from pybridge import cache

    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("CROSSWORD_NO_CACHE", raising=False)
    cache.write("a.words", {"format": 1}, b"A")
    cache.write("b.words", {"format": 1}, b"B")
    assert cache.read("a.words") == ({"format": 1}, b"A")
    (tmp_path / "cache" / "b.words").write_bytes((tmp_path / "cache" / "a.words").read_bytes())
    assert cache.read("b.words") is None
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "elsewhere"))  # another key
    cache._key.cache_clear()
    try:
        assert cache.read("a.words") is None
    finally:
        monkeypatch.undo()
        cache._key.cache_clear()


@pytest.mark.parametrize("which", ["cache", "key"])
def test_issue39_2_a_folder_others_may_write_into_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], which: str
) -> None:
    """Item 2: a cache folder (or key folder) writable by others is refused,
    with a notice: nothing is read from it or written into it."""
    from pybridge import cache
    from pybridge.lexicon import load_dictionary

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("CROSSWORD_CACHE_DIR", str(shared if which == "cache" else tmp_path / "c"))
    if which == "key":
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
        (tmp_path / "state").mkdir()
        shared.rename(tmp_path / "state" / "crossword-pybridge")
        shared = tmp_path / "state" / "crossword-pybridge"
    monkeypatch.delenv("CROSSWORD_NO_CACHE", raising=False)
    cache._key.cache_clear()
    cache._told.clear()
    try:
        dictionary = write(tmp_path / "d.txt", SQUARE)
        assert load_dictionary([dictionary]).words[0] == "ABC"
        assert load_dictionary([dictionary]).words[0] == "ABC"
        assert list(shared.iterdir()) == []
        err = capsys.readouterr().err
        assert err.count("notice") == 1
        assert str(shared) in err
    finally:
        monkeypatch.undo()
        cache._key.cache_clear()


# ---------------------------------------------------------------- item 9: a sparse entry

MEASURE_LOAD = """
import resource, sys, time
from pybridge.lexicon import load_dictionary
started = time.perf_counter()
words = load_dictionary([sys.argv[1]]).words
print(words[0], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.perf_counter() - started)
"""


def test_issue39_9_a_huge_sparse_entry_is_never_read(tmp_path: Path) -> None:
    """Item 9: a 1.9 GB sparse cache entry for a 4-word dictionary was read
    whole (2.4 GB RSS, 28 s). Its size is told from the source's before any
    read: the peak RSS of the load, measured, stays that of a plain run."""
    from pybridge.lexicon import _entry_name

    folder = tmp_path / "cache"
    dictionary = write(tmp_path / "d.txt", "AB\nCD\nAC\nBD\n")
    env = {**__import__("os").environ, "CROSSWORD_CACHE_DIR": str(folder)}
    env.pop("CROSSWORD_NO_CACHE", None)
    measure = [sys.executable, "-c", MEASURE_LOAD, str(dictionary)]
    plain = subprocess.run(measure, env=env, capture_output=True, text=True, check=True)
    [entry] = folder.glob("*.words")
    assert entry.name == _entry_name(dictionary.read_bytes(), None)
    with entry.open("r+b") as sparse:
        sparse.seek(1_900_000_000)  # holes: no disk used
        sparse.write(b"\n")
    ran = subprocess.run(measure, env=env, capture_output=True, text=True, check=True, timeout=120)
    word, peak_kib, _ = ran.stdout.split()
    assert word == "AB"
    assert int(peak_kib) < int(plain.stdout.split()[1]) + 50_000  # KiB: not the 1.9 GB


# ---------------------------------------------------------------- item 7: time limits


def test_issue39_7_grid_keeps_the_shortest_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    """Item 7: `grid --timeout 1e-300` was ignored: a small request, decided
    by trying every choice of blocks, never looked at the clock."""
    assert main(["grid", "--size", "5x5", "--timeout", "1e-300", "--seed", "1"]) == 3
    assert "within 1e-300 s" in capsys.readouterr().err
