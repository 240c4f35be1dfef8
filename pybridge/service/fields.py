"""The options of the jobs that the command line and the JSON API both take,
each declared once: its name (`--name` on the command line, `"name"` in a
JSON body), its help, how its text is read, its choices and default, and
the options it excludes. pybridge.commands builds its argparse options from
these (commands.common.add_fields); pybridge.serve reads a JSON body with
json_values, which takes the same options by the same rules and gives the
same messages ("argument --timeout: expected a number of seconds, got
'soon'"), without argparse. Either way the result is a dict of values by
`Field.key`, which pybridge.service.requests turns into the option objects.

A reader takes the option's text and raises UsageError with the message
that follows "argument --name: ".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from pybridge.engines import ENGINES
from pybridge.errors import UsageError, shown
from pybridge.exchange import EXCHANGE_FORMATS
from pybridge.gridfiles import GRID_FORMATS
from pybridge.options import (
    DEFAULT_ATTEMPTS,
    DEFAULT_COMMAND_SECONDS,
    DEFAULT_MIN_LENGTH,
    DEFAULT_SYMMETRY,
    DEFAULT_TRIES,
    DEFAULT_TRY_TIMEOUT,
    MAXIMIZE_SECONDS,
    PATTERN_SECONDS,
    SYMMETRIES,
    Auto,
    Unlimited,
)
from pybridge.readers import FORMATS
from pybridge.scores import DEFAULT_SCORE, OBJECTIVES, parse_score, score_text
from pybridge.search.registry import (
    LEXICON_STRATEGIES,
    SEEDED_STRATEGIES,
    STRATEGIES,
    help_text,
)

# ---------------------------------------------------------------- readers


def whole_number(least: int) -> Callable[[str], int]:
    """A reader of a whole number of at least `least`."""

    def whole_number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise UsageError(f"expected a whole number, got {text!r}") from None
        if value < least:
            raise UsageError(f"must be at least {least}, got {value}")
        return value

    return whole_number


positive_int = whole_number(1)
seed_number = whole_number(0)


def seconds_or_auto(text: str) -> float | Auto:
    """make's --try-timeout: a positive number of seconds, or "auto"."""
    if text.strip().lower() == "auto":
        return "auto"
    return positive_seconds(text)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"expected a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise UsageError(f"must be a positive number of seconds, got {text!r}")
    return value


def time_limit(text: str) -> float | None:
    """A time limit: a positive number of seconds, or `none` (no limit)."""
    if text.strip().lower() == "none":
        return None
    return positive_seconds(text)


# The readers of pybridge.patterns and pybridge.difficulty, loaded when an
# option needs them: a command that takes no pattern pays nothing for them.


def parse_size(text: str) -> tuple[int, int]:
    from pybridge import patterns

    return patterns.parse_size(text)


def parse_blocks(text: str) -> int | float:
    from pybridge import patterns

    return patterns.parse_blocks(text)


def parse_range(text: str) -> tuple[float, float]:
    from pybridge import difficulty

    return difficulty.parse_range(text)


def score_number(text: str) -> Decimal:
    """A score (--min-score): a number, as in a scored list."""
    number = parse_score(text.strip())
    if number is None:
        raise UsageError(f"expected a score such as 40 or 0.5, got {text!r}")
    return number


# ---------------------------------------------------------------- fields


@dataclass(frozen=True)
class Field:
    """One option. `read` turns its text into its value (None: a switch,
    true when given); `repeat`: it may be given again, its values making a
    list; options of one `group` exclude each other; `api`: a JSON body may
    give it (else it is the command line's alone)."""

    name: str
    help: str
    read: Callable[[str], Any] | None = str
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    default: Any = None
    dest: str | None = None
    group: str | None = None
    repeat: bool = False
    many: bool = False  # it takes several values at once (--name A B), a list in JSON
    required: bool = False
    api: bool = True

    @property
    def key(self) -> str:
        """Where its value goes: the argparse `dest`, the key of the values."""
        return self.dest or self.name.replace("-", "_")

    @property
    def switch(self) -> bool:
        return self.read is None

    def initial(self) -> Any:
        """Its value when it is not given."""
        return False if self.switch else self.default


STRATEGY_HELP = help_text()

