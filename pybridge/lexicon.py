"""Readers for construction ("lexicon") mode: the dictionaries grids are
filled from (the grids themselves: pybridge.gridfiles).

Dictionaries (`load_dictionary`), one entry per line:

* Encoding: UTF-8 when the bytes are valid UTF-8, cp1252 otherwise (the
  encoding used is kept per file); `encoding=` forces one, and then bytes it
  cannot decode are an error pointing at their line and column.  A leading
  byte-order mark is dropped; CRLF, CR and LF endings are all accepted.
* Entries are upper-cased with `str.upper` (locale-independent: `i` becomes
  `I` in every language), then normalised to Unicode NFC.  Accents stay (`é`
  becomes `É`, never `E`); `ß` becomes `SS`, the crossword convention.
* Hyphens, apostrophes (`'` and the typographic U+2019) and spaces are
  removed, as crosswords write such entries (`E-MAIL` -> `EMAIL`, `N'T` ->
  `NT`, `ICE CREAM` -> `ICECREAM`), and leading or trailing whitespace (tabs
  too) is stripped.  An entry that still holds anything but letters
  (`str.isalpha`: a digit, a tab inside, other punctuation) is skipped and
  counted in `Dictionary.skipped` under its reason, e.g. "with '!'".  Empty
  lines, and lines left empty by the removals, are ignored without a count.
  One-letter entries are kept (no site is that short, so they never fit).
* Scored dictionaries (docs/formats.md#scored-dictionaries): a line
  `WORD;score` (Crossfire, ingrid_core: 0-100) gives the word that score; so
  does `WORD number` when every non-blank line of the file is of that form
  (RP 2016's weights in [0, 1]).  A score is a decimal number, kept as
  written (pybridge.scores); a line of a `;` file without one gives no
  score, and a word without a score counts DEFAULT_SCORE.  A line whose
  score is not a number is skipped and counted ("with a score that is not
  a number").  The files with scores are listed in `Dictionary.weighted`,
  the scores are `Dictionary.scores`.
* Duplicates (after normalisation, within and across files) are kept once,
  in the order of first occurrence, with the score of the first occurrence
  (or none), and counted as "duplicate".  Several files are merged in the
  order given.
* A missing file, or a file without a single usable entry, is an InputError.

Loading is whole-text work (str methods, one list comprehension whose
per-line cost is `str.isalpha`; hashing for duplicates costs most): about
0.1 s for the 246,000 words of debian-wbritish-huge on a busy 2-core machine.
Each file's normalised words are then cached (see "dictionary cache" below),
so a repeat load of an unchanged file only hashes it and reads the words back.
"""

from __future__ import annotations

import codecs
import hashlib
import os
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from pybridge import cache
from pybridge.errors import InputError, UsageError, shown
from pybridge.readers import (
    binary_error,
    binary_offset,
    describe_char,
    read_bytes,
    text_kind,
    unify_newlines,
)
from pybridge.scores import Scores, parse_score

# ---------------------------------------------------------------- dictionaries


@dataclass(frozen=True)
class Dictionary:
    """The merged entries of one or more dictionary files.

    `skipped` counts, by reason, the lines not added as a new word;
    `encodings[i]` is the encoding `sources[i]` was read in; `weighted` lists
    the files that give scores, and `scores` holds them (None when no file
    gives any)."""

    words: tuple[str, ...]
    skipped: Mapping[str, int]
    sources: tuple[str, ...]
    encodings: tuple[str, ...]
    weighted: tuple[str, ...] = ()
    scores: Scores | None = None

    def summary(self) -> str:
        """One line saying what was read and what was left out."""
        files = ", ".join(f"{s} ({e})" for s, e in zip(self.sources, self.encodings, strict=True))
        count = len(self.words)
        parts = [f"{count} word{'' if count == 1 else 's'} from {files}"]
        if self.weighted:
            scored = ", ".join(self.weighted) if self.weighted != self.sources else "every file"
            parts.append(f"scores from {scored}")
        if self.skipped:
            reasons = sorted(self.skipped.items(), key=lambda item: (-item[1], item[0]))
            parts.append("skipped " + ", ".join(f"{n} {reason}" for reason, n in reasons))
        return "; ".join(parts)


