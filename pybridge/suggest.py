"""Clue suggestions from WordNet, so that a made crossword can be solved
with no other input: a start for the constructor, not finished clues.

WordNet 3.0 (Princeton's lexical database of English, under its own
permissive licence) comes from Debian's `wordnet-base` (setup.sh installs
it, as it installs SWI-Prolog) and is read with nltk's WordNet reader; no
network is needed at run time. `CROSSWORD_WORDNET` names another folder of
WordNet's database files (`data.noun`, `index.noun`...).

For an answer the suggester looks for the WordNet words that are that
answer once written as crosswords write entries (`ice_cream` is ICECREAM),
takes their senses from the most used (WordNet's tag counts), a noun or a
verb before an adjective or an adverb at equal counts, and makes a clue of
the first that gives one:

* its gloss, shortened: the part before a `;`, without a leading article,
  cut at a clause (`, `, ` that `, ` especially `...) when longer than a
  line of a printed clue list, a leading `(baseball)` moved to the end;
* else one of its synonyms (APE: "Imitate").

A clue never gives its answer away (`reveals`): the answer's letters may
not appear in the clue's letters joined up (so neither the answer, nor a
word holding it, nor the answer split across words: "a tone" for ATONE),
and no word of the clue may share a stem with the answer or a word of it
(Porter's stemmer, WordNet's base forms: "runs" for RUNNER, "cream" for
ICECREAM). Senses glossed as vulgar or offensive are passed over. An
answer that is no WordNet word (an abbreviation, a plural or other
inflected form, most phrases) gets no suggestion: the commands list those
entries as the clues left to write.
"""

from __future__ import annotations

import functools
import io
import os
import re
import unicodedata
import warnings
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pybridge.errors import MissingDependency, pip_hint

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import Synset

WORDNET_FOLDER = "/usr/share/wordnet"  # Debian's wordnet-base
WORDNET_VARIABLE = "CROSSWORD_WORDNET"
NLTK = "nltk>=3.8"
INSTALL_HINT = (
    "clue suggestions need WordNet: install Debian's wordnet-base (`apt-get install "
    f"wordnet-base`, as ./setup.sh does) and nltk (`{pip_hint(NLTK)}`), or set "
    f"{WORDNET_VARIABLE} to a folder of WordNet's database files"
)
LONGEST = 60  # characters of a suggested clue: a line of a printed clue list
POS_ORDER = {"n": 0, "v": 1, "a": 2, "s": 2, "r": 3}
CLAUSES = (  # where a long gloss is cut, by tier: the first tier that has a place wins
    (", ", " that ", " which ", " who ", " whose ", " especially ", " usually ", " typically "),
    (" with ", " similar to ", " used ", " for ", " by ", " in "),
)
ARTICLES = ("a ", "an ", "the ")
UNFIT = re.compile(r"vulgar|obscen|offensive|disparag|derogat|\bslur|\bslang for", re.IGNORECASE)
DOMAIN = re.compile(r"^\(([^()]{1,30})\)\s*")
ASIDE = re.compile(r"\s*\([^()]*\)")

# WordNet's 45 lexicographer files (lexnames(5WN)), which nltk's reader
# reads from a `lexnames` file that Debian's wordnet-base does not ship.
LEXNAMES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]


# plain() of an ASCII lemma name, ten times quicker: its joiners out, then upper case
_JOINERS = str.maketrans(dict.fromkeys("_-'./ ", None))


def wordnet_folder() -> Path:
    """The folder of WordNet's database files: $CROSSWORD_WORDNET, else Debian's."""
    return Path(os.environ.get(WORDNET_VARIABLE) or WORDNET_FOLDER)


def plain(text: str) -> str:
    """Letters and digits only, upper case, accents off: what a grid holds."""
    decomposed = unicodedata.normalize("NFKD", text.upper())
    return "".join(ch for ch in decomposed if ch.isalnum())