MAXIMIZE_HELP = (
    "find the best fill from a scored dictionary: min (its lowest word score) or sum "
    "(their total): on a grid, wdeg's fills at rising floors, then the valued strategy's "
    "branch and bound for the proof or the bound (--strategy valued: the branch and bound "
    "alone); each better fill is told on stderr as it is found, and whether the last is "
    "optimal; at most 60 s unless --timeout says otherwise"
)

SEED_HELP = (
    "random tie-breaks and shuffled domains; same seed, same answer in both engines "
    f"(an integer >= 0; for {', '.join(SEEDED_STRATEGIES)}; default: no randomness)"
)

ENCODING = Field("encoding", "the dictionaries' encoding (default: UTF-8, else cp1252, per file)")
BAN = Field(
    "ban",
    "never use this word, or the words of this file (one a line); repeat for more",
    metavar="WORD|FILE",
    repeat=True,
    api=False,
)
PREFER = Field(
    "prefer",
    "give the words of this file (one a line) a score bonus of 20 (added when missing); "
    "repeat for more",
    metavar="FILE",
    repeat=True,
    api=False,
)
NO_DEFAULT_BAN = Field(
    "no-default-ban",
    "with the shipped word list, keep its offensive words too (its default ban list, "
    "pybridge/wordlist/banned.txt, leaves them out)",
    None,
    api=False,
)
MIN_SCORE = Field(
    "min-score",
    "leave out the dictionary words scoring below N (a scored dictionary: "
    f"WORD;score lines; a word without a score counts {score_text(DEFAULT_SCORE)})",
    score_number,
    metavar="N",
)


def dictionary_fields(dict_help: str) -> tuple[Field, ...]:
    """The options of the dictionary a grid is filled from: shared by solve,
    check and make (whose --dict says what it is for)."""
    dictionary = Field("dict", dict_help, metavar="FILE", dest="dicts", repeat=True, api=False)
    return (dictionary, ENCODING, BAN, PREFER, NO_DEFAULT_BAN, MIN_SCORE)


ENGINE = Field(
    "engine",
    "search engine (default: prolog when SWI-Prolog loads, else python)",
    choices=ENGINES,
)
STRATEGY = Field("strategy", STRATEGY_HELP, choices=STRATEGIES)
SEED = Field("seed", SEED_HELP, seed_number, metavar="N")
TIMEOUT = Field(
    "timeout",
    f"give up after this many seconds (exit code 3; default: {DEFAULT_COMMAND_SECONDS:g}, "
    f"{MAXIMIZE_SECONDS:g} with --maximize; "
    "none: no limit)",
    time_limit,
    metavar="SECONDS",
    default=DEFAULT_COMMAND_SECONDS,
)
MAXIMIZE = Field("maximize", MAXIMIZE_HELP, choices=OBJECTIVES)
NODE_LIMIT = Field(
    "node-limit",
    "give up after this many nodes (words placed; exit code 3, as at the time limit): the "
    "same stop in both engines and on any machine; with --maximize, all its steps together; "
    "with --jobs, each stream's (default: none)",
    positive_int,
    metavar="N",
    api=False,
)
STATS = Field("stats", "print search statistics to stderr (always in json)", None, api=False)

# The puzzle of solve and check, and how to search it (the puzzle file
# itself, and --output, are the commands' own).
PUZZLE = (
    Field("words", "the word list of a fill-in puzzle", metavar="FILE", api=False),
    Field(
        "answers",
        "fill a .puz or .ipuz crossword with its own solution's entries, each placed once",
        None,
    ),
    *dictionary_fields(
        "fill the grid from this dictionary (lexicon mode: each site a different word, "
        "most unused); repeat to merge several"
    ),
    Field(
        "grid",
        "the N-th grid of an RP 2016 file (default: every grid in turn)",
        positive_int,
        metavar="N",
    ),
    Field(
        "format",
        "the puzzle format (default: sniffed); cs50, rp2016 and grid go with --dict, "
        "puz and ipuz with --answers or --dict",
        choices=FORMATS + GRID_FORMATS + EXCHANGE_FORMATS,
    ),
    ENGINE,
    STRATEGY,
    SEED,
    TIMEOUT,
)