DETECTED_ENCODINGS = ("utf-8", "cp1252")
DUPLICATE = "duplicate"
BAD_SCORE = "with a score that is not a number"

# What crosswords drop from an entry: hyphens, apostrophes, spaces.
JOINERS = ("-", "'", "\u2019", " ")

_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:E[-+]?[0-9]+)?"  # ASCII digits only
_WEIGHTED_LINE = re.compile(rf"[ \t]*(\S+)[ \t]+({_NUMBER})[ \t]*")


def _codec(encoding: str | None) -> str | None:
    """The canonical name of a requested encoding (None: detect)."""
    if encoding is None:
        return None
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise UsageError(
            f"unknown encoding {shown(repr(encoding))} (try utf-8 or cp1252)"
        ) from None


def _read_bytes(source: str) -> bytes:
    return read_bytes(source, "dictionary")


def _decoding_error(
    data: bytes, err: UnicodeDecodeError, encoding: str, forced: bool, source: str
) -> InputError:
    before = unify_newlines(data[: err.start].decode(encoding, errors="replace")).split("\n")
    shown = unify_newlines(data.decode(encoding, errors="replace")).split("\n")
    byte = f"byte 0x{data[err.start]:02x}"
    if forced:
        message = f"not valid {encoding} ({byte}): leave out the encoding to detect UTF-8 or cp1252"
    else:
        message = f"neither UTF-8 nor cp1252 ({byte}): give the file's encoding (--encoding)"
    line = len(before)
    return InputError(message, source, line, len(before[-1]) + 1, shown[line - 1])


def _decode(data: bytes, codec: str | None, source: str) -> tuple[str, str]:
    """The text of `data` and the encoding that decoded it."""
    candidates = (codec,) if codec else DETECTED_ENCODINGS
    for encoding in candidates:
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError as err:
            failure = err
            binary = None if codec else binary_offset(data, text=False)
            if binary is not None:  # not UTF-8 and full of controls: not a text at all
                raise binary_error(data, source, binary, expected=DICTIONARY) from None
    raise _decoding_error(data, failure, candidates[-1], codec is not None, source)


def _weighted(text: str) -> tuple[str, list[str]] | None:
    """RP 2016's weighted list, when every non-blank line of `text` is `WORD
    number`: the words (a line each) and each line's number (blank lines
    have none). None if it is not such a list."""
    first = text.lstrip().split("\n", 1)[0]
    if not _WEIGHTED_LINE.fullmatch(first):  # cheap test before the full one
        return None
    words, numbers = [], []
    for line in text.split("\n"):
        found = _WEIGHTED_LINE.fullmatch(line)
        if found is None:
            if line.strip():
                return None
            words.append("")
            numbers.append("")
        else:
            words.append(found[1])
            numbers.append(found[2])
    return "\n".join(words), numbers


def _semicolon_scored(text: str, skipped: Counter[str]) -> tuple[str, list[str]]:
    """A `WORD;score` list (a line without `;` gives no score): the entries
    (a line each, the score cut off at the line's last `;`) and each
    line's score as written. A line whose score is not a number is
    skipped, and counted in `skipped`."""
    entries, numbers = [], []
    for line in text.split("\n"):
        entry, semicolon, written = line.rpartition(";")
        score = written.strip()
        if not semicolon:
            entry, score = line, ""
        elif parse_score(score) is None:
            skipped[BAD_SCORE] += 1
            entry = score = ""
        entries.append(entry)
        numbers.append(score)
    return "\n".join(entries), numbers


def _scored_lines(text: str, skipped: Counter[str]) -> tuple[str, list[str]] | None:
    """A scored list's entries, a line each, and each line's score as written
    ("" for none); None when no line gives a score."""
    weighted = _weighted(text)
    if weighted is not None:
        return weighted
    if ";" not in text:
        return None
    return _semicolon_scored(text, skipped)


def _reason(ch: str) -> str:
    if ch.isdigit():
        return "with a digit"
    if ch == "\t":
        return "with a tab inside"
    return f"with {describe_char(ch)}"


def _repaired(line: str, skipped: Counter[str]) -> str:
    """The entry on a line that is not all letters: stripped of surrounding
    whitespace, or "" (and counted in `skipped`) if it still is not."""
    entry = line.strip()
    if entry == "" or entry.isalpha():
        return entry
    skipped[_reason(next(ch for ch in entry if not ch.isalpha()))] += 1
    return ""


