"""`crossword bench`: a suite of grids filled from a dictionary, tabulated,
written as CSV and JSON, drawn as a cactus plot, run in parallel."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from pybridge import bench
from pybridge.cli import main
from pybridge.gridfiles import parse_grid

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")

# Two 5x5 grids wdeg fills at once, and g23.01 whose 23-letter slot no word fits.
SUITE = ("g05.02", "g05.03", "g23.01")


@pytest.fixture
def suite(shared_dir: Path) -> list[str]:
    folder = shared_dir / "bench" / "grids" / "vanbeek"
    return [str(folder / f"{name}.txt") for name in SUITE]


@pytest.fixture
def scowl(shared_dir: Path) -> str:
    return str(shared_dir / "bench" / "dicts" / "scowl55.txt")


def square(tmp_path: Path, words: str) -> tuple[Path, Path]:
    """A 2x2 grid g.txt and a word list words.txt of `words`."""
    grid, listed = tmp_path / "g.txt", tmp_path / "words.txt"
    grid.write_text("..\n..\n", encoding="utf-8")
    listed.write_text(words, encoding="utf-8")
    return grid, listed


def fill_and_stuck(tmp_path: Path) -> Path:
    """In tmp_path, a grid the words fill (fill.txt), one they cannot
    (stuck.txt) and the word list, whose path is returned."""
    (tmp_path / "fill.txt").write_text("..\n..\n", encoding="utf-8")
    (tmp_path / "stuck.txt").write_text("...\n...\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("ab\nac\nbd\ncd\n", encoding="utf-8")
    return words


def bench_json(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> tuple[int, str, dict[str, object]]:
    target = tmp_path / f"{name}.json"
    code = main(["bench", *args, "--json", str(target)])
    out = capsys.readouterr().out
    return code, out, json.loads(target.read_text(encoding="utf-8"))


@needs_prolog
def test_table_files_and_summary(
    suite: list[str], scowl: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv_file, plot = tmp_path / "runs.csv", tmp_path / "cactus.png"
    args = [*suite, "--dict", scowl, "--engines", "python,prolog", "--timeout", "10"]
    code, out, report = bench_json(
        [*args, "--csv", str(csv_file), "--plot", str(plot)], tmp_path, capsys, "runs"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("dictionary: 66400 words from ")
    assert ", sent to Prolog in " in lines[0]
    assert lines[1].split() == ["python", "wdeg", "prolog", "wdeg"]
    assert lines[2].split() == ["grid", "size"] + ["status", "s", "nodes"] * 2
    rows = {line.split()[0]: line.split() for line in lines[3:6]}
    assert list(rows) == list(SUITE)
    assert [rows[g][2] for g in SUITE] == ["solved", "solved", "unsolvable"]
    assert rows["g05.02"][4] == rows["g05.02"][7]  # both engines place as many words
    assert lines[6].split() == ["solved", "2/3", "2/3"]
    assert lines[7].split() == ["unsolvable", "1", "1"]  # g23.01: decided, though not filled
    assert lines[8].split()[0] == "median"
    assert len(lines[8].split()) == 3
    assert lines[9].split()[0] == "slowest"  # the greatest seconds of a grid filled
    slowest = [float(x) for x in lines[9].split()[1:]]
    most = [max(float(rows[g][c]) for g in SUITE[:2]) for c in (3, 6)]  # shown to 0.01 s
    assert all(abs(a - b) <= 0.0051 for a, b in zip(slowest, most, strict=True))  # + float error

    assert set(report) == {"dictionary", "settings", "runs", "summary"}
    dictionary = report["dictionary"]
    assert isinstance(dictionary, dict)
    assert dictionary["words"] == 66400
    assert dictionary["load_seconds"] >= 0
    assert dictionary["index_seconds"] >= 0
    assert isinstance(dictionary["send_seconds"], float)
    runs = report["runs"]
    assert isinstance(runs, list)
    assert len(runs) == 6
    summary = report["summary"]
    assert isinstance(summary, dict)
    assert list(summary) == ["python wdeg", "prolog wdeg"]
    for column in summary.values():
        assert column["runs"] == 3
        assert column["solved"] == 2
        assert column["unsolvable"] == 1
        assert column["timeout"] == column["wrong"] == 0
        assert column["median_seconds"] > 0
        assert column["slowest_seconds"] >= column["median_seconds"]

    with csv_file.open(encoding="utf-8", newline="") as handle:
        records = list(csv.DictReader(handle))
    assert [(r["grid"], r["engine"]) for r in records] == [
        (grid, engine) for grid in SUITE for engine in ("python", "prolog")
    ]
    assert {r["status"] for r in records if r["grid"] == "g23.01"} == {"unsolvable"}
    assert all(int(r["nodes"]) >= 0 and float(r["seconds"]) >= 0 for r in records)
    assert plot.read_bytes().startswith(b"\x89PNG")


def test_the_footer_counts_time_outs(
    suite: list[str], scowl: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a millisecond is too short for the proofs of a 23x23 grid, let alone its search
    grid = suite[0].replace("g05.02", "g23.03")
    args = [suite[0], grid, "--dict", scowl, "--engines", "python", "--timeout", "0.001"]
    code, out, report = bench_json(args, tmp_path, capsys, "short")
    assert code == 0
    summary, runs = report["summary"], report["runs"]
    assert isinstance(summary, dict)
    assert isinstance(runs, list)
    assert runs[1]["status"] == "timeout"
    timeouts = summary["python wdeg"]["timeout"]
    assert timeouts == sum(r["status"] == "timeout" for r in runs) >= 1
    footer = {line.split()[0]: line.split()[1:] for line in out.splitlines()[-4:]}
    assert footer["timeout"] == [str(timeouts)]


@needs_prolog
def test_two_jobs_agree_with_one(
    suite: list[str], scowl: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [*suite, "--dict", scowl, "--engines", "python,prolog", "--strategies", "lcv,mrv"]
    outcomes = []
    for jobs in ("1", "2"):
        code, _, report = bench_json([*args, "--jobs", jobs], tmp_path, capsys, jobs)
        assert code == 0
        runs = report["runs"]
        assert isinstance(runs, list)
        outcomes.append(
            [(r["grid"], r["engine"], r["strategy"], r["status"], r["nodes"]) for r in runs]
        )
    assert outcomes[0] == outcomes[1]
    assert len(outcomes[0]) == 12


def test_folder_takes_its_grid_files_only(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text("..#\n...\n#..\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("...\n...\n", encoding="utf-8")
    (tmp_path / "words.txt").write_text("CAT\nDOG\n", encoding="utf-8")  # no cell to fill
    (tmp_path / "INDEX.tsv").write_text("grid\tsize\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("...\n", encoding="utf-8")
    grids = bench.load_suite([str(tmp_path)])
    assert [(g.name, g.size) for g in grids] == [("a", "2x3"), ("b", "3x3")]


def test_clashing_grid_names_are_shown_as_paths(tmp_path: Path) -> None:
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "a.txt").write_text("..\n..\n", encoding="utf-8")
    grids = bench.load_suite([str(tmp_path / "one"), str(tmp_path / "two")])
    assert [g.name for g in grids] == [str(tmp_path / f / "a.txt") for f in ("one", "two")]


def test_wrong_fill_is_an_error_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    grid, words = square(tmp_path, "ab\nac\nbd\ncd\n")
    monkeypatch.setattr(bench.runner, "problems", lambda puzzle, grid: ["1-Across: made up"])
    code = main(["bench", str(grid), "--dict", str(words), "--engines", "python"])
    captured = capsys.readouterr()
    assert code == 1
    assert "WRONG" in captured.out.splitlines()[3]
    assert "WRONG g python wdeg: 1-Across: made up" in captured.err


def test_tiny_grid_in_both_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = fill_and_stuck(tmp_path)
    code, out, report = bench_json(
        [str(tmp_path), "--dict", str(words), "--engines", "python"], tmp_path, capsys, "tiny"
    )
    assert code == 0
    assert "Prolog" not in out.splitlines()[0]  # nothing was sent there
    dictionary = report["dictionary"]
    assert isinstance(dictionary, dict)
    assert dictionary["send_seconds"] is None
    runs = report["runs"]
    assert isinstance(runs, list)
    assert [(r["grid"], r["status"]) for r in runs] == [
        ("fill", "solved"),
        ("stuck", "unsolvable"),
    ]


def test_the_table_is_printed_a_row_at_a_time() -> None:
    # the widths are known before any run: a row printed early lines up
    # with the footer computed at the end
    grids = [("g05.01", "5x5"), ("a-long-grid-name", "15x15")]
    table = bench.Table(grids, ["python wdeg"])
    first = bench.Run("g05.01", "5x5", "python", "wdeg", "solved", 0.8412, 10, 0)
    late = bench.Run("a-long-grid-name", "15x15", "python", "wdeg", "unsolvable", 1234.5, 1, 0)
    lines = [
        *table.head(),
        table.row("g05.01", "5x5", {"python wdeg": first}),
        table.row("a-long-grid-name", "15x15", {"python wdeg": late}),
        *table.foot([first, late]),
    ]
    assert lines == bench.table_text([first, late]).splitlines()
    assert len({len(line) for line in lines[1:3]}) == 1
    assert lines[2].split() == ["g05.01", "5x5", "solved", "0.84", "10"]
    assert [line.split()[0] for line in lines[-4:]] == ["solved", "unsolvable", "median", "slowest"]


def test_peers_are_read_and_matched_by_grid(shared_dir: Path) -> None:
    folder = shared_dir / "bench" / "peers"
    names = [peer.name for peer in bench.read_peers(folder)]
    assert names == ["gecode", "qxw", "ace"]
    peers = bench.relevant_peers(folder, ["g05.01", "g23.01", "ours"])
    assert all(peer.grids == {"g05.01", "g23.01"} for peer in peers)
    assert all(set(peer.seconds) == {"g05.01"} for peer in peers)  # g23.01 has no fill
    assert bench.relevant_peers(folder, ["ours"]) == []
    assert bench.relevant_peers(None, ["g05.01"]) == []


def test_the_cactus_plot_keeps_peers_within_the_time_limit_and_draws_qxw_once() -> None:
    runs = [
        bench.Run("g1", "5x5", "python", "wdeg", "solved", 0.5, 10, 0),
        bench.Run("g2", "5x5", "python", "wdeg", "timeout", 3.0, 99, 0),
        bench.Run("g1", "5x5", "qxw", "", "solved", 0.4, None, None),
        bench.Run("g2", "5x5", "qxw", "", "solved", 2.0, None, None),
    ]
    peers = [
        bench.Peer("gecode", {"g1": 0.01, "g2": 4.0}, frozenset({"g1", "g2"})),
        bench.Peer("qxw", {"g1": 0.35, "g2": 1.0}, frozenset({"g1", "g2"}), "incl dict load"),
        bench.Peer("ace", {"g1": 0.6}, frozenset({"g1", "g2"}), "incl JVM"),
    ]
    lines = bench.cactus_lines(runs, peers, timeout=3.0)
    assert lines == [
        ("python wdeg", [0.5], False),
        ("qxw (wall time, incl dict load)", [0.4, 2.0], False),
        ("gecode (peer)", [0.01], True),  # 4.0 s is past this run's limit
        ("ace (peer, incl JVM)", [0.6], True),
    ]


def test_peers_say_what_their_seconds_include(shared_dir: Path) -> None:
    peers = {p.name: p for p in bench.read_peers(shared_dir / "bench" / "peers")}
    assert peers["qxw"].includes == "incl dict load"
    assert peers["ace"].label == "ace (peer, incl JVM)"
    assert peers["gecode"].label == "gecode (peer)"


def test_qxw_deck_shares_crossing_cells() -> None:
    puzzle = parse_grid("..#\n...\n", "g.txt", "grid")[0]
    # sites in canonical order: 1-Across, 1-Down, 2-Down, 3-Across
    assert bench.qxw_deck(puzzle) == "00 01\n00 02\n01 03\n02 03 04\n"
    filled = bench.qxw_grid(puzzle, "W0 AB\n# ab\nW1 AC\nW2 BD\nW3 CDE\n")
    assert filled == ("AB#", "CDE")
    assert bench.qxw_grid(puzzle, "W0 AB\n") is None


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--strategies", "given"], "unknown 'given'"),
        (["--jobs", "0"], "must be at least 1"),
        (["--timeout", "0"], "positive number of seconds"),
        (["--plot", "out.pdf"], "must end in .png or .svg"),
        (["--engines", "java"], "unknown 'java'"),
    ],
)
def test_bad_arguments_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    grid, words = square(tmp_path, "ab\n")
    assert main(["bench", str(grid), "--dict", str(words), *extra]) == 2
    assert message in capsys.readouterr().err


def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = tmp_path / "w.txt"
    words.write_text("ab\n", encoding="utf-8")
    assert main(["bench", str(tmp_path / "g.txt")]) == 2  # no --dict
    assert "--dict" in capsys.readouterr().err
    assert main(["bench", str(tmp_path / "missing.txt"), "--dict", str(words)]) == 2
    assert "missing.txt" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["bench", str(empty), "--dict", str(words)]) == 2
    assert "no grid file" in capsys.readouterr().err


def test_peer_qxw_missing_says_how_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    grid, words = square(tmp_path, "ab\n")
    monkeypatch.setattr(bench, "qxw_program", lambda: None)
    assert main(["bench", str(grid), "--dict", str(words), "--peer", "qxw"]) == 2
    assert "apt-get install qxw" in capsys.readouterr().err


@pytest.mark.skipif(bench.qxw_program() is None, reason="qxw is not installed")
def test_peer_qxw_runs_on_the_same_grids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = fill_and_stuck(tmp_path)
    args = [str(tmp_path), "--dict", str(words), "--engines", "python", "--peer", "qxw"]
    code, _, report = bench_json(args, tmp_path, capsys, "qxw")
    assert code == 0
    runs = report["runs"]
    assert isinstance(runs, list)
    assert [(r["grid"], r["engine"], r["status"]) for r in runs] == [
        ("fill", "python", "solved"),
        ("fill", "qxw", "solved"),
        ("stuck", "python", "unsolvable"),
        ("stuck", "qxw", "unsolvable"),
    ]
