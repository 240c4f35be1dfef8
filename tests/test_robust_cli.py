"""A hostile tester's findings, each a regression test: unexpected failures,
output paths, contradictory verdicts, input sizes, hostile text in messages,
API inputs and the cache. Ends with a bounded CLI fuzz over the corpus."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import fuzzgen
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pybridge import bench, cache, cli, errors, lexicon
from pybridge import portfolio as solve_runs  # solve runs its searches through a Portfolio
from pybridge.errors import InputError, UsageError
from pybridge.model import Puzzle

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "data" / "demo.dat"
UNICODE = ROOT / "data" / "unicode.dat"
RING = ROOT / "data" / "unsolvable" / "search" / "ring.dat"


def crossword(
    *args: str, env: dict[str, str] | None = None, **kw: object
) -> subprocess.CompletedProcess[str]:
    """The real command in a process of its own (stdout tricks need one)."""
    return subprocess.run(
        [sys.executable, "-m", "pybridge", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        check=False,
        **kw,  # type: ignore[arg-type]
    )


# ---------------------------------------------------------------- 1. internal errors


def test_unexpected_exception_is_exit_4_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 1: a non-CrosswordError escaping a command gave a traceback and exit 1."""

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("division by zero\nsecond line")

    monkeypatch.setattr(solve_runs, "run", broken)
    monkeypatch.delenv("CROSSWORD_DEBUG", raising=False)
    assert cli.main(["solve", str(DEMO), "--engine", "python"]) == 4
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("crossword: internal error: ZeroDivisionError: division by zero")
    assert "(please report it, with the command)" in err
    assert len(err.strip().splitlines()) == 1
    assert cli.EXIT_INTERNAL_ERROR == cli.EXIT_ENGINE_FAILED == 4


