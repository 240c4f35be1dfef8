"""The Prolog engine: the one door to SWI-Prolog (via pyswip), taking the
same Request and giving the same Result as the Python engine
(pybridge.search.engine).

Only terms we write ourselves (integers, fixed atoms) are read as Prolog
text; the puzzle crosses as three Prolog strings made through the foreign
interface (see crossword:solve/8), and a dictionary for wdeg and valued as
one more, with its masks beside it as a list of integers put whole through
GMP (arcs:load_dictionary_text/3, once per process), so no puzzle text is
ever read as Prolog source, and one call loads, searches and forgets the
puzzle. pyswip is imported on first use, so `import pybridge` never loads
libswipl. pyswip cannot serve two threads at once; a lock makes callers
take turns.

Its rooms, each using those above it:

    session.py  the engine of the process: start, lock, threads, stack
                limit, Ctrl-C (interrupts), whom a search's progress is told
    ffi.py      queries through the foreign interface, below pyswip's API
    wire.py     the text and terms that cross, and the answers split back
    engine.py   the engine: search, the best fill, dictionaries, call
"""

from pybridge.bridge.engine import (
    call,
    call_wdeg,
    load_dictionary,
    load_ranked,
    preload,
    revision_form,
    search,
    strategies,
)
from pybridge.bridge.session import INSTALL_HINT, available
from pybridge.bridge.wire import dictionary_key

__all__ = [
    "INSTALL_HINT",
    "available",
    "call",
    "call_wdeg",
    "dictionary_key",
    "load_dictionary",
    "load_ranked",
    "preload",
    "revision_form",
    "search",
    "strategies",
]
