"""Cube and conquer (docs/search.md#cubes, docs/cli.md#cubes): the split is
the same in both engines (cubes, refutations, nodes, dead ends); the
cubes' verdicts combine to the unsplit verdict and count, checked against
a brute-force count on small grids, in both engines; a journal records
each verdict, and a resumed run redoes no cube it settled."""

from __future__ import annotations

import json
import random
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

from pybridge import cubes
from pybridge.layout import layout_of
from pybridge.model import Puzzle
from pybridge.options import CubeOptions, DictionaryOptions, PuzzleOptions, SearchOptions
from pybridge.service import journal
from pybridge.service.cubes import WHOLE, CubeTask, CubeVerdict, HereRunner, Runner, conquer
from pybridge.service.split import solve_split
from pybridge.solver import run

needs_prolog = pytest.mark.skipif(shutil.which("swipl") is None, reason="SWI-Prolog is missing")
ENGINES = ("python", pytest.param("prolog", marks=needs_prolog))


def small_grid(seed: int) -> Puzzle:
    """A small grid (up to 4x4, a few blocks) and a dictionary over three
    letters: many fills, or none, and quick to count by brute force."""
    rng = random.Random(seed)
    rows, cols = rng.randint(3, 4), rng.randint(3, 4)
    cells = [["." for _ in range(cols)] for _ in range(rows)]
    for _ in range(rng.randint(0, 2)):
        cells[rng.randrange(rows)][rng.randrange(cols)] = "#"
    words = {
        "".join(rng.choice("abc") for _ in range(n))
        for n in (2, 3, 4)
        for _ in range(rng.randint(8, 25))
    }
    grid = tuple("".join(row) for row in cells)
    return Puzzle(tuple(sorted(words)), grid, format="grid", mode="lexicon")


def brute_count(puzzle: Puzzle) -> int:
    """The fills of a lexicon puzzle, counted by trying every word in every
    site in site order (distinct words, crossings agreeing): independent of
    both engines."""
    layout = layout_of(puzzle)
    sites = [site.cells for site in layout.sites]
    letters: dict[tuple[int, int], str] = dict(layout.givens)
    used: set[str] = set()

    def fills(k: int) -> int:
        if k == len(sites):
            return 1
        total = 0
        for word in puzzle.words:
            if len(word) != len(sites[k]) or word in used:
                continue
            if any(letters.get(c, w) != w for c, w in zip(sites[k], word, strict=True)):
                continue
            written = [c for c in sites[k] if c not in letters]
            letters.update(zip(sites[k], word, strict=True))
            used.add(word)
            total += fills(k + 1)
            used.discard(word)
            for c in written:
                del letters[c]
        return total

    return fills(0)


def signature(found: cubes.Split) -> tuple[object, ...]:
    return (
        found.status,
        found.cubes,
        found.refuted,
        found.root_failed,
        found.nodes,
        found.backtracks,
    )


@needs_prolog
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("depth", [0, 1, 2, 3])
def test_the_split_is_the_same_in_both_engines(seed: int, depth: int) -> None:
    puzzle = small_grid(seed)
    python = cubes.split(puzzle, depth, engine="python", seed=seed % 4)
    prolog = cubes.split(puzzle, depth, engine="prolog", seed=seed % 4)
    assert signature(python) == signature(prolog)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("seed", range(10))
def test_the_cubes_combine_to_the_unsplit_verdict_and_count(engine: str, seed: int) -> None:
    puzzle = small_grid(seed)
    expected = brute_count(puzzle)
    whole = run(puzzle, engine=engine, count=True)
    assert whole.count == expected
    for depth in (1, 2):
        found = cubes.split(puzzle, depth, engine=engine)
        paths = [c.placements for c in found.cubes]
        assert len(set(paths)) == len(paths)  # no cube twice
        counted = conquer(
            puzzle,
            found,
            SearchOptions(engine=engine, count=True),
            CubeOptions(depth),
            HereRunner(),
        )
        assert counted.outcome.count == expected
        assert counted.outcome.status == whole.status
        one = conquer(puzzle, found, SearchOptions(engine=engine), CubeOptions(depth), HereRunner())
        assert one.outcome.status == whole.status
        if expected:
            assert one.outcome.solutions  # verified against the dictionary when combined
        else:
            assert one.outcome.proof is not None
            assert one.tally.refuted == len(found.cubes)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_split_into_n_cubes_goes_as_deep_as_it_needs(engine: str) -> None:
    puzzle = small_grid(3)
    shallow = cubes.split(puzzle, 1, engine=engine)
    found = cubes.split_into(puzzle, len(shallow.cubes) + 1, engine=engine)
    assert found.depth >= 2 or not found.cubes
    assert cubes.split_into(puzzle, 1, engine=engine).depth == 0