def test_debug_variable_reraises(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 1: CROSSWORD_DEBUG=1 lets a developer see the traceback."""

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(solve_runs, "run", broken)
    monkeypatch.setenv("CROSSWORD_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        cli.main(["solve", str(DEMO), "--engine", "python"])


# ---------------------------------------------------------------- 2. output paths


@pytest.mark.parametrize("where", ["folder", "missing", "under-a-file"])
def test_picture_path_checked_before_solving(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 2: --output svg FILE into a folder or a missing folder gave a traceback."""
    (tmp_path / "a-file").write_text("x")
    target = {
        "folder": tmp_path / "dir.svg",
        "missing": tmp_path / "nope" / "x.svg",
        "under-a-file": tmp_path / "a-file" / "x.svg",
    }[where]
    if where == "folder":
        target.mkdir()

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the search ran before the output path was checked")

    monkeypatch.setattr(solve_runs, "run", never)
    assert cli.main(["solve", str(DEMO), "--engine", "python", "--output", "svg", str(target)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "error:" in err
    assert str(target) in err


def test_picture_to_a_full_device(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Defect 2: an SVG written to /dev/full gave a traceback."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    full = tmp_path / "full.svg"
    full.symlink_to("/dev/full")
    assert cli.main(["solve", str(DEMO), "--engine", "python", "--output", "svg", str(full)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "No space left on device" in err


def test_svg_write_failure_is_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 2: a disk that fills up while the picture is written: exit 2, a message."""
    from pybridge import pictures

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pictures, "draw_svg", full)
    out = tmp_path / "x.svg"
    assert cli.main(["solve", str(DEMO), "--engine", "python", "--output", "svg", str(out)]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err
    assert "Traceback" not in err


def test_stdout_full_or_closed_is_clean() -> None:
    """Defect 2: stdout to /dev/full gave a traceback; a closed stdout exited 0 silently."""
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "pybridge", "solve", str(DEMO), "--engine", "python"],
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                cwd=ROOT,
                check=False,
            )
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert "error:" in done.stderr
    closed = subprocess.run(
        f"{sys.executable} -m pybridge solve {DEMO} --engine python >&-",
        shell=True,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert closed.returncode == 2, closed.stderr
    assert "Traceback" not in closed.stderr
    assert "standard output" in closed.stderr


def test_json_is_utf8_whatever_pythonioencoding() -> None:
    """Defect 2: PYTHONIOENCODING=ascii made --output json a traceback."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pybridge",
            "solve",
            str(UNICODE),
            "--engine",
            "python",
            "--output",
            "json",
        ],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout.decode("utf-8"))
    assert doc["status"] == "solved"
    assert not done.stdout.isascii()  # letters are not escaped


def test_bench_and_compare_files_checked_first(
    tmp_path: Path, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 2: bench --json/--csv, compare --plot to an unwritable path failed after the run."""
    grid = tmp_path / "g.txt"
    grid.write_text("...\n.#.\n...\n")
    words = tmp_path / "w.txt"
    words.write_text("ABC\nCDE\nAXC\nEYE\n")
    bad = tmp_path / "missing" / "out"
    for option in ("--json", "--csv"):
        argv = ["bench", str(grid), "--dict", str(words), "--engines", "python", option, f"{bad}.x"]
        assert cli.main(argv) == 2
        assert "missing" in capsys.readouterr().err
    plot = str(tmp_path)  # a folder, not a file
    argv = [
        "compare",
        str(DEMO),
        "--engines",
        "python",
        "--strategies",
        "mrv",
        "--plot",
        f"{plot}/no/x.svg",
    ]
    pytest.importorskip("matplotlib")
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err


# ---------------------------------------------------------------- 3. verdicts


def test_unsolvable_is_not_called_not_unique(capsys: pytest.CaptureFixture[str]) -> None:
    """Defect 3: --unique on an unsolvable puzzle said "not unique" then "no solution"."""
    assert cli.main(["solve", str(RING), "--unique", "--engine", "python"]) == 1
    out = capsys.readouterr().out
    assert "unique" not in out
    assert out.startswith("no solution: ")
    assert cli.main(["solve", str(RING), "--unique", "--engine", "python", "--output", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "unsolvable"
    assert "unique" not in doc


@pytest.mark.parametrize("grid", ["#.#\n###\n#.#\n", "###\n###\n", "#_#\n###\n"])
def test_grid_with_nothing_to_fill_is_bad_input(
    grid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 3: a grid without a site was "solved" with its open cells unfilled."""
    path = tmp_path / "g.txt"
    path.write_text(grid)
    words = tmp_path / "w.txt"
    words.write_text("HELLO\n")
    assert cli.main(["solve", str(path), "--dict", str(words), "--engine", "python"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}: error: no site to fill")


def test_bench_skips_siteless_grids_in_folders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 3: bench keeps skipping grids with nothing to fill met in a folder."""
    (tmp_path / "a.txt").write_text("#.#\n###\n#.#\n")
    (tmp_path / "b.txt").write_text("..\n..\n")
    assert [g.name for g in bench.load_suite([str(tmp_path)])] == ["b"]
    with pytest.raises(InputError, match="no site to fill"):
        bench.load_suite([str(tmp_path / "a.txt")])


def test_mixed_open_marks_are_not_guessed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 3: a plain grid with one stray '_' was read as CS50 (every '.' blocked)."""
    path = tmp_path / "g.txt"
    path.write_text(".....\n._...\n")
    words = tmp_path / "w.txt"
    words.write_text("HELLO\n")
    assert cli.main(["solve", str(path), "--dict", str(words), "--engine", "python"]) == 2
    err = capsys.readouterr().err
    assert "--format" in err
    assert "'_'" in err
    assert "'.'" in err
    assert (
        cli.main(
            ["solve", str(path), "--dict", str(words), "--format", "cs50", "--engine", "python"]
        )
        == 2
    )
    assert "no site to fill" in capsys.readouterr().err


# ---------------------------------------------------------------- 4. input sizes


@pytest.mark.parametrize("which", ["puzzle", "dict"])
def test_endless_input_is_refused(
    which: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 4: `solve /dev/zero` (or --dict /dev/zero) read until memory ran out."""
    grid = tmp_path / "g.txt"
    grid.write_text("...\n")
    argv = (
        ["solve", "/dev/zero", "--engine", "python"]
        if which == "puzzle"
        else ["solve", str(grid), "--dict", "/dev/zero", "--engine", "python"]
    )
    assert cli.main(argv) == 2
    assert "not a regular file" in capsys.readouterr().err


def test_size_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 4: files beyond the (overridable) limits are refused, not swallowed."""
    big = tmp_path / "big.txt"
    big.write_bytes(b"ABC\n" * (300 * 1024))  # 1.2 MB
    grid = tmp_path / "g.txt"
    grid.write_text("...\n")
    monkeypatch.setenv("CROSSWORD_MAX_DICT_MB", "1")
    assert cli.main(["solve", str(grid), "--dict", str(big), "--engine", "python"]) == 2
    assert "CROSSWORD_MAX_DICT_MB" in capsys.readouterr().err
    monkeypatch.setenv("CROSSWORD_MAX_DICT_MB", "2")
    assert cli.main(["solve", str(grid), "--dict", str(big), "--engine", "python"]) == 0
    capsys.readouterr()
    monkeypatch.setenv("CROSSWORD_MAX_PUZZLE_MB", "1")
    assert cli.main(["solve", str(big), "--engine", "python"]) == 2
    assert "CROSSWORD_MAX_PUZZLE_MB" in capsys.readouterr().err
    monkeypatch.setenv("CROSSWORD_MAX_PUZZLE_MB", "lots")
    assert cli.main(["solve", str(DEMO), "--engine", "python"]) == 2
    assert "CROSSWORD_MAX_PUZZLE_MB" in capsys.readouterr().err


# ---------------------------------------------------------------- 5. hostile text


def test_messages_escape_controls_and_shorten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 5: errors echoed ESC[2J (clearing the screen) and whole 5 MB lines."""
    path = tmp_path / "p.dat"
    path.write_text("AB\x1b[2JCD" + "X" * 5_000_000 + "\n\n..\n")
    assert cli.main(["solve", str(path), "--engine", "python"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "\\x1b" in err
    assert len(err) < 400
    assert all(len(line) < 200 for line in err.splitlines())
    rp = tmp_path / "r.txt"
    rp.write_text("1 2\n0 \x1b[2J" + "9" * 10_000 + "\n\n")
    assert cli.main(["solve", str(rp), "--dict", str(DEMO), "--engine", "python"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert len(err) < 600


def test_shown_helper() -> None:
    """Defect 5: one helper escapes controls and shortens quoted text."""
    shown = errors.shown
    assert shown("a\x1bb") == "a\\x1bb"
    assert shown("x" * 100).endswith("…")
    assert len(shown("x" * 100)) == 80
    assert shown("é\u2028") == "é\\u2028"


def test_caret_still_points_after_escaping() -> None:
    """Defect 5: the caret stays under the culprit in an escaped, shortened line."""
    err = InputError("bad", "f", 1, 3, "\x1b" + "ab" + "y" * 1000)
    _, line, caret = str(err).split("\n")
    assert line[caret.index("^")] == "b"
    err = InputError("bad", "f", 1, 900, "y" * 899 + "Z" + "y" * 1000)
    _, line, caret = str(err).split("\n")
    assert line[caret.index("^")] == "Z"
    assert len(line) < 120


# ---------------------------------------------------------------- 6. API inputs


@pytest.mark.parametrize("bad", ["A\x00B", "A\nB", "A\ud800B", "A\u2028B", "A\x1bB"])
def test_puzzle_refuses_unprintable_words(bad: str) -> None:
    """Defect 6: a hand-built Puzzle with a NUL, newline or surrogate made the engines disagree."""
    with pytest.raises((InputError, UsageError), match="printable"):
        Puzzle((bad, "CAT"), ("...",))
    with pytest.raises((InputError, UsageError), match="printable"):
        Puzzle(("CAT",), (bad.replace("B", "."),))


# ---------------------------------------------------------------- 7. the cache


def _words_entry(dictionary: Path) -> Path:
    directory = cache.cache_dir()
    assert directory is not None
    name = lexicon._entry_name(dictionary.read_bytes(), None)
    return directory / name


def test_tampered_cache_entry_is_caught_by_bench(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Defect 7: an edited cache entry (hash recomputed) put ZZZ in the dictionary, and
    bench's verification passed it."""
    words = tmp_path / "w.txt"
    words.write_text("ABC\nBCD\nCDE\n")
    lexicon.load_dictionary([str(words)])  # make the entry
    entry = _words_entry(words)
    header, _, _ = entry.read_bytes().partition(b"\n")
    meta = json.loads(header)
    for written in ("sha256", "size", "mac"):  # cache.write makes them again, signing it
        del meta[written]
    cache.write(entry.name, meta, b"ZZZ")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n")
    assert cli.main(["bench", str(grid), "--dict", str(words), "--engines", "python"]) == 1
    assert "'ZZZ' is not in the dictionary" in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_special_cache_entry_is_ignored(kind: str, tmp_path: Path) -> None:
    """Defect 7: a FIFO or /dev/zero in place of a cache entry hung the run."""
    words = tmp_path / "w.txt"
    words.write_text("ABC\nBCD\n")
    entry = _words_entry(words)
    entry.parent.mkdir(parents=True, exist_ok=True)
    if entry.exists() or entry.is_symlink():
        entry.unlink()
    if kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.symlink_to("/dev/zero")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from pybridge import lexicon; print(lexicon.load_dictionary([{str(words)!r}]).words)",
        ],
        capture_output=True,
        text=True,
        timeout=20,
        env={**os.environ},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "('ABC', 'BCD')" in done.stdout
    assert entry.is_file()
    assert not entry.is_symlink()


# ---------------------------------------------------------------- fuzz


SEEN: dict[int, int] = {}


_EDITS = st.lists(
    st.tuples(
        st.integers(0, 10_000),
        st.integers(0, 2),
        st.sampled_from(fuzzgen.PIECES) | st.binary(max_size=4),
    ),
    max_size=4,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.data(),
    edits=_EDITS,
    words_edits=_EDITS,
    mode=st.sampled_from(["solve", "check"]),
    engine=st.sampled_from(["python", "prolog"]),
)
def test_cli_fuzz_on_mutated_corpus(
    shared_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: st.DataObject,
    edits: list[tuple[int, int, bytes]],
    words_edits: list[tuple[int, int, bytes]],
    mode: str,
    engine: str,
) -> None:
    """Mutated corpus files never escape as a traceback: exit 0, 1, 2 or 3
    only, in either engine (tests/fuzzgen.py runs many more and counts)."""
    case = data.draw(st.sampled_from(fuzzgen.corpus_cases(shared_dir)))
    argv = [mode, *fuzzgen.argv_for(tmp_path, case, edits, words_edits)]
    argv += ["--engine", engine, "--timeout", "2"]
    code = cli.main(argv)
    err = capsys.readouterr().err
    SEEN[code] = SEEN.get(code, 0) + 1
    assert code in {0, 1, 2, 3}, err
    assert "Traceback" not in err
    assert "internal error" not in err