def words_of(text: str) -> list[str]:
    """The words of a text, lower case, accents kept."""
    return re.findall(r"[^\W_]+", text.lower())


class WordNet:
    """Clue suggestions (see the module docstring); `suggest(answer)`."""

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else wordnet_folder()
        self.reader = _reader(self.folder)
        from nltk.stem.porter import PorterStemmer

        self._stemmer = PorterStemmer()
        self._names: dict[str, list[str]] = {}
        for name in self.reader.all_lemma_names():
            key = name.translate(_JOINERS).upper() if name.isascii() else plain(name)
            self._names.setdefault(key, []).append(name)

    def __call__(self, answer: str) -> str | None:
        return self.suggest(answer)

    def lemma_names(self, answer: str) -> list[str]:
        """The WordNet words (`ice_cream`) written as `answer` in a grid."""
        return self._names.get(plain(answer), [])

    def suggest(self, answer: str) -> str | None:
        """A clue for `answer` that does not give it away, or None."""
        names = self.lemma_names(answer)
        if not names:
            return None
        parts = {part for name in names for part in re.split(r"[_\-' ]+", name.lower()) if part}
        for synset in self.senses(names):
            for clue in self._clues_of(synset, names):
                if not self.reveals(answer, clue, parts):
                    return clue
        return None

    def senses(self, names: Iterable[str]) -> list[Synset]:
        """The senses of these words, most used first (a noun or verb first at equal use)."""
        ranked: dict[str, tuple[int, int, int, Synset]] = {}
        for name in names:
            for k, synset in enumerate(self.reader.synsets(name)):
                count = sum(
                    lemma.count() for lemma in synset.lemmas() if lemma.name().lower() == name
                )
                if not any(lemma.name().lower() == name for lemma in synset.lemmas()):
                    continue  # a sense of another word that `name` is a form of (rose: rise)
                key = (-count, POS_ORDER.get(synset.pos(), 4), k, synset)
                if synset.name() not in ranked or key[:3] < ranked[synset.name()][:3]:
                    ranked[synset.name()] = key
        return [entry[3] for entry in sorted(ranked.values(), key=lambda entry: entry[:3])]

    def _clues_of(self, synset: Synset, names: list[str]) -> Iterator[str]:
        gloss = synset.definition()
        if UNFIT.search(gloss):
            return
        first, *others = gloss.split(";")
        # a later part is a definition of its own only when it starts as one
        # ("the fatty flesh of eel; an elongate fish..."), not "rich in oil"
        parts = [first, *(part for part in others if part.strip().lower().startswith(ARTICLES))]
        yield from _fit(shorten(part, tiers=1) for part in parts)
        own = set(names)
        for lemma in synset.lemmas():  # a synonym before a gloss cut at a weak place
            name = lemma.name()
            if name.lower() not in own and "_" not in name and len(name) >= 3 and name.isalpha():
                yield name[:1].upper() + name[1:]
        yield from _fit(shorten(part) for part in parts)

    def reveals(self, answer: str, clue: str, parts: Iterable[str] = ()) -> bool:
        """Whether `clue` gives `answer` away: its letters joined up hold the
        answer, or one of its words shares a stem with the answer or with a
        word of it (`parts`)."""
        letters = plain(answer)
        if letters in plain(clue):
            return True
        stems = {self._stem(part) for part in {letters.lower(), *parts} if len(part) >= 2}
        for word in words_of(clue):
            for form in self._forms(word):
                stem = self._stem(form)
                for other in stems:
                    if stem == other or _prefix_of(stem, other) or _prefix_of(other, stem):
                        return True
        return False

    def _stem(self, word: str) -> str:
        return plain(str(self._stemmer.stem(word))).lower()

    @functools.lru_cache(maxsize=65536)  # noqa: B019 - one WordNet per process, kept
    def _forms(self, word: str) -> tuple[str, ...]:
        """`word` and its WordNet base forms (ran: run)."""
        forms = {word}
        for pos in "nvar":
            base = self.reader.morphy(word, pos)
            if base:
                forms.add(base)
        return tuple(sorted(forms))


