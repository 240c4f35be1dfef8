"""Word lists in the workbench (issue 37 item 4), through the API
(docs/serve.md): the shipped list served beside the --dict files, with its
acceptable line; the words a request bans and prefers (`ban`, `prefer`) in
candidate lists, fills, checks and Make; `serve --ban` in fills too; the
grid's difficulty with each candidate list; and the words of one entry
that leave the grid a fill (POST /api/fill with "suggest")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from test_serve_api import Served, start, wait_for
from test_serve_quality import SCORED, SQUARE, candidates

from pybridge.commands.serve import with_shipped
from pybridge.serve.app import Settings, create_app
from pybridge.serve.files import Files
from pybridge.wordlist import LIST_PATH

# The fills of an open 3x3 from SCORED (test_serve_quality): two squares and
# their transposes; the words each puts at 1-Across.
FILLS = [
    ["CAT", "ORE", "WED"],
    ["COW", "ARE", "TED"],
    ["TEN", "ORE", "EAT"],
    ["TOE", "ERA", "NET"],
]


def serving(tmp_path: Path, **files: Any) -> TestClient:
    scored = tmp_path / "scored.txt"
    scored.write_text(SCORED, encoding="utf-8")
    made = Files.make(None, [str(scored)])
    made = Files(made.root, made.dictionaries, made.encoding, **files)
    return TestClient(create_app(Settings(files=made, time_limit=30)), base_url="http://127.0.0.1")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with serving(tmp_path) as client:
        yield Served(client, tmp_path)


def listed(answer: Any) -> dict[str, Any]:
    return {c["word"]: c.get("score") for c in answer["candidates"]}


def placed(doc: Any) -> set[str]:
    return {p["word"] for p in doc["solutions"][0]["placements"]}


def test_the_shipped_list_is_served_beside_the_dictionaries_given(tmp_path: Path) -> None:
    assert with_shipped([], LIST_PATH) == [str(LIST_PATH)]
    assert with_shipped(["a.txt"], LIST_PATH) == ["a.txt", str(LIST_PATH)]
    assert with_shipped([str(LIST_PATH)], LIST_PATH) == [str(LIST_PATH)]  # not twice
    scored = tmp_path / "scored.txt"
    scored.write_text(SCORED, encoding="utf-8")
    files = Files.make(None, with_shipped([str(scored)], LIST_PATH))
    with TestClient(create_app(Settings(files=files)), base_url="http://127.0.0.1") as client:
        dicts = client.get("/api/info").json()["dicts"]
    assert [(d["name"], d["shipped"], d["line"]) for d in dicts] == [
        ("scored.txt", False, 25),  # a 0-100 list: the same line
        ("words.txt", True, 25),
    ]


def test_a_request_bans_and_prefers_words_in_the_candidates(served: Served) -> None:
    rows = ["...", "...", "..."]
    plain = listed(candidates(served, rows))
    assert plain["COW"] == 100
    assert plain["CAT"] == 40
    assert "OAT" not in plain
    curated = listed(candidates(served, rows, ban=["cow"], prefer=["CAT", "o-at"]))
    assert "COW" not in curated
    assert curated["CAT"] == 60  # 20 more
    assert curated["OAT"] == 70  # added: the default 50, and 20 more
    assert "COW" in listed(candidates(served, rows))  # per request: nothing is kept


@pytest.mark.parametrize(
    ("more", "message"),
    [
        ({"ban": 7}, '"ban" must be a list of words'),
        ({"prefer": [1]}, '"prefer" must be a list of words'),
        ({"ban": ["C4T"]}, "\"ban\": 'C4T' is not a word"),
        ({"ban": ["/etc/passwd"]}, "\"ban\": '/etc/passwd' is not a word"),  # never a file
    ],
)
def test_bad_curation_is_refused(served: Served, more: dict[str, Any], message: str) -> None:
    for path in ("/api/candidates", "/api/solve"):
        body = {"grid": ["..."], "row": 0, "col": 0, "dict": ["scored.txt"], **more}
        if path == "/api/solve":
            body = {"puzzle": SQUARE, "dict": ["scored.txt"], **more}
        answer = served.post(path, body)
        assert answer.status_code == 400
        assert message in answer.json()["error"]


def test_fills_checks_and_make_keep_to_the_curation(served: Served) -> None:
    body = {"puzzle": SQUARE, "dict": ["scored.txt"], "engine": "python"}
    assert "CAT" in placed(served.post("/api/solve", body).json())  # the first fill has it
    without = served.post("/api/solve", {**body, "ban": ["CAT"]}).json()
    assert without["status"] == "solved"
    assert "CAT" not in placed(without)
    # ORE is in both squares: banned, no fill is left
    check = served.post("/api/check", {**body, "ban": ["ORE"]})
    assert check.json()["status"] == "unsolvable"
    view = wait_for(served, start(served, {**body, "ban": ["CAT"]})["id"])
    assert "CAT" not in placed(view["answer"])
    make = {"make": True, "dict": ["scored.txt"], "size": "3x3", "blocks": "0", "seed": 1}
    make |= {"engine": "python", "ban": ["CAT", "COW"]}
    made = wait_for(served, start(served, make, page="make")["id"])["answer"]
    assert made["status"] == "solved"
    assert not {"CAT", "COW"} & placed(made)


def test_serve_ban_reaches_fills_too(tmp_path: Path) -> None:
    with serving(tmp_path, banned=("CAT",), preferred=("TEN",)) as client:
        body = {"puzzle": SQUARE, "dict": ["scored.txt"], "engine": "python"}
        doc = client.post("/api/solve", json=body).json()
        assert doc["status"] == "solved"
        assert "CAT" not in placed(doc)
        rows = {"grid": ["...", "...", "..."], "row": 0, "col": 0, "dict": ["scored.txt"]}
        found = client.post("/api/candidates", json=rows).json()
        assert "CAT" not in listed(found)
        assert listed(found)["TEN"] == 80


def test_candidates_carry_the_grids_difficulty_and_the_lists_line(served: Served) -> None:
    answer = candidates(served, ["...", "...", "..."])
    assert isinstance(answer["difficulty"], float)
    assert answer["line"] == 25
    stuck = candidates(served, ["Q..", "...", "..."])
    assert stuck["verdict"] is not None
    assert stuck["difficulty"] is None


def suggestions(served: Served, rows: str, **more: Any) -> Any:
    body = {"puzzle": rows, "dict": ["scored.txt"], "engine": "python", "suggest": True}
    view = wait_for(served, start(served, {**body, "row": 0, "col": 0, **more})["id"])
    assert view["state"] == "done", view
    return view


def test_the_words_of_an_entry_that_fill_the_grid(served: Served) -> None:
    view = suggestions(served, SQUARE, direction="across")
    answer = view["answer"]
    assert (answer["status"], view["exit_code"]) == ("solved", 0)
    assert answer["site"]["number"] == 1
    assert answer["site"]["direction"] == "across"
    fills = {t["word"] for t in answer["words"] if t["fills"]}
    assert fills == {rows[0] for rows in FILLS}  # each word some fill puts there
    scores = [t["score"] for t in answer["words"]]
    assert scores == sorted(scores, reverse=True)  # the best scored tried first
    for tried in answer["words"]:
        if tried["fills"]:
            assert tried["grid"] in FILLS
            assert tried["grid"][0] == tried["word"]
        else:
            assert tried["fills"] is False
            assert tried["reason"]
    down = suggestions(served, SQUARE, direction="down")["answer"]
    assert {t["word"] for t in down["words"] if t["fills"]} == {"CAT", "COW", "TEN", "TOE"}


def test_an_entry_no_word_of_which_fills_the_grid(served: Served) -> None:
    view = suggestions(served, "...\n.Q.\n...\n", direction="across")
    assert (view["answer"]["status"], view["exit_code"]) == ("unsolvable", 1)
    assert not any(t["fills"] for t in view["answer"]["words"])


@pytest.mark.parametrize(
    ("more", "message"),
    [
        ({"maximize": "min"}, 'leave out "maximize"'),
        ({"region": [[0, 0]]}, 'leave out "region"'),
        ({"direction": "up"}, '"direction" must be "across" or "down"'),
    ],
)
def test_bad_suggestion_requests(served: Served, more: dict[str, Any], message: str) -> None:
    body = {"puzzle": SQUARE, "dict": ["scored.txt"], "suggest": True, "row": 0, "col": 0}
    answer = served.post("/api/fill", {"page": "p", **body, **more})
    assert answer.status_code == 400
    assert message in answer.json()["error"]
    unplaced = served.post("/api/fill", {"page": "p", **body, "row": None})
    assert unplaced.status_code == 400
