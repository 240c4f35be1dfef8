"""Build the shipped scored word list (pybridge/wordlist/words.txt) from its
sources, the same bytes every time:

    python -m pybridge.wordlist.build            # sources in ../shared, WordNet in /usr/share

Build-time only: `pip install -e '.[wordlist]'` brings wordfreq; the other
sources are files (see SOURCES below and README.md beside this module). The
run-time package never imports this module.

How an entry is scored (0-100; the scale is in pybridge.wordlist):

- The candidates are the crossword answers of xwords-rs, the words of the
  SCOWL lists (35, 55, Debian's wamerican and wbritish-huge) and WordNet's
  lemmas, single words and phrases, a-z only once spaces, hyphens and
  apostrophes are gone.
- A single word is scored from its Zipf frequency in English (wordfreq):
  how familiar it is. Dictionary words get a floor by how common a list
  holds them (SCOWL 35, the core of English, is never below the good line's
  neighbourhood); a token no dictionary or WordNet knows (abbreviations,
  names, typos, junk such as TSS or AOA) must be frequent to be acceptable.
- An entry that is no single word is segmented into words (the most likely
  split by word frequency, WordNet's phrases preferred) and scored as a
  phrase: from the frequency of its rarest word, higher when WordNet lists
  the phrase, lower for a split no dictionary vouches for, and capped low for
  partials (fill-in-the-blank fragments such as ISTO, ASA, AINTI: nothing but
  function words, or ending on an article or pronoun).
- Entries below JUNK_FLOOR are left out (the list stays small and fast to
  load; such an entry would never be printed anyway).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from pybridge.wordlist import ACCEPTABLE, GOOD, LIST_PATH

HERE = Path(__file__).resolve().parent
JUNK_FLOOR = 10  # entries scoring below this are not shipped
MAX_LENGTH = 21  # longer entries fit no grid a newspaper prints
WORDFREQ_VERSION = "3.1.1"

# name -> file under the shared folder
SHARED_LISTS = {
    "answers": "bench/dicts/xwords-rs-wordlist.txt",
    "scowl35": "bench/dicts/scowl35.txt",
    "scowl55": "bench/dicts/scowl55.txt",
    "wamerican": "bench/dicts/debian-wamerican.txt",
    "wbritish-huge": "bench/dicts/debian-wbritish-huge.txt",
}
WORDNET_INDEXES = ("index.noun", "index.verb", "index.adj", "index.adv")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Function words: a phrase made only of these is a partial (ISTO, ASA, ONEA).
FUNCTION_WORDS = _words(
    """a an the of to in on at by for with from as is it its i me my mine we us our you your
    he him his she her they them their be am are was were been do does did done so or and but
    if not no nor up out off all one that this these those what who whom how when where why
    which there here than then too very can could will would shall should may might must have
    has had oh ah o onto into upon"""
)
# A phrase starting or ending on one of these is mostly a fill-in-the-blank
# fragment: ASBAD (as bad as), THEERA, ALIENTO, TREEAT, AINTI.
PARTIAL_START = _words("a an the as of and or is are was were than no in i")
PARTIAL_END = _words(
    "a an the to of as at for with from by and or is are was were my your his her its our "
    "their i be than that not onto into upon"
)
# Two-letter words a phrase may hold (SCOWL 35's, less abbreviations and
# fragments such as RE, MS, EM).
SHORT_WORDS = _words(
    "ad ah am an as at be by do go he hi if in is it me my no of oh on or ox so to up us we"
)
LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class Sources:
    """Every input of a build: the word lists (a-z, one a line), WordNet's
    index files, and wordfreq's English frequencies (token -> Zipf)."""

    lists: dict[str, frozenset[str]]
    wordnet_words: frozenset[str]
    wordnet_phrases: frozenset[str]  # the phrase's words joined by spaces
    wordnet_nouns: frozenset[str]  # those of them that are nouns (SET IN is not: no SET INS)
    zipf: dict[str, float]