def _fit(clues: Iterable[str | None]) -> Iterator[str]:
    """The clues made (None: none could be made of that part)."""
    return (clue for clue in clues if clue is not None)


def _prefix_of(short: str, long: str) -> bool:
    """Whether stem `short` (3 letters or more) begins stem `long`."""
    return len(short) >= 3 and len(short) < len(long) and long.startswith(short)


def shorten(gloss: str, tiers: int = len(CLAUSES)) -> str | None:
    """A part of a WordNet gloss as a clue: no leading article, a leading
    domain moved to the end, cut at a clause when too long (at a comma or a
    relative clause first, then before `with`, `for`...); None when no cut
    leaves a clue short enough."""
    text = gloss.strip()
    domain = ""
    found = DOMAIN.match(text)
    if found:
        domain, text = found.group(1), text[found.end() :]
    text = text.strip().rstrip(".,:")
    lowered = text.lower()
    for article in ARTICLES:
        if lowered.startswith(article):
            text = text[len(article) :]
            break
    text = ASIDE.sub("", text)  # asides: "(as in a theater or on a train)", "(followed by `to')"
    if len(text) > LONGEST:
        cut = _cut(text, tiers)
        if cut is None:
            return None
        text = text[:cut].rstrip(",;: ")
    if domain and len(text) + len(domain) + 3 <= LONGEST:
        text = f"{text} ({domain})"
    if not text:
        return None
    return text[:1].upper() + text[1:]


def _cut(text: str, tiers: int) -> int | None:
    """Where to cut a long gloss: the last clause boundary of the first
    tier (of the first `tiers`) that has one leaving three words or more
    within LONGEST."""
    for tier in CLAUSES[:tiers]:
        fitting = [
            match.start()
            for clause in tier
            for match in re.finditer(re.escape(clause), text)
            if 12 <= match.start() <= LONGEST and len(text[: match.start()].split()) >= 3
        ]
        if fitting:
            return max(fitting)
    return None


# ---------------------------------------------------------------- the reader


def _reader(folder: Path) -> Any:
    """nltk's WordNet reader on `folder`; MissingDependency when nltk or the
    database is missing."""
    if not (folder / "data.noun").is_file() or not (folder / "index.noun").is_file():
        raise MissingDependency(f"{INSTALL_HINT} (no WordNet database in {folder})")
    try:
        import nltk.data
        from nltk.corpus.reader.wordnet import WordNetCorpusReader
    except ImportError:
        raise MissingDependency(f"{INSTALL_HINT} (nltk is not installed)") from None

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        """nltk's reader, given the lexicographer files' names where the
        folder has none, and no mapping to other WordNets (multilingual
        data we do not use, which nltk would look for in nltk_data)."""

        def open(self, file: str) -> Any:
            if file == "lexnames" and not (folder / "lexnames").is_file():
                return io.StringIO(
                    "".join(f"{i:02d}\t{name}\t0\n" for i, name in enumerate(LEXNAMES))
                )
            return super().open(file)

        def map_wn(self, version: str = "wordnet") -> None:
            return None

    root = str(folder.resolve())
    if root not in nltk.data.path:  # nltk reads only below the folders it was told of
        nltk.data.path.append(root)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "the multilingual functions are not available"
        return Reader(root, None)


@functools.cache
def wordnet(folder: str | None = None) -> WordNet:
    """The suggester on `folder` (default: wordnet_folder()), loaded once."""
    return WordNet(folder)


def available() -> bool:
    """Whether suggestions can be made here (nltk and a WordNet database)."""
    try:
        import nltk  # noqa: F401
    except ImportError:
        return False
    folder = wordnet_folder()
    return (folder / "data.noun").is_file() and (folder / "index.noun").is_file()
