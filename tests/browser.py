"""Helpers of the browser tests (tests/test_serve_browser.py) and of the
workbench figures (tests/serve_figures.py): `crossword serve` in a process
of its own on a free port of this machine, and Debian's Chromium driven by
Playwright for Python.

Playwright is pointed at /usr/bin/chromium (Debian's `chromium` package,
which setup.sh installs when it can); `playwright install`, which downloads
a browser of its own, is never needed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("CROSSWORD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SERVER_START_SECONDS = 60
# Issue 37's unfillable grid: the 15x15 pattern of seed 1798454547 as 69aac13
# drew it, STRAND at 8-Across; scowl55 cannot fill it, and only a search
# proves it (a few seconds of CPU: 3,171 nodes of wdeg).
STRAND = (
    "....#...#STRAND", "....#...#......", "....#...#......", "...#...#.......",
    ".....#....#....", ".....#...#.....", "....#......#...", "###...###...###",
    "...#......#....", ".....#...#.....", "....#....#.....", ".......#...#...",
    "......#...#....", "......#...#....", "......#...#....",
)  # fmt: skip


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium chromium-driver)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright)"
    return None


@contextmanager
def server(args: Sequence[str]) -> Iterator[str]:
    """`crossword serve --port 0 ARGS` in a process of its own; yields the
    page's address once it listens, stops the process at the end."""
    command = [sys.executable, "-m", "pybridge", "serve", "--port", "0", *args]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the server says where it is once it listens
        if "http://" not in line:
            process.kill()
            _, err = process.communicate(timeout=SERVER_START_SECONDS)
            raise RuntimeError(f"crossword serve did not start: {line}{err}")
        yield line[line.index("http://") :].split()[0]
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (a playwright Browser)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser: Any) -> Any:
    """A page of a fresh context (no stored grid). The page's CSP forbids
    eval, which Playwright's wait_for_function uses: the tests lift it."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def open_page(page: Any, address: str) -> None:
    page.goto(address)
    page.wait_for_selector("body[data-ready=true]")


def open_file(page: Any, path: Path, words: Path | None = None) -> None:
    """Open a puzzle file with the page's Open dialog, as a user uploads it."""
    page.click("#open-button")
    page.set_input_files("#open-upload", str(path))
    if words is not None:
        page.set_input_files("#open-words-upload", str(words))
    page.click("#open-submit")
    page.wait_for_selector("#open-dialog", state="hidden")


def letters(page: Any) -> list[str]:
    """The grid as the page shows it: rows, '#' blocked, '.' empty."""
    return list(
        page.evaluate(
            """() => {
              const rows = [];
              for (const cell of document.querySelectorAll('#grid .cell')) {
                const r = Number(cell.dataset.r);
                rows[r] = (rows[r] || '') + (cell.classList.contains('block') ? '#'
                  : cell.querySelector('.letter').textContent || '.');
              }
              return rows;
            }"""
        )
    )


def cells_with(page: Any, kind: str) -> list[tuple[int, int]]:
    """The cells of the grid with class `kind` (core, fill, cursor...)."""
    found = page.evaluate(
        """(kind) => [...document.querySelectorAll('#grid .cell.' + kind)]
              .map((cell) => [Number(cell.dataset.r), Number(cell.dataset.c)])""",
        kind,
    )
    return sorted((r, c) for r, c in found)
