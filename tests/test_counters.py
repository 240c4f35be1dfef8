"""The Python engine's counters keep a time limit however slow a node is.

The clock is faked (kernel.time replaced), so nothing here waits or depends
on the speed of the machine.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pybridge.readers import load
from pybridge.search import kernel
from pybridge.solver import run

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo.dat"  # 11 nodes with mrv


class SlowClock:
    """A perf_counter that moves `step` seconds each time it is read, as if
    every node took that long."""

    def __init__(self, start: float, step: float) -> None:
        self.now = start
        self.step = step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


def test_the_first_node_after_the_deadline_stops_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = SlowClock(0.0, 0.0)
    monkeypatch.setattr(kernel, "time", clock)
    counters = kernel.Counters(deadline=1.0)
    counters.node()
    clock.now = 1.5  # one slow node later
    with pytest.raises(kernel.SearchTimeout):
        counters.node()
    assert (counters.nodes, counters.backtracks) == (2, 0)


def test_no_deadline_never_reads_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SlowClock(0.0, 1000.0)
    monkeypatch.setattr(kernel, "time", clock)
    counters = kernel.Counters()
    for _ in range(1000):
        counters.node()
    assert counters.nodes == 1000
    assert clock.now == 0.0


def test_a_search_with_slow_nodes_stops_at_its_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    puzzle = load(DEMO)
    # Each node seems to take 0.3 s: a 1 s limit allows three or four of them.
    monkeypatch.setattr(kernel, "time", SlowClock(time.perf_counter(), 0.3))
    outcome = run(puzzle, engine="python", strategy="mrv", timeout=1.0)
    assert outcome.status == "timeout"
    assert outcome.stats.nodes <= 4


def test_a_node_limit_stops_at_its_node_counting_nothing() -> None:
    """The node limit, as kernel.pl's count_node keeps it: the node past it
    raises SearchTimeout and is not counted."""
    counters = kernel.Counters(most_nodes=2)
    counters.node()
    counters.node()
    with pytest.raises(kernel.SearchTimeout):
        counters.node()
    assert counters.nodes == 2


def test_a_search_stops_at_its_node_limit() -> None:
    puzzle = load(DEMO)
    whole = run(puzzle, engine="python", strategy="mrv", prove=False)
    assert whole.status == "solved"
    assert whole.stats.nodes == 11
    for most in range(11):
        cut = run(puzzle, engine="python", strategy="mrv", prove=False, node_limit=most)
        assert (cut.status, cut.stats.nodes) == ("timeout", most)
    enough = run(puzzle, engine="python", strategy="mrv", prove=False, node_limit=11)
    assert (enough.status, enough.stats.nodes) == ("solved", 11)