def test_a_cube_is_the_puzzle_with_its_words_as_givens() -> None:
    puzzle = Puzzle(("ab", "cd", "ac", "bd", "ad"), ("..", ".."), "grid", mode="lexicon")
    layout = layout_of(puzzle)
    found = cubes.split(puzzle, 1, engine="python")
    given = cubes.cube_puzzle(puzzle, layout, found.cubes[0].placements)
    assert given.grid != puzzle.grid
    for cube in found.cubes:
        given = cubes.cube_puzzle(puzzle, layout, cube.placements)
        words = [p.word for p in run(given, engine="python").solutions[0].placements]
        assert all(words[s] == w for s, w in cube.placements)


# ---------------------------------------------------------------- journal and resume


class Recording:
    """A Runner in this process that remembers every cube it was given, and
    raises KeyboardInterrupt (Ctrl-C) after `interrupt_after` verdicts."""

    def __init__(self, interrupt_after: int | None = None) -> None:
        self.running: dict[int, float] = {}
        self.slots = 1
        self.given: list[int] = []
        self.interrupt_after = interrupt_after

    def solve(
        self, puzzle: Puzzle, tasks: Sequence[CubeTask], stop: Callable[[], bool]
    ) -> Iterator[CubeVerdict]:
        here = HereRunner()
        for n, verdict in enumerate(here.solve(puzzle, tasks, stop)):
            if self.interrupt_after is not None and n == self.interrupt_after:
                raise KeyboardInterrupt
            self.given.append(verdict.number)
            yield verdict


def runner_of(runner: Runner) -> Callable[[], AbstractContextManager[Runner]]:
    @contextmanager
    def made() -> Iterator[Runner]:
        yield runner

    return made


def grid_file(tmp_path: Path, puzzle: Puzzle) -> tuple[str, str]:
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(puzzle.grid) + "\n", encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(puzzle.words) + "\n", encoding="utf-8")
    return str(grid), str(words)


def test_resume_after_an_interrupt_redoes_no_finished_cube(tmp_path: Path) -> None:
    puzzle = next(p for p in map(small_grid, range(50)) if brute_count(p) == 0)
    grid, words = grid_file(tmp_path, puzzle)
    source = PuzzleOptions(grid, dictionary=DictionaryOptions((words,)))
    search = SearchOptions(engine="python", count=True)
    path = str(tmp_path / "run.jsonl")
    options = CubeOptions(depth=2, journal=path)
    first = Recording(interrupt_after=3)
    interrupted = solve_split(source, search, options, runner=runner_of(first))
    assert interrupted.stopped == "interrupted"
    assert interrupted.outcome.status == "timeout"
    head, done = journal.read(path)
    assert sorted(done) == sorted(first.given)
    assert len(done) == 3
    assert len(head["cubes"]) == len(interrupted.split.cubes)
    second = Recording()
    resumed = solve_split(
        source, search, CubeOptions(depth=2, journal=path, resume=True), runner=runner_of(second)
    )
    assert not set(second.given) & set(done)  # nothing finished is done again
    assert sorted(second.given + first.given) == [c.number for c in resumed.split.cubes]
    assert resumed.outcome.status == "unsolvable"
    assert resumed.tally.from_journal == 3
    _, all_done = journal.read(path)
    assert len(all_done) == len(resumed.split.cubes)
    third = Recording()
    again = solve_split(
        source, search, CubeOptions(depth=2, journal=path, resume=True), runner=runner_of(third)
    )
    assert third.given == []
    assert again.outcome.status == "unsolvable"


def test_a_journal_of_another_search_is_refused(tmp_path: Path) -> None:
    puzzle = small_grid(1)
    grid, words = grid_file(tmp_path, puzzle)
    source = PuzzleOptions(grid, dictionary=DictionaryOptions((words,)))
    path = str(tmp_path / "run.jsonl")
    made = runner_of(Recording())
    solve_split(
        source, SearchOptions(engine="python"), CubeOptions(depth=1, journal=path), runner=made
    )
    from pybridge.errors import UsageError

    with pytest.raises(UsageError, match="exists"):
        solve_split(
            source, SearchOptions(engine="python"), CubeOptions(depth=1, journal=path), runner=made
        )
    with pytest.raises(UsageError, match="another search"):
        solve_split(
            source,
            SearchOptions(engine="python", seed=5),
            CubeOptions(depth=1, journal=path, resume=True),
            runner=made,
        )
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["journal"] == journal.KIND


