"""The `check` command: say whether a puzzle can be filled, and when it
cannot, why: the proof layer, its reason and a minimal core of sites."""

from __future__ import annotations

import argparse
from dataclasses import replace

from pybridge import proofs
from pybridge.commands.common import (
    CHECK_OUTPUTS,
    EXCHANGES,
    EXIT_BY_STATUS,
    PICTURES,
    Terminal,
    add_fields,
    add_progress_options,
    add_puzzle_arguments,
    check_picture_path,
    default_bound,
    draw,
    drawn_lines,
    numbered,
    out,
    out_json,
    worst,
    write_crossword,
)
from pybridge.model import Puzzle
from pybridge.options import OutputOptions
from pybridge.render import blocks_text, json_document
from pybridge.service import fields, jobs
from pybridge.service.jobs import Solved
from pybridge.service.requests import output_options, puzzle_options, search_options
from pybridge.solver import Outcome

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


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    check = commands.add_parser(
        "check",
        help=summary,
        description=(
            "Decide whether a puzzle has a solution. If it has, print one; if not,\n"
            "print why: the proof layer, the reason, and a minimal core of sites."
        ),
        epilog=CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(check, CHECK_OUTPUTS)
    add_fields(check, [fields.DPI])
    add_progress_options(check)
    check.set_defaults(handler=check_command)


def check_command(args: argparse.Namespace) -> int:
    values = vars(args)
    output = output_options(values)
    check_picture_path(args)
    search = search_options(values)
    listener = Terminal(args, headers=output.kind != "json")
    checked = jobs.check(puzzle_options(values), search, listener)
    return worst([show_checked(each, output, search.timeout) for each in checked])


def show_checked(checked: Solved, output: OutputOptions, timeout: float | None) -> int:
    """Print (or write) one puzzle's verdict as --output says; its exit code."""
    puzzle, outcome, many = checked.puzzle, checked.outcome, checked.many
    kind, path = output.kind, output.path
    if kind == "json":
        out_json(json_document(puzzle, outcome, many))
    elif kind in EXCHANGES:
        assert path is not None
        out(write_crossword(kind, puzzle, outcome, numbered(path, puzzle) if many else path))
        out(check_text(puzzle, outcome, timeout).splitlines()[0])
    elif kind in PICTURES:
        assert path is not None
        drawn = draw(puzzle, outcome, numbered(path, puzzle) if many else path, output.dpi)
        out("\n".join([*drawn_lines(drawn), check_text(puzzle, outcome, timeout)]))
    else:
        out(check_text(puzzle, outcome, timeout, blocks=kind == "blocks"))
    return EXIT_BY_STATUS[outcome.status]


def check_text(
    puzzle: Puzzle, outcome: Outcome, timeout: float | None, blocks: bool = False
) -> str:
    if outcome.status == "solved":
        first = outcome.solutions[0]
        return f"solvable\n{blocks_text(first) if blocks else first}"
    if outcome.status == "timeout":
        return f"time limit of {timeout:g} s reached before a verdict{default_bound(timeout)}"
    proof = outcome.proof
    assert proof is not None  # an unsolvable outcome always carries its proof
    lines = [f"unsolvable (layer: {proof.layer})", proofs.proof_sentence(proof)]
    if proof.layer != "length" and not proof.minimal:
        lines.append("(the core may not be minimal: the time ran out while shrinking it)")
    marked = replace(puzzle, grid=proofs.core_grid(puzzle, proof))
    lines += [f"core ({proofs.CORE_MARK} marks its open cells):", str(marked)]
    return "\n".join(lines)
