"""Reading what a job names: the puzzle of a solve or check (every grid of
its file, or the one asked for, with its words or dictionaries), a
dictionary, and the time limit each puzzle gets, reading counted."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol, cast

from pybridge.curation import banned_words, curated, preferred_words
from pybridge.errors import UsageError
from pybridge.gridfiles import GRID_FORMATS, GridFormat, load_grid
from pybridge.lexicon import Dictionary, load_dictionary
from pybridge.model import Format, Puzzle
from pybridge.options import DictionaryOptions, PuzzleOptions, SearchOptions
from pybridge.readers import FORMATS, is_plain_grid_file, load, require_site
from pybridge.scores import ACCEPTABLE
from pybridge.solver import at_least, check_seed, check_strategy
from pybridge.wordlist import BANNED_PATH, LIST_PATH

Notice = Callable[[str], None]  # a line for the user (the commands print it on stderr)

LEAST_SECONDS = 0.001  # a search left no time still starts, to time out at once


class TimeBudget(Protocol):
    """A time limit (`timeout`, seconds or None) and the seconds that
    reading the files took, not yet charged to a puzzle."""

    timeout: float | None
    reading_seconds: float


@dataclass
class Budget:
    """The time limit of a job whose files took `reading_seconds` to read."""

    timeout: float | None
    reading_seconds: float = 0.0


def timeout_left(budget: TimeBudget) -> float | None:
    """The time limit of the next puzzle's run: the budget's, less the time
    the files took to read for the first one (each later grid of a file
    gets the whole limit)."""
    if budget.timeout is None:
        return None
    spent: float = getattr(budget, "reading_seconds", 0.0)
    budget.reading_seconds = 0.0
    return max(budget.timeout - spent, LEAST_SECONDS)


def or_shipped(options: DictionaryOptions) -> DictionaryOptions:
    """`options`, or the shipped word list (pybridge.wordlist) when they
    name no dictionary: the default of make, of solve on a grid, of serve;
    less its default ban list's words unless `default_ban` is off."""
    if options.paths:
        return options
    ban = (str(BANNED_PATH), *options.ban) if options.default_ban else options.ban
    return replace(options, paths=(str(LIST_PATH),), ban=ban)


def read_dictionary(options: DictionaryOptions, notice: Notice | None = None) -> Dictionary:
    """The merged dictionaries, less the banned words and with the preferred
    ones scoring more; `notice` hears what was skipped in them."""
    dictionary = load_dictionary(options.paths, options.encoding)
    if dictionary.skipped and notice is not None:
        notice(f"dictionary: {dictionary.summary()}")
    if options.ban or options.prefer or options.banned or options.preferred:
        banned = banned_words(options.ban, options.encoding) + options.banned
        preferred = preferred_words(options.prefer, options.encoding) + options.preferred
        dictionary = curated(dictionary, banned, preferred)
    return dictionary


@dataclass(frozen=True)
class Puzzles:
    """The puzzles a job reads, and how long reading them took."""

    puzzles: list[Puzzle]
    budget: Budget


def read_puzzles(source: PuzzleOptions, search: SearchOptions, notice: Notice) -> Puzzles:
    """The puzzle `source` names; with dictionaries, every grid of the file
    (or the one asked for) with the merged dictionaries as its words, only
    those scoring `search.min_score` or more when it is given. The strategy
    and seed are checked against every puzzle, as before any search. The
    time reading takes counts against `search.timeout` (see timeout_left)."""
    started = time.perf_counter()
    puzzles = _read(source, search, notice)
    budget = Budget(search.timeout, time.perf_counter() - started)
    for puzzle in puzzles:
        check_strategy(puzzle, search.strategy)
    check_seed(search.strategy, search.seed)
    return Puzzles(puzzles, budget)


def _read(source: PuzzleOptions, search: SearchOptions, notice: Notice) -> list[Puzzle]:
    dictionary = source.dictionary
    if not dictionary.paths and _fills_from_a_dictionary(source):
        dictionary = or_shipped(dictionary)
    if not dictionary.paths:
        if (
            source.grid is not None
            or dictionary.encoding is not None
            or search.min_score is not None
            or dictionary.ban
            or dictionary.prefer
            or dictionary.banned
            or dictionary.preferred
        ):
            raise UsageError(
                "--grid, --encoding, --min-score, --ban and --prefer go with a grid filled "
                "from a dictionary (--dict)"
            )
        if source.format in GRID_FORMATS:
            raise UsageError(f"a {source.format} grid is filled from a dictionary: add --dict FILE")
        puzzle = load(source.file, source.words, cast(Format | None, source.format), source.answers)
        return [require_site(puzzle)]
    if source.words is not None:
        raise UsageError("--words (words to place exactly once) and --dict exclude each other")
    if source.answers:
        raise UsageError("--answers (the file's own answers) and --dict exclude each other")
    if source.format in FORMATS:
        raise UsageError(
            f"--dict fills a grid ({', '.join(GRID_FORMATS)}), not a {source.format} file"
        )
    words = read_dictionary(dictionary, notice)
    grids = [
        require_site(grid)
        for grid in load_grid(
            source.file, grid=source.grid, format=cast(GridFormat | None, source.format)
        )
    ]
    puzzles = [replace(grid, words=words.words, scores=words.scores) for grid in grids]
    least = search.min_score
    if least is None and dictionary is not source.dictionary:  # the shipped list, by default
        least = ACCEPTABLE  # its words below the acceptable line only when asked for
    if least is not None:
        puzzles = [at_least(puzzle, least) for puzzle in puzzles]
    return puzzles


def _fills_from_a_dictionary(source: PuzzleOptions) -> bool:
    """Whether a puzzle given without a word list or a dictionary is a grid
    to fill from one: a grid format asked for, or a file that reads as a
    plain grid."""
    if source.words is not None or source.answers:
        return False
    if source.format is not None:
        return source.format in GRID_FORMATS
    return is_plain_grid_file(source.file)
