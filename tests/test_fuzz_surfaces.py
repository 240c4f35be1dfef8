"""Fuzzing the surfaces issue 34 names, in CI-sized slices (Hypothesis):
mutated .puz and .ipuz files, scored dictionaries with odd scores, `grid`
and `make` at their extremes, word lists of combining marks, right-to-left
letters and joiners, and every /api/* body. Each run must end in an answer
or a clean error (exit code 0-3, HTTP status below 500): never a traceback,
an internal error or a hang (each run has a time limit).

`event()` counts what happened, so `pytest --hypothesis-show-statistics`
prints the fuzz counts (docs/benchmarks.md#hardening-issues-34-and-39-measured-2026-11-27).
"""

from __future__ import annotations

import contextlib
import io
import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from pybridge.cli import main

REPO = Path(__file__).resolve().parents[1]
FOUR = REPO / "data" / "four.ipuz"
EXIT_CODES = {0, 1, 2, 3}

SLICE = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def run(argv: list[str]) -> tuple[int, str]:
    """`crossword ARGV` in-process: its exit code and stderr."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
    return code, err.getvalue()


def assert_clean(code: int, err: str) -> None:
    assert code in EXIT_CODES, err
    assert "Traceback" not in err
    assert "internal error" not in err
    if code == 2:
        assert err.strip()


@pytest.fixture(scope="module")
def four_puz(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("puz") / "four.puz"
    assert main(["solve", str(FOUR), "--answers", "--output", "puz", str(path)]) == 0
    return path.read_bytes()


# ---------------------------------------------------------------- .puz


def _puz_mutation() -> st.SearchStrategy[tuple[str, int, int]]:
    return st.tuples(
        st.sampled_from(["truncate", "flip", "checksum", "size", "rebus", "extension"]),
        st.integers(0, 10_000),
        st.integers(0, 255),
    )


def mutated_puz(data: bytes, mutations: list[tuple[str, int, int]]) -> bytes:
    """`data` with each mutation: cut short, a byte flipped, a checksum
    spoiled, the width and height set (up to 255, the format's most), a
    rebus table or an unknown extension appended."""
    out = bytearray(data)
    for kind, where, value in mutations:
        at = where % max(len(out), 1)
        if kind == "truncate":
            del out[at:]
        elif kind == "flip" and out:
            out[at] ^= value or 1
        elif kind == "checksum" and len(out) > 2:
            out[0:2] = struct.pack("<H", where & 0xFFFF)
        elif kind == "size" and len(out) > 0x2D:
            out[0x2C], out[0x2D] = value, (where % 256)
        elif kind == "rebus":
            cells = bytes((where + i) % 7 for i in range(value))
            out += b"GRBS" + struct.pack("<HH", len(cells), 0) + cells + b"\x00"
            out += b"RTBL" + struct.pack("<HH", 5, 0) + b" 1:AB\x00"
        elif kind == "extension":
            body = bytes(range(value % 64))
            out += b"XXXX" + struct.pack("<HH", where % 0xFFFF, 0) + body + b"\x00"
    return bytes(out)


@SLICE
@given(mutations=st.lists(_puz_mutation(), min_size=1, max_size=4))
def test_mutated_puz_files(four_puz: bytes, tmp_path: Path, mutations: Any) -> None:
    path = tmp_path / "fuzz.puz"
    path.write_bytes(mutated_puz(four_puz, mutations))
    for extra in (["--answers"], ["--dict", str(REPO / "data" / "wordsearch" / "names.txt")]):
        code, err = run(["solve", str(path), *extra, "--timeout", "2"])
        assert_clean(code, err)
        event(f".puz {extra[0]}: exit {code}")


# ---------------------------------------------------------------- .ipuz

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)
DEEP = "[" * 5000 + "0" + "]" * 5000  # deeper than Python's json would write
IPUZ_KEYS = ["dimensions", "puzzle", "solution", "clues", "block", "empty", "kind", "version"]


@SLICE
@given(
    key=st.sampled_from(IPUZ_KEYS),
    value=JSON_VALUES | st.sampled_from([{"width": 10_000, "height": 10_000}, "<deep>"]),
)
def test_mutated_ipuz_files(tmp_path: Path, key: str, value: Any) -> None:
    """A key of data/four.ipuz given a value of another type, a grid of
    10,000 x 10,000 or nesting 5,000 deep."""
    doc = json.loads(FOUR.read_text(encoding="utf-8"))
    doc[key] = value
    path = tmp_path / "fuzz.ipuz"
    path.write_text(json.dumps(doc).replace('"<deep>"', DEEP), encoding="utf-8")
    code, err = run(["solve", str(path), "--answers", "--timeout", "2"])
    assert_clean(code, err)
    event(f"ipuz {key}: exit {code}")


# ---------------------------------------------------------------- scored dictionaries

SCORES = st.one_of(
    st.sampled_from(["nan", "NaN", "inf", "-inf", "1e999", "-0", "+5", ".5", "5.", "1e-3"]),
    st.integers(-(10**40), 10**40).map(str),
    st.decimals(allow_nan=False, allow_infinity=False, places=35).map(str),
    st.text(max_size=5),
)


@SLICE
@given(scores=st.lists(SCORES, min_size=4, max_size=12), extra=st.sampled_from(["min", "sum"]))
def test_scored_dictionaries_with_odd_scores(tmp_path: Path, scores: list[str], extra: str) -> None:
    """The 2x2 square's words (with duplicates scored otherwise) under any
    scores: read (odd ones skipped and counted) or refused, and maximized."""
    words = ["AB", "CD", "AC", "BD", "AB", "CD"]
    lines = [f"{word};{score}" for word, score in zip(words * 2, scores, strict=False)]
    dictionary = tmp_path / "scored.txt"
    dictionary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n", encoding="utf-8")
    code, err = run(["solve", str(grid), "--dict", str(dictionary), "--maximize", extra,
                     "--timeout", "5"])  # fmt: skip
    assert_clean(code, err)
    event(f"scored dictionary: exit {code}")


# ---------------------------------------------------------------- grid and make at extremes

SIZES = st.sampled_from(["1x1", "2x2", "3x3", "5x5", "1x100", "100x1", "100x100", "0x5", "5x0",
                         "101x3", "99999x99999", "x", "15x"])  # fmt: skip
BLOCKS = st.one_of(
    st.integers(-5, 10_001).map(str),
    st.floats(0, 1, allow_nan=False).map(lambda f: f"{f:.4f}"),
    st.sampled_from(["nan", "1e999", "-0.5", "0.999999"]),
)


@SLICE
@given(
    size=SIZES,
    blocks=BLOCKS,
    symmetry=st.sampled_from(["none", "rot180", "rot90", "mirror-lr", "mirror-tb"]),
    rules=st.sampled_from(
        [
            [],
            ["--min-length", "2"],
            ["--max-length", "3"],
            ["--rp"],
            ["--allow-unchecked"],
            ["--min-length", "99"],
        ]
    ),
)
def test_grid_at_its_extremes(size: str, blocks: str, symmetry: str, rules: list[str]) -> None:
    argv = ["grid", "--size", size, "--blocks", blocks, "--symmetry", symmetry, *rules]
    code, err = run([*argv, "--timeout", "3", "--attempts", "3", "--seed", "1"])
    assert_clean(code, err)
    event(f"grid: exit {code}")


@settings(SLICE, max_examples=15)
@given(size=SIZES, blocks=BLOCKS, tries=st.sampled_from(["1", "2", "0", "-1"]))
def test_make_at_its_extremes(size: str, blocks: str, tries: str) -> None:
    words = REPO / "data" / "wordsearch" / "names.txt"
    argv = ["make", "--size", size, "--blocks", blocks, "--dict", str(words), "--tries", tries]
    code, err = run([*argv, "--timeout", "3", "--try-timeout", "0.5", "--seed", "1"])
    assert_clean(code, err)
    event(f"make: exit {code}")


# ---------------------------------------------------------------- word lists of odd letters

ODD = st.sampled_from(
    [
        "e\u0301",  # e and a combining acute
        "\u0301",  # a lone combining mark
        "\u05d0\u05d1",  # Hebrew, right to left
        "\u0627\u0644",  # Arabic
        "\u200d",  # zero-width joiner
        "\u200f",  # right-to-left mark
        "\U0001f468\u200d\U0001f469",  # an emoji sequence joined
        "\ufeff",  # a BOM inside
        "ß",
        "İ",
    ]
)
WORD = st.lists(st.sampled_from("ABCDE") | ODD, min_size=1, max_size=6).map("".join)


@SLICE
@given(words=st.lists(WORD, min_size=1, max_size=8))
def test_word_lists_with_combining_marks_rtl_and_joiners(tmp_path: Path, words: list[str]) -> None:
    listed = tmp_path / "words.txt"
    listed.write_text("\n".join(words) + "\n", encoding="utf-8")
    code, err = run(["wordsearch", "make", str(listed), "--size", "6x6", "--seed", "1",
                     "--timeout", "3"])  # fmt: skip
    assert_clean(code, err)
    event(f"wordsearch make: exit {code}")
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n", encoding="utf-8")
    code, err = run(["solve", str(grid), "--dict", str(listed), "--timeout", "3"])
    assert_clean(code, err)
    event(f"solve --dict: exit {code}")


# ---------------------------------------------------------------- every /api/* body

ROUTES = ["solve", "check", "open", "candidates", "pattern", "fill", "export"]
KEYS = [
    "puzzle", "puzzle_base64", "path", "name", "words", "dict", "format", "strategy", "engine",
    "seed", "timeout", "all", "count", "limit", "unique", "min-score", "maximize", "grid",
    "row", "col", "direction", "region", "size", "blocks", "symmetry", "kind", "page", "jobs",
    "attempts", "answers", "encoding", "extra", "clues", "title",
]  # fmt: skip
API_VALUES = st.one_of(
    JSON_VALUES,
    st.sampled_from([10**400, -1, 0, 2**63, 1e308, "", "\x00", "../../etc/passwd", "..\n..\n"]),
)


@pytest.fixture(scope="module")
def api_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from pybridge.serve.app import Settings, create_app
    from pybridge.serve.files import Files

    root = tmp_path_factory.mktemp("root")
    (root / "g.txt").write_text("..\n..\n", encoding="utf-8")
    words = root.parent / "square.txt"
    words.write_text("AB\nCD\nAC\nBD\n", encoding="utf-8")
    app = create_app(Settings(files=Files.make(str(root), [str(words)]), time_limit=3))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield client


# a request each route answers with 200 (or 202): the fuzz starts from it
# half the time, and changes or adds keys
VALID: dict[str, dict[str, Any]] = {
    "solve": {"path": "g.txt", "dict": ["square.txt"], "timeout": 2},
    "check": {"path": "g.txt", "dict": ["square.txt"], "timeout": 2},
    "open": {"path": "g.txt"},
    "candidates": {"grid": ["..", ".."], "row": 0, "col": 0, "dict": ["square.txt"]},
    "pattern": {"size": "5x5", "seed": 1},
    "fill": {"path": "g.txt", "dict": ["square.txt"], "timeout": 2},
    "export": {"grid": ["AB", "CD"], "kind": "json"},
}


def _is_json(value: object) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return False
    return True


@settings(SLICE, max_examples=80)
@given(
    route=st.sampled_from(ROUTES),
    based=st.booleans(),
    body=st.dictionaries(st.sampled_from(KEYS), API_VALUES, max_size=4),
)
def test_every_api_body(api_client: Any, route: str, based: bool, body: dict[str, Any]) -> None:
    if based:
        body = {**VALID[route], **body}
    if route in ("solve", "check", "fill") and not isinstance(body.get("timeout"), (int, float)):
        body["timeout"] = 2
    assume(_is_json(body))  # the client sends JSON: no infinity (JSON_VALUES' floats may be)
    answer = api_client.post(f"/api/{route}", json=body)
    assert answer.status_code < 500, (route, body, answer.text)
    if answer.headers.get("content-type", "").startswith("application/json"):
        answer.json()
    fill = answer.json().get("id") if answer.status_code == 202 else None
    if fill is not None:
        api_client.delete(f"/api/fill/{fill}")
    event(f"/api/{route}: {answer.status_code}")


# Every key a route may be sent, with a value of each JSON type (and the
# extremes), in the route's valid request: swept in full rather than drawn,
# so that one wrong type (`"kind": []` made /api/export a 500) cannot hide
# behind the draw. fill starts a process per request: it gets the keys a
# fill reads.
WRONG_TYPES: list[Any] = [None, True, -1, 10**400, 1.5, "", "x", [], ["x"], {}, {"x": 1}]
FILL_KEYS = ["path", "dict", "timeout", "strategy", "engine", "seed", "limit", "maximize",
             "min-score", "puzzle", "words", "format"]  # fmt: skip


@pytest.mark.parametrize("route", ROUTES)
def test_every_key_of_every_type(api_client: Any, route: str) -> None:
    keys = FILL_KEYS if route == "fill" else KEYS
    failures = []
    for key in keys:
        for value in WRONG_TYPES:
            body = {**VALID[route], key: value}
            if route in ("solve", "check", "fill") and key != "timeout":
                body["timeout"] = 2
            answer = api_client.post(f"/api/{route}", json=body)
            if answer.status_code >= 500:
                failures.append((key, value, answer.status_code, answer.text[:200]))
            elif answer.headers.get("content-type", "").startswith("application/json"):
                answer.json()
            if answer.status_code == 202:
                api_client.delete(f"/api/fill/{answer.json()['id']}")
    assert failures == []