def _lines(text: str, skipped: Counter[str]) -> list[str]:
    """The entry of each line of normalised dictionary text ("" for none)."""
    for joiner in JOINERS:
        text = text.replace(joiner, "")
    # The usual line is all letters already: only the others cost a call.
    return [line if line.isalpha() else _repaired(line, skipped) for line in text.split("\n")]


def _entries(text: str, skipped: Counter[str]) -> dict[str, None]:
    """The distinct entries of normalised dictionary text, in order."""
    lines = _lines(text, skipped)
    entries = dict.fromkeys(lines)
    entries.pop("", None)
    _count_duplicates(lines, len(entries), skipped)
    return entries


def _scored_entries(text: str, scores: list[str], skipped: Counter[str]) -> dict[str, str]:
    """The distinct entries of normalised dictionary text, in order, each
    with the score of its first line ("" for none)."""
    lines = _lines(text, skipped)
    entries: dict[str, str] = {}
    for line, score in zip(lines, scores, strict=True):
        if line and line not in entries:
            entries[line] = score
    _count_duplicates(lines, len(entries), skipped)
    return entries


def _count_duplicates(lines: list[str], distinct: int, skipped: Counter[str]) -> None:
    duplicates = len(lines) - lines.count("") - distinct
    if duplicates:
        skipped[DUPLICATE] += duplicates


def _no_entry(source: str, skipped: Counter[str], text: str = "") -> InputError:
    kind = text_kind(text)
    if kind is not None and not kind.startswith("a word list"):
        return InputError(f"this looks like {kind}, not {DICTIONARY}", source)
    message = "no usable entry in this dictionary: expected one word per line"
    if skipped:
        reasons = ", ".join(f"{n} {reason}" for reason, n in skipped.most_common())
        message += f" (skipped {reasons})"
    return InputError(message, source)


@dataclass(frozen=True)
class _FileWords:
    """One dictionary file, normalised: its distinct words in order, its lines
    skipped by reason, the encoding it was read in, whether it gives scores,
    and then each word's score as written ("" for none)."""

    words: tuple[str, ...]
    skipped: Counter[str]
    encoding: str
    weighted: bool
    scores: tuple[str, ...] = ()


DICTIONARY = "a dictionary (a text, a word a line, or WORD;score)"


def _normalised(data: bytes, codec: str | None, source: str) -> _FileWords:
    binary = binary_offset(data, text=True)
    if binary is not None:  # cp1252 would decode it: never read a picture as words
        raise binary_error(data, source, binary, expected=DICTIONARY)
    text, used = _decode(data, codec, source)
    text = unicodedata.normalize("NFC", unify_newlines(text).upper())
    skipped: Counter[str] = Counter()
    scored = _scored_lines(text, skipped)
    if scored is None:
        entries = _entries(text, skipped)
        if not entries:
            raise _no_entry(source, skipped, text)
        return _FileWords(tuple(entries), skipped, used, False)
    with_scores = _scored_entries(*scored, skipped)
    if not with_scores:
        raise _no_entry(source, skipped, text)
    return _FileWords(tuple(with_scores), skipped, used, True, tuple(with_scores.values()))


def _merged(files: Sequence[_FileWords]) -> tuple[tuple[str, ...], Counter[str]]:
    """The words of `files` in order of first occurrence, and what they
    skipped, counting a word an earlier file already had as a duplicate."""
    skipped: Counter[str] = Counter()
    for found in files:
        skipped.update(found.skipped)
    if len(files) == 1:  # a file's own words are distinct already
        return files[0].words, skipped
    words: dict[str, None] = {}
    for found in files:
        known = len(words)
        words.update(dict.fromkeys(found.words))
        seen_before = len(found.words) - (len(words) - known)
        if seen_before:
            skipped[DUPLICATE] += seen_before
    return tuple(words), skipped


