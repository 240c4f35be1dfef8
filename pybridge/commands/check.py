"""The `check` command: say whether a puzzle can be filled, and when it
cannot, why: the proof layer, its reason and a minimal core of sites."""

from __future__ import annotations

import argparse
import json
from dataclasses import replace

from pybridge import proofs
from pybridge.commands.common import (
    EXCHANGES,
    EXIT_BY_STATUS,
    PICTURES,
    add_progress_options,
    add_puzzle_arguments,
    check_picture_path,
    checked_puzzles,
    draw,
    drawn_lines,
    json_document,
    numbered,
    out,
    progress_line,
    timeout_left,
    worst,
    write_crossword,
)
from pybridge.errors import shown
from pybridge.model import Puzzle
from pybridge.progress import Progress
from pybridge.render import blocks_text
from pybridge.solver import Outcome, run

CHECK_EPILOG = """\
Proof layers, cheapest first: length (word and site lengths differ), no-fit
(a site no word fits, or a word that fits no site), hall (k sites that fit
fewer than k words between them), propagation (letters propagated through the
crossings leave a site or a cell with nothing), search (the exhaustive search
finds nothing). The core is a set of sites that cannot all be filled, shrunk
until dropping any one of them makes it fillable; it is drawn with * on its
open cells.

exit codes:
  0    solvable (one solution is printed)
  1    unsolvable (the proof is printed)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  3    the time limit (--timeout) was reached before a verdict
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
  141  the output pipe was closed early (e.g. by `| head`)
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = commands.add_parser(
        "check",
        help="say whether a puzzle is solvable, and prove it when it is not",
        description=(
            "Decide whether a puzzle has a solution. If it has, print one; if not,\n"
            "print why: the proof layer, the reason, and a minimal core of sites."
        ),
        epilog=CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(check)
    add_progress_options(check)
    check.set_defaults(handler=check_command)


def check_command(args: argparse.Namespace) -> int:
    check_picture_path(args)
    puzzles = checked_puzzles(args)
    return worst([check_one(puzzle, args, many=len(puzzles) > 1) for puzzle in puzzles])


def check_one(puzzle: Puzzle, args: argparse.Namespace, many: bool) -> int:
    kind, path = args.output
    if many and kind != "json":
        out(f"== {puzzle.source}")
    with progress_line(args, f"check {shown(puzzle.source)}", timeout=args.timeout) as line:
        outcome = check_outcome(puzzle, args, line)
    if kind == "json":
        out(json.dumps(json_document(puzzle, outcome, many), ensure_ascii=False, indent=2))
    elif kind in EXCHANGES:
        out(write_crossword(kind, puzzle, outcome, numbered(path, puzzle) if many else path))
        out(check_text(puzzle, outcome, args.timeout).splitlines()[0])
    elif kind in PICTURES:
        drawn = draw(puzzle, outcome, numbered(path, puzzle) if many else path)
        out("\n".join([*drawn_lines(drawn), check_text(puzzle, outcome, args.timeout)]))
    else:
        out(check_text(puzzle, outcome, args.timeout, blocks=kind == "blocks"))
    return EXIT_BY_STATUS[outcome.status]


def check_outcome(puzzle: Puzzle, args: argparse.Namespace, line: Progress) -> Outcome:
    """Search for one solution; when there is none, explain why with a
    minimal core (in the time the search left over)."""
    timeout = timeout_left(args)
    outcome = run(
        puzzle,
        engine=args.engine,
        strategy=args.strategy,
        timeout=timeout,
        seed=args.seed,
        progress=line.watch,
    )
    if outcome.status != "unsolvable":
        return outcome
    # the verdict stands; the core is shrunk only within a budget (issue 34)
    line.start("unsolvable: shrinking the core")
    left = None if timeout is None else timeout - outcome.stats.seconds
    seconds = proofs.shrink_seconds(outcome.stats.seconds, left)
    assert outcome.proof is not None  # an unsolvable outcome always carries its proof
    proof = proofs.shrink(outcome.puzzle or puzzle, outcome.proof, seconds=seconds)
    outcome.proof = proof
    outcome.reason = proof.reason if proof.layer == "length" else proofs.proof_sentence(proof)
    return outcome


def check_text(
    puzzle: Puzzle, outcome: Outcome, timeout: float | None, blocks: bool = False
) -> str:
    if outcome.status == "solved":
        first = outcome.solutions[0]
        return f"solvable\n{blocks_text(first) if blocks else first}"
    if outcome.status == "timeout":
        return f"time limit of {timeout:g} s reached before a verdict"
    proof = outcome.proof
    assert proof is not None  # an unsolvable outcome always carries its proof
    lines = [f"unsolvable (layer: {proof.layer})", proofs.proof_sentence(proof)]
    if proof.layer != "length" and not proof.minimal:
        lines.append("(the core may not be minimal: the time ran out while shrinking it)")
    marked = replace(puzzle, grid=proofs.core_grid(puzzle, proof))
    lines += [f"core ({proofs.CORE_MARK} marks its open cells):", str(marked)]
    return "\n".join(lines)
