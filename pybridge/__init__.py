"""Fill crossword frameworks by backtracking, in SWI-Prolog or in Python.

    >>> import pybridge
    >>> puzzle = pybridge.load("data/demo.dat")
    >>> print(next(pybridge.solve(puzzle)))

Importing this package never loads SWI-Prolog; the Prolog engine is loaded
the first time it is asked for.
"""

from pybridge.errors import CrosswordError, InputError, MissingDependency
from pybridge.model import Placement, Puzzle, Solution
from pybridge.readers import load
from pybridge.solver import ENGINES, STRATEGIES, Outcome, Stats, run, solve

__all__ = [
    "ENGINES",
    "STRATEGIES",
    "CrosswordError",
    "InputError",
    "MissingDependency",
    "Outcome",
    "Placement",
    "Puzzle",
    "Solution",
    "Stats",
    "load",
    "run",
    "solve",
]