def _merged_scores(files: Sequence[_FileWords], words: Sequence[str]) -> Scores | None:
    """The scores the `files` give to their merged `words`, each word's from
    its first occurrence (which may give none); None when no file gives any."""
    if not any(found.weighted for found in files):
        return None
    if len(files) == 1:  # its words are distinct: each with its own score text
        texts: Sequence[str] = files[0].scores
    else:
        first: dict[str, str] = {}  # each word's score text ("" for none)
        for found in reversed(files):  # so that the first occurrence's is the one kept
            given = found.scores if found.weighted else ("",) * len(found.words)
            first.update(zip(found.words, given, strict=True))
        texts = [first[word] for word in words]
    # a list has a few score texts for many words: one number each
    numbers = {text: Decimal(text) for text in set(texts) if text}
    return Scores({word: numbers[text] for word, text in zip(words, texts, strict=True) if text})


def load_dictionary(
    paths: Sequence[str | os.PathLike[str]], encoding: str | None = None, *, cached: bool = True
) -> Dictionary:
    """The merged, normalised entries of the dictionary files `paths`;
    `encoding` forces an encoding instead of detecting UTF-8 or cp1252.
    `cached=False` reads every file afresh, neither reading nor writing the
    cache: what a verifier does, trusting nothing but the files."""
    if not paths:
        raise ValueError("load_dictionary needs at least one file")
    codec = _codec(encoding)
    sources = tuple(os.fspath(path) for path in paths)
    files = [_file_words(source, codec, cached) for source in sources]
    words, skipped = _merged(files)
    encodings = tuple(found.encoding for found in files)
    weighted = tuple(source for source, found in zip(sources, files, strict=True) if found.weighted)
    scores = _merged_scores(files, words)
    return Dictionary(words, dict(skipped), sources, encodings, weighted, scores)


# ---------------------------------------------------------------- dictionary cache
#
# Normalising a big dictionary costs about 0.1 s a run, reading back its words
# a fifth of that, so each file's `_FileWords` is kept in a cache entry
# (pybridge.cache) named after the SHA-256 of the file's bytes, the forced
# encoding and CACHE_FORMAT; its body is the words, one per line, in UTF-8,
# and for a scored file a NUL (no word holds one) and their scores as written.

CACHE_FORMAT = 2  # bump whenever normalisation changes: older entries are then never read


def _entry_name(data: bytes, codec: str | None) -> str:
    digest = hashlib.sha256(data).hexdigest()
    return f"v{CACHE_FORMAT}-{codec or 'detected'}-{digest}.words"


def _file_words(source: str, codec: str | None, cached: bool = True) -> _FileWords:
    """The normalised words of one file, from the cache when it has them
    (and `cached`)."""
    data = _read_bytes(source)
    if not cached:
        return _normalised(data, codec, source)
    name = _entry_name(data, codec)
    found = _cached(name, _most_entry_bytes(data))
    if found is None:
        found = _normalised(data, codec, source)
        _store(name, found)
    return found


def _most_entry_bytes(data: bytes) -> int:
    """The largest entry the words of a file of `data` make: a character
    upper-cases to at most three (in UTF-8, at most four times its bytes in
    cp1252), a score is copied as written, and the header counts at most a
    reason per character."""
    return 8 * len(data) + (64 << 10)


def _cached(name: str, most: int) -> _FileWords | None:
    """The file words kept in a cache entry of at most `most` bytes; None
    if it is missing or bad."""
    kept = cache.read(name, most)
    if kept is None:
        return None
    meta, body = kept
    try:
        if meta["format"] != CACHE_FORMAT:
            return None
        skipped = Counter({str(reason): int(n) for reason, n in meta["skipped"].items()})
        text, _, score_text = body.decode("utf-8").partition("\0")
        words = tuple(text.split("\n"))
        weighted = bool(meta["weighted"])
        scores = tuple(score_text.split("\n")) if weighted else ()
        if weighted and len(scores) != len(words):
            return None
        return _FileWords(words, skipped, str(meta["encoding"]), weighted, scores)
    except (ValueError, LookupError, TypeError, AttributeError):
        return None


def _store(name: str, found: _FileWords) -> None:
    meta = {
        "format": CACHE_FORMAT,
        "encoding": found.encoding,
        "weighted": found.weighted,
        "skipped": dict(found.skipped),
    }
    body = "\n".join(found.words)
    if found.weighted:
        body += "\0" + "\n".join(found.scores)
    cache.write(name, meta, body.encode("utf-8"))
