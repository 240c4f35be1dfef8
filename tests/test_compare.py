"""`crossword compare`: both engines on the same puzzles, timed, and checked
for agreement."""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pybridge import bridge, compare
from pybridge.cli import main
from pybridge.compare import Entry, Measurement, Ratio, Report, disagreements, sibling_words
from pybridge.solver import Outcome
from pybridge.solver import run as solver_run

REPO = Path(__file__).resolve().parents[1]
needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
FAST = ["--strategies", "sorted,mrv", "--repeat", "1"]


@pytest.fixture
def corpus(shared_dir: Path) -> Path:
    return shared_dir / "corpus"


def puzzles(corpus: Path) -> list[str]:
    """p7_09a, p7_09b and fill-in puzzle3 (paired with words3 automatically)."""
    return [
        str(corpus / "p99" / "p7_09a.dat"),
        str(corpus / "p99" / "p7_09b.dat"),
        str(corpus / "fillin" / "puzzle3"),
    ]


def cell(engine: str, status: str = "solved", **changes: Any) -> Measurement:
    fields: dict[str, Any] = {
        "entry": Entry("p.dat", None, "p.dat"),
        "engine": engine,
        "strategy": "mrv",
        "status": status,
        "solutions": [["AB", "C#"]],
        "nodes": 3,
        "backtracks": 1,
        "seconds": [0.002],
    }
    fields.update(changes)
    return Measurement(**fields)


# ---------------------------------------------------------------- the corpus


