"""The `solve` command: fill one puzzle (or each grid of a file) and print
its solutions, count them, or say whether there is exactly one."""

from __future__ import annotations

import argparse
import sys

from pybridge.commands.common import (
    EXCHANGES,
    EXIT_BY_STATUS,
    EXIT_INTERRUPTED,
    PICTURES,
    SHEETS,
    Terminal,
    add_fields,
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
from pybridge.errors import UsageError
from pybridge.options import CubeOptions, OutputOptions, SearchOptions
from pybridge.render import blocks_text, json_document
from pybridge.scores import ACCEPTABLE, Score, score_text
from pybridge.service import fields, jobs
from pybridge.service.clueing import Clueing, clueing, publish
from pybridge.service.jobs import Solved
from pybridge.service.requests import (
    clue_options,
    cube_options,
    output_options,
    puzzle_options,
    search_options,
)
from pybridge.solver import Outcome, Stats
from pybridge.wording import plural

SOLVE_EPILOG = """\
exit codes:
  0    solved: at least one solution (with --count: a count of at least 1)
  1    proven unsolvable: a proof layer (length, no-fit, hall, propagation)
       or the exhausted search shows it (the reason is printed)
  2    bad input, bad usage or a missing dependency (the message is on stderr)
  3    the time limit (--timeout), or the node limit (--node-limit), was
       reached before the search finished
  4    an internal error: an engine failed or the program has a bug
       (the message is on stderr; CROSSWORD_DEBUG=1 shows the traceback)
  130  interrupted (Ctrl-C)
  141  the output pipe was closed early (e.g. by `| head`)

Results and verdicts go to stdout; errors, notices and --stats to stderr.
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser], summary: str) -> None:
    solve = commands.add_parser(
        "solve",
        help=summary,
        description="Fill a P-99 or fill-in puzzle; print its solutions.",
        epilog=SOLVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_puzzle_arguments(solve)
    add_fields(solve, fields.SOLVE)
    add_fields(solve, (*fields.SOLVE_CLUES, fields.PAPER, fields.DPI))
    add_fields(solve, fields.CUBES)
    add_fields(solve, fields.PROGRESS)
    solve.set_defaults(handler=solve_command)


def solve_command(args: argparse.Namespace) -> int:
    values = vars(args)
    output = output_options(values)
    check_picture_path(args)
    search = search_options(values)
    told = output.kind != "json"  # JSON says nothing before its document
    listener = Terminal(args, search.maximize if told else None, headers=told)
    how = clueing(clue_options(values), False, "solve", listener)
    cubes = cube_options(values)
    if cubes is not None:
        if search.node_limit is not None:
            raise UsageError("--node-limit counts one search's nodes: leave it out with --split")
        return split_command(values, output, search, cubes, listener, how)
    solved = jobs.solve(puzzle_options(values), search, listener)
    limits = (search.timeout, search.node_limit)
    return worst([show_solved(each, output, search.maximize, *limits, how) for each in solved])


def split_command(
    values: dict[str, object],
    output: OutputOptions,
    search: SearchOptions,
    cubes: CubeOptions,
    listener: Terminal,
    how: Clueing,
) -> int:
    """solve --split: the answer as solve prints it, then the cubes' tally
    (and what a proof rests on); in JSON, solve's document with `cubes`."""
    from pybridge.progress import interruptible
    from pybridge.service.cubes import cube_lines
    from pybridge.service.split import solve_split

    with interruptible():  # Ctrl-C stops the cubes: the answer tells the verdicts so far
        conquest = solve_split(puzzle_options(values), search, cubes, listener)
    puzzle, outcome = conquest.puzzle, conquest.outcome
    if output.kind == "json":
        document = {**json_document(puzzle, outcome, False), "cubes": conquest.to_json()}
        out_json(document)
    elif outcome.status == "timeout":  # no verdict: say why, and what the cubes came to
        counted = [] if outcome.count is None else [f"{plural(outcome.count, 'solution')} so far"]
        out("\n".join([*counted, f"no verdict: {_unsettled(conquest.stopped, search.timeout)}"]))
        out("\n".join(cube_lines(conquest)))
    else:
        show_solved(Solved(puzzle, outcome, False), output, None, search.timeout, None, how)
        out("\n".join(cube_lines(conquest)))
    if conquest.stopped == "interrupted":
        return EXIT_INTERRUPTED
    return EXIT_BY_STATUS[outcome.status]


def _unsettled(stopped: str | None, timeout: float | None) -> str:
    if stopped == "interrupted":
        return "interrupted (Ctrl-C) before every cube was settled"
    if stopped == "timeout" and timeout is not None:
        return f"time limit of {timeout:g} s reached before every cube was settled"
    return "some cubes reached their time limit (--cube-timeout) or lost their workers"


def show_solved(
    solved: Solved,
    output: OutputOptions,
    maximize: str | None,
    timeout: float | None,
    node_limit: int | None = None,
    how: Clueing | None = None,
) -> int:
    """Print (or write) one puzzle's answer as --output says; its exit code.
    `how`: the clues its solutions get (--clues, --suggest, --title...);
    `timeout` and `node_limit` the limits the search had, for the verdict."""
    puzzle, outcome, many = solved.puzzle, solved.outcome, solved.many
    kind, path = output.kind, output.path
    if how is not None and (how.asked or kind in SHEETS):
        outcome = publish(outcome, how)
        if how.asked and kind != "json":
            from pybridge.commands.publish import tell_clues  # the sheets load when used

            tell_clues(outcome)
    scored = score_lines(outcome, maximize, node_limit)
    if kind == "json":
        out_json(json_document(puzzle, outcome, many))
    elif kind in EXCHANGES + SHEETS:
        assert path is not None
        target = numbered(path, puzzle) if many else path
        if kind in SHEETS and outcome.solutions:
            from pybridge.commands.publish import write_pdf

            first = outcome.solutions[0]
            out(write_pdf(first.puzzle, first.grid, target, output.paper))
        else:
            out(write_crossword(kind, puzzle, outcome, target))
        verdict = verdict_lines(outcome, timeout, node_limit)  # a count or `unique` too
        if lines := scored + verdict:
            out("\n".join(lines))
    elif kind in PICTURES:
        assert path is not None
        drawn = draw(puzzle, outcome, numbered(path, puzzle) if many else path, output.dpi)
        out("\n".join(drawn_lines(drawn) + scored + verdict_lines(outcome, timeout, node_limit)))
    else:
        text = outcome_text(outcome, timeout, kind == "blocks", maximize, node_limit)
        out(text)
    if output.stats and kind != "json":
        print(stats_text(outcome.stats), file=sys.stderr)
    return EXIT_BY_STATUS[outcome.status]


def verdict_lines(
    outcome: Outcome, timeout: float | None, node_limit: int | None = None
) -> list[str]:
    found = outcome.count if outcome.count is not None else len(outcome.solutions)
    if outcome.status == "timeout":
        after = f"reached after {plural(found, 'solution')}"
        if _stopped_by(outcome, node_limit):
            assert node_limit is not None
            return [f"node limit of {plural(node_limit, 'node')} {after}"]
        if timeout is None:  # a limit of the search's own (a step's), not the user's
            return [f"the search stopped after {plural(found, 'solution')}, before it ended"]
        return [f"time limit of {timeout:g} s {after}" + default_bound(timeout)]
    lines = [] if outcome.count is None else [plural(found, "solution")]
    if outcome.unique is not None:
        lines.append(
            "unique: exactly one solution"
            if outcome.unique
            else "not unique: at least two solutions (both shown)"
        )
    if outcome.status == "unsolvable":
        lines.append(f"no solution: {outcome.reason}")
    return lines


def outcome_text(
    outcome: Outcome,
    timeout: float | None,
    blocks: bool = False,
    maximize: str | None = None,
    node_limit: int | None = None,
) -> str:
    """What `solve` prints on stdout: the solutions, a blank line between two,
    then the score line, the count and the verdict, if any."""
    show = blocks_text if blocks else str
    parts = [show(solution) for solution in outcome.solutions]
    verdict = score_lines(outcome, maximize, node_limit) + verdict_lines(
        outcome, timeout, node_limit
    )
    if verdict:
        parts.append("\n".join(verdict))
    return "\n\n".join(parts)


SCORES = ("min", "sum", "mean")


def score_lines(outcome: Outcome, maximize: str | None, node_limit: int | None = None) -> list[str]:
    """The score line of the first solution (when the words have scores),
    and with --maximize whether it is optimal, or how good a fill may be."""
    score = outcome.score
    if score is None:
        return []
    parts = []
    scored = [v for v in (score.min, score.sum, score.mean) if v is not None]
    if len(scored) == len(SCORES):
        values = [f"{name} {score_text(v)}" for name, v in zip(SCORES, scored, strict=True)]
        parts.append("score: " + ", ".join(values))
    if maximize is not None and score.optimal is not None:
        limit = "the node limit" if _stopped_by(outcome, node_limit) else "the time limit"
        parts.append(_optimality(score, maximize, limit))
    lines = [" ".join(parts)] if parts else []
    return quality_lines(score) + lines  # the score line last, as it always was


def quality_lines(score: Score) -> list[str]:
    """What a constructor reads of a fill: its entries, how many fall below
    the acceptable line, and its lowest-scored entries."""
    if score.words is None:
        return []
    figures = f"entries: {score.words}"
    if score.below is not None:
        figures += f", {score.below} below the acceptable line ({score_text(ACCEPTABLE)})"
    lowest = ", ".join(f"{word} {score_text(value)}" for word, value in score.lowest)
    return [f"{figures}; lowest: {lowest}"]


def _optimality(score: Score, objective: str, limit: str) -> str:
    if score.optimal:
        return f"(optimal {objective}: proved)"
    if score.bound is None:
        return f"(not proved optimal: {limit} was reached)"
    if score.min is None:
        return f"score: no fill found yet ({objective} at most {score_text(score.bound)})"
    bound = score_text(score.bound)
    return f"({objective} at most {bound}: {limit} was reached before a proof)"


def _stopped_by(outcome: Outcome, node_limit: int | None) -> bool:
    """Whether the node limit (not the clock) ended a search that timed out."""
    return (
        outcome.status == "timeout"
        and node_limit is not None
        and (outcome.stats.nodes >= node_limit)
    )


def stats_text(stats: Stats) -> str:
    return (
        f"stats: engine={stats.engine} strategy={stats.strategy} nodes={stats.nodes} "
        f"backtracks={stats.backtracks} seconds={stats.seconds:.6f}"
    )
