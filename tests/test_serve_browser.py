"""The workbench page in a real headless Chromium (tests/browser.py): open
it, load a puzzle, edit it from the keyboard, autofill it and see the letters
appear, cancel a long fill, check an unsolvable grid and see its core marked,
and save screenshots (to CROSSWORD_SCREENSHOTS too, when it names a folder).

Skipped with a reason where Chromium or Playwright is missing; .ci/run
installs both and makes such a skip a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import browser
import pytest
from conftest import SHARED

ROOT = Path(__file__).resolve().parents[1]
THREE_S = ROOT / "data" / "unsolvable" / "hall" / "three-s.dat"
SQUARE_WORDS = ["CAT", "ORE", "WED", "COW", "ARE", "TED", "CUP", "OAK"]
# A scored list: an open 3x3 grid has two fills from it (and their
# transposes), CAT/ORE/WED over COW/ARE/TED (lowest 40, total 520) and
# TEN/ORE/EAT over TOE/ERA/NET (lowest 60, total 445).
SCORED = "CAT;40\nORE;80\nWED;100\nCOW;100\nARE;100\nTED;100\nTEN;60\nEAT;95\n"
SCORED += "TOE;65\nERA;75\nNET;70\nCUP;99\n"
SCOWL = SHARED / "bench" / "dicts" / "scowl55.txt"

pytestmark = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser")
    square = folder / "square.txt"
    square.write_text("\n".join(SQUARE_WORDS) + "\n", encoding="utf-8")
    scored = folder / "scored.txt"
    scored.write_text(SCORED, encoding="utf-8")
    dicts = ["--dict", str(square), "--dict", str(scored)]
    if SCOWL.is_file():
        dicts += ["--dict", str(SCOWL)]
    with browser.server(["--root", str(ROOT / "data"), *dicts, "--time-limit", "120"]) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser.chromium() as launched:
        yield launched


@pytest.fixture
def page(chromium: Any, address: str) -> Iterator[Any]:
    page = browser.new_page(chromium)
    browser.open_page(page, address)
    yield page
    assert page.errors == []
    page.context.close()


def screenshot(page: Any, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path))
    folder = os.environ.get("CROSSWORD_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))
    assert path.read_bytes().startswith(b"\x89PNG")
    return path


def new_grid(page: Any, rows: int, cols: int) -> None:
    page.fill("#new-rows", str(rows))
    page.fill("#new-cols", str(cols))
    page.click("#new-button")


def choose_dictionary(page: Any, name: str) -> None:
    page.click("#options summary")
    for box in page.query_selector_all("#dicts input"):
        if box.get_attribute("value") == name:
            box.check()
        else:
            box.uncheck()


# ---------------------------------------------------------------- the page


def test_the_page_opens_on_a_usable_grid(page: Any) -> None:
    assert page.title() == "crossword workbench"
    assert len(browser.letters(page)) == 15
    assert browser.cells_with(page, "cursor") == [(0, 0)]
    page.wait_for_function("document.querySelector('#slot-info').textContent.includes('fit')")
    assert page.inner_text("#slot-title") == "1-Across"
    assert page.inner_text("#slot-info").startswith("..." * 5 + " · 0 fit")  # no 15 letters


def test_editing_from_the_keyboard(page: Any) -> None:
    new_grid(page, 5, 5)
    grid = page.locator("#grid")
    grid.press(".")  # a block at the cursor and, by 180° symmetry, in the opposite corner
    assert browser.letters(page)[0][0] == "#"
    assert browser.letters(page)[4][4] == "#"
    grid.press("ArrowRight")
    page.keyboard.type("ab")  # upper-cased in a grid filled from a dictionary
    assert browser.letters(page)[0] == "#AB.."
    grid.press("ArrowDown")  # turns the entry, then moves down it
    grid.press("ArrowDown")
    page.keyboard.type("c")
    assert browser.cells_with(page, "cursor") == [(2, 3)]
    assert browser.letters(page)[1][3] == "C"
    grid.press("Backspace")  # erases the cell before the empty cursor cell
    assert browser.letters(page)[1][3] == "."
    grid.press("Control+z")
    assert browser.letters(page)[1][3] == "C"
    grid.press("Control+y")
    assert browser.letters(page)[1][3] == "."
    grid.press("Space")
    assert page.inner_text("#slot-title") == "5-Across"
    grid.press("Tab")
    assert page.inner_text("#slot-title") == "6-Across"


@pytest.mark.parametrize(
    ("symmetry", "blocks"),
    [
        ("rot180", [(0, 1), (3, 2)]),
        ("rot90", [(0, 1), (1, 3), (2, 0), (3, 2)]),
        ("mirror-lr", [(0, 1), (0, 2)]),
        ("mirror-tb", [(0, 1), (3, 1)]),
        ("none", [(0, 1)]),
    ],
)
def test_blocks_keep_the_symmetry(page: Any, symmetry: str, blocks: list[tuple[int, int]]) -> None:
    new_grid(page, 4, 4)
    page.select_option("#symmetry", symmetry)
    page.click("#block-mode")
    page.click(".cell[data-r='0'][data-c='1']")
    assert browser.cells_with(page, "block") == sorted(blocks)
    page.click(".cell[data-r='0'][data-c='1']")  # and back
    assert browser.cells_with(page, "block") == []


def test_a_new_grid_from_the_pattern_generator(page: Any) -> None:
    page.fill("#new-rows", "9")
    page.fill("#new-cols", "9")
    page.select_option("#symmetry", "rot180")
    page.fill("#pattern-blocks", "10")
    page.click("#pattern-button")
    page.wait_for_function("document.querySelector('#title').textContent.startsWith('pattern')")
    rows = browser.letters(page)
    assert len(rows) == 9
    blocks = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
    assert len(blocks) == 10
    assert blocks == {(8 - r, 8 - c) for r, c in blocks}  # 180° symmetric
    assert "10 blocks" in page.inner_text("#status")


def test_locked_letters_are_kept(page: Any) -> None:
    new_grid(page, 3, 3)
    page.keyboard.type("CAT")
    page.locator("#grid").press("ArrowLeft")
    page.locator("#grid").press("Enter")  # lock 1-Across
    assert browser.cells_with(page, "locked") == [(0, 0), (0, 1), (0, 2)]
    page.locator("#grid").press("Backspace")
    assert browser.letters(page)[0] == "CAT"
    assert "locked" in page.inner_text("#status")


def test_candidates_are_listed_and_placed(page: Any) -> None:
    new_grid(page, 3, 3)
    page.keyboard.type("C")
    page.locator("#grid").press("ArrowLeft")
    page.wait_for_function("document.querySelectorAll('#candidates li').length === 3")
    dead = page.inner_text("#candidates li.dead button.word")
    assert dead == "CUP"  # U and P begin no word of the square's list
    page.click("#candidates li:not(.dead) button >> nth=0")
    assert browser.letters(page)[0] == "CAT"


def test_load_a_puzzle_and_autofill_it(page: Any, tmp_path: Path) -> None:
    grid = tmp_path / "square.txt"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    browser.open_file(page, grid)
    assert page.inner_text("#title").startswith("square.txt")
    page.click("#fill")
    page.wait_for_function("document.querySelectorAll('#grid .cell.fill').length === 9")
    assert browser.letters(page) in (["CAT", "ORE", "WED"], ["COW", "ARE", "TED"])
    assert page.inner_text("#status").startswith("Filled in")
    screenshot(page, tmp_path, "filled.png")


def test_a_fill_from_a_scored_list_shows_its_score(page: Any, tmp_path: Path) -> None:
    choose_dictionary(page, "scored.txt")
    new_grid(page, 3, 3)
    page.wait_for_selector("#candidates .score")  # each candidate with its score
    alive = [
        float(text.split()[1])
        for text in page.locator("#candidates li:not(.dead) button.word").all_inner_texts()
    ]
    assert alive[0] == 100  # COW, as the transposed first square has it
    assert alive == sorted(alive, reverse=True)  # the best scored first
    page.select_option("#maximize", "sum")
    page.click("#fill")
    page.wait_for_selector("#score:not([hidden])")
    assert page.inner_text("#score").splitlines() == [
        "score: min 40 · sum 520 · mean 86.7 — optimal sum (proved)",
        "6 entries, 0 below the acceptable line (25); lowest: CAT 40, ORE 80, ARE 100",
    ]
    assert browser.letters(page) in (["CAT", "ORE", "WED"], ["COW", "ARE", "TED"])
    page.fill("#min-score", "41")  # CAT is left out: only the other square is left
    page.click("#fill")
    page.wait_for_function("document.querySelector('#score').textContent.includes('sum 445')")
    first = page.inner_text("#score").splitlines()[0]
    assert first == "score: min 60 · sum 445 · mean 74.2 — optimal sum (proved)"
    assert browser.letters(page) in (["TEN", "ORE", "EAT"], ["TOE", "ERA", "NET"])
    screenshot(page, tmp_path, "scored.png")
    page.locator("#grid").press("Q")  # an edit: the score was the fill's
    assert page.is_hidden("#score")


def test_fill_a_selected_region(page: Any) -> None:
    new_grid(page, 3, 3)
    page.click(".cell[data-r='0'][data-c='0']", modifiers=["Shift"])  # select the one cell
    page.click("#fill-region")
    page.wait_for_function("document.querySelectorAll('#grid .cell.fill').length === 5")
    rows = browser.letters(page)
    assert rows[0] in ("CAT", "COW")  # 1-Across and 1-Down only
    assert [row[1:] for row in rows[1:]] == ["..", ".."]


def test_a_file_of_several_grids(page: Any, tmp_path: Path) -> None:
    grids = tmp_path / "two.txt"
    grids.write_text("2 3\n0 0 0\n0 1 0\n\n3 2\n0 0\n0 0\n1 0\n\n0 0\n", encoding="utf-8")
    browser.open_file(page, grids)
    assert browser.letters(page) == ["...", ".#."]
    page.select_option("#grid-choice", "1")
    assert browser.letters(page) == ["..", "..", "#."]
    assert page.inner_text("#title").startswith("two.txt#2")


def test_check_an_unsolvable_grid_and_see_its_core(page: Any, tmp_path: Path) -> None:
    page.click("#open-button")
    page.select_option("#open-path", "unsolvable/hall/three-s.dat")
    page.click("#open-submit")
    page.wait_for_selector("#open-dialog", state="hidden")
    assert (page.input_value("#new-rows"), page.input_value("#new-cols")) == ("5", "5")
    page.click("#check")
    page.wait_for_selector("#verdict:not([hidden])")
    expected = check_core(THREE_S)
    # The verdict is shown as soon as the engine gives it; the core's cells
    # are drawn when the proof that follows it arrives.
    page.wait_for_function(
        "(count) => document.querySelectorAll('#grid .cell.core').length === count",
        arg=len(expected),
    )
    assert browser.cells_with(page, "core") == expected
    text = page.inner_text("#verdict")
    assert "1-Across, 1-Down and 3-Down cannot all be filled" in text
    assert "fit only 2 listed words: SEAT, STEM" in text
    screenshot(page, tmp_path, "unsolvable.png")


def check_core(path: Path) -> list[tuple[int, int]]:
    """The open cells of the core `crossword check` prints for `path`."""
    done = subprocess.run(
        [sys.executable, "-m", "pybridge", "check", str(path), "--output", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    proof = json.loads(done.stdout)["proof"]
    from pybridge.layout import find_sites
    from pybridge.readers import load

    sites = find_sites(load(path))
    wanted = {(site["number"], site["direction"]) for site in proof["core"]}
    return sorted({cell for s in sites if (s.number, s.direction) in wanted for cell in s.cells})


def test_cancel_a_long_fill(page: Any, shared: Path) -> None:
    choose_dictionary(page, "scowl55.txt")
    new_grid(page, 7, 7)  # a 7x7 word square: minutes of search
    page.click("#fill")
    page.wait_for_selector("#progress:not([hidden])")
    page.wait_for_function("document.querySelector('#phase').textContent.includes(' nodes')")
    page.locator("#grid").press("Q")  # the page stays responsive while it fills
    assert browser.letters(page)[0][0] == "Q"
    page.click("#cancel")
    page.wait_for_selector("#progress", state="hidden")
    assert page.inner_text("#status") == "Fill cancelled."
    assert browser.cells_with(page, "fill") == []
    assert page.is_enabled("#fill")


def test_a_puz_with_its_own_answers_filled_and_exported(page: Any, tmp_path: Path) -> None:
    from pybridge import acrosslite
    from pybridge.readers import load

    four = load(ROOT / "data" / "four.ipuz", answers=True)
    assert four.published is not None
    assert four.published.solution is not None
    puz = tmp_path / "four.puz"
    puz.write_bytes(acrosslite.puz_bytes(four, four.published.solution))
    page.click("#open-button")
    page.set_input_files("#open-upload", str(puz))
    page.check("#open-answers")
    page.click("#open-submit")
    page.wait_for_selector("#open-dialog", state="hidden")
    assert "(Four by four)" in page.inner_text("#status")
    page.click("#fill")
    page.wait_for_function("document.querySelectorAll('#grid .cell.fill').length === 14")
    assert browser.letters(page) == ["APE#", "CRAG", "ROSE", "E#EM"]
    with page.expect_download() as download:
        page.click("[data-export=puz]")
    saved = tmp_path / "out.puz"
    download.value.save_as(saved)
    again = acrosslite.parse_puz(saved.read_bytes(), "out.puz")
    assert again.published is not None
    assert again.published.solution == ("APE#", "CRAG", "ROSE", "E#EM")
    assert again.published.clues[0].text == "Mimic"  # the file's own clues kept


def test_export_downloads_a_picture(page: Any, tmp_path: Path) -> None:
    new_grid(page, 3, 3)
    page.keyboard.type("CAT")
    with page.expect_download() as download:
        page.click("[data-export=svg]")
    saved = tmp_path / "grid.svg"
    download.value.save_as(saved)
    assert ">C<" in saved.read_text(encoding="utf-8")


def test_a_reload_keeps_the_grid(page: Any) -> None:
    new_grid(page, 4, 6)
    page.keyboard.type("OK")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert browser.letters(page)[0] == "OK...."