# How many solutions solve finds, its objective, its statistics and streams.
SOLVE = (
    Field("all", "print every solution", None, group="how many"),
    Field("count", "count the solutions", None, group="how many"),
    Field(
        "limit",
        "print up to N solutions (default: 1)",
        positive_int,
        metavar="N",
        group="how many",
    ),
    Field(
        "unique",
        "stop at the second solution and say whether exactly one exists",
        None,
        group="how many",
    ),
    MAXIMIZE,
    NODE_LIMIT,
    STATS,
    Field(
        "jobs",
        "search with N streams at once, each in a process of its own (a portfolio of "
        "seeds): the first to fill the puzzle or prove it unsolvable wins, the others stop; "
        "which one wins depends on timing; the streams run the python engine when its search "
        "is compiled, unless --engine says otherwise (default: 1, one search, reproducible)",
        positive_int,
        metavar="N",
        default=1,
        api=False,  # the server runs one search per request (issue 39: it took and ignored it)
    ),
)


def split_spec(text: str) -> tuple[str, int]:
    """--split: DEPTH (or depth:DEPTH), decisions deep; or cubes:N, the
    shallowest split into at least N cubes."""
    kind, _, number = text.strip().rpartition(":")
    kind = kind or "depth"
    if kind not in ("depth", "cubes"):
        raise UsageError(f"expected DEPTH, depth:DEPTH or cubes:N, got {text!r}")
    try:
        value = int(number)
    except ValueError:
        raise UsageError(f"expected DEPTH, depth:DEPTH or cubes:N, got {text!r}") from None
    if value < (0 if kind == "depth" else 1):
        raise UsageError(f"a split {kind} must be at least {int(kind == 'cubes')}, got {value}")
    return kind, value


# Cube and conquer (solve --split): the command line's alone (a request of
# the workbench never starts a cluster).
CUBES = (
    Field(
        "split",
        "split the search into cubes: the wdeg search's first DEPTH decisions (depth:DEPTH), "
        "or the shallowest split into at least N cubes (cubes:N); each cube is solved on its "
        "own, on a Dask cluster (see --workers, --scheduler)",
        split_spec,
        metavar="DEPTH|cubes:N",
        api=False,
    ),
    Field(
        "workers",
        "with --split: worker processes of the local Dask cluster (default: 2)",
        positive_int,
        metavar="N",
        default=2,
        api=False,
    ),
    Field(
        "scheduler",
        "with --split: solve the cubes on the Dask cluster whose scheduler is at this "
        "address (tcp://HOST:8786) instead of a local one",
        metavar="ADDRESS",
        api=False,
    ),
    Field(
        "cube-timeout",
        "with --split: each cube's time limit (default: none; --timeout bounds the whole)",
        positive_seconds,
        metavar="SECONDS",
        api=False,
    ),
    Field(
        "journal",
        "with --split: record each cube's verdict in FILE as it comes (JSON lines)",
        metavar="FILE",
        api=False,
    ),
    Field(
        "sample",
        "with --split: solve only N cubes spread evenly over the split, every one of them, "
        "and estimate from their CPU time the core-hours of the whole",
        positive_int,
        metavar="N",
        api=False,
    ),
    Field(
        "resume",
        "with --split --journal FILE: go on with the journal's run, redoing no cube it settled",
        None,
        api=False,
    ),
    Field(
        "cubes-only",
        "with --split: give every worker to the cubes (by default, with 2 workers or more, one "
        "runs the unsplit search alongside them, and whichever answers first answers)",
        None,
        api=False,
    ),
)


# Whether long work shows a progress line on stderr (the JSON API takes
# them, and shows none).
PROGRESS = (
    Field(
        "progress",
        "show the progress line on stderr even when it is not a terminal "
        "(by default it is shown on a terminal, once the work has lasted half a second)",
        None,
        group="progress",
    ),
    Field("quiet", "no progress line (errors are still printed)", None, group="progress"),
)


def limit_count(text: str) -> int | Unlimited:
    """A limit (--max-words, --max-cheaters): a whole number, or "any"."""
    if text.strip().lower() == "any":
        return "any"
    return whole_number(0)(text)


