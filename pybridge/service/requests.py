"""The option objects (pybridge.options) from the values of a request: the
values by Field.key that the command line's parser (`vars(args)`) or a JSON
body (fields.json_values) gave. Each option object is built here and only
here, so a new field is set in one line whoever asks for it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, cast

from pybridge.errors import UsageError
from pybridge.options import (
    DEFAULT_MAKE_BLOCKS,
    MAXIMIZE_SECONDS,
    ClueOptions,
    CubeOptions,
    DefaultSeconds,
    DictionaryOptions,
    MakeOptions,
    OutputKind,
    OutputOptions,
    Paper,
    PatternOptions,
    PuzzleOptions,
    SearchOptions,
)

Values = Mapping[str, Any]


def dictionary_options(values: Values) -> DictionaryOptions:
    """--dict (repeated), --encoding, --ban and --prefer (repeated)."""
    return DictionaryOptions(
        tuple(values.get("dicts") or ()),
        values.get("encoding"),
        tuple(values.get("ban") or ()),
        tuple(values.get("prefer") or ()),
        not values.get("no_default_ban"),
    )


def puzzle_options(values: Values) -> PuzzleOptions:
    """The puzzle of solve and check: FILE, --words, --answers, the
    dictionaries, --grid and --format."""
    return PuzzleOptions(
        values["file"],
        values.get("words"),
        bool(values.get("answers")),
        dictionary_options(values),
        values.get("grid"),
        values.get("format"),
    )


def search_options(values: Values) -> SearchOptions:
    """How solve and check search: --engine, --strategy, --seed, --timeout,
    how many solutions (--all, --count, --limit, --unique), --min-score,
    --maximize, --node-limit and --jobs."""
    limit = None if values.get("all") else (values.get("limit") or 1)
    timeout = values.get("timeout")
    if values.get("maximize") and isinstance(timeout, DefaultSeconds):
        timeout = MAXIMIZE_SECONDS  # --maximize's own default: an anytime answer
    return SearchOptions(
        engine=values.get("engine"),
        strategy=values.get("strategy"),
        seed=values.get("seed"),
        timeout=timeout,
        limit=limit,
        count=bool(values.get("count")),
        unique=bool(values.get("unique")),
        min_score=values.get("min_score"),
        maximize=values.get("maximize"),
        jobs=values.get("jobs") or 1,
        node_limit=values.get("node_limit"),
    )


def pattern_options(values: Values, default_blocks: int | float | None = None) -> PatternOptions:
    """The pattern of grid and make: --size, --blocks (None: `default_blocks`),
    --symmetry, the rules (--min-length, --allow-unchecked, --max-length,
    --max-words, --max-cheaters), --rp, --seed, --attempts, --timeout and
    the theme (--theme, --theme-file)."""
    from pybridge.patterns import asked_rules  # only grid and make load the patterns

    rows, cols = values["size"]
    rules = asked_rules(
        values.get("min_length"),
        bool(values.get("allow_unchecked")),
        values.get("max_length"),
        values.get("max_words"),
        values.get("max_cheaters"),
    )
    chosen = values.get("blocks")
    shape = PatternOptions(
        rows,
        cols,
        default_blocks if chosen is None else chosen,
        values.get("symmetry"),
        rules,
        bool(values.get("rp")),
        values.get("seed"),
        values["attempts"],
        values.get("timeout"),
    )
    return replace(shape, theme=theme_entries(values))


def theme_entries(values: Values) -> tuple[str, ...]:
    """--theme WORD ... and the entries of --theme-file FILE (read here, so a
    bad file is told before any pattern is made), each once."""
    from pybridge.theme import entries, read_entries

    given = [*(values.get("theme") or ())]
    path = values.get("theme_file")
    if path is not None:
        given.extend(read_entries(path))
    return entries(given)


def make_options(values: Values) -> MakeOptions:
    """`crossword make`: the patterns (their time limits are make's own),
    how each is filled (the search's timeout is the whole command's),
    --tries, --try-timeout and --difficulty."""
    pattern = pattern_options({**values, "timeout": None}, DEFAULT_MAKE_BLOCKS)
    return MakeOptions(
        pattern,
        replace(search_options(values), seed=None),  # --seed is the first pattern's
        values["tries"],
        values["try_timeout"],
        values.get("difficulty"),
    )


def output_options(values: Values) -> OutputOptions:
    """--output KIND [FILE] (stored as a pair), --stats, --paper and --dpi."""
    kind, path = values.get("output") or ("text", None)
    paper: Paper = "a4" if values.get("paper") == "a4" else "letter"
    return OutputOptions(
        cast(OutputKind, kind), path, bool(values.get("stats")), paper, values.get("dpi")
    )


def clue_options(values: Values) -> ClueOptions:
    """--clues, --suggest or --no-suggest (None: neither), and the details."""
    suggest = True if values.get("suggest") else False if values.get("no_suggest") else None
    return ClueOptions(
        values.get("clues"),
        suggest,
        values.get("title"),
        values.get("author"),
        values.get("copyright"),
        values.get("notes"),
    )


def cube_options(values: Values) -> CubeOptions | None:
    """solve --split and its companions (--workers, --scheduler,
    --cube-timeout, --journal, --resume); None without --split."""
    asked = values.get("split")
    if asked is None:
        for key in ("scheduler", "cube_timeout", "journal", "resume", "sample", "cubes_only"):
            if values.get(key):
                raise UsageError(f"--{key.replace('_', '-')} goes with --split")
        if (values.get("workers") or 2) != 2:
            raise UsageError("--workers goes with --split")
        return None
    kind, number = asked
    return CubeOptions(
        depth=number if kind == "depth" else None,
        at_least=number if kind == "cubes" else None,
        workers=values.get("workers") or 2,
        scheduler=values.get("scheduler"),
        cube_timeout=values.get("cube_timeout"),
        journal=values.get("journal"),
        resume=bool(values.get("resume")),
        sample=values.get("sample"),
        whole=not values.get("cubes_only"),
    )
