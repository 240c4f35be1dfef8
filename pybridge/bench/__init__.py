"""`crossword bench`: fill a suite of grids from a dictionary with every
engine x strategy under a time limit, and tabulate what came of each run.

A *cell* is one grid run once by one engine with one strategy (or by a peer
solver, Qxw, on the same grid in the same run). The dictionary is read and
indexed once per process, both timed once and reported apart; a run's
seconds are the search time of `solver.run` (the proofs included, the grid
and dictionary reading not). Every solved grid is checked with
pybridge.verify: a wrong one is a loud error. With several jobs the cells
run in worker processes, each with its own Prolog (pyswip is not
thread-safe) and its own copy of the words.

Its rooms: suite.py (the grids named), runner.py (the runs), qxw.py (the
peer), report.py (the table, CSV, JSON, the peers' results and the plot).
"""

from pybridge.bench.qxw import QXW, QXW_HINT, blank_grid, qxw_deck, qxw_grid, qxw_program
from pybridge.bench.report import (
    PEERS_DIR,
    Peer,
    Table,
    agreement_text,
    by_difficulty,
    cactus_lines,
    difficulty_agreement,
    read_peers,
    relevant_peers,
    report_json,
    table_fields,
    table_text,
    write_cactus,
    write_csv,
)
from pybridge.bench.runner import (
    DEFAULT_STRATEGIES,
    DEFAULT_TIMEOUT,
    Cell,
    Run,
    cells,
    index,
    runs,
    send_dictionary,
)
from pybridge.bench.suite import Grid, load_suite

__all__ = [
    "DEFAULT_STRATEGIES",
    "DEFAULT_TIMEOUT",
    "PEERS_DIR",
    "QXW",
    "QXW_HINT",
    "Cell",
    "Grid",
    "Peer",
    "Run",
    "Table",
    "agreement_text",
    "blank_grid",
    "by_difficulty",
    "cactus_lines",
    "cells",
    "difficulty_agreement",
    "index",
    "load_suite",
    "qxw_deck",
    "qxw_grid",
    "qxw_program",
    "read_peers",
    "relevant_peers",
    "report_json",
    "runs",
    "send_dictionary",
    "table_fields",
    "table_text",
    "write_cactus",
    "write_csv",
]