def pattern_fields(default_blocks: str) -> tuple[Field, ...]:
    """The options of a pattern: shared by grid and make (whose default
    number of blocks differs)."""
    return (
        Field(
            "size", "rows x columns (default: 15x15)", parse_size, metavar="RxC", default=(15, 15)
        ),
        Field(
            "blocks",
            "blocked cells: a count, or a fraction below 1 of the cells (default: "
            f"{default_blocks}; rounded to a count the symmetry can make)",
            parse_blocks,
            metavar="N|F",
        ),
        Field(
            "symmetry",
            "rot180 and rot90: rotations (rot90 needs a square); mirror-lr and mirror-tb: "
            f"reflections left-right and top-bottom (default: {DEFAULT_SYMMETRY}, none with --rp)",
            choices=SYMMETRIES,
        ),
        Field(
            "min-length",
            f"shortest word (default: {DEFAULT_MIN_LENGTH}, American style; 2 for RP style)",
            whole_number(2),
            metavar="N",
        ),
        Field(
            "allow-unchecked",
            "let an open cell be in one word only (default: every cell in two)",
            None,
        ),
        Field("max-length", "longest word (default: any)", whole_number(2), metavar="N"),
        Field(
            "max-words",
            "most words (default, with words of 3 letters or more all checked: by the size, "
            "78 for 15x15, 140 for 21x21; `any`: no limit)",
            limit_count,
            metavar="N|any",
        ),
        Field(
            "max-cheaters",
            "most cheater blocks, blocks that do not change the word count (default, with "
            "words of 3 letters or more all checked: by the size, 4 for 15x15, 8 for 21x21; "
            "`any`: no limit)",
            limit_count,
            metavar="N|any",
        ),
        Field(
            "rp",
            "RP 2016 mode: exactly N random blocks, no rules (default symmetry: none)",
            None,
        ),
        Field(
            "attempts",
            f"attempts per pattern before giving up (default: {DEFAULT_ATTEMPTS})",
            positive_int,
            metavar="N",
            default=DEFAULT_ATTEMPTS,
        ),
    )


# The theme entries of grid and make (the file is the command line's alone).
THEME = (
    Field(
        "theme",
        "place these entries first, in symmetric slots of their lengths, then fill the rest "
        "(repeat, or give several)",
        str,
        metavar="WORD",
        repeat=True,
        many=True,
    ),
    Field(
        "theme-file",
        "the theme entries of this file, one per line (UTF-8)",
        metavar="FILE",
        api=False,
    ),
)

# `crossword grid` and POST /api/pattern (--output is the command's own).
GRID = (
    *pattern_fields("1/6"),
    *THEME,
    Field(
        "timeout",
        f"give up after this many seconds (exit code 3; default: {PATTERN_SECONDS:g})",
        positive_seconds,
        metavar="SECONDS",
        default=PATTERN_SECONDS,
    ),
    Field(
        "seed",
        "the same seed makes the same pattern (default: a random one, told on stderr)",
        seed_number,
        metavar="N",
    ),
)

# `crossword make` (its --output is the command's own).
MAKE = (
    *dictionary_fields(
        "fill from this dictionary (repeat to merge several; default: the shipped word list)"
    ),
    *pattern_fields("1/6 from 13x13 up, as `grid`'s; 0.2 below, for more patterns"),
    *THEME,
    Field(
        "seed",
        "the first pattern's seed, the others drawn from it (default: a random one); the same seed "
        "makes the same crossword unless a fill's time runs out",
        seed_number,
        metavar="N",
    ),
    Field(
        "difficulty",
        "fill only patterns whose estimated difficulty is in this range (e.g. 2:2.5, "
        ":2.5, 3:); others are passed over",
        parse_range,
        metavar="LOW:HIGH",
    ),
    Field(
        "tries",
        f"patterns to try filling (default: {DEFAULT_TRIES})",
        positive_int,
        metavar="N",
        default=DEFAULT_TRIES,
    ),
    Field(
        "try-timeout",
        "seconds for each fill, then the next pattern (default: auto, "
        f"{DEFAULT_TRY_TIMEOUT:g} s of processor time up to 15x15, growing with the square of "
        "the cells: 7.7 s at 21x21; a loaded machine gives the fill more time on the clock, "
        "up to 10 times)",
        seconds_or_auto,
        metavar="SECONDS|auto",
        default="auto",
    ),
    Field(
        "timeout",
        f"time for the whole command (default: {DEFAULT_COMMAND_SECONDS:g}; none: no limit)",
        time_limit,
        metavar="SECONDS",
        default=DEFAULT_COMMAND_SECONDS,
    ),
    ENGINE,
    replace(STRATEGY, choices=LEXICON_STRATEGIES),
    MAXIMIZE,
    Field(
        "count",
        "make a batch of N crosswords on a Dask cluster (see --workers, --scheduler), each "
        "verified, written to --folder with an index",
        positive_int,
        metavar="N",
        api=False,
    ),
    Field("folder", "with --count: the folder to write the batch to", metavar="DIR", api=False),
    Field(
        "workers",
        "with --count: worker processes of the local Dask cluster (default: 2)",
        positive_int,
        metavar="N",
        default=2,
        api=False,
    ),
    Field(
        "scheduler",
        "with --count: use the Dask cluster whose scheduler is at this address (tcp://HOST:8786)",
        metavar="ADDRESS",
        api=False,
    ),
)