def test_a_sample_runs_the_cubes_spread_over_the_split_and_estimates_the_whole() -> None:
    puzzle = next(
        p for p in map(small_grid, range(50)) if len(cubes.split(p, 2, engine="python").cubes) > 8
    )
    found = cubes.split(puzzle, 2, engine="python")
    runner = Recording()
    sampled = conquer(
        puzzle, found, SearchOptions(engine="python"), CubeOptions(2, sample=4), runner
    )
    n = len(found.cubes)
    assert runner.given == [0, n // 4, 2 * n // 4, 3 * n // 4]
    figures = sampled.estimate()
    assert figures is not None
    assert figures["cubes"] == 4
    assert figures["timeouts"] == 0
    assert float(str(figures["core_hours"])) >= 0
    assert sampled.to_json()["sample"] == figures


def test_the_time_the_runner_takes_to_start_counts_in_the_time_limit(tmp_path: Path) -> None:
    puzzle = next(p for p in map(small_grid, range(50)) if len(cubes.split(p, 1).cubes) > 2)
    grid, words = grid_file(tmp_path, puzzle)
    source = PuzzleOptions(grid, dictionary=DictionaryOptions((words,)))
    runner = Recording()

    @contextmanager
    def slow_to_start() -> Iterator[Runner]:  # a cluster that takes longer than the limit
        time.sleep(1.5)
        yield runner

    search = SearchOptions(engine="python", timeout=1.0)
    ended = solve_split(source, search, CubeOptions(depth=1), runner=slow_to_start)
    assert runner.given == []
    assert ended.stopped == "timeout"
    assert ended.outcome.status == "timeout"


# ---------------------------------------------------------------- the unsplit search's race


@pytest.mark.parametrize("fills", [True, False])
def test_with_two_slots_the_unsplit_search_races_the_cubes(tmp_path: Path, fills: bool) -> None:
    puzzle = next(
        p
        for p in map(small_grid, range(80))
        if (brute_count(p) > 0) == fills and len(cubes.split(p, 1).cubes) > 1
    )
    found = cubes.split(puzzle, 1, engine="python")
    runner = Recording()
    runner.slots = 2  # as a cluster of two: the unsplit search goes first, and answers
    path = str(tmp_path / "run.jsonl")
    search = SearchOptions(engine="python")
    with journal.opened(path, journal.header(journal.identity(puzzle, None, {}), found)) as w:
        raced = conquer(puzzle, found, search, CubeOptions(depth=1), runner, record=w.verdict)
    assert runner.given == [WHOLE]
    assert raced.whole is not None
    unsplit = run(puzzle, engine="python", strategy="wdeg")
    assert raced.whole.nodes == unsplit.stats.nodes
    assert raced.outcome.status == unsplit.status
    assert raced.tally.done == 0
    if fills:
        assert raced.stopped == "filled"
        assert raced.outcome.solutions[0].grid == unsplit.solutions[0].grid
    else:
        assert raced.stopped == "refuted"
        assert raced.outcome.proof is not None
        assert "the unsplit search" in raced.outcome.proof.reason
    _, done = journal.read(path)  # its answer is kept: a resumed run answers at once
    again = Recording()
    again.slots = 2
    resumed = conquer(puzzle, found, search, CubeOptions(depth=1), again, done)
    assert again.given == []
    assert resumed.outcome.status == unsplit.status


def test_no_race_with_one_slot_when_counting_sampling_or_asked_not_to() -> None:
    puzzle = next(p for p in map(small_grid, range(50)) if len(cubes.split(p, 1).cubes) > 2)
    found = cubes.split(puzzle, 1, engine="python")
    n = len(found.cubes)
    asked = [
        (1, SearchOptions(engine="python", count=True), CubeOptions(depth=1)),
        (2, SearchOptions(engine="python", count=True), CubeOptions(depth=1)),
        (2, SearchOptions(engine="python"), CubeOptions(depth=1, sample=n)),
        (2, SearchOptions(engine="python", count=True), CubeOptions(depth=1, whole=False)),
    ]
    for slots, search, options in asked:
        runner = Recording()
        runner.slots = slots
        conquest = conquer(puzzle, found, search, options, runner)
        assert runner.given == list(range(n))
        assert conquest.whole is None


def test_closing_a_cluster_that_times_out_does_not_lose_the_answer() -> None:
    from pybridge.service.cluster import DaskRunner

    class Stuck:  # a client (or cluster) whose closing times out, as on a starved machine
        closed = 0

        def close(self, timeout: float | None = None) -> None:
            Stuck.closed += 1
            raise TimeoutError

    runner = DaskRunner.__new__(DaskRunner)  # no cluster started: only its closing
    runner.client, runner.cluster = Stuck(), None
    runner.close()
    assert Stuck.closed == 1
