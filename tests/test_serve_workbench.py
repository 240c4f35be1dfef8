"""The workbench as a constructor's home (issue 37), in headless Chromium
(tests/browser.py): several puzzles and tabs, work saved and opened again,
undo across a reload, the clue pane, the keyboard and screen readers (an
axe-core scan), the layout at 400 px and 1280x800 (screenshots saved, to
CROSSWORD_SCREENSHOTS too when it names a folder), Check's progress and
Cancel, and the smaller defects of the page.

Skipped with a reason where Chromium or Playwright is missing; .ci/run
installs both and makes such a skip a failure.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import browser
import pytest
from conftest import SHARED

ROOT = Path(__file__).resolve().parents[1]
SQUARE_WORDS = ["CAT", "ORE", "WED", "COW", "ARE", "TED", "CUP", "OAK"]
# 150 three-letter words: more than the 100 a candidate list shows
MANY_WORDS = ["".join(w) for w in itertools.islice(itertools.product("ABCDEF", repeat=3), 150)]
SCOWL = SHARED / "bench" / "dicts" / "scowl55.txt"
WIDE, TALL = 1280, 800
NARROW = 400
BY = "\N{MULTIPLICATION SIGN}"  # as the page writes a size: 7 by 7

pytestmark = pytest.mark.skipif(browser.missing() is not None, reason=str(browser.missing()))


@pytest.fixture(scope="module")
def address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("workbench")
    dicts = []
    for name, words in (("square.txt", SQUARE_WORDS), ("many.txt", MANY_WORDS)):
        (folder / name).write_text("\n".join(words) + "\n", encoding="utf-8")
        dicts += ["--dict", str(folder / name)]
    if SCOWL.is_file():
        dicts += ["--dict", str(SCOWL)]
    with browser.server(["--root", str(ROOT / "data"), *dicts, "--time-limit", "120"]) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser.chromium() as launched:
        yield launched


def watched(page: Any) -> Any:
    """`page` with its script errors and console errors collected."""
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    return page


def opened(context: Any, address: str) -> Any:
    page = watched(context.new_page())
    browser.open_page(page, address)
    return page


@pytest.fixture
def context(chromium: Any) -> Iterator[Any]:
    """A fresh browser profile (nothing stored) at 1280x800."""
    context = chromium.new_context(viewport={"width": WIDE, "height": TALL}, bypass_csp=True)
    yield context
    context.close()


@pytest.fixture
def page(context: Any, address: str) -> Iterator[Any]:
    page = opened(context, address)
    yield page
    assert page.errors == []  # neither script errors nor console errors (refusals included)


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
    """Check only dictionary `name`, leaving the options open."""
    if page.get_attribute("#options", "open") is None:
        page.click("#options summary")
    for box in page.query_selector_all("#dicts input"):
        box.set_checked(box.get_attribute("value") == name)


def save(page: Any, tmp_path: Path) -> Path:
    """Click Save; the file downloaded, under the name the page gave it."""
    with page.expect_download() as download:
        page.click("#save")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    return path


def open_upload(page: Any, path: Path) -> None:
    page.click("#open-button")
    page.set_input_files("#open-upload", str(path))
    page.click("#open-submit")


def listed(page: Any) -> None:
    """Wait for the candidate list of the entry under the cursor."""
    page.wait_for_function(
        "document.body.dataset.listed === document.querySelector('#slot-title').textContent"
    )


def status(page: Any) -> str:
    return str(page.inner_text("#status"))


# ---------------------------------------------------------------- several puzzles


def test_two_tabs_keep_their_own_puzzles(context: Any, address: str) -> None:
    a = opened(context, address)
    new_grid(a, 5, 5)
    a.keyboard.type("HELLO")
    b = opened(context, address)  # a new tab: not A's grid
    assert browser.letters(b)[0] == "." * 15
    new_grid(b, 7, 7)
    b.keyboard.type("WORLD")
    a.reload()
    a.wait_for_selector("body[data-ready=true]")
    assert browser.letters(a)[0] == "HELLO"
    b.reload()
    b.wait_for_selector("body[data-ready=true]")
    assert browser.letters(b)[0] == "WORLD.."
    # the list of recent puzzles holds both, and switches between them
    names = a.locator("#puzzles option").all_inner_texts()
    assert names == [f"new grid (7{BY}7)", f"new grid (5{BY}5)"]
    a.select_option("#puzzles", label=f"new grid (7{BY}7)")
    assert browser.letters(a)[0] == "WORLD.."
    assert "another tab shows it too" in status(a)
    a.locator("#grid").press("Q")  # both tabs show it: they keep in step
    b.wait_for_function("document.querySelector('.cell').textContent.endsWith('Q')")
    assert browser.letters(b)[0] == "QORLD.."
    a.select_option("#puzzles", label=f"new grid (5{BY}5)")
    assert browser.letters(a)[0] == "HELLO"
    assert a.errors == []
    assert b.errors == []


def test_a_new_tab_takes_the_last_puzzle_no_tab_shows(context: Any, address: str) -> None:
    a = opened(context, address)
    new_grid(a, 4, 4)
    a.keyboard.type("LAST")
    a.close()  # the browser closed: the work is still there in the next tab
    b = opened(context, address)
    assert browser.letters(b)[0] == "LAST"
    assert b.input_value("#new-rows") == "15"  # the size fields are the page's own


def test_new_open_and_pattern_never_overwrite_work(page: Any) -> None:
    new_grid(page, 3, 3)
    page.keyboard.type("CAT")
    new_grid(page, 4, 4)  # the 3x3 has letters: the 4x4 is a new puzzle
    assert len(page.locator("#puzzles option").all()) == 2
    new_grid(page, 5, 5)  # the 4x4 was not changed: the 5x5 takes its place
    assert page.locator("#puzzles option").all_inner_texts() == [
        f"new grid (5{BY}5)",
        f"new grid (3{BY}3)",
    ]


def test_undo_survives_a_reload(page: Any) -> None:
    new_grid(page, 3, 3)
    page.keyboard.type("CAT")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_enabled("#undo")
    page.locator("#grid").press("Control+z")
    assert browser.letters(page)[0] == "CA."
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.locator("#grid").press("Control+y")
    assert browser.letters(page)[0] == "CAT"


# ---------------------------------------------------------------- save and open


def test_save_and_open_a_work_file(page: Any, tmp_path: Path) -> None:
    new_grid(page, 3, 3)
    page.keyboard.type("CAT")
    grid = page.locator("#grid")
    grid.press("ArrowLeft")
    grid.press("Enter")  # 1-Across locked
    page.fill("#puzzle-title", "Pets")
    page.fill("#puzzle-author", "A. Setter")
    page.fill("#clue-0-0-across-text", "Feline")
    page.fill("#clue-0-0-down-text", "Bovine")
    page.click("#fill")
    page.wait_for_function("document.querySelectorAll('#grid .cell.fill').length === 6")
    filled = browser.letters(page)
    saved = save(page, tmp_path)
    document = json.loads(saved.read_text(encoding="utf-8"))
    assert document["grid"] == filled
    assert (document["title"], document["author"]) == ("Pets", "A. Setter")
    clues = {(p["number"], p["direction"]): p["clue"] for p in document["placements"]}
    assert clues[(1, "across")] == "Feline"
    assert clues[(1, "down")] == "Bovine"
    assert clues[(2, "down")] == ""
    assert document["workbench"]["kinds"] == ["lll", "fff", "fff"]
    assert saved.name == "Pets.json"
    assert "Saved as Pets.json" in status(page)
    # a new puzzle, then the file opened again: the same grid, kinds, clues, title
    new_grid(page, 4, 4)
    open_upload(page, saved)
    page.wait_for_selector("#open-dialog", state="hidden")
    assert browser.letters(page) == filled
    assert browser.cells_with(page, "locked") == [(0, 0), (0, 1), (0, 2)]
    assert len(browser.cells_with(page, "fill")) == 6
    assert page.input_value("#puzzle-title") == "Pets"
    assert page.input_value("#puzzle-author") == "A. Setter"
    assert page.input_value("#clue-0-0-across-text") == "Feline"
    assert page.input_value("#clue-0-0-down-text") == "Bovine"
    assert page.inner_text("#clue-count") == "4 of 6 entries without a clue"
    assert len(page.locator("#clue-pane li.unclued").all()) == 4
    assert status(page) == "Opened Pets.json (Pets)."


@pytest.mark.parametrize("kind", ["puz", "ipuz"])
def test_a_puz_or_ipuz_export_opens_as_it_was_exported(
    page: Any, tmp_path: Path, kind: str
) -> None:
    new_grid(page, 3, 3)
    page.keyboard.type("CAT")
    page.fill("#puzzle-title", "Pets")
    page.fill("#puzzle-author", "A. Setter")
    page.fill("#clue-0-0-across-text", "Feline")
    for progress in (False, True):
        page.set_checked("#export-progress", progress)
        with page.expect_download() as download:
            page.click(f"[data-export={kind}]")
        path = tmp_path / f"pets-{progress}.{kind}"
        download.value.save_as(path)
        open_upload(page, path)
        page.wait_for_selector("#open-dialog", state="hidden")
        assert browser.letters(page) == ["CAT", "...", "..."]
        # as the solver's progress, the letters are the file's own; else its solution's
        kind_of_letters = "locked" if progress else "fill"
        assert browser.cells_with(page, kind_of_letters) == [(0, 0), (0, 1), (0, 2)]
        assert page.input_value("#puzzle-title") == "Pets"
        assert page.input_value("#puzzle-author") == "A. Setter"
        assert page.input_value("#clue-0-0-across-text") == "Feline"
        assert page.input_value("#clue-0-0-down-text") == ""  # its placeholder is no clue


def test_suggested_clues_and_a_printable_sheet(page: Any, tmp_path: Path) -> None:
    new_grid(page, 3, 3)
    page.click("#fill")
    page.wait_for_function("document.querySelectorAll('#grid .cell.fill').length === 9")
    page.fill("#puzzle-title", "Squares")
    page.fill("#clue-0-0-across-text", "My own clue")
    page.click("#suggest-clues")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Suggested')")
    assert page.input_value("#clue-0-0-across-text") == "My own clue"  # kept
    suggested = [
        page.input_value(f"#{item.get_attribute('id')}-text")
        for item in page.locator("#clue-pane li").all()
    ]
    assert sum(bool(text) for text in suggested) >= 4  # WordNet knows most of the square's words
    with page.expect_download() as download:
        page.click("[data-export=pdf]")
    assert download.value.suggested_filename == "Squares.pdf"
    path = tmp_path / "squares.pdf"
    download.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")


def test_the_pages_json_export_of_an_exact_puzzle_opens(page: Any, tmp_path: Path) -> None:
    browser.open_file(page, ROOT / "data" / "demo.dat")
    assert "listed words" in page.inner_text("#title")
    page.click("#fill")
    page.wait_for_function("document.querySelectorAll('#grid .cell.fill').length > 0")
    filled = browser.letters(page)
    saved = save(page, tmp_path)
    new_grid(page, 3, 3)
    open_upload(page, saved)
    page.wait_for_selector("#open-dialog", state="hidden")
    assert browser.letters(page) == filled
    assert "listed words" in page.inner_text("#title")  # still its own word list


def test_the_apis_json_export_opens(page: Any, tmp_path: Path) -> None:
    exported = {"grid": ["CAT", "O#.", "W.."], "placements": []}  # as POST /api/export gives it
    path = tmp_path / "crossword.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    open_upload(page, path)
    page.wait_for_selector("#open-dialog", state="hidden")
    assert browser.letters(page) == ["CAT", "O#.", "W.."]
    assert browser.cells_with(page, "cursor") == [(0, 0)]


def test_a_damaged_work_file_is_named_in_the_error(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"grid": ["CA?"]}), encoding="utf-8")
    open_upload(page, path)
    page.wait_for_function("document.querySelector('#open-error').textContent !== ''")
    error = page.inner_text("#open-error")
    assert error.startswith('broken.json: error: row 1, column 3 of "grid": expected')
    assert page.locator("#open-dialog").is_visible()


# ---------------------------------------------------------------- keyboard and screen readers


def test_keyboard_only_from_load_to_autofill_to_save(page: Any, tmp_path: Path) -> None:
    assert page.evaluate("document.activeElement.id") == "grid"
    page.keyboard.press("Alt+n")  # a 15x15 grid again; focus stays on the grid
    page.fill("#new-rows", "3")  # (the size fields, by the keyboard too)
    page.fill("#new-cols", "3")
    page.focus("#new-button")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "grid"
    page.keyboard.type("C")
    page.keyboard.press("Alt+a")
    page.wait_for_function("document.querySelectorAll('#grid .cell.fill').length === 8")
    assert browser.letters(page)[0] in ("CAT", "COW")
    with page.expect_download() as download:
        page.keyboard.press("Alt+s")
    assert download.value.suggested_filename == "new-grid.json"
    page.keyboard.press("Alt+o")
    assert page.locator("#open-dialog").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#open-dialog").is_hidden()


def test_focus_leaves_the_grid(page: Any) -> None:
    new_grid(page, 3, 3)
    page.focus("#grid")
    grid = page.locator("#grid")
    titles = []
    for _ in range(6):  # 1-, 4-, 5-Across, 1-, 2-, 3-Down
        titles.append(page.inner_text("#slot-title"))
        listed(page)  # past 3-Down, Tab goes to its words that fit (else to the first clue)
        grid.press("Tab")
    assert titles == ["1-Across", "4-Across", "5-Across", "1-Down", "2-Down", "3-Down"]
    assert page.evaluate("document.activeElement.id") != "grid"  # past the last entry: out
    page.focus("#grid")
    page.keyboard.press("Shift+Tab")  # still on 3-Down: back to 2-Down
    assert page.inner_text("#slot-title") == "2-Down"
    for _ in range(5):
        page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") != "grid"  # before the first: out
    page.focus("#grid")
    listed(page)
    page.keyboard.press("Escape")  # out, to the words that fit
    assert page.evaluate("document.activeElement.closest('#candidates') !== null")
    page.keyboard.press("Escape")  # and back
    assert page.evaluate("document.activeElement.id") == "grid"
    page.keyboard.press("Space")
    page.keyboard.press("Alt+l")  # the clue of the entry
    assert page.evaluate("document.activeElement.id") == "clue-0-0-down-text"
    page.keyboard.type("Moo-er")
    page.keyboard.press("Enter")  # the next clue
    assert page.evaluate("document.activeElement.id") == "clue-0-1-down-text"
    assert page.inner_text("#slot-title") == "2-Down"
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "grid"
    assert page.input_value("#clue-0-0-down-text") == "Moo-er"


def test_cells_have_names_for_screen_readers(page: Any) -> None:
    new_grid(page, 3, 5)
    grid = page.locator("#grid")
    grid.press(".")  # blocks at (0, 0) and (2, 4)
    grid.press("ArrowRight")
    page.keyboard.type("CAT")
    assert page.get_attribute("#grid", "role") == "grid"
    assert page.locator("#grid > [role=row]").count() == 3
    assert page.locator("#grid [role=row] > [role=gridcell]").count() == 15
    label = page.get_attribute("#cell-0-2", "aria-label")
    assert label == "1-Across, letter 2 of 4, A"
    assert page.get_attribute("#cell-0-0", "aria-label") == "block, row 1, column 1"
    assert page.get_attribute("#grid", "aria-activedescendant") == "cell-0-4"
    grid.press("Space")  # down: the cell is named after its down entry
    assert page.get_attribute("#cell-0-2", "aria-label") == "2-Down, letter 1 of 3, A"
    grid.press("Space")
    grid.press("Enter")  # 1-Across locked
    assert page.get_attribute("#cell-0-3", "aria-label") == "1-Across, letter 3 of 4, T, locked"


def test_no_serious_accessibility_violation(context: Any, address: str, tmp_path: Path) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = opened(context, address)
    axe = Axe()

    def serious() -> list[str]:
        found = axe.run(page).response["violations"]
        return [
            f"{v['id']} ({v['impact']}): {v['nodes'][0]['html'][:120]}"
            for v in found
            if v["impact"] in ("serious", "critical")
        ]

    new_grid(page, 3, 3)
    page.keyboard.type("CUP")  # a grid that cannot be filled: the verdict shown
    page.wait_for_selector("#verdict:not([hidden])")
    assert serious() == []
    page.set_viewport_size({"width": NARROW, "height": TALL})
    assert serious() == []
    page.click("#open-button")
    assert serious() == []


# ---------------------------------------------------------------- layout


def test_the_page_at_400_px(chromium: Any, address: str, tmp_path: Path) -> None:
    context = chromium.new_context(viewport={"width": NARROW, "height": TALL}, bypass_csp=True)
    page = opened(context, address)
    new_grid(page, 15, 15)
    page.keyboard.type("STRAND")
    box = page.locator("#grid").bounding_box()
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= NARROW  # the 15x15 grid is whole
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW  # nothing wider
    cell = page.locator("#cell-0-0").bounding_box()
    assert cell["width"] >= 14
    screenshot(page, tmp_path, "workbench-400.png")
    page.screenshot(path=str(tmp_path / "workbench-400-full.png"), full_page=True)
    assert page.errors == []
    context.close()


def test_the_page_at_1280x800_keeps_the_status_in_view(page: Any, tmp_path: Path) -> None:
    new_grid(page, 21, 21)
    page.click("#check")  # an empty 21x21 from a word square's words: no fill
    page.wait_for_function("document.querySelector('#status').className === 'bad'")
    status_box = page.locator("#status").bounding_box()
    assert status_box["y"] + status_box["height"] <= TALL
    assert "cannot" in status(page) or "core" in status(page)
    grid_box = page.locator("#grid").bounding_box()
    assert grid_box["y"] + grid_box["height"] <= TALL
    screenshot(page, tmp_path, "workbench-1280x800.png")


# ---------------------------------------------------------------- Check


def test_a_core_that_is_not_minimal_is_said_so_and_hatched(page: Any, tmp_path: Path) -> None:
    new_grid(page, 3, 3)
    # a search's proof names every site it looked at: not a minimal core
    proof = {
        "layer": "search",
        "reason": "the search space is exhausted after 12 nodes",
        "core": [{"number": 1, "direction": "across"}, {"number": 1, "direction": "down"}],
        "minimal": False,
    }
    answer = {"status": "unsolvable", "reason": proof["reason"], "proof": proof, "solutions": []}
    answer["stats"] = {"engine": "python", "strategy": "wdeg", "nodes": 12, "seconds": 0.1}
    view = {"id": "stub", "state": "running", "phase": "starting", "elapsed": 0, "time_limit": 9}

    def fill(route: Any) -> None:  # a check runs as a fill does
        if route.request.method == "POST":
            route.fulfill(status=202, json=view)
        else:
            route.fulfill(json={**view, "state": "done", "status": 200, "answer": answer})

    page.route("**/api/fill**", fill)
    page.click("#check")
    page.wait_for_selector("#verdict:not([hidden])")
    assert browser.cells_with(page, "wide-core") == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)]
    assert browser.cells_with(page, "core") == []
    said = page.inner_text("#verdict")
    assert "not known to be a minimal core: Check stopped narrowing them down" in said
    assert "not known to be a minimal core" in status(page)
    screenshot(page, tmp_path, "workbench-not-minimal.png")


@pytest.mark.usefixtures("shared")
def test_check_gives_its_verdict_before_the_time_limit(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "strand.txt"
    path.write_text("\n".join(browser.STRAND) + "\n", encoding="utf-8")
    views: list[Any] = []  # the check's views as the page polls them, read once it is done

    def heard(response: Any) -> None:
        if "/api/fill/" in response.url and response.request.method == "GET":
            views.append(response)

    page.on("response", heard)
    browser.open_file(page, path)
    choose_dictionary(page, "scowl55.txt")
    page.fill("#timeout", "120")  # the server's own limit: a check that waited it out fails
    page.click("#check")
    page.wait_for_function(
        "['bad', 'good'].includes(document.querySelector('#status').className)", timeout=110_000
    )
    answer = views[-1].json()["answer"]  # the last view: the check's answer
    assert answer["status"] == "unsolvable"
    assert answer["proof"]["layer"] == "search"
    assert answer["stats"]["seconds"] < 110  # the verdict, not the time limit, ended it
    heading = page.inner_text("#verdict strong")
    assert heading.startswith("Cannot be filled (proof: search, ")
    core = {(s["number"], s["direction"]) for s in answer["proof"]["core"]}
    assert len(core) < 80 or not answer["proof"]["minimal"]  # all 80 sites is no minimal core
    drawn = "core" if answer["proof"]["minimal"] else "wide-core"
    assert browser.cells_with(page, drawn)  # red when minimal, hatched when not known to be
    assert browser.cells_with(page, "wide-core" if drawn == "core" else "core") == []
    said = page.inner_text("#verdict")
    if answer["proof"]["minimal"]:
        assert "minimal" not in said
    else:
        assert "not known to be a minimal core: Check stopped narrowing them down" in said
    assert page.inner_text("#difficulty") == " · cannot be filled as it is (Check)"
    screenshot(page, tmp_path, "workbench-strand-verdict.png")


@pytest.mark.usefixtures("shared")
def test_check_shows_its_progress_and_can_be_cancelled(page: Any) -> None:
    choose_dictionary(page, "scowl55.txt")
    new_grid(page, 7, 7)  # a 7x7 word square: minutes of search
    page.fill("#timeout", "30")
    page.click("#check")
    page.wait_for_selector("#progress:not([hidden])")
    page.wait_for_function("document.querySelector('#phase').textContent.includes(' nodes')")
    assert "s of at most 30 s" in page.inner_text("#phase")  # the search's own progress
    assert status(page) == "checking…"
    assert page.is_enabled("#cancel")
    page.locator("#grid").press("Q")  # the page stays usable while it checks
    page.keyboard.press("Alt+x")
    page.wait_for_selector("#progress", state="hidden")
    assert status(page) == "Check cancelled."
    assert page.is_enabled("#check")


# ---------------------------------------------------------------- guidance


def test_the_grids_figures_as_the_pattern_generator_gives_them(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "corners.txt"
    path.write_text("#....\n.....\n.....\n.....\n....#\n", encoding="utf-8")
    browser.open_file(page, path)  # corner blocks are cheaters: opened, no word count changes
    assert page.inner_text("#figures") == "10 words, 2 blocks (2 cheaters), mean word length 4.60"
    page.fill("#new-rows", "9")
    page.fill("#new-cols", "9")
    page.fill("#pattern-blocks", "12")
    page.click("#pattern-button")
    page.wait_for_function("document.querySelector('#title').textContent.startsWith('pattern')")
    words = int(status(page).split(" entries")[0].split()[-1])  # "... 12 blocks and 30 entries"
    assert page.inner_text("#figures").startswith(f"{words} words, 12 blocks (")


def test_entries_with_few_words_are_shaded_live(page: Any) -> None:
    new_grid(page, 3, 3)  # from the word square's 8 words: every entry is tight
    page.wait_for_selector("#grid .cell.fewest, #grid .cell.few")
    shaded = len(browser.cells_with(page, "fewest")) + len(browser.cells_with(page, "few"))
    assert shaded == 9
    page.uncheck("#shade-few")
    assert browser.cells_with(page, "fewest") == browser.cells_with(page, "few") == []
    page.check("#shade-few")
    choose_dictionary(page, "many.txt")  # 150 words, 50 of them possible: none tight
    listed(page)
    page.wait_for_function("!document.querySelector('#grid .cell.few, #grid .cell.fewest')")


def test_make_a_crossword_from_the_page(page: Any) -> None:
    page.fill("#new-rows", "3")
    page.fill("#new-cols", "3")
    page.fill("#pattern-blocks", "0")
    page.keyboard.press("Alt+m")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Made')")
    assert browser.letters(page) in (["CAT", "ORE", "WED"], ["COW", "ARE", "TED"])
    assert len(browser.cells_with(page, "fill")) == 9
    assert page.inner_text("#title").startswith("made 3x3 (seed ")


def test_a_word_search_from_the_page(page: Any, tmp_path: Path) -> None:
    page.keyboard.press("Alt+w")
    page.fill("#ws-words", "ADA\nGRACE\nALAN\nEDSGER\n")
    page.fill("#ws-size", "7x7")
    page.select_option("#ws-level", "easy")
    page.click("#ws-make")
    page.wait_for_function("document.querySelector('#ws-status').textContent.includes('hidden')")
    assert page.inner_text("#ws-status").startswith("4 words hidden (seed ")
    assert len(page.inner_text("#ws-grid").split("\n")) == 7
    with page.expect_download() as download:
        page.click("#ws-pdf")
    path = tmp_path / "wordsearch.pdf"
    download.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")


# ---------------------------------------------------------------- word lists


def candidate_words(page: Any) -> list[str]:
    return list(
        page.locator("#candidates button.word").evaluate_all(
            "bs => bs.map(b => b.firstChild.textContent)"
        )
    )


def test_ban_a_word_from_the_candidate_list(page: Any, tmp_path: Path) -> None:
    choose_dictionary(page, "square.txt")
    new_grid(page, 3, 3)
    page.wait_for_function("document.querySelectorAll('#candidates li').length > 0")
    assert "CAT" in candidate_words(page)
    page.click("#candidates li:has(button.word:text-is('CAT')) button.ban")
    page.wait_for_function("!document.querySelector('#candidates').textContent.includes('CAT')")
    assert status(page).startswith("Banned CAT: no fill or list uses it now")
    assert page.input_value("#banned") == "CAT"
    page.click("#fill")  # both fills of the square (it and its transpose) have CAT
    page.wait_for_function("['good', 'bad'].includes(document.querySelector('#status').className)")
    assert status(page) == "No fill exists."
    screenshot(page, tmp_path, "workbench-banned.png")
    page.reload()  # kept with the browser's preferences, for every puzzle
    browser.open_page(page, page.url)
    assert page.input_value("#banned") == "CAT"
    choose_dictionary(page, "square.txt")  # opens the options again
    page.fill("#banned", "")
    page.locator("#banned").dispatch_event("change")
    page.wait_for_function("document.querySelector('#candidates').textContent.includes('CAT')")
    page.click("#fill")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Filled')")


def test_delete_bans_the_word_that_has_the_focus(page: Any) -> None:
    choose_dictionary(page, "square.txt")
    new_grid(page, 3, 3)
    listed(page)
    page.locator("#grid").press("Escape")  # to the words that fit
    first = page.evaluate("document.activeElement.firstChild.textContent")
    page.keyboard.press("Delete")
    page.wait_for_function("(w) => document.querySelector('#banned').value === w", arg=first)
    assert page.evaluate("document.activeElement.closest('#candidates') !== null")  # on to the next
    assert first not in candidate_words(page)


def test_preferred_words_score_more_and_join_the_lists(page: Any) -> None:
    choose_dictionary(page, "square.txt")
    new_grid(page, 3, 3)
    listed(page)
    page.fill("#preferred", "xyz\nc-a-t\n4x4")
    page.locator("#preferred").dispatch_event("change")
    assert page.input_value("#preferred") == "xyz\nc-a-t"  # what is no word is left out, and said
    assert "not words, left out: 4x4" in page.inner_text("#curation-note")
    page.wait_for_function("document.querySelector('#candidates .score') !== null")
    scores = dict(
        page.locator("#candidates button.word").evaluate_all(
            "bs => bs.map(b => [b.firstChild.textContent, Number(b.lastChild.textContent)])"
        )
    )
    assert scores["XYZ"] == 70  # added (a default 50, and 20 more)
    assert scores["CAT"] == 70
    assert scores["COW"] == 50
    page.fill("#preferred", "")
    page.locator("#preferred").dispatch_event("change")


def test_the_shipped_list_and_its_acceptable_line(page: Any, tmp_path: Path) -> None:
    labels = page.text_content("#dicts") or ""
    assert "words.txt (" in labels
    assert "scored, shipped with crossword)" in labels
    choose_dictionary(page, "words.txt")
    assert page.get_attribute("#min-score", "placeholder") == "25"
    new_grid(page, 5, 5)
    page.keyboard.type("QU")
    listed(page)
    page.wait_for_function("document.querySelector('#slot-info').textContent.startsWith('QU')")
    scores = page.locator("#candidates .score").all_inner_texts()
    assert scores
    assert min(float(s) for s in scores) >= 25
    page.fill("#min-score", "0")  # asked for: below the line too, and greyed
    page.locator("#min-score").dispatch_event("change")
    page.wait_for_selector("#candidates li.weak")
    assert "below the acceptable line (25)" in page.get_attribute(
        "#candidates li.weak button.word", "title"
    )
    page.fill("#min-score", "")
    page.locator("#min-score").dispatch_event("change")
    screenshot(page, tmp_path, "workbench-shipped.png")


def test_the_difficulty_in_the_grids_figures(page: Any) -> None:
    choose_dictionary(page, "square.txt")
    new_grid(page, 3, 3)
    listed(page)
    page.wait_for_function(
        "document.querySelector('#difficulty').textContent.includes('difficulty')"
    )
    value = float(page.inner_text("#difficulty").split("difficulty ")[1])
    assert 0 < value < 10
    page.keyboard.type("Q")  # no word begins with Q: the layers prove it at once
    page.wait_for_function("document.querySelector('#difficulty').textContent.includes('cannot')")
    assert page.inner_text("#difficulty") == " · cannot be filled as it is"


def test_the_words_of_an_entry_that_fill_the_grid(page: Any, tmp_path: Path) -> None:
    choose_dictionary(page, "square.txt")
    new_grid(page, 3, 3)
    listed(page)
    page.keyboard.press("Alt+e")
    page.wait_for_selector("#entry-words:not([hidden])")
    fills = page.locator("#entry-list li.fills button").all_inner_texts()
    assert sorted(fills) == ["CAT", "COW"]
    note = page.inner_text("#entry-note")
    assert note.startswith("1-Across: 2 of the ")
    assert "leave the grid a fill" in note
    screenshot(page, tmp_path, "workbench-entry-words.png")
    page.click("#entry-list li.fills button >> text=COW")
    assert browser.letters(page)[0] == "COW"
    page.wait_for_selector("#entry-words", state="hidden")  # they were for the grid as it was


# ---------------------------------------------------------------- the smaller defects


@pytest.mark.usefixtures("shared")
def test_the_progress_line_shows_the_chosen_time_limit(page: Any) -> None:
    choose_dictionary(page, "scowl55.txt")
    new_grid(page, 7, 7)
    page.fill("#timeout", "30")
    page.click("#fill")
    page.wait_for_function("document.querySelector('#phase').textContent.includes(' nodes')")
    assert "s of at most 30 s" in page.inner_text("#phase")  # not the server's 120
    value = page.evaluate("document.querySelector('#progress-bar').value")
    elapsed = float(page.inner_text("#phase").split(" · ")[-1].split()[0])
    assert value == pytest.approx(elapsed / 30, abs=0.02)
    page.click("#cancel")
    page.wait_for_selector("#progress", state="hidden")


def test_the_cursor_never_starts_on_a_block(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "corner.txt"
    path.write_text("#..\n...\n..#\n", encoding="utf-8")
    browser.open_file(page, path)
    assert browser.cells_with(page, "cursor") == [(0, 1)]
    page.fill("#new-rows", "9")
    page.fill("#new-cols", "9")
    page.click("#pattern-button")
    page.wait_for_function("document.querySelector('#title').textContent.startsWith('pattern')")
    [(r, c)] = browser.cells_with(page, "cursor")
    assert browser.letters(page)[r][c] != "#"


def test_a_status_line_goes_when_the_grid_changes(page: Any) -> None:
    new_grid(page, 3, 3)
    page.click("#fill")
    page.wait_for_function("document.querySelector('#status').textContent.startsWith('Filled')")
    page.locator("#grid").press("Q")
    assert status(page) == ""


def test_the_candidate_list_says_how_many_it_shows(page: Any) -> None:
    choose_dictionary(page, "many.txt")
    new_grid(page, 3, 3)
    page.wait_for_function("document.querySelectorAll('#candidates li').length === 100")
    info = page.inner_text("#slot-info")
    assert info.startswith("... · 150 fit, ")  # and so many some fill can still use
    assert info.endswith(" possible · the first 100 shown")


def test_new_makes_what_pattern_makes(page: Any) -> None:
    new_grid(page, 60, 60)
    assert len(browser.letters(page)) == 60
    new_grid(page, 101, 5)
    assert status(page) == "A grid is 2 to 100 cells a side."
    assert len(browser.letters(page)) == 60


def test_a_refusal_is_shown_not_logged_as_an_error(page: Any) -> None:
    page.fill("#pattern-blocks", "many")
    page.click("#pattern-button")
    page.wait_for_function("document.querySelector('#status').className === 'bad'")
    assert "--blocks" in status(page)
    # the page fixture checks that the console holds no error


def test_a_file_too_large_for_the_server_is_refused_before_it_is_sent(
    chromium: Any, tmp_path: Path
) -> None:
    with browser.server(["--max-upload", "1"]) as url:  # 1 MiB a request
        context = chromium.new_context(bypass_csp=True)
        page = opened(context, url)
        big = tmp_path / "big.txt"
        big.write_bytes(b"." * 800_000 + b"\n")  # fits 1 MiB, but not in base64
        open_upload(page, big)
        error = page.inner_text("#open-error")
        assert error.startswith("big.txt is 800,001 bytes: this server takes files of at most ")
        assert "1,048,576 bytes a request" in error
        assert page.errors == []
        context.close()