def read_list(path: Path) -> frozenset[str]:
    words = (line.strip().lower() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(word for word in words if word)


def read_wordnet(folder: Path) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """WordNet's lemmas: single words, and phrases as space-joined words
    (every phrase, and the noun phrases, which have plurals)."""
    words: set[str] = set()
    phrases: set[str] = set()
    nouns: set[str] = set()
    for name in WORDNET_INDEXES:
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            if not line or line.startswith(" "):
                continue  # the licence at the top of each index
            lemma = line.split(" ", 1)[0].replace("-", "_")
            parts = [part.replace("'", "").replace(".", "") for part in lemma.split("_")]
            if not all(part and set(part) <= LETTERS for part in parts):
                continue
            if len(parts) == 1:
                words.add(parts[0])
            else:
                phrases.add(" ".join(parts))
                if name == "index.noun":
                    nouns.add(" ".join(parts))
    return frozenset(words), frozenset(phrases), frozenset(nouns)


def read_zipf() -> dict[str, float]:
    """wordfreq's English Zipf frequencies of the tokens made of a-z."""
    try:
        import wordfreq
    except ImportError:
        sys.exit("build: needs wordfreq: pip install -e '.[wordlist]'")
    if metadata.version("wordfreq") != WORDFREQ_VERSION:
        sys.exit(f"build: needs wordfreq {WORDFREQ_VERSION} (the list was built with it)")
    table = wordfreq.get_frequency_dict("en", wordlist="large")
    return {
        token: round(math.log10(frequency) + 9, 2)
        for token, frequency in table.items()
        if set(token) <= LETTERS
    }


def read_sources(shared: Path, wordnet: Path) -> Sources:
    lists = {name: read_list(shared / path) for name, path in SHARED_LISTS.items()}
    wordnet_words, wordnet_phrases, wordnet_nouns = read_wordnet(wordnet)
    return Sources(lists, wordnet_words, wordnet_phrases, wordnet_nouns, read_zipf())


# ---------------------------------------------------------------- scoring


class Scorer:
    """Scores entries (a-z strings) from the sources."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources
        lists = sources.lists
        self.core = lists["scowl35"]
        self.common = lists["scowl55"] | lists["wamerican"]
        self.rare = lists["wbritish-huge"]
        self.wordnet = sources.wordnet_words
        self.answers = lists["answers"]
        self.known = self.core | self.common | self.rare | self.wordnet
        # the words a phrase may be read into: dictionary words, of three
        # letters only from SCOWL, of two or one only the few listed
        self.phrase_words = {
            word
            for word in self.common | self.wordnet
            if len(word) > 3 or (len(word) == 3 and word in self.common)
        }
        self.phrase_words |= SHORT_WORDS | {"a", "i"}
        self.longest = max(map(len, self.phrase_words))
        # WordNet's phrases by their letters, plurals too: NOSERINGS
        self.wordnet_readings: dict[str, list[tuple[str, ...]]] = {}
        for phrase in sorted(sources.wordnet_phrases):
            words = tuple(phrase.split())
            forms = [words]
            if phrase in sources.wordnet_nouns:
                forms.append((*words[:-1], words[-1] + "s"))
            if phrase in sources.wordnet_nouns and words[-1].endswith(("s", "x", "z", "ch", "sh")):
                forms.append((*words[:-1], words[-1] + "es"))
            for form in forms:
                self.wordnet_readings.setdefault("".join(form), []).append(form)

    def zipf(self, word: str) -> float:
        return self.sources.zipf.get(word, 0.0)

    def familiarity(self, word: str) -> float:
        return 15 + 10 * self.zipf(word)

    def word_score(self, word: str) -> float:
        """A single word: its familiarity, raised for the core of English,
        lowered by how rare the lists that hold it are."""
        if word in self.core:  # though not its odd forms no one writes: ALASES
            return max(self.familiarity(word), 30) if self.zipf(word) else 15
        # Short tokens are frequent in text as abbreviations and foreign
        # words (SAE, SEI, WAT): outside the core they need more to pass.
        short = {3: 10, 4: 5}.get(len(word), 0)
        if word in self.common:
            return self.familiarity(word) - 8 - short
        if word in self.rare:
            return self.familiarity(word) - 20 - short
        if word in self.wordnet:
            return self.familiarity(word) - 20 - short  # many abbreviations: TSS, ETD
        return self.familiarity(word) - 30 - short  # no dictionary knows it: AOA, TAA

    @cache  # noqa: B019 - one scorer per build
    def part_cost(self, part: str) -> float | None:
        """The cost of reading `part` as one word of a phrase (lower is
        likelier), None when it is no word."""
        if len(part) == 1 and part not in ("a", "i"):
            return 9.0  # a letter: X-RAY, T-SHIRT (WordNet's phrases only)
        if part not in self.phrase_words:
            return None
        return 10.5 - min(self.zipf(part), 7.0)

    def split(self, entry: str) -> tuple[str, ...] | None:
        """The likeliest reading of `entry` as two or more words, if any."""
        best: list[tuple[float, tuple[str, ...]] | None] = [None] * (len(entry) + 1)
        best[0] = (0.0, ())
        for end in range(1, len(entry) + 1):
            for start in range(max(0, end - self.longest), end):
                before = best[start]
                cost = self.part_cost(entry[start:end])
                if before is None or cost is None:
                    continue
                reading = (before[0] + cost, (*before[1], entry[start:end]))
                now = best[end]
                if now is None or reading < now:
                    best[end] = reading
        found = best[len(entry)]
        return found[1] if found is not None and len(found[1]) > 1 else None

    def phrase_score(self, entry: str, words: tuple[str, ...]) -> float:
        """A reading of an entry as a phrase: as familiar as its least known
        word; WordNet's phrases (and their plurals) count more, a phrase
        only the crossword answers hold less, and only when made of content
        words alone (else it is mostly a partial: ASBAD, THEERA, ALIENTO)."""
        if len(set(words)) < len(words):
            return 0.0  # AAAAAAAAAAAAAAA as AAA AAA AAA...
        if entry not in self.wordnet_readings:
            return self._unvouched(entry, words)
        content = [word for word in words if word not in FUNCTION_WORDS and len(word) > 1]
        if not content:
            return min(10.0, self._rarest(words))  # a partial, even in WordNet
        # a phrase of WordNet's that no crossword has used is mostly a
        # taxonomy (BEAR OAK, SEA MAT): correct, but dull
        score = self._rarest(content) - (0 if entry in self.answers else 12)
        return score - 5 * max(0, len(words) - 2)

    def _unvouched(self, entry: str, words: tuple[str, ...]) -> float:
        """A phrase no dictionary lists: only from the crossword answers."""
        if any(len(word) == 1 and word not in "ai" for word in words):
            return 0.0  # a lone letter: S GO, Y ST
        content = [word for word in words if word not in FUNCTION_WORDS]
        if not content:
            return min(10.0, self._rarest(words))  # a partial: ISTO, OHNO
        if words[0] in PARTIAL_START or words[-1] in PARTIAL_END:
            return min(20.0, self._rarest(words))
        # Two words side by side are a phrase or not (GOOD THING, OUT SEA):
        # without a dictionary to say which, such an entry is at most
        # acceptable.
        score = self._rarest(content) - 22 - 5 * (len(words) - 2)
        if len(content) < len(words):  # AT EASE, GOT IT, but also AGE ONE, SEE OUT
            score = min(score - 10, 35.0)
        if len(entry) <= 5:
            score -= 20  # short splits are mostly partials and abbreviations
        return min(score, 40.0)

    def _rarest(self, words: Iterable[str]) -> float:
        return min(10 + 10 * self.zipf(word) for word in words)

    def score(self, entry: str) -> int:
        """The entry's best reading: as a word, or as a phrase WordNet
        vouches for (ICECREAM, NOSERINGS), or else, for an entry no
        dictionary holds, as its likeliest split into words (not the kindest:
        AREASON is A REASON, not AREA SON)."""
        readings = self.wordnet_readings.get(entry, [])
        if not readings and entry not in self.known:
            split = self.split(entry)
            readings = [split] if split else []
        scores = [self.phrase_score(entry, words) for words in readings]
        best = max([self.word_score(entry), *scores])
        return max(0, min(100, round(best)))


def candidates(sources: Sources) -> Iterator[str]:
    yield from sources.lists["answers"]
    for name in ("scowl35", "scowl55", "wamerican", "wbritish-huge"):
        yield from sources.lists[name]
    yield from sources.wordnet_words
    for phrase in sources.wordnet_phrases:
        yield phrase.replace(" ", "")


def build(sources: Sources) -> list[tuple[str, int]]:
    """The shipped entries: (WORD, score), in alphabetical order."""
    scorer = Scorer(sources)
    entries: dict[str, int] = {}
    for entry in candidates(sources):
        entry = re.sub(r"[^a-z]", "", entry)
        if 2 < len(entry) <= MAX_LENGTH and entry not in entries:
            entries[entry] = scorer.score(entry)
    kept = [(word.upper(), score) for word, score in entries.items() if score >= JUNK_FLOOR]
    kept.sort()
    return kept


def write(entries: list[tuple[str, int]], path: Path) -> None:
    path.write_text("".join(f"{word};{score}\n" for word, score in entries), encoding="utf-8")


def notices(shared: Path, wordnet: Path) -> dict[str, str]:
    """The copyright notices the sources ask every copy to carry, taken from
    the sources themselves: file name -> text."""
    scowl = (shared / "bench/dicts/debian-wamerican.copyright").read_text(encoding="utf-8")
    header = []
    for line in (wordnet / WORDNET_INDEXES[0]).read_text(encoding="utf-8").splitlines():
        if not line.startswith("  "):
            break
        header.append(line[2:].lstrip("0123456789").strip())
    return {
        "NOTICE-SCOWL.txt": "The SCOWL word lists (through Debian's wamerican and wbritish-huge "
        "packages), their copyright file:\n\n" + scowl,
        "NOTICE-WordNet.txt": "WordNet 3.0 (through Debian's wordnet-base), the licence at the "
        "top of its index files:\n\n" + "\n".join(header).strip() + "\n",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pybridge.wordlist.build", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--shared", type=Path, default=HERE.parents[1].parent / "shared")
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    parser.add_argument(
        "--output", type=Path, default=LIST_PATH.parent, help="the folder to write into"
    )
    args = parser.parse_args(argv)
    entries = build(read_sources(args.shared, args.wordnet))
    args.output.mkdir(parents=True, exist_ok=True)
    write(entries, args.output / LIST_PATH.name)
    for name, text in notices(args.shared, args.wordnet).items():
        (args.output / name).write_text(text, encoding="utf-8")
    good = sum(score >= GOOD for _, score in entries)
    acceptable = sum(score >= ACCEPTABLE for _, score in entries)
    print(
        f"wrote {args.output / LIST_PATH.name}: {len(entries)} entries, {good} good ({GOOD}+), "
        f"{acceptable} acceptable ({ACCEPTABLE}+)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
