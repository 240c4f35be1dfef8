"""Answers for the terminal and for scripts: the blocks view and the JSON
document of `solve --output json` (a contract: extend, never break).

A puzzle's own notation (text, HTML) is pybridge.notation's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pybridge.exchange import entry_clues
from pybridge.layout import find_sites
from pybridge.model import BLOCK, Placement, Puzzle, Solution
from pybridge.proofs import proof_json
from pybridge.scores import ACCEPTABLE, Score, json_number

if TYPE_CHECKING:
    from pybridge.construct import Construction
    from pybridge.solver import BetterFill, Outcome

BLOCK_GLYPH = "█"


def blocks_text(solution: Solution) -> str:
    """The filled grid at full width with █ for blocked cells (CS50's look)."""
    return "\n".join(row.replace(BLOCK, BLOCK_GLYPH) for row in solution.grid)


def _placement_json(placement: Placement) -> dict[str, Any]:
    return {
        "number": placement.number,
        "direction": placement.direction,
        "row": placement.row,
        "col": placement.col,
        "length": placement.length,
        "word": placement.word,
    }


def _solution_json(solution: Solution) -> dict[str, Any]:
    """The grid and placements; for a puzzle that publishes clues (a .puz or
    ipuz crossword, or clues given), each placement's `clue` and
    `clue_source` too (null for an entry without a clue)."""
    puzzle = solution.puzzle
    width = puzzle.width
    placements = [_placement_json(p) for p in solution.placements]
    if puzzle.published is not None:
        rows = [row.ljust(width, BLOCK) for row in solution.grid]
        sites = find_sites(puzzle)
        clues = {
            (site.number, site.direction): clue
            for site, clue in zip(sites, entry_clues(puzzle, rows), strict=True)
        }
        for doc, placement in zip(placements, solution.placements, strict=True):
            clue = clues.get((placement.number, placement.direction))
            doc["clue"] = None if clue is None else clue.text
            doc["clue_source"] = None if clue is None else clue.source
    return {"grid": [row.ljust(width, BLOCK) for row in solution.grid], "placements": placements}


def details_json(outcome: Outcome) -> dict[str, Any]:
    """The first solution's puzzle's title, author, copyright and notes, where
    set, and `rebus`: what each rebus mark in the grids stands for."""
    puzzle = outcome.solutions[0].puzzle if outcome.solutions else outcome.puzzle
    published = puzzle.published if puzzle is not None else None
    if published is None:
        return {}
    fields = ("title", "author", "copyright", "notes")
    doc: dict[str, Any] = {
        name: getattr(published, name) for name in fields if getattr(published, name)
    }
    if published.rebus:  # what each rebus mark of the grids stands for
        doc["rebus"] = dict(published.rebus)
    return doc


def score_json(score: Score) -> dict[str, Any]:
    """`min`, `sum` and `mean` of a fill (on the scale of its word list),
    then `optimal` and `bound` when known, then the fill's `words` (its
    entries), its `lowest` entries and how many score `below` the acceptable
    `line` (when its list is on the 0-100 scale)."""
    doc: dict[str, Any] = {}
    if score.min is not None and score.sum is not None and score.mean is not None:
        doc["min"] = json_number(score.min)
        doc["sum"] = json_number(score.sum)
        doc["mean"] = json_number(score.mean)
    if score.optimal is not None:
        doc["optimal"] = score.optimal
        doc["bound"] = None if score.bound is None else json_number(score.bound)
    if score.words is not None:
        doc["words"] = score.words
        doc["lowest"] = [
            {"word": word, "score": json_number(value)} for word, value in score.lowest
        ]
        if score.below is not None:
            doc["below"] = score.below
            doc["line"] = json_number(ACCEPTABLE)
    return doc


def better_json(better: BetterFill) -> dict[str, Any]:
    """A better fill as `improvements` lists it: its value, seconds and nodes."""
    return {"value": json_number(better.value), "seconds": better.seconds, "nodes": better.nodes}


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The `--json` document: status, solutions, then count, reason, proof,
    unique, score and improvements where known, and stats."""
    doc: dict[str, Any] = {
        "status": outcome.status,
        "solutions": [_solution_json(s) for s in outcome.solutions],
    }
    doc.update(details_json(outcome))
    if outcome.count is not None:
        doc["count"] = outcome.count
    if outcome.reason is not None:
        doc["reason"] = outcome.reason
    if outcome.proof is not None:
        doc["proof"] = proof_json(outcome.proof)
    if outcome.unique is not None:
        doc["unique"] = outcome.unique
    if outcome.score is not None:
        doc["score"] = score_json(outcome.score)
    if outcome.score is not None and outcome.score.optimal is not None:
        doc["improvements"] = [better_json(b) for b in outcome.improvements]
    stats = outcome.stats
    doc["stats"] = {
        "engine": stats.engine,
        "strategy": stats.strategy,
        "nodes": stats.nodes,
        "backtracks": stats.backtracks,
        "seconds": stats.seconds,
    }
    if outcome.winner is not None:
        won = outcome.winner
        doc["portfolio"] = {
            "jobs": won.jobs,
            "stream": won.stream,
            "strategy": won.strategy,
            "seed": won.seed,
            "seconds": won.seconds,
        }
    return doc


def json_document(puzzle: Puzzle, outcome: Outcome, many: bool) -> dict[str, Any]:
    """The JSON contract; with several grids, one document each (JSON lines
    would break `json.load`, so each is printed whole, tagged by source)."""
    doc = outcome_json(outcome)
    if many:
        doc = {"source": puzzle.source, **doc}
    return doc


def construction_json(made: Construction, outcome: Outcome | None = None) -> dict[str, Any]:
    """`make --output json`'s document (a batch's files hold it too): the
    last fill's document (`outcome`, where given, is that fill with its
    clues published), its status the construction's, then the pattern and
    the tries."""
    doc: dict[str, Any] = {"status": made.status}
    fill = made.outcome if outcome is None else outcome
    if fill is not None:
        doc.update(outcome_json(fill))
        doc["status"] = made.status
    doc["pattern"] = made.pattern.to_json() if made.pattern else None
    doc["tries"] = [t.to_json() for t in made.tries]
    return doc
