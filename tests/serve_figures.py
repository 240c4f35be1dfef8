"""The workbench's figures (docs/benchmarks.md), measured in headless Chromium
against `crossword serve` with the shipped word list (the page's default;
`--dict FILE` for another):

- page: from asking for the page to a usable grid (the page says it is
  ready: the grid drawn, the dictionaries listed, the keyboard live);
- fill: a 15x15 grid of ../shared/bench/grids/xwords-rs opened in the
  page, from the click on Autofill to its answer (each run's status line
  printed: filled, or the time limit of LIMIT seconds reached);
- keystroke: on that grid, from a letter typed to the candidate list of its
  entry shown (the browser's view), and the server's own time for it;
- verdict: issue 37's unfillable grid (browser.STRAND: the 15x15 pattern of
  seed 1798454547 as 69aac13 drew it, STRAND at 8-Across, filled from
  scowl55), from the click on Check to the verdict shown, with the proof's
  layer and whether its core is minimal (`--strand-dict`; skipped when
  absent).

    .venv/bin/python tests/serve_figures.py [--runs N] [--grid FILE] [--fill-grid FILE] \
        [--dict FILE]

Not a test: it prints medians (and each run) for a person to read.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import browser  # tests/ is not a package: from the folder put on the path above
from conftest import SHARED

GRID = SHARED / "bench" / "grids" / "xwords-rs" / "20201005_empty.txt"
WORDS = browser.ROOT / "pybridge" / "wordlist" / "words.txt"  # the shipped list
WORD = "ALLEVIATED"  # typed into 20-Across, row 4 of the grid
STRAND_DICT = SHARED / "bench" / "dicts" / "scowl55.txt"


def page_seconds(chromium: Any, address: str) -> float:
    page = browser.new_page(chromium)
    started = time.perf_counter()
    browser.open_page(page, address)
    seconds = time.perf_counter() - started
    page.context.close()
    return seconds


LIMIT = 300  # seconds: the server's time limit and Autofill's, for the figures


def fill_seconds(page: Any) -> tuple[float, str]:
    """From the click on Autofill to its answer, and the status line then
    (a fill, or the time limit reached on a loaded machine). The page's
    time limit is the server's by default."""
    started = time.perf_counter()
    page.click("#fill")
    page.wait_for_function(
        "['bad', 'good'].includes(document.querySelector('#status').className)",
        timeout=(LIMIT + 60) * 1000,
    )
    return time.perf_counter() - started, str(page.inner_text("#status"))


def keystroke_seconds(page: Any) -> list[float]:
    """Type WORD into row 4 from column 1, timing each candidate list (the
    page counts the lists it shows in body's data-lists, and says in
    data-latency how long after its key each came), then undo it."""
    page.click(".cell[data-r='3'][data-c='0']")
    page.wait_for_function("document.body.dataset.lists !== undefined")
    times = []
    for ch in WORD:
        shown = page.evaluate("Number(document.body.dataset.lists)")
        page.locator("#grid").press(ch)
        page.wait_for_function("(n) => Number(document.body.dataset.lists) > n", arg=shown)
        times.append(page.evaluate("Number(document.body.dataset.latency)") / 1000)
    for _ in WORD:
        page.locator("#grid").press("Control+z")
    return times


def server_keystroke_seconds(address: str, words: Path) -> list[float]:
    """The server's own time (its answer's `seconds`) for the same lists
    (from the shipped list, as the page asks: its words of 25 or more)."""
    import httpx2 as httpx

    rows = [list(row) for row in GRID.read_text(encoding="utf-8").split()]
    times = []
    with httpx.Client(base_url=address) as client:
        for i, ch in enumerate(WORD):
            rows[3][i] = ch
            col = min(i + 1, len(WORD) - 1)
            body = {"grid": ["".join(r) for r in rows], "row": 3, "col": col, "dict": [words.name]}
            if words.resolve() == WORDS.resolve():
                body["min-score"] = "25"
            times.append(client.post("/api/candidates", json=body).json()["seconds"])
    return times


def strand_seconds(chromium: Any, address: str, folder: Path) -> tuple[float, str, str]:
    """From the click on Check to the verdict shown, on issue 37's STRAND
    grid; the status line then, and the verdict's heading."""
    path = folder / "strand.txt"
    path.write_text("\n".join(browser.STRAND) + "\n", encoding="utf-8")
    page = browser.new_page(chromium)
    browser.open_page(page, address)
    browser.open_file(page, path)
    page.click(".cell[data-r='0'][data-c='9']")  # 8-Across, STRAND: its list first
    page.wait_for_function("document.body.dataset.listed === '8-Across'")
    started = time.perf_counter()
    page.click("#check")
    page.wait_for_function(
        "['bad', 'good'].includes(document.querySelector('#status').className)", timeout=300_000
    )
    seconds = time.perf_counter() - started
    said = str(page.inner_text("#status"))
    heading = str(page.inner_text("#verdict strong")) if page.is_visible("#verdict") else ""
    page.context.close()
    return seconds, said, heading


def show(name: str, values: list[float]) -> None:
    runs = " ".join(f"{v:.3f}" for v in values)
    print(f"{name}: median {statistics.median(values):.3f} s over {len(values)} ({runs})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--grid", type=Path, default=GRID)
    parser.add_argument("--fill-grid", type=Path, help="Autofill's grid (default: --grid)")
    parser.add_argument("--dict", type=Path, default=WORDS)
    parser.add_argument("--strand-dict", type=Path, default=STRAND_DICT)
    args = parser.parse_args()
    reason = browser.missing()
    if reason:
        print(f"serve_figures: {reason}", file=sys.stderr)
        return 2
    served = browser.server(["--dict", str(args.dict), "--time-limit", str(LIMIT)])
    with served as address, browser.chromium() as chromium:
        show("page to usable grid", [page_seconds(chromium, address) for _ in range(args.runs)])
        fills = []
        keys: list[float] = []
        for _ in range(args.runs):
            page = browser.new_page(chromium)
            browser.open_page(page, address)
            browser.open_file(page, args.grid)
            keys += keystroke_seconds(page)
            if args.fill_grid:
                browser.open_file(page, args.fill_grid)
            time.sleep(1)  # the spare worker of the previous fill starts up
            seconds, said = fill_seconds(page)
            fills.append(seconds)
            print(f"  autofill: {seconds:.3f} s: {said}")
            page.context.close()
        show("autofill click to its answer", fills)
        show("candidate list per keystroke, in the browser", keys)
        server = server_keystroke_seconds(address, args.dict)
        show("candidate list per keystroke, server time", server)
    if args.strand_dict.is_file():
        served = browser.server(["--dict", str(args.strand_dict)])
        with served as address, browser.chromium() as chromium, tempfile.TemporaryDirectory() as f:
            seconds, said, heading = strand_seconds(chromium, address, Path(f))
        print(f"STRAND grid, Check to verdict: {seconds:.1f} s ({heading}; {said})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
