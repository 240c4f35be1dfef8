"""The difficulty estimate (`crossword difficulty`, pybridge.estimate_difficulty):
its features on small hand-made grids match values worked out by hand (in
the comments), the calibrated formula, the CLI's outputs and exit codes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import pybridge
from pybridge.cli import main
from pybridge.difficulty import SHORTFALL, WEIGHT, difficulty_of, estimate
from pybridge.model import Puzzle

# A ring: four 3-letter slots (rows 1 and 3, columns 1 and 3) meeting at the
# four corners; the middle of each side is in one slot only.
RING = ("...", ".#.", "...")
# Three words whose first and last letters are A twice and B once.
WORDS = ("ABA", "ACA", "BAB")


def grid(rows: tuple[str, ...], words: tuple[str, ...] = ()) -> Puzzle:
    return Puzzle(words, rows, "grid", mode="lexicon")


def test_grid_features_of_the_ring() -> None:
    features = estimate(grid(RING)).features
    assert features["slots"] == 4
    assert features["lengths"] == {"3": 4}
    assert features["crossings"] == 4  # the corners
    assert features["checked_cells"] == 4
    assert features["unchecked_cells"] == 4  # the middles of the sides
    assert features["open_cells"] == 8
    assert features["blocks"] == 1
    assert features["crossings_per_slot"] == 2
    # generation complexity: each slot is 3 long with 2 crossings: 4 x 3 x 2
    assert features["generation_complexity"] == 24
    assert features["longest"] == 3
    assert features["long_slots"] == 0


def test_grid_features_of_a_plus_and_a_lonely_cell() -> None:
    # a plus (one across, one down through the middle) and a cell in no slot
    features = estimate(grid(("#.#.", "...#", "#.##"))).features
    assert features["slots"] == 2
    assert features["crossings"] == 1
    assert features["unchecked_cells"] == 4
    assert features["cells_in_no_slot"] == 1
    assert features["generation_complexity"] == 3 * 1 + 3 * 1


def test_dictionary_features_of_the_ring_worked_out_by_hand() -> None:
    features = estimate(grid(RING), WORDS).features
    # every slot takes any of the 3 words; first and last letters are A with
    # share 2/3 and B with 1/3, so two of them agree with chance 4/9 + 1/9
    agree = 5 / 9
    log_space = 4 * math.log10(3)
    assert features["log10_search_space"] == pytest.approx(log_space, abs=1e-4)
    assert features["log10_expected_fills"] == pytest.approx(
        log_space + 4 * math.log10(agree), abs=1e-4
    )  # 0.8874: about 7.7 fills expected
    assert features["kappa"] == pytest.approx(math.log2(9 / 5) / math.log2(3), abs=1e-4)
    assert features["words_by_length"] == {"3": 3}
    assert features["tightest_length_ratio"] == 0.75  # 3 words for 4 slots
    assert features["least_candidates"] == 3
    assert features["empty_slots"] == 0


def test_a_given_letter_narrows_the_candidates() -> None:
    features = estimate(grid(("B..", ".#.", "...")), WORDS).features
    # 1-Across and 1-Down start with B: only BAB; the other two slots take all 3
    assert features["least_candidates"] == 1
    assert features["log10_search_space"] == pytest.approx(2 * math.log10(3), abs=1e-4)
    # crossings at the B corner: certain (B, B); the two corners next to it:
    # BAB's B against A 2/3, B 1/3 -> 1/3; the far corner 5/9 as in the ring
    expected = 2 * math.log10(3) + 2 * math.log10(1 / 3) + math.log10(5 / 9)
    assert features["log10_expected_fills"] == pytest.approx(expected, abs=1e-4)


def test_the_difficulty_is_the_calibrated_formula() -> None:
    e = estimate(grid(RING), WORDS)
    per_slot = (4 * math.log10(3) + 4 * math.log10(5 / 9)) / 4
    assert e.features["log10_expected_fills_per_slot"] == pytest.approx(per_slot, abs=1e-4)
    assert e.difficulty == pytest.approx(difficulty_of(4, per_slot), abs=1e-4)
    assert difficulty_of(100, SHORTFALL) == 2.0  # enough fills: log10 of the slots
    assert difficulty_of(100, SHORTFALL - 1) == pytest.approx(2.0 + WEIGHT)


def test_fewer_words_make_a_harder_grid() -> None:
    rich = estimate(grid(RING), (*WORDS, "ABB", "BBA", "AAA", "BBB")).difficulty
    poor = estimate(grid(RING), ("ABA", "BAB", "ACA", "ADA")).difficulty
    assert rich is not None
    assert poor is not None
    assert rich < poor


def test_a_slot_without_a_candidate_cannot_be_filled() -> None:
    e = estimate(grid(("....", "#.##")), WORDS)  # no 4-letter word (nor 2)
    assert e.difficulty is None
    assert e.features["empty_slots"] == 2
    assert e.features["log10_expected_fills"] is None
    no_agreement = estimate(grid(RING), ("ABC", "ABD"))  # C/D never meet A
    assert no_agreement.difficulty is None


def test_the_api_reads_the_puzzles_own_dictionary(tmp_path: Path) -> None:
    (tmp_path / "ring.txt").write_text("\n".join(RING) + "\n", encoding="utf-8")
    (tmp_path / "words.txt").write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    puzzle = pybridge.load(tmp_path / "ring.txt", dictionary=tmp_path / "words.txt")
    assert pybridge.estimate_difficulty(puzzle) == estimate(grid(RING), WORDS)
    assert isinstance(pybridge.estimate_difficulty(puzzle), pybridge.Estimate)


def test_cli_json_text_and_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ring = tmp_path / "ring.txt"
    ring.write_text("\n".join(RING) + "\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    assert main(["difficulty", str(ring), "--dict", str(words), "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) == {"difficulty", "features"}
    assert doc["difficulty"] == estimate(grid(RING), WORDS).difficulty
    assert main(["difficulty", str(ring)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("difficulty: ")
    assert "generation_complexity: 24" in text
    wide = tmp_path / "wide.txt"
    wide.write_text("....\n#.##\n", encoding="utf-8")
    assert main(["difficulty", str(wide), str(ring), "--dict", str(words), "--sort"]) == 1
    table = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in table] == ["grid", "ring", "wide"]
    assert "none" in table[2]
    assert main(["difficulty", str(ring), "--encoding", "utf-8"]) == 2
    assert main(["difficulty", str(tmp_path / "missing.txt")]) == 2


def test_van_beek_grids_rank_as_measured(shared_dir: Path) -> None:
    # g15.03 was filled in 92 wdeg nodes with scowl55, g15.06 not in 10 s
    # (docs/benchmarks.md#difficulty); 5x5 grids are easier than both
    vanbeek = shared_dir / "bench" / "grids" / "vanbeek"
    scowl55 = shared_dir / "bench" / "dicts" / "scowl55.txt"
    rated = {
        name: pybridge.estimate_difficulty(
            pybridge.load(vanbeek / f"{name}.txt", dictionary=scowl55)
        ).difficulty
        for name in ("g05.01", "g15.03", "g15.06")
    }
    assert rated["g05.01"] < rated["g15.03"] < rated["g15.06"]  # type: ignore[operator]


def test_bench_sorts_grids_by_difficulty_and_ranks_the_estimate(
    shared_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vanbeek = shared_dir / "bench" / "grids" / "vanbeek"
    grids = [str(vanbeek / f"{name}.txt") for name in ("g05.01", "puzzle02", "g05.02", "g23.01")]
    report = tmp_path / "bench.json"
    argv = ["bench", *grids, "--dict", str(shared_dir / "bench" / "dicts" / "scowl55.txt")]
    argv += ["--engines", "python", "--sort", "difficulty", "--json", str(report)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    table = [line.split() for line in lines[3:7]]
    assert [row[0] for row in table] == ["puzzle02", "g05.02", "g05.01", "g23.01"]
    assert [row[2] for row in table][-1] == "none"  # a 23-letter slot: no candidate
    assert lines[-1].startswith("difficulty vs nodes (python wdeg): Spearman rho ")
    assert lines[-1].endswith("over 3 grids")  # g23.01 is proved unfillable before any node
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert doc["difficulty"]["g23.01"] is None
    assert doc["difficulty_vs_nodes"]["python wdeg"]["grids"] == 3
    assert doc["settings"]["sort"] == "difficulty"


def test_rank_correlation() -> None:
    from pybridge.difficulty import rank_correlation

    assert rank_correlation([1, 2, 3], [3, 2, 1]) == -1.0
    assert rank_correlation([1, 2, 3], [1, 5, math.inf]) == 1.0  # a timeout ranks hardest
    assert rank_correlation([1, 1, 1], [1, 2, 3]) is None
    assert rank_correlation([1], [2]) is None
