"""The `crossword solve` command: its output, its JSON contract and its exit codes.

Most tests call `main` in-process; the subprocess tests prove that the real
command exits with the documented codes and never shows a traceback.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import expected_text

from pybridge import cli
from pybridge import portfolio as solve_runs  # solve runs its searches through a Portfolio
from pybridge.cli import main
from pybridge.readers import load

REPO = Path(__file__).resolve().parents[1]
needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]
SOLVED_P99 = ("p7_09a", "p7_09b", "p7_09d")


@pytest.fixture
def p99(shared_dir: Path) -> Path:
    return shared_dir / "corpus" / "p99"


@pytest.fixture
def fillin(shared_dir: Path) -> Path:
    return shared_dir / "corpus" / "fillin"


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """The real command in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "pybridge", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- text output


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", SOLVED_P99)
def test_p99_text_is_the_expected_framework(
    p99: Path, shared_dir: Path, name: str, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(p99 / f"{name}.dat"), "--engine", engine]) == 0
    out = capsys.readouterr().out
    assert out == expected_text(shared_dir, f"p99/{name}") + "\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_p99_c_is_unsolvable_and_names_both_lengths(
    p99: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(p99 / "p7_09c.dat"), "--engine", engine]) == 1
    out = capsys.readouterr().out
    assert out.startswith("no solution: ")
    assert "10 five-letter words for 11 five-letter sites" in out
    assert "10 six-letter words for 9 six-letter sites" in out


def test_count_of_an_unsolvable_puzzle_is_zero_with_the_reason(
    p99: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(p99 / "p7_09c.dat"), "--engine", "python", "--count"]) == 1
    first, second = capsys.readouterr().out.splitlines()
    assert first == "0 solutions"
    assert second.startswith("no solution: word and site lengths differ")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("number", "expected"), [("3", "2 solutions"), ("4", "1 solution")])
