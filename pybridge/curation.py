"""A constructor's say over a dictionary, per run: words never to use
(`--ban WORD|FILE`) and words to prefer (`--prefer FILE`: a score bonus).

    >>> from pybridge.scores import Scores
    >>> words = Dictionary(("ERNE", "OREO", "AREA"), {}, ("list",), ("utf-8",),
    ...                    ("list",), Scores({"ERNE": Decimal(20), "AREA": Decimal(70)}))
    >>> kept = curated(words, banned=("erne",), preferred=("oreo", "ZEBRA"))
    >>> kept.words, [str(kept.scores.score(w)) for w in kept.words]
    (('OREO', 'AREA', 'ZEBRA'), ['70', '70', '70'])
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

from pybridge.errors import UsageError, shown
from pybridge.lexicon import JOINERS, Dictionary, load_dictionary
from pybridge.scores import DEFAULT_SCORE, Scores

PREFER_BONUS = Decimal(20)  # added to a preferred word's score (50 without one), up to TOP
TOP = Decimal(100)  # the top of the usual 0-100 scale
MOST_REQUEST_WORDS = 10_000  # words a server request may ban or prefer, each


def entry(text: str) -> str | None:
    """The dictionary entry `text` makes (as a dictionary line would: upper
    case, NFC, no hyphens, apostrophes or spaces), None when it is no word."""
    word = unicodedata.normalize("NFC", text.strip().upper())
    for joiner in JOINERS:
        word = word.replace(joiner, "")
    return word if word.isalpha() else None


def banned_words(values: Sequence[str], encoding: str | None = None) -> tuple[str, ...]:
    """The words `--ban` names: each value a file of words (one a line, read
    as a dictionary), else a word; UsageError for neither."""
    words: list[str] = []
    for value in values:
        if os.path.isfile(value):
            words.extend(load_dictionary([value], encoding).words)
            continue
        word = entry(value)
        if word is None:
            raise UsageError(f"--ban {shown(value)}: neither a word nor a file of words")
        words.append(word)
    return tuple(dict.fromkeys(words))


def request_words(value: object, key: str) -> tuple[str, ...]:
    """The words of a request's `key` ("ban" or "prefer"): a list of words
    (or one word), each normalised as a dictionary entry; never a file.
    UsageError for anything else."""
    if value is None:
        return ()
    texts = [value] if isinstance(value, str) else value
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise UsageError(f'"{key}" must be a list of words')
    if len(texts) > MOST_REQUEST_WORDS:
        raise UsageError(f'"{key}": at most {MOST_REQUEST_WORDS} words, got {len(texts)}')
    words = []
    for text in texts:
        word = entry(text)
        if word is None:
            raise UsageError(f'"{key}": {shown(repr(text))} is not a word')
        words.append(word)
    return tuple(dict.fromkeys(words))


def preferred_words(paths: Sequence[str], encoding: str | None = None) -> tuple[str, ...]:
    """The words of the `--prefer` files (read as dictionaries)."""
    return load_dictionary(paths, encoding).words if paths else ()


def curated(
    dictionary: Dictionary, banned: Sequence[str] = (), preferred: Sequence[str] = ()
) -> Dictionary:
    """`dictionary` without the `banned` words, and with the `preferred`
    ones scoring PREFER_BONUS more (at most TOP, and never less than they
    did); a preferred word it lacks is added, scoring the default (50) plus
    the bonus. Both lists are normalised as dictionary entries."""
    ban = {word for word in map(entry, banned) if word}
    prefer = [word for word in map(entry, preferred) if word and word not in ban]
    if not ban and not prefer:
        return dictionary
    words = [word for word in dictionary.words if word not in ban]
    have = set(dictionary.words)
    words.extend(word for word in dict.fromkeys(prefer) if word not in have)
    scores = dictionary.scores
    written = dict(scores.written) if scores is not None else {}
    default = scores.default if scores is not None else DEFAULT_SCORE
    for word in prefer:
        score = written.get(word, default)
        written[word] = max(score, min(score + PREFER_BONUS, TOP))
    made = Scores(written, default) if scores is not None or prefer else None
    return replace(dictionary, words=tuple(words), scores=made)
