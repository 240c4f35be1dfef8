"""Answers for the terminal and for scripts: the blocks view and the JSON
document of `solve --output json` (a contract: extend, never break).

A puzzle's own notation (text, HTML) is pybridge.notation's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pybridge.model import BLOCK, Placement, Solution
from pybridge.proofs import proof_json

if TYPE_CHECKING:
    from pybridge.solver import Outcome

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
    width = solution.puzzle.width
    return {
        "grid": [row.ljust(width, BLOCK) for row in solution.grid],
        "placements": [_placement_json(p) for p in solution.placements],
    }


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The `--json` document: status, solutions, then count, reason, proof and
    unique where known, and stats."""
    doc: dict[str, Any] = {
        "status": outcome.status,
        "solutions": [_solution_json(s) for s in outcome.solutions],
    }
    if outcome.count is not None:
        doc["count"] = outcome.count
    if outcome.reason is not None:
        doc["reason"] = outcome.reason
    if outcome.proof is not None:
        doc["proof"] = proof_json(outcome.proof)
    if outcome.unique is not None:
        doc["unique"] = outcome.unique
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
