"""The workbench's API with a scored word list (docs/serve.md): candidates
best scored first with their scores, `min-score` and `maximize` by the CLI's
long names in /api/solve, /api/check, /api/candidates and fills, the fill's
score in the answer, and a maximizing fill's better fills in its view. The
list is written here; the scores are recomputed from its text."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_serve_api import Served, start, wait_for

from pybridge import cli
from pybridge.serve.app import Settings, create_app
from pybridge.serve.files import Files

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = [pytest.param("prolog", marks=needs_prolog), "python"]

# An open 3x3 grid has two fills from this list (and their transposes):
# CAT/ORE/WED over COW/ARE/TED (lowest 40, total 520) and TEN/ORE/EAT over
# TOE/ERA/NET (lowest 60, total 445). CUP fits no fill; OAK has no score (50).
SCORED = "CAT;40\nORE;80\nWED;100\nCOW;100\nARE;100\nTED;100\nTEN;60\nEAT;95\n"
SCORED += "TOE;65\nERA;75\nNET;70\nCUP;99\nOAK\n"
SQUARE = "...\n...\n...\n"


def list_scores() -> dict[str, Decimal]:
    scores = {}
    for line in SCORED.splitlines():
        word, _, score = line.partition(";")
        scores[word] = Decimal(score) if score else Decimal(50)
    return scores


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    scored = tmp_path / "scored.txt"
    scored.write_text(SCORED, encoding="utf-8")
    plain = tmp_path / "plain.txt"
    plain.write_text("CAT\nORE\nWED\n", encoding="utf-8")
    files = Files.make(None, [str(scored), str(plain)])
    app = create_app(Settings(files=files, time_limit=30))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        yield Served(client, tmp_path)


def candidates(served: Served, rows: list[str], **more: Any) -> Any:
    body = {"grid": rows, "row": 0, "col": 0, "direction": "across", "dict": ["scored.txt"]}
    response = served.post("/api/candidates", {**body, **more})
    assert response.status_code == 200, response.json()
    return response.json()


def test_info_says_which_dictionaries_are_scored(served: Served) -> None:
    dicts = served.client.get("/api/info").json()["dicts"]
    assert [(d["name"], d["scored"]) for d in dicts] == [("scored.txt", True), ("plain.txt", False)]


def test_candidates_come_best_scored_first_with_their_scores(served: Served) -> None:
    answer = candidates(served, ["T..", "...", "..."])
    listed = [(c["word"], c["score"], c["dead"]) for c in answer["candidates"]]
    # TED scores best but no word begins with D for 3-Down: it comes last
    assert listed == [("TOE", 65, False), ("TEN", 60, False), ("TED", 100, True)]
    plain = candidates(served, ["C..", "...", "..."], dict=["plain.txt"])
    assert [c["word"] for c in plain["candidates"]] == ["CAT"]
    assert "score" not in plain["candidates"][0]


def test_candidates_keep_to_the_min_score(served: Served) -> None:
    answer = candidates(served, ["...", "...", "..."], **{"min-score": 41})
    alive = [c["score"] for c in answer["candidates"] if not c["dead"]]
    assert alive == sorted(alive, reverse=True)
    assert min(c["score"] for c in answer["candidates"]) >= 41
    assert "CAT" not in [c["word"] for c in answer["candidates"]]
    assert "CAT" in [c["word"] for c in candidates(served, ["...", "...", "..."])["candidates"]]
    assert answer["verdict"] is None
    none_left = candidates(served, ["...", "...", "..."], **{"min-score": 96})
    assert "scoring 96 or more" in none_left["verdict"]["reason"]
    refused = served.post(
        "/api/candidates",
        {"grid": ["..."], "row": 0, "col": 0, "dict": ["plain.txt"], "min-score": 50},
    )
    assert refused.status_code == 400
    assert "--min-score needs a scored dictionary" in refused.json()["error"]
    bad = served.post(
        "/api/candidates",
        {"grid": ["..."], "row": 0, "col": 0, "dict": ["scored.txt"], "min-score": "lots"},
    )
    assert bad.status_code == 400
    assert "min_score must be a number" in bad.json()["error"]


def solve_body(**more: Any) -> dict[str, Any]:
    return {"puzzle": SQUARE, "dict": ["scored.txt"], **more}


@pytest.mark.parametrize("engine", ENGINES)
def test_solve_answers_the_score_as_the_cli_does(
    served: Served, engine: str, capsys: pytest.CaptureFixture[str]
) -> None:
    answer = served.post("/api/solve", solve_body(engine=engine)).json()
    scores = list_scores()
    words = [p["word"] for p in answer["solutions"][0]["placements"]]
    each = [scores[w] for w in words]
    assert (answer["score"]["min"], answer["score"]["sum"]) == (min(each), sum(each))
    for objective, best in (("min", 60), ("sum", 520)):
        body = solve_body(engine=engine, maximize=objective)
        answer = served.post("/api/solve", body).json()
        assert answer["score"][objective] == best
        assert (answer["score"]["optimal"], answer["score"]["bound"]) == (True, best)
        assert answer["improvements"][-1]["value"] == best
        grid = served.root / "square.txt"
        grid.write_text(SQUARE, encoding="utf-8")
        argv = ["solve", str(grid), "--dict", str(served.root / "scored.txt")]
        argv += ["--engine", engine, "--maximize", objective, "--output", "json"]
        assert cli.main(argv) == 0
        expected = json.loads(capsys.readouterr().out)
        assert answer["score"] == expected["score"]
        assert answer["solutions"] == expected["solutions"]


def test_min_score_by_its_long_name(served: Served) -> None:
    cut = served.post("/api/solve", solve_body(**{"min-score": 61}))
    assert cut.status_code == 200
    assert cut.headers["X-Crossword-Exit-Code"] == "1"
    assert "with the dictionary words scoring 61 or more" in cut.json()["reason"]
    check = served.post("/api/check", solve_body(**{"min-score": 101})).json()
    assert check["status"] == "unsolvable"
    assert "the dictionary has no 3-letter word scoring 101 or more" in check["reason"]
    wrong = served.post("/api/solve", solve_body(maximize="max"))
    assert wrong.status_code == 400
    assert "invalid choice: 'max'" in wrong.json()["error"]
    wdeg = served.post("/api/solve", solve_body(maximize="min", strategy="wdeg"))
    assert "the valued strategy, not 'wdeg'" in wdeg.json()["error"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_maximizing_fill_tells_its_better_fills(served: Served, engine: str) -> None:
    view = wait_for(served, start(served, solve_body(engine=engine, maximize="min"))["id"])
    assert view["state"] == "done"
    answer = view["answer"]
    assert answer["score"]["optimal"] is True
    assert view["best"]["value"] == answer["score"]["min"] == 60
    assert view["better_fills"] == len(answer["improvements"])
    plain = wait_for(served, start(served, solve_body(engine=engine))["id"])
    assert "best" not in plain  # no objective, no better fills


def test_a_region_fill_has_the_score_of_its_entries(served: Served) -> None:
    region = {"region": [[0, 0]], "engine": "python"}
    view = wait_for(served, start(served, solve_body(**region))["id"])
    answer = view["answer"]
    scores = list_scores()
    each = [scores[p["word"]] for p in answer["solutions"][0]["placements"]]
    assert len(each) == 2
    assert (answer["score"]["min"], answer["score"]["sum"]) == (min(each), sum(each))
    refused = served.post("/api/fill", {"page": "p", **solve_body(maximize="min", **region)})
    assert refused.status_code == 400
    assert 'leave out "maximize"' in refused.json()["error"]


def test_the_best_so_far_shows_while_a_long_fill_runs(tmp_path: Path, shared: Path) -> None:
    """A grid whose best sum takes minutes to prove (g05.03, as in
    tests/test_valued.py): the view shows the best fill found so far while
    the fill runs; Cancel stops it."""
    scored = shared / "bench" / "dicts" / "scored" / "scowl55-wordfreq.txt"
    grid = shared / "bench" / "grids" / "vanbeek" / "g05.03.txt"
    files = Files.make(None, [str(scored)])
    app = create_app(Settings(files=files, time_limit=120))
    body = {"puzzle": grid.read_text(encoding="utf-8"), "dict": [scored.name], "maximize": "sum"}
    with TestClient(app, base_url="http://127.0.0.1") as client:
        served = Served(client, tmp_path)
        fill_id = start(served, body)["id"]
        deadline = time.monotonic() + 90
        view = client.get(f"/api/fill/{fill_id}").json()
        while view["state"] == "running" and "best" not in view and time.monotonic() < deadline:
            time.sleep(0.1)
            view = client.get(f"/api/fill/{fill_id}").json()
        assert view["state"] == "running", view  # not proved yet
        assert view["best"]["value"] > 0
        assert view["better_fills"] >= 1
        assert client.delete(f"/api/fill/{fill_id}").json()["state"] == "cancelled"


def test_a_request_bans_and_prefers_words_for_its_fill_only(served: Served) -> None:
    # the best min fill is TEN/ORE/EAT... (60); banning TEN leaves CAT/ORE/WED... (40)
    best = served.post("/api/solve", solve_body(maximize="min")).json()
    assert best["score"]["min"] == 60
    banned = served.post("/api/solve", solve_body(maximize="min", ban=["ten"])).json()
    words = {p["word"] for p in banned["solutions"][0]["placements"]}
    assert "TEN" not in words
    assert banned["score"]["min"] == 40
    # preferring CAT (40 + 20) and COW... lifts the other fill to the top for min
    preferred = served.post(
        "/api/solve", solve_body(maximize="min", prefer=["CAT", "wed", "ted"])
    ).json()
    assert {"CAT", "WED"} <= {p["word"] for p in preferred["solutions"][0]["placements"]}
    assert preferred["score"]["min"] == 60  # CAT 60, ORE 80, the rest 100 or more
    again = served.post("/api/solve", solve_body(maximize="min")).json()
    assert again["score"]["min"] == 60  # nothing kept from one request to the next
    listed = candidates(served, ["T..", "...", "..."], ban=["TOE"], prefer=["TED"])
    assert {(c["word"], c["score"]) for c in listed["candidates"]} == {("TEN", 60), ("TED", 100)}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("C4T", "\"ban\": 'C4T' is not a word"),
        ([1, 2], '"ban" must be a list of words'),
        (["../etc/passwd"], "is not a word"),
    ],
)
def test_a_bad_ban_is_a_400_naming_it(served: Served, value: Any, message: str) -> None:
    answer = served.post("/api/solve", solve_body(ban=value))
    assert answer.status_code == 400
    assert message in answer.json()["error"]
    listed = served.post(
        "/api/candidates",
        {"grid": ["..."], "row": 0, "col": 0, "dict": ["scored.txt"], "ban": value},
    )
    assert listed.status_code == 400
