"""The HTTP JSON API of `crossword serve` (docs/serve.md), through Starlette's
in-process client: the CLI's contract and messages, the files it may read,
its limits, the candidates and their marks, fills in worker processes
(progress, Cancel, a crash, the time limit), and the `serve` command's own
errors."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from pybridge import cli
from pybridge.serve.app import Settings, create_app
from pybridge.serve.files import Files

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
DEMO = DATA / "demo.dat"
THREE_S = DATA / "unsolvable" / "hall" / "three-s.dat"
# A 3x3 square whose rows (CAT ORE WED) and columns (COW ARE TED) are six
# different words, and three words that fit no fill of it.
SQUARE_WORDS = ["CAT", "ORE", "WED", "COW", "ARE", "TED", "CUP", "OAK", "XYZ"]
SQUARE = "...\n...\n...\n"
# Two RP 2016 grids in one file.
TWO_GRIDS = "3 3\n0 0 0\n0 0 0\n0 0 0\n\n2 3\n0 0 0\n1 1 1\n\n0 0\n"


@dataclass
class Served:
    """A test client of an app serving `root` and the dictionary square.txt."""

    client: TestClient
    root: Path

    def post(self, path: str, body: Any) -> Any:
        return self.client.post(path, json=body)


def make_served(tmp_path: Path, **settings: Any) -> tuple[TestClient, Path]:
    root = tmp_path / "root"
    root.mkdir(exist_ok=True)
    words = tmp_path / "square.txt"
    words.write_text("\n".join(SQUARE_WORDS) + "\n", encoding="utf-8")
    files = Files.make(str(root), [str(words)])
    app = create_app(Settings(files=files, **settings))
    return TestClient(app, base_url="http://127.0.0.1"), root


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    client, root = make_served(tmp_path, time_limit=30)
    with client:
        yield Served(client, root)


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = cli.main([*args, "--output", "json"])
    return code, json.loads(capsys.readouterr().out)


def without_seconds(doc: Any) -> Any:
    """A JSON document without its timings, which differ from run to run."""
    if isinstance(doc, list):
        return [without_seconds(d) for d in doc]
    return {**doc, "stats": {k: v for k, v in doc["stats"].items() if k != "seconds"}}


# ---------------------------------------------------------------- the CLI's contract


@pytest.mark.parametrize(
    ("puzzle", "command", "exit_code"),
    [(DEMO, "solve", 0), (THREE_S, "solve", 1), (THREE_S, "check", 1), (DEMO, "check", 0)],
)
def test_solve_and_check_answer_the_clis_json(
    served: Served, capsys: pytest.CaptureFixture[str], puzzle: Path, command: str, exit_code: int
) -> None:
    code, expected = cli_json(capsys, command, str(puzzle), "--engine", "python")
    body = {"puzzle": puzzle.read_text(encoding="utf-8"), "engine": "python"}
    response = served.post(f"/api/{command}", body)
    assert code == exit_code
    assert response.status_code == 200
    assert response.headers["X-Crossword-Exit-Code"] == str(exit_code)
    assert without_seconds(response.json()) == without_seconds(expected)


def test_options_by_their_long_names(served: Served, capsys: pytest.CaptureFixture[str]) -> None:
    code, expected = cli_json(capsys, "solve", str(DEMO), "--count", "--seed", "3")
    (served.root / "demo.dat").write_bytes(DEMO.read_bytes())
    answer = served.post("/api/solve", {"path": "demo.dat", "count": True, "seed": 3}).json()
    assert code == 0
    assert answer["count"] == expected["count"] == 1
    assert without_seconds(answer) == without_seconds(expected)


def test_a_grid_filled_from_a_served_dictionary(served: Served) -> None:
    answer = served.post("/api/solve", {"puzzle": SQUARE, "dict": ["square.txt"]}).json()
    assert answer["status"] == "solved"
    assert answer["solutions"][0]["grid"] in (["CAT", "ORE", "WED"], ["COW", "ARE", "TED"])


def test_files_may_come_as_their_bytes(served: Served) -> None:
    encoded = base64.b64encode(DEMO.read_bytes()).decode()
    answer = served.post("/api/solve", {"puzzle_base64": encoded, "engine": "python"}).json()
    assert answer["status"] == "solved"
    latin1 = base64.b64encode("ÉTÉ\n\n...\n".encode("latin-1")).decode()
    error = served.post("/api/solve", {"puzzle_base64": latin1, "name": "x.dat"}).json()["error"]
    assert error.startswith("x.dat:1:1: error: not valid UTF-8 (byte 0xc9)")  # as the CLI says
    bad = served.post("/api/solve", {"puzzle_base64": "%%%"})
    assert bad.status_code == 400
    assert "base64" in bad.json()["error"]
    both = served.post("/api/solve", {"puzzle": "x", "puzzle_base64": encoded})
    assert 'give "puzzle" or "puzzle_base64", not both' in both.json()["error"]


def test_several_grids_answer_a_list_tagged_by_source(served: Served) -> None:
    body = {"puzzle": TWO_GRIDS, "name": "two.txt", "dict": ["square.txt"], "engine": "python"}
    response = served.post("/api/solve", body)
    docs = response.json()
    assert [doc["source"] for doc in docs] == ["two.txt#1", "two.txt#2"]
    assert [doc["status"] for doc in docs] == ["solved", "solved"]
    assert response.headers["X-Crossword-Exit-Code"] == "0"


def test_the_time_limit_is_a_200_with_exit_code_3(tmp_path: Path, shared: Path) -> None:
    puzzle = (shared / "corpus" / "p99" / "p7_09b.dat").read_text(encoding="utf-8")
    client, _ = make_served(tmp_path, time_limit=0.5)  # the server's cap
    with client:
        body = {"puzzle": puzzle, "strategy": "given", "engine": "python", "timeout": 100}
        response = client.post("/api/solve", json=body)
    assert response.status_code == 200
    assert response.headers["X-Crossword-Exit-Code"] == "3"
    assert response.json()["status"] == "timeout"


def test_bad_input_is_400_with_the_clis_message_naming_the_upload(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "ABC\n\n..x\n.?.\n"
    (tmp_path / "bad.dat").write_text(text, encoding="utf-8")
    code = cli.main(["solve", str(tmp_path / "bad.dat")])
    expected = capsys.readouterr().err.strip()
    response = served.post("/api/solve", {"puzzle": text, "name": "bad.dat"})
    assert code == 2
    assert response.status_code == 400
    assert response.headers["X-Crossword-Exit-Code"] == "2"
    error = response.json()["error"]
    assert error.startswith("bad.dat:4:2: error: expected")
    assert error == expected.replace(str(tmp_path / "bad.dat"), "bad.dat")
    assert "crossword-serve-" not in error  # never the temporary file


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"puzzle": "x", "timeout": "soon"}, "argument --timeout: expected a number of seconds"),
        ({"puzzle": "x", "strategy": "fastest"}, "argument --strategy: invalid choice"),
        ({"puzzle": "x", "help": True}, "unknown key 'help'"),
        ({"puzzle": "x", "output": "json"}, "unknown key 'output'"),
        ({"puzzle": "x", "all": True, "count": True}, "not allowed with argument"),
        ({"puzzle": "x", "limit": [1]}, '"limit" must be a number'),
        ({"puzzle": 3}, '"puzzle" must be the text of a file'),
        ({}, 'give the puzzle as "puzzle"'),
        ({"puzzle": "x", "strategy": "--all"}, "invalid choice: '--all'"),
    ],
)
def test_bad_requests_are_400(served: Served, body: dict[str, Any], message: str) -> None:
    response = served.post("/api/solve", body)
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_failures_as_http_statuses() -> None:
    from pybridge.errors import EngineError, InputError, ResourceLimit, UsageError
    from pybridge.serve.api import failure
    from pybridge.serve.files import NotFound, Refused

    cases = [
        (InputError("expected a word", "x.dat", 2, 1, "."), 400, "x.dat:2:1: error:"),
        (UsageError("bad"), 400, "crossword: error: bad"),
        (Refused("no"), 403, "crossword: error: no"),
        (NotFound("gone"), 404, "crossword: error: gone"),
        (ResourceLimit("out of stack"), 500, "crossword: error: out of stack"),
        (EngineError("broke"), 500, "crossword: internal error: broke"),
        (ZeroDivisionError("x"), 500, "crossword: internal error: ZeroDivisionError: x"),
    ]
    for err, status, start in cases:
        answer = failure(err)
        assert (answer.status, answer.exit_code) == (status, 2 if status < 500 else 4)
        assert answer.body["error"].startswith(start)


# ---------------------------------------------------------------- what may be read


def test_files_under_the_root_only(served: Served, tmp_path: Path) -> None:
    (served.root / "sub").mkdir()
    (served.root / "sub" / "demo.dat").write_bytes(DEMO.read_bytes())
    (served.root / ".hidden.dat").write_bytes(DEMO.read_bytes())
    (tmp_path / "secret.dat").write_bytes(DEMO.read_bytes())
    os.symlink(tmp_path / "secret.dat", served.root / "escape.dat")
    os.symlink(tmp_path, served.root / "outside")
    os.symlink(served.root / "sub" / "demo.dat", served.root / "inside.dat")
    listed = served.client.get("/api/files").json()["files"]
    assert listed == ["inside.dat", "sub/demo.dat"]
    assert served.post("/api/solve", {"path": "sub/demo.dat"}).json()["status"] == "solved"
    assert served.post("/api/solve", {"path": "inside.dat"}).json()["status"] == "solved"
    for path in (
        "../secret.dat",
        "sub/../../secret.dat",
        str(tmp_path / "secret.dat"),
        "escape.dat",
        "outside/secret.dat",
        ".hidden.dat",
        "sub\\..\\..\\secret.dat",
        "sub/demo.dat\x00",
    ):
        response = served.post("/api/solve", {"path": path})
        assert response.status_code == 403, path
        assert str(tmp_path) not in response.json()["error"].replace(path, "")
    assert served.post("/api/solve", {"path": "nothing.dat"}).status_code == 404
    words_outside = {"path": "sub/demo.dat", "words_path": "../x"}
    assert served.post("/api/solve", words_outside).status_code == 403


def test_no_root_serves_no_file(tmp_path: Path) -> None:
    app = create_app(Settings(files=Files.make(None, [])))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.get("/api/files").json() == {"files": []}
        response = client.post("/api/solve", json={"path": "demo.dat"})
    assert response.status_code == 403
    assert "--root" in response.json()["error"]


def test_only_the_served_dictionaries(served: Served, tmp_path: Path) -> None:
    for name in ("scowl55.txt", str(tmp_path / "square.txt"), "../square.txt"):
        response = served.post("/api/solve", {"puzzle": SQUARE, "dict": [name]})
        assert response.status_code == 403
        assert "no dictionary" in response.json()["error"]
    assert served.post("/api/solve", {"puzzle": SQUARE, "dict": "square.txt"}).status_code == 400


def test_dictionaries_are_named_by_file_name(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "words.txt").write_text("AB\n", encoding="utf-8")
    (tmp_path / "other.txt").write_text("CD\n", encoding="utf-8")
    paths = [str(tmp_path / "a" / "words.txt"), str(tmp_path / "b" / "words.txt")]
    files = Files.make(None, [*paths, str(tmp_path / "other.txt")])
    assert list(files.dictionaries) == [*paths, "other.txt"]  # a shared name: the path


def test_errors_name_files_as_the_client_knows_them(served: Served) -> None:
    (served.root / "bad.dat").write_text("ABC\n\n.#.\n", encoding="utf-8")
    error = served.post("/api/solve", {"path": "bad.dat"}).json()["error"]
    assert error.startswith("bad.dat:3:2: error:")
    assert str(served.root) not in error


# ---------------------------------------------------------------- limits and safety


def test_request_limits(tmp_path: Path) -> None:
    client, _ = make_served(tmp_path, max_upload=1000)
    with client:
        big = client.post("/api/solve", json={"puzzle": "A\n\n.\n" * 400})
        assert big.status_code == 413
        assert "larger than the limit of 1,000 bytes" in big.json()["error"]
        text = client.post("/api/solve", content=b"{}", headers={"content-type": "text/plain"})
        assert text.status_code == 415
        broken = client.post(
            "/api/solve", content=b"{", headers={"content-type": "application/json"}
        )
        assert broken.status_code == 400
        assert "not JSON" in broken.json()["error"]
        assert client.post("/api/solve", json=[1]).status_code == 400


def test_a_body_nested_too_deeply(served: Served) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000  # JSON, but past Python's recursion limit
    answer = served.client.post(
        "/api/solve", content=deep, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == "crossword: error: the request body nests too deeply"


def test_only_this_servers_host_names(served: Served) -> None:
    for host in ("127.0.0.1:8000", "localhost", "[::1]:8000"):
        assert served.client.get("/api/info", headers={"host": host}).status_code == 200
    assert served.client.get("/api/info", headers={"host": "evil.example"}).status_code == 400


def test_every_answer_forbids_other_sites(served: Served) -> None:
    for path in ("/", "/static/app.js", "/api/info"):
        headers = served.client.get(path).headers
        assert "default-src 'self'" in headers["content-security-policy"]
        assert headers["x-frame-options"] == "DENY"


def test_the_page_and_its_assets_are_local(served: Served) -> None:
    page = served.client.get("/").text
    assert "/static/app.js" in page
    assert "/static/app.css" in page
    for asset in ("/static/app.js", "/static/store.js", "/static/app.css", "/"):
        text = served.client.get(asset).text
        assert "http://" not in text
        assert "https://" not in text
    assert served.client.get("/static/../api.py").status_code == 404


def test_unknown_routes_and_methods_answer_json(served: Served) -> None:
    missing = served.client.get("/api/nothing")
    assert missing.status_code == 404
    assert missing.json()["error"] == "crossword: error: Not Found: GET /api/nothing"
    assert served.client.get("/api/solve").status_code == 405


def test_refusals_as_200_for_the_page(served: Served) -> None:
    """The page asks for its refusals with status 200 (the browser logs no
    error for them), the real status in a header; others get the status."""
    asked = {"x-crossword-errors": "ok-status"}
    body = {"size": "3x3", "blocks": "many"}
    plain = served.client.post("/api/pattern", json=body)
    refused = served.client.post("/api/pattern", json=body, headers=asked)
    assert plain.status_code == 400
    assert "x-crossword-status" not in plain.headers
    assert refused.status_code == 200
    assert refused.headers["x-crossword-status"] == "400"
    assert refused.json() == plain.json()
    missing = served.client.get("/api/fill/nothing", headers=asked)
    assert (missing.status_code, missing.headers["x-crossword-status"]) == (200, "404")
    fine = served.client.get("/api/info", headers=asked)
    assert fine.status_code == 200
    assert "x-crossword-status" not in fine.headers


def test_info(served: Served) -> None:
    info = served.client.get("/api/info").json()
    square = {"name": "square.txt", "words": len(SQUARE_WORDS), "scored": False}
    assert info["dicts"] == [{**square, "shipped": False, "line": None}]
    assert info["root"] is True
    assert "wdeg" in info["strategies"]


# ---------------------------------------------------------------- open


def test_open_reads_every_format(served: Served) -> None:
    demo = served.post("/api/open", {"puzzle": DEMO.read_text(encoding="utf-8"), "name": "d"})
    grid = demo.json()["grids"][0]
    assert grid["mode"] == "exact"
    assert grid["format"] == "p99"
    assert "PYTHON" in grid["words"]
    assert grid["rows"][0] == "......#####"
    two = served.post("/api/open", {"puzzle": TWO_GRIDS, "name": "two.txt"}).json()["grids"]
    assert [g["source"] for g in two] == ["two.txt#1", "two.txt#2"]
    assert two[1]["rows"] == ["...", "###"]
    assert two[0]["words"] is None
    plain = served.post("/api/open", {"puzzle": "..#\nA..\n"}).json()["grids"][0]
    assert plain["rows"] == ["..#", "A.."]
    fillin = {"puzzle": "__#\n___\n", "words": "ab\nabc\nxy\n", "format": "fillin"}
    assert served.post("/api/open", fillin).json()["grids"][0]["words"] == ["ab", "abc", "xy"]
    bad = served.post("/api/open", {"puzzle": "..\n.?\n", "name": "g.txt"})
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("g.txt:2:2: error:")


FOUR = DATA / "four.ipuz"  # our own 4x4 crossword, with its answers and clues
FOUR_ANSWERS = ["APE#", "CRAG", "ROSE", "E#EM"]


def four_puz() -> bytes:
    """four.ipuz as an Across Lite .puz, clues and answers kept."""
    from pybridge import acrosslite
    from pybridge.readers import load

    puzzle = load(FOUR, answers=True)
    assert puzzle.published is not None
    assert puzzle.published.solution is not None
    return acrosslite.puz_bytes(puzzle, puzzle.published.solution)


def test_open_a_puz_and_an_ipuz(served: Served) -> None:
    puz = {"puzzle_base64": base64.b64encode(four_puz()).decode(), "name": "four.puz"}
    grid = served.post("/api/open", puz).json()["grids"][0]
    assert grid["format"] == "puz"
    assert grid["mode"] == "lexicon"  # a grid to fill from dictionaries...
    assert grid["answers"] is True  # ...or with its own answers
    assert grid["title"] == "Four by four"
    assert grid["rows"] == ["...#", "....", "....", ".#.."]
    own = served.post("/api/open", {**puz, "answers": True}).json()["grids"][0]
    assert own["mode"] == "exact"
    entries = ["APE", "CRAG", "ROSE", "EM", "ACRE", "PRO", "EASE", "GEM"]
    assert sorted(own["words"]) == sorted(entries)
    ipuz = served.post("/api/open", {"puzzle": FOUR.read_text(encoding="utf-8"), "name": "f.ipuz"})
    assert ipuz.json()["grids"][0]["format"] == "ipuz"
    damaged = {"puzzle_base64": base64.b64encode(four_puz()[:60]).decode(), "name": "cut.puz"}
    answer = served.post("/api/open", damaged)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("cut.puz: error:")
    text = served.post("/api/open", {"puzzle": SQUARE, "answers": True})
    assert "own answers come with a .puz or .ipuz" in text.json()["error"]


def test_solve_a_crossword_with_its_own_answers(served: Served) -> None:
    body = {"puzzle": FOUR.read_text(encoding="utf-8"), "answers": True, "unique": True}
    answer = served.post("/api/solve", body).json()
    assert answer["solutions"][0]["grid"] == FOUR_ANSWERS
    assert answer["unique"] is True


def test_export_a_puz_and_an_ipuz_keeping_the_clues(served: Served) -> None:
    from pybridge import acrosslite, ipuzfile

    original = {"puzzle_base64": base64.b64encode(four_puz()).decode(), "name": "four.puz"}
    body = {"grid": FOUR_ANSWERS, "original": original}
    puz = served.post("/api/export", {**body, "kind": "puz"})
    assert puz.headers["content-disposition"] == 'attachment; filename="crossword.puz"'
    again = acrosslite.parse_puz(puz.content, "x.puz")
    assert again.published is not None
    assert again.published.solution == tuple(FOUR_ANSWERS)
    assert again.published.title == "Four by four"
    assert again.published.clues[0].text == "Mimic"
    ipuz = served.post("/api/export", {**body, "kind": "ipuz"}).text
    assert ipuzfile.parse_ipuz(ipuz, "x.ipuz").published.clues[0].text == "Mimic"  # type: ignore[union-attr]
    other = ["APE#", "CRAG", "ROSE", "E#EN"]  # 7-Across and 5-Down are not the file's
    changed = acrosslite.parse_puz(
        served.post("/api/export", {**body, "grid": other, "kind": "puz"}).content, "y.puz"
    )
    assert changed.published is not None
    texts = {(c.number, c.direction): c.text for c in changed.published.clues}
    assert texts[1, "across"] == "Mimic"
    assert texts[7, "across"] == "7-Across"  # a placeholder: the clue was for EM
    alone = served.post("/api/export", {"grid": FOUR_ANSWERS, "kind": "puz"}).content
    assert acrosslite.parse_puz(alone, "z.puz").published.clues[0].text == "1-Across"  # type: ignore[union-attr]


# ---------------------------------------------------------------- patterns


def test_a_pattern_as_crossword_grid_makes_it(
    served: Served, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["grid", "--size", "9x9", "--blocks", "12", "--seed", "4", "--symmetry", "mirror-lr"]
    assert cli.main([*args, "--output", "json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    body = {"size": "9x9", "blocks": 12, "seed": 4, "symmetry": "mirror-lr"}
    answer = served.post("/api/pattern", body)
    assert answer.status_code == 200
    assert answer.headers["X-Crossword-Exit-Code"] == "0"
    assert answer.json() == expected


def test_no_pattern_and_bad_pattern_requests(served: Served) -> None:
    impossible = served.post("/api/pattern", {"size": "4x4", "blocks": 0.9, "min-length": 3})
    assert impossible.status_code == 200
    assert impossible.headers["X-Crossword-Exit-Code"] == "1"
    assert impossible.json()["grid"] is None
    assert impossible.json()["reason"]
    for body, message in (
        ({"size": "big"}, "argument --size"),
        ({"symmetry": "spiral"}, "argument --symmetry: invalid choice"),
        ({"size": "5x7", "symmetry": "rot90"}, "square"),
        ({"output": "json"}, "unknown key 'output'"),
    ):
        answer = served.post("/api/pattern", body)
        assert answer.status_code == 400, body
        assert message in answer.json()["error"]


# ---------------------------------------------------------------- candidates


def candidates(served: Served, rows: list[str], row: int, col: int, **more: Any) -> Any:
    body = {"grid": rows, "row": row, "col": col, "dict": ["square.txt"], **more}
    response = served.post("/api/candidates", body)
    assert response.status_code == 200, response.json()
    return response.json()


def test_candidates_fit_the_letters_and_carry_the_proofs_marks(served: Served) -> None:
    answer = candidates(served, ["C..", "...", "..."], 0, 0, direction="across")
    assert answer["site"]["pattern"] == "C.."
    assert answer["fitting"] == 3  # CAT, COW, CUP
    words = {c["word"]: c for c in answer["candidates"]}
    assert set(words) == {"CAT", "COW", "CUP"}
    assert not words["CAT"]["dead"]
    assert not words["COW"]["dead"]
    assert words["CUP"]["dead"]  # no word of the list starts with U or P at 2-Down, 3-Down
    assert "2-Down" in words["CUP"]["why"] or "3-Down" in words["CUP"]["why"]
    assert [c["word"] for c in answer["candidates"]][-1] == "CUP"  # the ruled out last
    assert answer["alive"] == 2
    assert answer["verdict"] is None


def test_candidates_count_every_entrys_words(served: Served) -> None:
    body = {"grid": ["C..", "...", "..."], "row": 0, "col": 0, "dict": ["square.txt"]}
    found = served.post("/api/candidates", body).json()
    counts = {(s["number"], s["direction"]): (s["fitting"], s["alive"]) for s in found["sites"]}
    assert len(counts) == 6
    assert counts[(1, "across")] == (found["fitting"], found["alive"])  # the entry's own
    assert counts[(1, "across")] == (3, 2)  # CAT, COW, CUP; CUP ruled out
    assert all(alive is not None and alive <= fitting for fitting, alive in counts.values())


def test_scored_candidates_come_best_first() -> None:
    from decimal import Decimal

    from pybridge.model import Puzzle
    from pybridge.serve.candidates import candidate_list

    scores = {"CAT": Decimal(20), "COW": Decimal("70.5"), "CUP": Decimal(90)}
    puzzle = Puzzle(tuple(SQUARE_WORDS), ("C..", "...", "..."), "grid", "g", mode="lexicon")
    answer = candidate_list(puzzle, (0, 0), "across", score=lambda w: scores.get(w, Decimal(50)))
    listed = [(c["word"], c["score"], c["dead"]) for c in answer["candidates"]]
    assert listed == [("COW", 70.5, False), ("CAT", 20, False), ("CUP", 90, True)]
    assert "score" not in candidate_list(puzzle, (0, 0), "across")["candidates"][0]


def test_candidates_name_a_word_the_grid_holds_already(served: Served) -> None:
    held = candidates(served, ["COW", "...", "..."], 0, 0, direction="down")
    assert held["site"]["pattern"] == "C.."
    cow = next(c for c in held["candidates"] if c["word"] == "COW")
    assert cow["dead"]
    assert cow["why"] == "already in the grid at 1-Across"


def test_an_unfillable_grid_gives_its_verdict_and_core(served: Served) -> None:
    answer = candidates(served, ["Q..", "...", "..."], 0, 1, direction="down")
    verdict = answer["verdict"]
    assert verdict["layer"] == "no-fit"
    assert "1-Across" in verdict["reason"]
    assert verdict["cells"] == [[0, 0], [0, 1], [0, 2]]
    assert all(c["dead"] for c in answer["candidates"])


def test_candidates_of_an_exact_puzzle_use_its_words(served: Served) -> None:
    body = {"grid": ["...", "...", "..."], "row": 0, "col": 0, "direction": "across"}
    answer = served.post("/api/candidates", {**body, "words": SQUARE_WORDS[:6]}).json()
    assert {c["word"] for c in answer["candidates"]} == {"CAT", "ORE", "WED", "COW", "ARE", "TED"}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"grid": ["..?"], "row": 0, "col": 0}, "grid:1:3: error: expected '#'"),
        ({"grid": ["ab."], "row": 0, "col": 0}, "an upper-case letter"),
        ({"grid": "...", "row": 0, "col": 0}, '"grid" must be a list'),
        ({"grid": ["..."], "row": "0", "col": 0}, '"row" and "col"'),
        ({"grid": ["..."], "row": 0, "col": 0, "direction": "up"}, '"direction"'),
        ({"grid": ["#.#"], "row": 0, "col": 0}, "no site to fill"),
        ({"grid": ["..."], "row": 5, "col": 0}, "no word runs through row 6, column 1"),
    ],
)
def test_bad_candidate_requests(served: Served, body: dict[str, Any], message: str) -> None:
    response = served.post("/api/candidates", {"dict": ["square.txt"], **body})
    assert response.status_code == 400
    assert message in response.json()["error"]


# ---------------------------------------------------------------- fills


def wait_for(served: Served, fill_id: str, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        view = served.client.get(f"/api/fill/{fill_id}").json()
        if view["state"] != "running":
            return view
        time.sleep(0.1)
    raise AssertionError(f"fill {fill_id} still running after {seconds} s")


def start(served: Served, body: dict[str, Any], page: str = "page") -> Any:
    response = served.post("/api/fill", {"page": page, **body})
    assert response.status_code == 202, response.json()
    return response.json()


def test_a_fill_answers_as_solve(served: Served) -> None:
    body = {"puzzle": DEMO.read_text(encoding="utf-8"), "engine": "python"}
    view = wait_for(served, start(served, body)["id"])
    assert view["state"] == "done"
    assert view["status"] == 200
    assert view["exit_code"] == 0
    expected = served.post("/api/solve", body).json()
    assert without_seconds(view["answer"]) == without_seconds(expected)
    assert view["elapsed"] <= view["time_limit"]


def test_a_region_fill_fills_only_its_sites(served: Served) -> None:
    grid = "...\n...\n...\n"
    body = {"puzzle": grid, "dict": ["square.txt"], "engine": "python"}
    view = wait_for(served, start(served, {**body, "region": [[0, 0]]})["id"])
    answer = view["answer"]
    assert answer["status"] == "solved"
    placed = {(p["number"], p["direction"]) for p in answer["solutions"][0]["placements"]}
    assert placed == {(1, "across"), (1, "down")}
    rows = answer["solutions"][0]["grid"]
    assert [row[1:] for row in rows[1:]] == ["..", ".."]  # the rest is left open


def test_a_bad_fill_request_is_refused_at_once(served: Served) -> None:
    response = served.post("/api/fill", {"puzzle": "ABC\n\n.?.\n", "name": "x.dat"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("x.dat:3:2: error:")
    outside = {"puzzle": SQUARE, "region": [[9, 9]], "dict": ["square.txt"]}
    region = served.post("/api/fill", outside)
    assert region.status_code == 202
    assert wait_for(served, region.json()["id"])["status"] == 400


# A fill that runs for minutes: a 7x7 word square from scowl55.
LONG_FILL = {"puzzle": "\n".join(["......."] * 7) + "\n", "dict": ["scowl55.txt"]}


@pytest.fixture
def served_scowl(tmp_path: Path, shared: Path) -> Iterator[Served]:
    files = Files.make(None, [str(shared / "bench" / "dicts" / "scowl55.txt")])
    app = create_app(Settings(files=files, time_limit=120, fills=1))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield Served(client, tmp_path)


def test_cancel_stops_a_long_fill_at_once(served_scowl: Served) -> None:
    fill = start(served_scowl, LONG_FILL)
    fills = served_scowl.client.app.state.fills  # type: ignore[attr-defined]
    process = fills._fills[fill["id"]].process
    deadline = time.monotonic() + 30
    view = served_scowl.client.get(f"/api/fill/{fill['id']}").json()
    while "nodes" not in view["phase"] and time.monotonic() < deadline:  # the search's progress
        time.sleep(0.1)
        view = served_scowl.client.get(f"/api/fill/{fill['id']}").json()
    assert view["state"] == "running"
    assert view["phase"].startswith("searching: ")
    assert " nodes, " in view["phase"]
    again = served_scowl.post("/api/fill", {"page": "page", **LONG_FILL})
    assert again.status_code == 409  # one fill at a time per page
    other = served_scowl.post("/api/fill", {"page": "other", **LONG_FILL})
    assert other.status_code == 429  # and at most `fills` on the server
    cancelled = served_scowl.client.delete(f"/api/fill/{fill['id']}").json()
    assert cancelled["state"] == "cancelled"
    assert not process.is_alive()
    assert served_scowl.post("/api/solve", {"puzzle": "..\n..\n", "dict": ["scowl55.txt"]}).json()


def test_the_server_survives_a_crashing_fill(served_scowl: Served) -> None:
    fill = start(served_scowl, LONG_FILL)
    fills = served_scowl.client.app.state.fills  # type: ignore[attr-defined]
    process = fills._fills[fill["id"]].process
    time.sleep(0.5)
    process.kill()  # as a crash of the engine would end it
    view = wait_for(served_scowl, fill["id"], 10)
    assert view["state"] == "failed"
    assert view["status"] == 500
    assert "ended unexpectedly" in view["answer"]["error"]
    body = {"puzzle": "...\n...\n", "dict": ["scowl55.txt"], "engine": "python"}
    after = wait_for(served_scowl, start(served_scowl, body)["id"])
    assert after["answer"]["status"] == "solved"


def test_a_dead_spare_worker_is_replaced(served: Served) -> None:
    fills = served.client.app.state.fills  # type: ignore[attr-defined]
    fills.warm()
    spare = fills._spare[0]
    spare.kill()  # the worker waiting for the next fill dies
    spare.join()
    body = {"puzzle": SQUARE, "dict": ["square.txt"], "engine": "python"}
    view = wait_for(served, start(served, body)["id"])
    assert view["answer"]["status"] == "solved"


def test_a_fill_stops_at_the_servers_time_limit(tmp_path: Path, shared: Path) -> None:
    files = Files.make(None, [str(shared / "bench" / "dicts" / "scowl55.txt")])
    app = create_app(Settings(files=files, time_limit=1))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        served = Served(client, tmp_path)
        view = wait_for(served, start(served, {**LONG_FILL, "timeout": 50})["id"])
    assert view["state"] == "done", view
    assert view["answer"]["status"] == "timeout"
    assert view["exit_code"] == 3


def test_an_unknown_fill(served: Served) -> None:
    assert served.client.get("/api/fill/nope").status_code == 404
    assert served.client.delete("/api/fill/nope").status_code == 404


# ---------------------------------------------------------------- export


def test_export(served: Served) -> None:
    grid = {"grid": ["CAT", "O#R", "W.E"]}
    svg = served.post("/api/export", {**grid, "kind": "svg", "marked": [[2, 1]]})
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert svg.text.startswith("<svg")
    assert ">C<" in svg.text
    assert svg.headers["content-disposition"] == 'attachment; filename="crossword.svg"'
    png = served.post("/api/export", {**grid, "kind": "png"})
    assert png.content.startswith(b"\x89PNG")
    doc = served.post("/api/export", {**grid, "kind": "json"}).json()
    assert doc["grid"] == ["CAT", "O#R", "W.E"]
    assert {"number": 1, "direction": "across", "row": 0, "col": 0, "length": 3, "word": "CAT"} in (
        doc["placements"]
    )
    assert served.post("/api/export", {**grid, "kind": "gif"}).status_code == 400


PAGE_TEXTS = {
    "title": "Pets",
    "author": "A. Setter",
    "clues": [
        {"number": 1, "direction": "across", "clue": "Feline"},
        {"number": 1, "direction": "down", "clue": "Bovine"},
        {"number": 2, "direction": "down", "clue": ""},  # no clue: a placeholder
    ],
}


def reopened(served: Served, content: bytes, name: str) -> Any:
    body = {"puzzle_base64": base64.b64encode(content).decode(), "name": name}
    return served.post("/api/open", body).json()["grids"][0]


def test_exports_carry_the_pages_title_author_and_clues(served: Served) -> None:
    page = {"grid": ["CAT", "O#R", "WED"], **PAGE_TEXTS}
    doc = served.post("/api/export", {**page, "kind": "json"}).json()
    assert (doc["title"], doc["author"]) == ("Pets", "A. Setter")
    clues = {(p["number"], p["direction"]): p["clue"] for p in doc["placements"]}
    assert clues == {
        (1, "across"): "Feline",
        (1, "down"): "Bovine",
        (2, "down"): "",
        (3, "across"): "",
    }
    for kind in ("puz", "ipuz"):
        exported = served.post("/api/export", {**page, "kind": kind})
        opened = reopened(served, exported.content, f"pets.{kind}")
        assert (opened["title"], opened["author"]) == ("Pets", "A. Setter")
        assert opened["clues"] == [
            {"number": 1, "direction": "across", "clue": "Feline"},
            {"number": 1, "direction": "down", "clue": "Bovine"},
            {"number": 2, "direction": "down", "clue": "2-Down"},
            {"number": 3, "direction": "across", "clue": "3-Across"},
        ]
        assert opened["solution"] == ["CAT", "O#R", "WED"]  # what was exported
        assert opened["rows"] == ["...", ".#.", "..."]  # a solver's grid, empty


def test_exports_with_the_letters_as_a_solvers_progress(served: Served) -> None:
    page = {"grid": ["CA.", "O#.", "W.."], "progress": True}
    for kind in ("puz", "ipuz"):
        exported = served.post("/api/export", {**page, "kind": kind})
        opened = reopened(served, exported.content, f"progress.{kind}")
        assert opened["rows"] == ["CA.", "O#.", "W.."]  # the player's grid holds them
    ipuz = json.loads(served.post("/api/export", {**page, "kind": "ipuz"}).text)
    assert ipuz["saved"] == [["C", "A", 0], ["O", "#", 0], ["W", 0, 0]]
    bad = served.post("/api/export", {**page, "kind": "puz", "progress": "yes"})
    assert bad.status_code == 400
    assert bad.json()["error"] == 'crossword: error: "progress" must be true or false'
    bad = served.post("/api/export", {**page, "kind": "json", "clues": [{"number": 1}]})
    assert bad.status_code == 400
    assert '"clues" must be a list of' in bad.json()["error"]


def test_a_pdf_sheet_with_the_pages_clues(served: Served) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    page = {"grid": ["CAT", "O#R", "WED"], "kind": "pdf", **PAGE_TEXTS, "paper": "a4"}
    answer = served.post("/api/export", page)
    assert answer.headers["content-type"] == "application/pdf"
    pages = PdfReader(BytesIO(answer.content)).pages
    assert len(pages) == 2  # the puzzle, and its solution
    text = pages[0].extract_text()
    for seen in ("Pets", "A. Setter", "Feline", "Bovine", "(3 letters)"):
        assert seen in text
    pattern = served.post("/api/export", {**page, "grid": ["...", ".#.", "..."]})
    assert len(PdfReader(BytesIO(pattern.content)).pages) == 1  # no fill: no solution page
    bad = served.post("/api/export", {**page, "paper": "legal"})
    assert bad.json()["error"] == 'crossword: error: "paper" must be "letter" or "a4"'


def test_a_word_search_from_a_list_of_words(served: Served) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    body = {"words": ["ADA", "GRACE", "ALAN", "EDSGER"], "size": "7x7", "directions": "easy"}
    made = served.post("/api/wordsearch", {**body, "seed": 3}).json()
    assert made["status"] == "solved"
    assert (len(made["grid"]), made["seed"]) == (7, 3)
    assert sorted(p["word"] for p in made["placements"]) == ["ADA", "ALAN", "EDSGER", "GRACE"]
    assert served.post("/api/wordsearch", {**body, "seed": 3}).json()["grid"] == made["grid"]
    sheet = served.post("/api/wordsearch", {**body, "seed": 3, "kind": "pdf", "title": "Pioneers"})
    pages = PdfReader(BytesIO(sheet.content)).pages
    assert len(pages) == 2  # the puzzle and its answer key
    assert "Pioneers" in pages[0].extract_text()
    bad = served.post("/api/wordsearch", {**body, "words": ["A?B"]})
    assert bad.status_code == 400
    assert bad.json()["error"].startswith("words:1:2: error: expected a letter in a word")


def test_clue_suggestions(served: Served) -> None:
    assert served.client.get("/api/info").json()["suggest"] is True
    found = served.post("/api/suggest", {"words": ["CAT", "QXZW"]}).json()["suggestions"]
    assert isinstance(found["CAT"], str)
    assert "CAT" not in found["CAT"].upper()  # a suggestion never gives its word away
    assert found["QXZW"] is None
    assert served.post("/api/suggest", {"words": "CAT"}).status_code == 400


def test_the_work_file_round_trip(served: Served) -> None:
    workbench = {"version": 1, "kinds": ["lll", "f#f", "tt."], "mode": "lexicon"}
    page = {"grid": ["CAT", "O#R", "WE."], "kind": "json", **PAGE_TEXTS, "workbench": workbench}
    saved = served.post("/api/export", page)
    assert saved.json()["workbench"] == workbench
    [opened] = served.post("/api/open", {"puzzle": saved.text, "name": "pets.json"}).json()["grids"]
    assert opened["format"] == "work"
    assert (opened["source"], opened["rows"], opened["kinds"]) == (
        "pets.json",
        ["CAT", "O#R", "WE."],
        ["lll", "f#f", "tt."],
    )
    assert (opened["title"], opened["author"]) == ("Pets", "A. Setter")
    assert opened["clues"] == PAGE_TEXTS["clues"][:2]  # the empty one is no clue
    # a plain JSON export of the API opens too (its letters as givens); a damaged one says why
    plain = served.post("/api/export", {"grid": ["CAT", "O#R", "WE."], "kind": "json"}).text
    [opened] = served.post("/api/open", {"puzzle": plain, "name": "plain.json"}).json()["grids"]
    assert (opened["rows"], opened["kinds"]) == (["CAT", "O#R", "WE."], None)
    bad = served.post("/api/open", {"puzzle": '{"grid": ["CA?"]}', "name": "broken.json"})
    assert bad.status_code == 400
    assert bad.json()["error"] == (
        "broken.json: error: row 1, column 3 of \"grid\": expected '#' (a block), '.' (empty) "
        'or a letter, found "?"'
    )
    refused = served.post("/api/export", {**page, "workbench": {"kinds": ["l"]}})
    assert refused.status_code == 400
    assert refused.json()["error"].startswith('crossword: error: "workbench": "workbench.kinds"')


def test_a_damaged_puz_is_blamed_on_the_file_with_or_without_its_answers(served: Served) -> None:
    from pybridge import acrosslite
    from pybridge.readers import load

    four = load(DATA / "four.ipuz", answers=True)
    assert four.published is not None
    assert four.published.solution is not None
    cut = acrosslite.puz_bytes(four, four.published.solution)[:60]
    for answers in (False, True):
        body = {"puzzle_base64": base64.b64encode(cut).decode(), "name": "four.puz"}
        answer = served.post("/api/open", {**body, "answers": answers})
        assert answer.status_code == 400
        assert answer.json()["error"].startswith("four.puz: error: damaged .puz file: ")


def test_open_says_so_when_no_browser_can_start(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {**os.environ, "BROWSER": str(tmp_path / "no-such-browser"), "DISPLAY": ""}
    command = [sys.executable, "-m", "pybridge", "serve", "--port", "0", "--open"]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        assert server.stderr is not None
        assert "the workbench is at http://127.0.0.1:" in server.stdout.readline()
        note = server.stderr.readline()
        while note.startswith("dictionary "):  # the dictionaries served (the shipped list)
            note = server.stderr.readline()
        assert note.startswith("crossword serve: no web browser could be started here: open http")
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_text_that_is_no_puzzle_is_said_to_be_none(served: Served) -> None:
    readme = (DATA.parent / "README.md").read_text(encoding="utf-8")
    answer = served.post("/api/open", {"puzzle": readme, "name": "README.md"})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("README.md: error: this does not read as a puzzle")


def test_a_check_runs_as_a_fill_does(served: Served) -> None:
    body = {"puzzle": THREE_S.read_text(encoding="utf-8"), "name": "three-s.dat"}
    view = wait_for(served, start(served, {**body, "check": True})["id"])
    assert (view["state"], view["exit_code"]) == ("done", 1)
    checked = served.post("/api/check", body).json()
    assert without_seconds(view["answer"]) == without_seconds(checked)
    refused = served.post("/api/fill", {**body, "check": True, "region": [[0, 0]], "page": "r"})
    assert refused.status_code == 400
    assert (
        refused.json()["error"]
        == 'crossword: error: a check is of the whole grid: leave out "region"'
    )


def test_make_runs_as_a_fill_does(served: Served) -> None:
    body = {"make": True, "size": "3x3", "blocks": "0", "dict": ["square.txt"], "seed": 1}
    view = wait_for(served, start(served, body)["id"])
    assert (view["state"], view["exit_code"]) == ("done", 0)
    made = view["answer"]
    assert made["status"] == "solved"
    assert made["pattern"]["grid"] == ["...", "...", "..."]
    assert made["solutions"][0]["grid"] in (["CAT", "ORE", "WED"], ["COW", "ARE", "TED"])
    assert made["summary"]
    refused = served.post("/api/fill", {**body, "size": "3", "page": "m"})
    assert refused.status_code == 400
    both = served.post("/api/fill", {**body, "check": True, "page": "m"})
    assert both.json()["error"] == (
        'crossword: error: give one of "check", "make" or "suggest", not several'
    )


def test_a_fills_view_shows_the_time_limit_it_runs_under(served: Served) -> None:
    body = {"puzzle": DEMO.read_text(encoding="utf-8"), "engine": "python"}
    for timeout, limit in ((7, 7), (None, 30), (100, 30)):
        asked = body if timeout is None else {**body, "timeout": timeout}
        view = start(served, asked, page=f"page-{timeout}")
        assert view["time_limit"] == limit
        wait_for(served, view["id"])


# ---------------------------------------------------------------- the command


def test_serve_refuses_bad_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--root", str(tmp_path / "missing")]) == 2
    assert "not a folder" in capsys.readouterr().err
    (tmp_path / "empty.txt").write_text("\n", encoding="utf-8")
    assert cli.main(["serve", "--dict", str(tmp_path / "empty.txt")]) == 2
    assert "no usable entry" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert cli.main(["serve", "--port", port]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert cli.main(["serve", "--time-limit", "0"]) == 2
    assert cli.main(["serve", "--max-upload", "lots"]) == 2


def test_serve_binds_to_this_machine_by_default() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["serve"])
    assert args.host == "127.0.0.1"
    assert args.port == 8000
    from pybridge.commands.serve import is_loopback

    assert is_loopback("127.0.0.1")
    assert is_loopback("::1")
    assert is_loopback("localhost")
    assert not is_loopback("0.0.0.0")


def test_a_fill_whose_time_ran_out_while_its_worker_warmed_answers_timed_out(
    shared: Path,
) -> None:
    from dataclasses import replace

    from pybridge.serve.fills import Job, fill_answer

    files = Files.make(None, [str(shared / "bench" / "dicts" / "scowl55.txt")])
    job = Job({**LONG_FILL, "engine": "python", "timeout": 50}, files, time_limit=30)
    assert job.time_left() == 30  # not handed to a worker yet
    late = replace(job, deadline=time.monotonic() - 1)  # handed, then the worker warmed 31 s
    phases: list[str] = []
    answer = fill_answer(late, phases.append)
    assert answer.body["status"] == "timeout"
    assert answer.exit_code == 3
    assert phases[0] == "filling (time limit 30 s)"