@needs_prolog
def test_engines_agree_on_the_corpus(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", *puzzles(corpus), *FAST]) == 0
    out = capsys.readouterr().out
    assert "DISAGREE" not in out
    assert "the engines agree on every puzzle and strategy" in out
    header = out.splitlines()[0].split()
    assert header == [
        "puzzle",
        "strategy",
        "engine",
        "status",
        "solutions",
        "nodes",
        "backtracks",
        "median",
        "ms",
    ]
    rows = [line.split() for line in out.splitlines()[1:13]]
    assert [row[:3] for row in rows[:2]] == [
        ["p7_09a.dat", "sorted", "prolog"],
        ["p7_09a.dat", "sorted", "python"],
    ]
    assert {row[0] for row in rows} == {"p7_09a.dat", "p7_09b.dat", "puzzle3"}
    assert all(row[3] == "solved" and row[4] == "1" for row in rows)
    assert "python/prolog" in out
    summary = out.rstrip().split("\n\n")[-1].splitlines()
    assert summary[0] == "median python/prolog time ratio over the puzzles:"
    assert [line.split(":")[0] for line in summary[1:]] == ["  sorted", "  mrv"]
    assert all(float(line.split(":")[1]) > 0 for line in summary[1:])


@needs_prolog
def test_json_records_ratios_and_summary(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", *puzzles(corpus), *FAST, "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"records", "ratios", "summary", "disagreements"}
    assert len(doc["records"]) == 3 * 2 * 2
    for record in doc["records"]:
        assert set(record) == {
            "puzzle",
            "path",
            "words",
            "engine",
            "strategy",
            "status",
            "solutions",
            "nodes",
            "backtracks",
            "median_seconds",
            "seconds",
        }
        assert record["status"] == "solved"
        assert len(record["solutions"]) == 1
        assert all(isinstance(row, str) for row in record["solutions"][0])
        assert len(record["seconds"]) == 1
    by_puzzle = {r["puzzle"]: r["words"] for r in doc["records"]}
    assert by_puzzle["p7_09a.dat"] is None
    assert by_puzzle["puzzle3"] == str(corpus / "fillin" / "words3")
    assert len(doc["ratios"]) == 3 * 2
    assert all(r["python_over_prolog"] > 0 for r in doc["ratios"])
    assert set(doc["summary"]) == {"sorted", "mrv"}
    assert doc["disagreements"] == []


@needs_prolog
def test_both_engines_timing_out_is_not_a_disagreement(
    corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slow = str(corpus / "p99" / "p7_09b.dat")
    args = ["compare", slow, "--strategies", "given", "--timeout", "0.2", "--repeat", "3"]
    assert main([*args, "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["status"] for r in doc["records"]] == ["timeout", "timeout"]
    assert [len(r["seconds"]) for r in doc["records"]] == [1, 1]  # not repeated
    assert doc["ratios"] == [
        {"puzzle": "p7_09b.dat", "strategy": "given", "python_over_prolog": None}
    ]
    assert doc["summary"] == {"given": None}


@needs_prolog
def test_a_disagreement_is_loud_and_exits_1(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def python_counts_one_node_more(puzzle: Any, **kwargs: Any) -> Outcome:
        outcome = solver_run(puzzle, **kwargs)
        if kwargs["engine"] == "python":
            outcome.stats.nodes += 1
        return outcome

    monkeypatch.setattr(compare, "run", python_counts_one_node_more)
    a = str(corpus / "p99" / "p7_09a.dat")
    assert main(["compare", a, "--strategies", "mrv", "--repeat", "1"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert "DISAGREE p7_09a.dat mrv: nodes prolog=11 python=12" in lines


# ---------------------------------------------------------------- what counts as agreement


def test_identical_cells_agree() -> None:
    assert disagreements(cell("prolog"), cell("python")) == []


@pytest.mark.parametrize(
    ("field", "value"),
    [("status", "unsolvable"), ("solutions", [["AC", "B#"]]), ("nodes", 4), ("backtracks", 0)],
)
def test_every_compared_field_can_disagree(field: str, value: Any) -> None:
    (found,) = disagreements(cell("prolog"), cell("python", **{field: value}))
    assert found.field == field
    assert str(found).startswith(f"DISAGREE p.dat mrv: {field}")


def test_solutions_in_another_order_disagree() -> None:
    two = [["AB", "C#"], ["BA", "C#"]]
    found = disagreements(cell("prolog", solutions=two), cell("python", solutions=two[::-1]))
    assert [d.field for d in found] == ["solutions"]


def test_timeouts_compare_only_the_status() -> None:
    both = disagreements(cell("prolog", "timeout", nodes=9), cell("python", "timeout", nodes=5))
    assert both == []
    (one,) = disagreements(cell("prolog", nodes=9), cell("python", "timeout", nodes=5))
    assert one.field == "status"
    assert "only one engine reached the time limit" in str(one)


def test_summary_is_the_median_ratio_per_strategy() -> None:
    ratios = [
        Ratio("a", "mrv", 1.0),
        Ratio("b", "mrv", 3.0),
        Ratio("c", "mrv", 2.0),
        Ratio("a", "given", None),
    ]
    assert Report([], ratios, []).summary() == {"mrv": 2.0, "given": None}


def test_the_plot_title_explains_hatching_only_when_a_bar_has_it() -> None:
    solved = [cell("prolog", "solved"), cell("python", "solved")]
    assert compare.plot_title(Report(solved, [], [])) == "crossword compare"
    late = [cell("prolog", "timeout", seconds=[0.2]), cell("python", "solved")]
    assert "hatched: time limit reached" in compare.plot_title(Report(late, [], []))


def test_text_shows_timeouts_and_unknown_ratios() -> None:
    cells = [cell("prolog", "timeout", seconds=[0.2]), cell("python", "timeout", seconds=[0.2])]
    text = compare.report_text(Report(cells, [Ratio("p.dat", "mrv", None)], []))
    rows = [line.split() for line in text.splitlines()[1:3]]
    assert [row[3] for row in rows] == ["timeout", "timeout"]
    assert [row[-1] for row in rows] == ["200.00", "200.00"]
    assert ["p.dat", "mrv", "-"] in [line.split() for line in text.splitlines()]
    assert "  mrv: -" in text


def test_every_repetition_reads_and_parses_the_file_again(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    loaded: list[str] = []

    def counting_load(path: str, words: str | None = None) -> Any:
        loaded.append(path)
        return real_load(path, words)

    real_load = compare.load
    monkeypatch.setattr(compare, "load", counting_load)
    a = str(corpus / "p99" / "p7_09a.dat")
    args = ["compare", a, "--engines", "python", "--strategies", "mrv", "--repeat", "4"]
    assert main([*args, "--output", "json"]) == 0
    (record,) = json.loads(capsys.readouterr().out)["records"]
    assert len(record["seconds"]) == 4
    assert record["median_seconds"] == statistics.median(record["seconds"])
    assert loaded == [a] * (1 + 4)  # once to check the input, then once per run


# ---------------------------------------------------------------- pairing fill-in words


def test_sibling_words_follow_the_corpus_layout(corpus: Path) -> None:
    fillin = corpus / "fillin"
    assert sibling_words(str(fillin / "puzzle3")) == str(fillin / "words3")
    assert sibling_words(str(fillin / "puzzle_t15")) == str(fillin / "words_t15")
    assert sibling_words(str(fillin / "puzzle13")) == str(fillin / "words13")
    assert sibling_words(str(fillin / "filled3a")) is None
    assert sibling_words(str(corpus / "p99" / "p7_09a.dat")) is None


def test_explicit_pairs_and_words_option(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fillin = corpus / "fillin"
    grid = tmp_path / "grid.txt"
    grid.write_bytes((fillin / "puzzle4").read_bytes())
    pair = f"{grid}:{fillin / 'words4'}"
    python_only = ["--engines", "python", *FAST, "--output", "json"]
    assert main(["compare", pair, *python_only]) == 0
    records = json.loads(capsys.readouterr().out)["records"]
    assert {r["words"] for r in records} == {str(fillin / "words4")}
    assert main(["compare", str(grid), "--words", str(fillin / "words4"), *python_only]) == 0
    assert json.loads(capsys.readouterr().out)["records"][0]["status"] == "solved"


def test_fillin_without_words_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grid = tmp_path / "puzzle9"
    grid.write_text("___\n", encoding="utf-8")
    assert main(["compare", str(grid), "--engines", "python"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{grid}: error: a fill-in puzzle needs its word list")


def test_bad_input_exits_2_before_any_timing(
    tmp_path: Path, corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.dat"
    bad.write_text("AB\nA?\n\n..\n", encoding="utf-8")
    good = str(corpus / "p99" / "p7_09a.dat")
    assert main(["compare", good, str(bad), "--engines", "python"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{bad}:2:2: error:")


@pytest.mark.parametrize(
    "extra",
    [
        ["--engines", "prolog,java"],
        ["--engines", "python,python"],
        ["--strategies", "fastest"],
        ["--repeat", "0"],
        ["--timeout", "0"],
        ["--limit", "0"],
        ["--plot", "chart.jpg"],
    ],
)
def test_usage_errors_exit_2(
    corpus: Path, extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", str(corpus / "p99" / "p7_09a.dat"), *extra]) == 2
    assert "usage: crossword compare" in capsys.readouterr().err


# ---------------------------------------------------------------- missing pieces


def test_missing_prolog_skips_its_cells_with_a_notice(
    corpus: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bridge, "available", lambda: False)
    a = str(corpus / "p99" / "p7_09a.dat")
    assert main(["compare", a, *FAST, "--output", "json"]) == 0
    captured = capsys.readouterr()
    assert "SWI-Prolog not found: skipping the prolog cells" in captured.err
    doc = json.loads(captured.out)
    assert {r["engine"] for r in doc["records"]} == {"python"}
    assert doc["ratios"] == []
    assert main(["compare", a, "--engines", "prolog"]) == 2
    assert "SWI-Prolog is needed" in capsys.readouterr().err


def test_plot_writes_a_png(
    corpus: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "times.png"
    a = str(corpus / "p99" / "p7_09a.dat")
    assert main(["compare", a, "--engines", "python", *FAST, "--plot", str(chart)]) == 0
    assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert chart.stat().st_size > 1000
    assert f"plot written to {chart}" in capsys.readouterr().err


def test_plot_without_matplotlib_says_what_to_install(
    corpus: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    chart = tmp_path / "times.svg"
    a = str(corpus / "p99" / "p7_09a.dat")
    assert main(["compare", a, "--engines", "python", "--plot", str(chart)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{sys.executable} -m pip install matplotlib" in captured.err  # works as it is
    assert not chart.exists()


# ---------------------------------------------------------------- the real command


def test_real_command_exit_codes_without_tracebacks(corpus: Path, tmp_path: Path) -> None:
    a = str(corpus / "p99" / "p7_09a.dat")
    cases = [
        ([a, "--engines", "python", *FAST], 0),
        ([str(tmp_path / "absent.dat")], 2),
        ([a, "--repeat", "none"], 2),
    ]
    for args, code in cases:
        child = subprocess.run(
            [sys.executable, "-m", "pybridge", "compare", *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert child.returncode == code, (args, child.stderr)
        assert "Traceback" not in child.stderr