def test_fillin_count(
    fillin: Path, number: str, expected: str, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["solve", str(fillin / f"puzzle{number}"), "--words", str(fillin / f"words{number}")]
    assert main([*args, "--count", "--engine", engine]) == 0
    assert capsys.readouterr().out == expected + "\n"


@pytest.mark.parametrize("engine", ENGINES)
def test_fillin_puzzle1_prints_filled1(
    fillin: Path, shared_dir: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["solve", str(fillin / "puzzle1"), "--words", str(fillin / "words1")]
    assert main([*args, "--engine", engine]) == 0
    assert capsys.readouterr().out == expected_text(shared_dir, "fillin/1") + "\n"


def test_all_prints_every_solution_separated_by_a_blank_line(
    fillin: Path, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["solve", str(fillin / "puzzle3"), "--words", str(fillin / "words3")]
    assert main([*args, "--all", "--engine", "python"]) == 0
    blocks = capsys.readouterr().out.removesuffix("\n").split("\n\n")
    expected = {expected_text(shared_dir, "fillin/3a"), expected_text(shared_dir, "fillin/3b")}
    assert len(blocks) == 2
    assert set(blocks) == expected


def test_limit_caps_the_solutions(fillin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", str(fillin / "puzzle3"), "--words", str(fillin / "words3")]
    assert main([*args, "--limit", "1", "--engine", "python"]) == 0
    assert "\n\n" not in capsys.readouterr().out


def test_stats_go_to_stderr_in_text_mode(p99: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", str(p99 / "p7_09a.dat"), "--engine", "python", "--stats"]
    assert main([*args, "--strategy", "sorted"]) == 0
    captured = capsys.readouterr()
    assert "stats" not in captured.out
    pattern = r"stats: engine=python strategy=sorted nodes=12 backtracks=4 seconds=[0-9.]+\n"
    assert re.fullmatch(pattern, captured.err)


@pytest.mark.parametrize("engine", ENGINES)
def test_words_starting_upper_case_are_plain_words(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # In Prolog source, Ab and Ac would be variables; they must stay words.
    puzzle = write(tmp_path / "upper.dat", "Ab\nAc\n\n..\n.\n")
    assert main(["solve", str(puzzle), "--engine", engine, "--all"]) == 0
    assert capsys.readouterr().out == "Ab\nc\n\nAc\nb\n"


# ---------------------------------------------------------------- JSON contract


def test_json_of_a_ragged_p99_solution(
    p99: Path, shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = p99 / "p7_09b.dat"
    assert main(["solve", str(path), "--engine", "python", "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"status", "solutions", "stats"}
    assert doc["status"] == "solved"
    (solution,) = doc["solutions"]
    assert set(solution) == {"grid", "placements"}
    puzzle = load(path)
    rows = expected_text(shared_dir, "p99/p7_09b").split("\n")
    assert solution["grid"] == [row.ljust(puzzle.width).replace(" ", "#") for row in rows]
    assert all(len(row) == puzzle.width for row in solution["grid"])
    for placement in solution["placements"]:
        assert set(placement) == {"number", "direction", "row", "col", "length", "word"}
        assert placement["direction"] in ("across", "down")
        assert all(type(placement[k]) is int for k in ("number", "row", "col", "length"))
        assert len(placement["word"]) == placement["length"]
    assert sorted(p["word"] for p in solution["placements"]) == sorted(puzzle.words)
    stats = doc["stats"]
    assert set(stats) == {"engine", "strategy", "nodes", "backtracks", "seconds"}
    assert (stats["engine"], stats["strategy"]) == ("python", "mrv")
    assert type(stats["nodes"]) is int
    assert type(stats["backtracks"]) is int
    assert isinstance(stats["seconds"], float)


def test_json_count_and_reason(p99: Path, fillin: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["solve", str(fillin / "puzzle3"), "--words", str(fillin / "words3")]
    assert main([*args, "--count", "--engine", "python", "--output", "json"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert (counted["status"], counted["solutions"], counted["count"]) == ("solved", [], 2)
    assert "reason" not in counted

    args = ["solve", str(p99 / "p7_09c.dat"), "--engine", "python", "--output", "json"]
    assert main(args) == 1
    failed = json.loads(capsys.readouterr().out)
    assert failed["status"] == "unsolvable"
    assert "10 six-letter words for 9 six-letter sites" in failed["reason"]
    assert "count" not in failed


def test_json_keeps_non_ascii_letters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = write(tmp_path / "umlaut.dat", "Äb\nÄc\n\n..\n.\n")
    assert main(["solve", str(puzzle), "--engine", "python", "--output", "json"]) == 0
    out = capsys.readouterr().out
    assert '"Äb"' in out or '"Äc"' in out


# ---------------------------------------------------------------- time limit


@pytest.mark.parametrize("engine", ENGINES)
def test_timeout_stops_in_time_and_the_next_solve_works(
    p99: Path, shared_dir: Path, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    quick = ["solve", str(p99 / "p7_09a.dat"), "--engine", engine]
    assert main(quick) == 0  # loads SWI-Prolog before the clock starts
    capsys.readouterr()
    slow = ["solve", str(p99 / "p7_09b.dat"), "--engine", engine, "--strategy", "given"]
    started, cpu_started = time.perf_counter(), time.process_time()
    assert main([*slow, "--timeout", "0.5"]) == 3
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    # Not before the limit; and stopped there: both engines search in this
    # process, so its processor time is the search's (wall time under a
    # loaded machine is not: 1.04 s was seen). Without the limit this search
    # runs on for seconds of processor time; a stop that hangs is caught by
    # the wall time's loose bound.
    assert 0.5 <= elapsed < 5
    assert cpu <= 0.5 * 1.1 + 0.2
    assert capsys.readouterr().out == "time limit of 0.5 s reached after 0 solutions\n"
    assert main(quick) == 0
    assert capsys.readouterr().out == expected_text(shared_dir, "p99/p7_09a") + "\n"


# ---------------------------------------------------------------- errors and exit codes


def test_bad_file_names_file_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path / "bad.dat", "AB\nC1\n\n..\n")
    assert main(["solve", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{bad}:2:2: error: expected a letter")


def test_word_that_looks_like_prolog_is_rejected_by_the_reader(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write(tmp_path / "inject.dat", "'), halt, ('\nAB\n\n..\n")
    assert main(["solve", str(bad), "--engine", "python"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:1:1: error: expected a word")
    assert "\n    '), halt, ('\n    ^\n" in err


def test_fillin_words_with_quotes_and_backslashes_are_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = write(tmp_path / "grid", "__\n")
    words = write(tmp_path / "words", "a\\\n")
    assert main(["solve", str(grid), "--words", str(words)]) == 2
    assert capsys.readouterr().err.startswith(f"{words}:1:2: error:")


@pytest.mark.parametrize(
    "extra",
    [
        ["--all", "--count"],
        ["--limit", "0"],
        ["--limit", "two"],
        ["--timeout", "0"],
        ["--timeout", "-1"],
        ["--timeout", "nan"],
        ["--strategy", "random"],
        ["--engine", "java"],
        ["--format", "xml"],
        ["--output", "yaml"],
    ],
)
def test_usage_errors_exit_2(
    p99: Path, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(p99 / "p7_09a.dat"), *extra]) == 2
    assert "usage: crossword solve" in capsys.readouterr().err


def test_missing_file_and_missing_words_exit_2(
    p99: Path, fillin: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(tmp_path / "absent.dat")]) == 2
    assert "cannot read the file" in capsys.readouterr().err
    assert main(["solve", str(fillin / "puzzle1")]) == 2
    assert "--words" in capsys.readouterr().err
    assert main(["solve", str(p99 / "p7_09a.dat"), "--words", str(fillin / "words1")]) == 2
    assert "only for fill-in puzzles" in capsys.readouterr().err


def test_missing_prolog_exits_2_with_the_install_hint() -> None:
    blocked = "import sys; sys.modules['pyswip'] = None\nfrom pybridge.cli import main\n"
    code = blocked + "raise SystemExit(main(['solve', 'data/demo.dat', '--engine', 'prolog']))"
    child = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert child.returncode == 2
    assert child.stderr.startswith("crossword: error: SWI-Prolog is needed")
    assert "Traceback" not in child.stderr


def test_interrupt_exits_130_quietly(
    p99: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_runs, "run", interrupted)
    assert main(["solve", str(p99 / "p7_09a.dat")]) == 130
    assert capsys.readouterr() == ("", "")


def test_a_bug_is_not_hidden(p99: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(solve_runs, "run", broken)
    # a bug is reported as one, with an exit code of its own (not 1, "unsolvable")
    assert main(["solve", str(p99 / "p7_09a.dat")]) == cli.EXIT_INTERNAL_ERROR
    monkeypatch.setenv("CROSSWORD_DEBUG", "1")  # and a developer gets the traceback
    with pytest.raises(RuntimeError, match="a bug"):
        main(["solve", str(p99 / "p7_09a.dat")])


def test_help_lists_commands_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    top = capsys.readouterr().out
    assert "solve" in top
    assert "compare" in top
    assert main(["solve", "--help"]) == 0
    solve_help = capsys.readouterr().out
    for line in ("0    solved", "1    proven unsolvable", "2    bad input", "3    the time limit"):
        assert line in solve_help
    assert main([]) == 2
    assert "required: COMMAND" in capsys.readouterr().err


@pytest.mark.parametrize("columns", [None, "60", "200", "0", "-3", "wide"])
def test_help_is_as_wide_as_shutil_says(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The help's width is found without importing shutil (a few ms of
    every command), the same as shutil.get_terminal_size() finds it."""
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert cli._columns() == shutil.get_terminal_size().columns
    formatter = cli.build_parser("solve")._get_formatter()
    assert formatter._width == shutil.get_terminal_size().columns - 2


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("crossword ")


# ---------------------------------------------------------------- the real command


def test_real_command_exit_codes_without_tracebacks(p99: Path, tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.dat", "AB\nA?\n\n..\n")
    slow: list[str | Path] = [p99 / "p7_09b.dat", "--strategy", "given", "--timeout", "0.3"]
    cases: list[tuple[list[str | Path], int]] = [
        ([p99 / "p7_09a.dat"], 0),
        ([p99 / "p7_09c.dat"], 1),
        ([bad], 2),
        ([p99 / "p7_09a.dat", "--limit", "0"], 2),
        ([*slow, "--engine", "python"], 3),
    ]
    for args, code in cases:
        child = run_cli("solve", *args)
        assert child.returncode == code, (args, child.stderr)
        assert "Traceback" not in child.stderr
    assert f"{bad}:2:2: error:" in run_cli("solve", bad).stderr


def _command_script(*bodies: str, after: str = "") -> subprocess.CompletedProcess[str]:
    """The `bodies`, then the real command (main() as the `crossword` script
    calls it) solving demo.dat, then `after` if main returns, in a child
    process."""
    script = "".join(map(textwrap.dedent, bodies)) + textwrap.dedent(
        """
        from pybridge.cli import main
        sys.argv = ["crossword", "solve", "data/demo.dat", "--engine", "python"]
        code = main()
        """
    )
    script += textwrap.dedent(after) + "raise SystemExit(code)\n"
    return subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60
    )


_TEARDOWN = """
    import atexit, os, sys, tempfile, threading, time
    def teardown(event, args, write=os.write):  # raised by the interpreter's finalisation
        if event in ("cpython.PyInterpreterState_Clear", "cpython._PySys_ClearAuditHooks"):
            write(2, b"interpreter teardown\\n")
    sys.addaudithook(teardown)
"""


def _demo_solution(capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["solve", str(REPO / "data" / "demo.dat"), "--engine", "python"]) == 0
    return capsys.readouterr().out


def test_the_command_ends_without_the_interpreters_teardown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Once its command is done, the process ends at once (os._exit) after
    running what atexit holds (a temporary folder's finalizer, a callback)
    and writing its output whole; the interpreter's teardown is skipped."""
    child = _command_script(
        _TEARDOWN,
        """
        folder = tempfile.TemporaryDirectory()
        print(folder.name, file=sys.stderr)
        atexit.register(lambda: print("atexit ran", file=sys.stderr))
        """,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout == _demo_solution(capsys)
    folder, *notes = child.stderr.split("\n")
    assert notes == ["atexit ran", ""]  # and no teardown
    assert not Path(folder).exists()


def test_a_running_thread_is_waited_for(capsys: pytest.CaptureFixture[str]) -> None:
    """A thread that is not a daemon (a server's) still runs when the
    command is done: main returns and the interpreter ends as usual, once
    the thread is done (here it waits for main to return)."""
    child = _command_script(
        """
        import sys, threading
        returned = threading.Event()
        def late():
            returned.wait()
            print("thread done", file=sys.stderr, flush=True)
        threading.Thread(target=late).start()
        """,
        after="""
        print("main returned", file=sys.stderr, flush=True)
        returned.set()
        """,
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout == _demo_solution(capsys)
    assert child.stderr == "main returned\nthread done\n"


def test_output_to_a_closed_pipe_at_the_end_exits_141_quietly() -> None:
    """The reader went away before the answer was flushed at the end (not
    while it was written): 141 and nothing on stderr, as a pipe closed
    under a long output (test_check)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "pybridge", "solve", "data/demo.dat", "--engine", "python"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    assert child.stderr is not None
    child.stdout.close()
    assert child.wait(timeout=60) == 141
    assert child.stderr.read() == b""


@needs_prolog
def test_real_command_prolog_timeout_exits_3(p99: Path) -> None:
    child = run_cli(
        "solve",
        p99 / "p7_09b.dat",
        "--strategy",
        "given",
        "--timeout",
        "0.3",
        "--engine",
        "prolog",
        "--output",
        "json",
    )
    assert child.returncode == 3, child.stderr
    assert json.loads(child.stdout)["status"] == "timeout"


def _catches_sigint(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status").read_text()
    caught = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.MULTILINE)
    assert caught is not None
    return bool(int(caught.group(1), 16) & (1 << (signal.SIGINT - 1)))


def _wait_for_main(pid: int) -> None:
    """Wait until main() has taken SIGINT over: Python installs its handler
    at start-up, and main() puts the default action back."""
    seen_python_handler = False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        caught = _catches_sigint(pid)
        if seen_python_handler and not caught:
            return
        seen_python_handler |= caught
        time.sleep(0.002)
    raise AssertionError("main() never took SIGINT over")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("engine", ENGINES)
def test_ctrl_c_ends_a_long_search_at_once(p99: Path, engine: str) -> None:
    args = ["solve", p99 / "p7_09b.dat", "--strategy", "given", "--engine", engine]
    child = subprocess.Popen(
        [sys.executable, "-m", "pybridge", *map(str, args)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # as in a terminal, whatever the test runner does with SIGINT
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        _wait_for_main(child.pid)
        time.sleep(0.3)  # well inside the search, which takes minutes
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)  # the search alone takes minutes
    finally:
        child.kill()
    assert child.returncode == -signal.SIGINT  # the shell shows 130
    assert (out, err) == ("", "")


@needs_prolog
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc")
def test_loading_prolog_keeps_sigints_default_action() -> None:
    # on_signal/3 takes SIGINT from the operating system: were it kept, a
    # Ctrl-C pressed after Prolog is loaded would end the CLI only as a
    # caught exception, and would wait while no query runs.
    code = textwrap.dedent(
        """
        import re, signal
        from pathlib import Path
        from pybridge import bridge
        def caught():
            status = Path("/proc/self/status").read_text()
            mask = re.search(r"^SigCgt:\\s*([0-9a-f]+)$", status, re.MULTILINE).group(1)
            return bool(int(mask, 16) & (1 << (signal.SIGINT - 1)))
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        bridge.load_dictionary(["ab"])
        print(caught(), signal.getsignal(signal.SIGINT) is signal.SIG_DFL)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.stdout.split() == ["False", "True"], done.stderr


# ---------------------------------------------------------------- the bridge itself


@needs_prolog
def test_bridge_passes_hostile_words_as_data() -> None:
    # Were a word ever pasted into Prolog source, "'),halt,('" would stop the process.
    code = textwrap.dedent(
        """
        from pybridge import bridge
        from pybridge.layout import of_cells
        from pybridge.search.kernel import Request
        def search(words, sites, strategy, limit=1):
            return bridge.search(Request(of_cells(sites, {}), words, strategy, limit))
        column = [(r, 1) for r in range(10)]
        crossing_at_0 = [[(0, 0), (0, 1)], column]
        crossing_at_4 = [[(4, 0), (4, 1)], column]
        print(search(["Äb", "'),halt,('"], crossing_at_0, "mrv").status)
        found = search(["Äa", "'),halt,('"], crossing_at_4, "mrv", limit=None)
        print(found.status, found.solutions == [["Äa", "'),halt,('"]])
        backslash, quote = chr(92), chr(34)
        words = ["X" + backslash, backslash + quote]
        found = search(words, [[(0, 0), (0, 1)], [(0, 1), (1, 1)]], "given")
        print(found.status, found.solutions == [words])
        print("alive")
        """
    )
    child = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.splitlines() == [
        "unsolvable",
        "solved True",
        "solved True",
        "alive",
    ]
