"""The one list of strategies: each family module registers its own, each
describing itself (kernel.Strategy: its modes, seed, summary, what it
reads, whether it optimises, where it is the default), and the CLI (its
choices and help), the engines (the bridge's dispatch), the portfolio and
the tests read them here. prolog/crossword.pl's strategies/1 lists the same
names, each declared by its Prolog family (a test checks it).

Adding a strategy: docs/search.md#adding-a-strategy. A family is a module
in pybridge.search with STRATEGIES and solutions(request, counters), its
twin in prolog/ of the same name, and one line in FAMILIES below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType

from pybridge.errors import UsageError
from pybridge.model import Mode
from pybridge.search import domains, order, valued, wdeg
from pybridge.search.kernel import Counters, Request, Strategy

FAMILIES: tuple[ModuleType, ...] = (order, domains, wdeg, valued)

REGISTRY: dict[str, Strategy] = {s.name: s for f in FAMILIES for s in f.STRATEGIES}
STRATEGIES = tuple(REGISTRY)
LEXICON_STRATEGIES = tuple(s.name for s in REGISTRY.values() if "lexicon" in s.modes)
EXACT_ONLY_STRATEGIES = tuple(s.name for s in REGISTRY.values() if "lexicon" not in s.modes)
SEEDED_STRATEGIES = tuple(s.name for s in REGISTRY.values() if s.seeded)


def _the_one(what: str, found: list[str]) -> str:
    if len(found) != 1:
        raise RuntimeError(f"the registry needs exactly one {what}, not {found}")
    return found[0]


DEFAULT_STRATEGY = _the_one(
    "default for exact puzzles", [s.name for s in REGISTRY.values() if "exact" in s.default_in]
)
# wdeg, built for big dictionaries: see docs/benchmarks.md for how many of
# van Beek's grids it fills against lcv.
DEFAULT_LEXICON_STRATEGY = _the_one(
    "default for lexicon puzzles",
    [s.name for s in REGISTRY.values() if "lexicon" in s.default_in],
)
# The strategy that maximises a fill's value (--maximize), and the only one.
OPTIMISING_STRATEGY = _the_one(
    "optimising strategy", [s.name for s in REGISTRY.values() if s.optimises]
)

Solutions = Callable[[Request, Counters], Iterator[list[str]]]
_SOLUTIONS: dict[str, Solutions] = {f.__name__.rsplit(".", 1)[-1]: f.solutions for f in FAMILIES}


def strategy(name: str) -> Strategy:
    """The registered strategy `name`; UsageError when there is none."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise UsageError(
            f"unknown strategy {name!r}: choose from {', '.join(STRATEGIES)}"
        ) from None


def strategies_for(mode: Mode) -> tuple[str, ...]:
    """The strategies that can search a puzzle of `mode`."""
    return tuple(s.name for s in REGISTRY.values() if mode in s.modes)


def default_strategy(mode: Mode) -> str:
    """mrv for exact puzzles, wdeg for a grid filled from a dictionary."""
    return DEFAULT_LEXICON_STRATEGY if mode == "lexicon" else DEFAULT_STRATEGY


def check(name: str, mode: Mode | None = None, seed: int | None = None) -> Strategy:
    """The strategy `name`, after checking it can search a puzzle of `mode`
    (None: any) with `seed`; UsageError otherwise."""
    chosen = strategy(name)
    if mode is not None and mode not in chosen.modes:
        raise UsageError(
            f"strategy {name!r} does not apply to a {mode} puzzle: "
            f"choose from {', '.join(strategies_for(mode))}"
        )
    check_seed(seed)
    if seed is not None and not chosen.seeded:
        raise UsageError(
            f"strategy {name!r} takes no seed: choose from {', '.join(SEEDED_STRATEGIES)}"
        )
    return chosen


def check_seed(seed: object) -> None:
    """UsageError unless `seed` is None or an integer >= 0."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise UsageError(f"seed must be an integer >= 0, got {seed!r}")


def help_text() -> str:
    """The CLI's help of --strategy: each strategy's summary, which need a
    word list, and the defaults."""
    each = ", ".join(f"{s.name} ({s.summary})" for s in REGISTRY.values())
    exact = " and ".join(EXACT_ONLY_STRATEGIES)
    verb = "needs" if len(EXACT_ONLY_STRATEGIES) == 1 else "need"
    return (
        f"search order: {each}; {exact} {verb} a word list, not --dict (default: "
        f"{DEFAULT_STRATEGY}, or {DEFAULT_LEXICON_STRATEGY} with --dict, "
        f"{OPTIMISING_STRATEGY} with --maximize)"
    )


def solutions(request: Request, counters: Counters) -> Iterator[list[str]]:
    """The solutions of `request` by its strategy's family, lazily."""
    return _SOLUTIONS[strategy(request.strategy).family](request, counters)
