"""The documentation works as written: every ```python block of README.md
and docs/*.md runs (from the repository root), README.md stays short, and
every relative link points at a file and heading that exist.

A block that shows its output as `>>>` lines runs as a doctest. A block
that reads ../shared is skipped with a reason when the reference data is
absent (failed instead when CROSSWORD_REQUIRE_SHARED is set, as the
`shared_dir` fixture does). A block that is not meant to run is fenced as
```text, ```console or ```sh, never skipped here.
"""

from __future__ import annotations

import doctest
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
README_MAX_LINES = 250

FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_LINK = re.compile(r"\bdocs/([\w.-]+\.md)#([\w-]+)")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its page, the line of its opening fence, its
    language tag and its text."""

    page: Path
    line: int
    language: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def _split(page: Path) -> tuple[list[Block], list[tuple[int, str]]]:
    """The fenced blocks of a page, and its other lines (number, text)."""
    blocks: list[Block] = []
    prose: list[tuple[int, str]] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    opened: tuple[int, str, str] | None = None  # line, fence, language
    body: list[str] = []
    for number, line in enumerate(lines, start=1):
        if opened is None:
            match = FENCE.match(line)
            if match:
                opened, body = (number, match.group(1), match.group(2).lower()), []
            else:
                prose.append((number, line))
        elif line.strip().startswith(opened[1]) and not line.strip().strip(opened[1][0]):
            blocks.append(Block(page, opened[0], opened[2], "\n".join(body) + "\n"))
            opened = None
        else:
            body.append(line)
    if opened is not None:
        raise AssertionError(f"{page.relative_to(ROOT)}:{opened[0]}: a fence is never closed")
    return blocks, prose


BLOCKS = [block for page in PAGES for block in _split(page)[0]]
PYTHON = [block for block in BLOCKS if block.language in ("python", "py", "pycon")]


def test_the_docs_have_python_examples() -> None:
    assert len(PYTHON) >= 5, [block.name for block in PYTHON]


@pytest.mark.parametrize("block", PYTHON, ids=[block.name for block in PYTHON])
def test_python_block_runs(
    block: Block, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if "../shared" in block.text:
        request.getfixturevalue("shared_dir")  # skips (or fails) without ../shared
    monkeypatch.chdir(ROOT)
    if ">>>" in block.text:
        _run_doctest(block)
    else:
        code = compile(block.text, block.name, "exec")
        exec(code, {"__name__": "__docs__"})


def _run_doctest(block: Block) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, {}, block.name, str(block.page), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)
    assert runner.tries > 0, f"{block.name}: no example ran"


def test_every_block_says_what_it_is() -> None:
    """A bare fence would be neither run nor marked as not meant to run."""
    bare = [block.name for block in BLOCKS if not block.language]
    assert not bare, f"fences without a language (python, text, console, sh, json): {bare}"


def test_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, (
        f"README.md has {len(lines)} lines (at most {README_MAX_LINES}): move detail to docs/"
    )


def test_readme_keeps_the_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "./setup.sh && .venv/bin/crossword solve data/demo.dat" in text
    assert "./setup.sh && .venv/bin/python -m pytest" in text


# ---------------------------------------------------------------- links


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, markup and punctuation
    dropped (hyphens and underscores kept), spaces made hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = text.lower()
    kept = "".join(
        ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in ("L", "N", "M")
    )
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (repeats get -1, -2, ... as on GitHub)."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in _split(page)[1]:
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    return found


def _links(page: Path) -> list[tuple[int, str]]:
    """The relative links of a page's prose (not in code blocks or spans)."""
    found = []
    for number, line in _split(page)[1]:
        prose = re.sub(r"`[^`]*`", "", line)
        for match in LINK.finditer(prose):
            target = match.group(1)
            if not re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, mailto:, ...
                found.append((number, target))
    return found


def _broken(page: Path, target: str) -> str | None:
    """Why a link from `page` to `target` leads nowhere, or None."""
    path, _, anchor = target.partition("#")
    linked = page if not path else (page.parent / path).resolve()
    if not linked.exists():
        return "no such file"
    if anchor and linked.suffix == ".md" and anchor not in anchors(linked):
        return f"no heading #{anchor}"
    return None


LINKS = [(page, number, target) for page in PAGES for number, target in _links(page)]


@pytest.mark.parametrize(
    ("page", "number", "target"),
    LINKS,
    ids=[f"{page.relative_to(ROOT)}:{number}:{target}" for page, number, target in LINKS],
)
def test_relative_link_leads_somewhere(page: Path, number: int, target: str) -> None:
    problem = _broken(page, target)
    assert problem is None, f"{page.relative_to(ROOT)}:{number}: {target}: {problem}"


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {(README.parent / target.partition("#")[0]).resolve() for _, target in _links(README)}
    assert not [page.name for page in DOCS if page.resolve() not in linked]


def test_code_points_at_headings_that_exist() -> None:
    """Code cites docs/PAGE.md#heading (docs/search.md#wdeg): the heading must exist."""
    broken = []
    for source in sorted([*ROOT.glob("pybridge/**/*.py"), *ROOT.glob("prolog/*.pl")]):
        text = source.read_text(encoding="utf-8")
        for page, anchor in CODE_LINK.findall(text):
            target = ROOT / "docs" / page
            if not target.exists() or anchor not in anchors(target):
                broken.append(f"{source.relative_to(ROOT)}: docs/{page}#{anchor}")
    assert not broken