# The clues of a filled grid and what it publishes beside them (solve, make).
DETAILS = tuple(
    Field(
        name, f"{what} written with the puzzle (.puz, ipuz, JSON, PDF)", metavar="TEXT", api=False
    )
    for name, what in (
        ("title", "the title"),
        ("author", "the author"),
        ("copyright", "the copyright line"),
        ("notes", "the notes"),
    )
)
CLUES = Field(
    "clues",
    "the clues: a clue file of WORD<TAB>clue lines (several lines per word allowed); they come "
    "before the puzzle file's own clues and suggestions",
    metavar="FILE",
    api=False,
)
SOLVE_CLUES = (
    CLUES,
    Field(
        "suggest",
        "suggest a clue from WordNet for each entry without one (a start for the "
        "constructor, not finished clues)",
        None,
        api=False,
    ),
    *DETAILS,
)
MAKE_CLUES = (
    CLUES,
    Field(
        "no-suggest",
        "suggest no clues (by default each entry without a clue gets one from WordNet)",
        None,
        api=False,
    ),
    *DETAILS,
)


def dpi_number(text: str) -> int:
    """A PNG's resolution: a whole number of dots per inch, 10 to 2400."""
    value = whole_number(10)(text)
    if value > 2400:
        raise UsageError(f"must be at most 2400 dots per inch, got {value}")
    return value


PAPER = Field(
    "paper",
    "the PDF's paper (default: letter)",
    choices=("letter", "a4"),
    default="letter",
    api=False,
)
DPI = Field(
    "dpi",
    "a PNG's resolution in dots per inch, written in the file: its cells are 7 mm wide on "
    "paper at any resolution (default: 144)",
    dpi_number,
    metavar="N",
    api=False,
)

# ---------------------------------------------------------------- a JSON body


def json_values(
    fields: Sequence[Field], body: Mapping[str, Any], route: str, other: frozenset[str]
) -> dict[str, Any]:
    """The values of `fields` that a JSON body gives (every key but those
    of `other`), read as the command line reads the same options: `"timeout":
    5` as `--timeout=5`, `"count": true` as `--count`; false or null as not
    given. UsageError for a key that is not an option of `route`, and with
    the command line's message for a value it would refuse."""
    by_name = {field.name: field for field in fields if field.api}
    given: list[tuple[Field, str | None]] = []
    for key, value in body.items():
        if key in other:
            continue
        field = by_name.get(key)
        if field is None:
            known = ", ".join(sorted({*by_name, *other}))
            raise UsageError(f"unknown key {shown(repr(key))}: {route} takes {known}")
        if value is None or value is False:
            continue
        if value is True:
            given.append((field, None))
        elif isinstance(value, (int, float, str)):
            given.append((field, str(value)))
        elif field.many and isinstance(value, list) and all(isinstance(v, str) for v in value):
            given.extend((field, text) for text in value)
        else:
            raise UsageError(f'"{key}" must be a number, a string, true or false')
    values = {field.key: field.initial() for field in fields}
    seen: dict[str, Field] = {}
    for field, text in given:
        value, before = _value(field, text), values[field.key]
        values[field.key] = [*before, *value] if field.repeat and before else value
        if field.group is not None:
            other_field = seen.setdefault(field.group, field)
            if other_field is not field:
                raise UsageError(
                    f"argument --{field.name}: not allowed with argument --{other_field.name}"
                )
    return values


def _value(field: Field, text: str | None) -> Any:
    """The value of `field` given `text` (None: given alone), as argparse
    would take `--name=text` (or `--name`)."""
    where = f"argument --{field.name}"
    if field.switch:
        if text is not None:
            raise UsageError(f"{where}: ignored explicit argument {text!r}")
        return True
    if text is None:
        raise UsageError(f"{where}: expected one argument")
    assert field.read is not None
    try:
        value = field.read(text)
    except UsageError as err:
        raise UsageError(f"{where}: {err}") from None
    if field.choices is not None and value not in field.choices:
        choices = ", ".join(map(repr, field.choices))
        raise UsageError(f"{where}: invalid choice: {value!r} (choose from {choices})")
    return [value] if field.repeat else value
