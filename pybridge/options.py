"""The options of a job, as typed values: built once per command (from the
command line by pybridge.commands, from a JSON body by pybridge.serve, by
pybridge.service.requests in both cases) and passed down whole, instead of
one keyword argument per option through every signature.

Each class is a frozen dataclass whose defaults are the commands' defaults;
a field None means "the default, chosen where it is used" (the engine, the
strategy, a seed drawn at random...). They hold plain values only and check
nothing: the library checks a value where it uses it, with the message the
command line has always given (so the order of the checks, and with it the
message a bad request gets, is the library's, whoever built the options).

Adding an option end to end (docs/api.md#options): a field here, an entry in
pybridge.service.fields (its flag, its help and how its text is read: the
command line and the JSON API then both take it), the line of
pybridge.service.requests that sets the field, and the code that reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from pybridge.scores import Objective

Symmetry = Literal["none", "rot180", "rot90", "mirror-lr", "mirror-tb"]
SYMMETRIES: tuple[Symmetry, ...] = ("none", "rot180", "rot90", "mirror-lr", "mirror-tb")
Unlimited = Literal["any"]  # a limit lifted
Auto = Literal["auto"]  # make's time per fill: by the size, in processor time

DEFAULT_SYMMETRY: Symmetry = "rot180"
DEFAULT_ATTEMPTS = 100  # attempts per pattern before giving up
PATTERN_SECONDS = 60.0  # the commands' time limit for one pattern (the API's: none)
DEFAULT_TRIES = 10  # patterns make tries to fill
# processor seconds per fill of a 15x15 by default (more for a bigger grid:
# construct.try_seconds); most 15x15 fills that succeed take well under one
DEFAULT_TRY_TIMEOUT = 2.0
# make's blocks: None, by the size (construct.make_blocks): grid's 1/6 from
# 13x13 up, whose newspaper limits it meets (docs/benchmarks.md#newspaper-patterns)
DEFAULT_MAKE_BLOCKS: float | None = None
# The time limit of the long commands when none is given (issue 34: `solve
# --maximize` of a 5x5 ran 789 s, `check` 11 minutes): solve, check, make
# and wordsearch make stop there with exit code 3 and what they have
# (docs/cli.md#default-bounds); `--timeout none` lifts it. The library
# (pybridge.run) has none.


class DefaultSeconds(float):
    """A time limit nobody asked for: the command's default, told apart from
    the same number given on purpose (a verdict line names the default, and
    --maximize's own default replaces it)."""


DEFAULT_COMMAND_SECONDS = DefaultSeconds(300.0)
# --maximize's time limit when none is given, the library's too (a best fill
# is an anytime answer: the best so far is worth having in a minute)
MAXIMIZE_SECONDS = DefaultSeconds(60.0)


@dataclass(frozen=True)
class SearchOptions:
    """How to search one puzzle (pybridge.run): the engine and strategy
    (None: the defaults), the seed, the time limit in seconds, how many
    solutions (`limit`, None for all; `count` counts them all; `unique`
    stops at the second), whether the cheap proofs run first, the quality
    floor and objective of a scored dictionary, the streams of a
    portfolio (`jobs`, `crossword solve --jobs`), and the node limit
    (`node_limit`: the most nodes the search counts, None: no limit;
    reached, it ends as at the time limit; an ascent's steps share it)."""

    engine: str | None = None
    strategy: str | None = None
    seed: int | None = None
    timeout: float | None = None
    limit: int | None = 1
    count: bool = False
    unique: bool = False
    prove: bool = True
    min_score: Decimal | None = None
    maximize: Objective | None = None
    jobs: int = 1
    node_limit: int | None = None


@dataclass(frozen=True)
class DictionaryOptions:
    """The dictionaries a grid is filled from (merged, in order), and their
    encoding (None: UTF-8, else cp1252, per file); the words never to use
    (`ban`: words, or files of words) and files of words to prefer
    (`prefer`: a score bonus; pybridge.curation); `default_ban`: with the
    shipped list (no `paths`), leave out its default ban list's offensive
    words too (pybridge.wordlist.BANNED_PATH); `banned` and `preferred`:
    words (never files) to ban and prefer too, as a server's request gives
    them."""

    paths: tuple[str, ...] = ()
    encoding: str | None = None
    ban: tuple[str, ...] = ()
    prefer: tuple[str, ...] = ()
    default_ban: bool = True
    banned: tuple[str, ...] = ()
    preferred: tuple[str, ...] = ()


@dataclass(frozen=True)
class PuzzleOptions:
    """The puzzle a solve or check reads: its file, and either a fill-in
    word list (`words`), its own answers (`answers`, a .puz or ipuz file),
    or dictionaries to fill it from; `grid` picks one grid of an RP 2016
    file, `format` overrides the sniffing."""

    file: str
    words: str | None = None
    answers: bool = False
    dictionary: DictionaryOptions = DictionaryOptions()
    grid: int | None = None
    format: str | None = None


@dataclass(frozen=True)
class Rules:
    """What a grid pattern must obey (pybridge.patterns): words of
    `min_length` letters or more (and at most `max_length`), every open cell
    in two words when `checked`, at most `max_words` words and `max_cheaters`
    cheater blocks (None: the newspaper limits of the grid's size, "any": no
    limit). The RP 2016 mode obeys none."""

    min_length: int = 3
    checked: bool = True
    max_length: int | None = None
    max_words: int | Unlimited | None = None  # None: by the size (patterns.limits_of)
    max_cheaters: int | Unlimited | None = None  # cheater blocks; None: by the size


DEFAULT_MIN_LENGTH = Rules().min_length


@dataclass(frozen=True)
class PatternOptions:
    """A random grid pattern (`crossword grid`): the size, the blocked cells
    (a count, or a fraction below 1 of the cells; None: the default), the
    symmetry (None: rot180, none with `rp`), the rules (None: the default
    rules; with `rp`, none at all), the seed (None: drawn), the attempts
    and the time limit in seconds."""

    rows: int = 15
    cols: int = 15
    blocks: int | float | None = None
    symmetry: Symmetry | None = None
    rules: Rules | None = None
    rp: bool = False
    seed: int | None = None
    attempts: int = DEFAULT_ATTEMPTS
    timeout: float | None = None
    theme: tuple[str, ...] = ()  # entries placed first, in symmetric slots


@dataclass(frozen=True)
class MakeOptions:
    """A crossword from nothing (`crossword make`): the patterns to try
    (their seed the first pattern's, then the next ones), how each is
    filled (`search`: the engine, strategy, min score and objective; its
    timeout is the whole command's), the fills to try, the time of each
    ("auto": processor time by the size, construct.try_seconds), and the
    range of difficulty a pattern must fall in."""

    pattern: PatternOptions = field(
        default_factory=lambda: PatternOptions(blocks=DEFAULT_MAKE_BLOCKS)
    )
    search: SearchOptions = SearchOptions()
    tries: int = DEFAULT_TRIES
    try_timeout: float | Auto | None = "auto"  # seconds on the clock; None: no limit
    difficulty: tuple[float, float] | None = None


@dataclass(frozen=True)
class BenchOptions:
    """How `crossword bench` runs each cell of a suite: the time limit of a
    run in seconds, the seed, the cells run at once (`jobs`) or the streams
    of each (`portfolio`, one cell at a time), and the objective of a best
    fill (`maximize`)."""

    timeout: float = 10.0
    seed: int | None = None
    jobs: int = 1
    portfolio: int = 1
    maximize: Objective | None = None


OutputKind = Literal["text", "blocks", "json", "png", "svg", "puz", "ipuz", "pdf"]
Paper = Literal["letter", "a4"]


@dataclass(frozen=True)
class OutputOptions:
    """What a command prints or writes: `kind` (text, blocks, json, or a
    file: png, svg, puz, ipuz, pdf) and its `path`, whether the search
    statistics go to stderr, a PDF's `paper` and a PNG's `dpi` (None: the
    pictures' default)."""

    kind: OutputKind = "text"
    path: str | None = None
    stats: bool = False
    paper: Paper = "letter"
    dpi: int | None = None


@dataclass(frozen=True)
class ClueOptions:
    """Where a filled grid's clues come from (pybridge.clues): a clue file
    (`clues`), suggestions from WordNet (`suggest`; None: the command's
    default, on for make, off for solve), and the title, author, copyright
    and notes to publish (None: the puzzle's own, if any)."""

    clues: str | None = None
    suggest: bool | None = None
    title: str | None = None
    author: str | None = None
    copyright: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class WordSearchOptions:
    """A word search to make (`crossword wordsearch make`): the word list
    file, the shape (`size` as text, or a `mask` file; None: chosen from the
    words), the directions (a level or a list), whether words may share
    cells, words to avoid (a file), the filler's letters, the seed, the
    engine and the time limit in seconds."""

    words: str
    size: str | None = None
    mask: str | None = None
    directions: str = "hard"  # all 8 (pybridge.wordsearch.model.LEVELS)
    overlap: Literal["allow", "forbid"] = "allow"
    avoid: str | None = None
    letters: str | None = None
    seed: int | None = None
    engine: str | None = None
    timeout: float | None = None


@dataclass(frozen=True)
class CubeOptions:
    """solve --split (cube and conquer, docs/cli.md#cubes): split the search
    `depth` decisions deep, or into `at_least` cubes (one of the two);
    solve them on `workers` local worker processes, or on the Dask cluster
    whose scheduler is at `scheduler` (tcp://HOST:8786); each cube within
    `cube_timeout` seconds; every verdict recorded in the `journal` file,
    which `resume` continues. With `sample`, only that many cubes, spread
    evenly over the split, are solved (all of them, to estimate the
    whole's time). With `whole` (the default) and two workers or more, one
    of them runs the unsplit search alongside the cubes (the first to
    answer answers)."""

    depth: int | None = None
    at_least: int | None = None
    workers: int = 2
    scheduler: str | None = None
    cube_timeout: float | None = None
    journal: str | None = None
    resume: bool = False
    sample: int | None = None
    whole: bool = True
