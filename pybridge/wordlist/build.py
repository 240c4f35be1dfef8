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
- Names WordNet holds (OSLO, EARHART, WALT DISNEY) count as far as text
  writes them: a well-known name is fill, an obscure one is not.
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

from pybridge.wordlist import ACCEPTABLE, BANNED_PATH, GOOD, LIST_PATH

HERE = Path(__file__).resolve().parent
OFFENSIVE_NAME = "offensive.txt"  # the ban list's source, written by us
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
WORDNET_DATA = ("data.noun", "data.verb", "data.adj", "data.adv")


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
VOWELS = frozenset("aeiouy")
# A Roman numeral (outside the core of English, where MIX and CIVIC... are words)
ROMAN = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
# WordNet's lexicographer files of its taxonomies: a phrase found only there
# is a species or a unit (MARSH TEA, LEAD TREE, ACRE INCH), rarely fill
TAXONOMY = frozenset({"noun.plant", "noun.animal", "noun.quantity"})
ANSWERS_ONLY = 22  # the most a phrase scores that only the crossword answers hold
# A phrase of WordNet's that no crossword list holds and that its glosses
# use once at most (its own gloss) is, up to this many letters, a term (MEAN SUN, SET GUN, TIME
# BALL, TRADE BILL, AREA UNIT) or a plural no one writes (PEACE CORPSES,
# GRAPH PAPERS), unless text writes it solid (JUNKFOOD, CHOKEHOLD): its
# common words made it look like fill, and it scores as a phrase only the
# crossword answers hold (ANSWERS_ONLY). Longer ones are
# more often real phrases (HONORABLE DISCHARGE) and keep their score.
UNUSED_TERM = 9
SHORT = 5  # letters: a rare or unknown word this short is mostly crosswordese (LADE, DOST)
# A longer phrase of common words that a crossword list holds is mostly a
# phrase (TOUGH COOKIE, THREE CHEERS, LOCKED HORNS): (letters, bonus, cap)
LONG_ANSWER = (9, 10, 32)
# ... unless WordNet's glosses use it once (EVE ATE) or more (GOOD THING):
# (times, bonus, cap)
IN_GLOSSES = ((2, 15, 40), (1, 5, 30))
# A form far rarer than its word (100 times: 2 on the Zipf scale) is one
# that no one writes, the plural of a mass noun or a made-up past: SAMES,
# MAGICS, GOS, CASTED, SHIES (SWIVELED, 1.2 below swivel, and STONIER, 1.8
# below stony, are only rare).
ODD_FORM_GAP = 2.0
ODD_SHORT_FORM_GAP = 1.5  # ... 30 times for a short one (SWUM, WEER, LAMES)
# ... but text writes it, however common its word, once in a million words
# (TEAS, COOLS, VICES, COURTING: tea, cool, vice, court), or once in five
# million when a dictionary (wamerican) and a crossword hold it too (OVALS,
# SKIED, CLUED, EGGED), unless it is a thousand times rarer than its word
# (NOES, LEFTS) or a form of a function word (MES, HES, THERES)
WRITTEN_FORM = 3.0
SEEN_FORM = 2.3
NEVER_FORM_GAP = 3.0
# What a longer word of wamerican that WordNet 3.0 (2006) lacks loses
# (BARISTAS, PHISHING, FACEPALM; and a name the list holds lower-cased)
NEWER_WORD = 12
# What a name of WordNet's that no dictionary holds loses (OSLO, ZEUS,
# EARHART: the familiarity of an obscure one is too low to pass)
NAME = 16
# A part of a name that text writes this often is a name people know: WALT
# (DISNEY), BETTE (DAVIS), RINGO (STARR); MISTI (EL MISTI) is not; a name of
# three parts must be known words (not RACHEL LOUISE CARSON)
NAME_PART = 2.5
# What the rules above miss, held below the line by hand (score 20), each
# with the reason an editor gives. Crosswordese: short words met only in
# crosswords; unpleasant: words that fail the breakfast test (not offensive
# enough for the default ban list, offensive.txt).
BY_HAND = {
    "ani": "crosswordese: a cuckoo",
    "amir": "crosswordese: a variant of emir",
    "erne": "crosswordese: a sea eagle",
    "esne": "crosswordese: an Anglo-Saxon labourer",
    "etui": "crosswordese: a needle case",
    "seamew": "crosswordese: a gull",
    "sterna": "crosswordese: a genus of terns, or sternums",
    "fala": "crosswordese: a refrain, or FDR's dog",
    "stnick": "an abbreviated saint",
    "ires": "a plural of a mass noun (ire)",
    "pis": "a plural no one writes (pi)",
    "nils": "a plural no one writes (nil)",
    "suisse": "French",
    "etalii": "Latin, met only abbreviated (et al.)",
    "masse": "crosswordese: a billiards shot (masse)",
    "interne": "a variant spelling (intern)",
    "instal": "a variant spelling (install)",
    "anal": "unpleasant",
    "coital": "unpleasant",
    "incest": "unpleasant",
    "urinate": "unpleasant",
    "urinates": "unpleasant",
    "nipple": "unpleasant",
    "nipples": "unpleasant",
    "panties": "unpleasant",
    "orgy": "unpleasant",
    "orgies": "unpleasant",
    "enema": "unpleasant",
    "enemas": "unpleasant",
    "cialis": "unpleasant: a drug's brand name",
    "getalook": "no phrase of its own (take a look)",
    "juliusmarx": "a name known by another (Groucho Marx)",
    "feetail": "a lawyer's term (fee tail)",
    "covent": "half a name (Covent Garden)",
    "passtime": "a misspelling (pastime)",
    "opentone": "no phrase of its own (an open tone)",
    "areamap": "no phrase of its own (a map of an area)",
    "meatstew": "no phrase of its own (a stew of meat)",
    "leadtree": "a tree only botanists name",
    # the editor's reading of make's default fills, seeds 1-20 (session 7)
    "inti": "crosswordese: a former Peruvian currency",
    "bani": "crosswordese: a plural of ban, a Romanian coin",
    "liras": "a plural editors write as lire",
    "ameer": "a variant spelling (emir)",
    "cissy": "a variant spelling (sissy)",
    "effed": "a euphemism that fails the breakfast test",
    "noreast": "crosswordese: a contraction only sailors' songs use",
    "botree": "crosswordese: the pipal, a fig tree",
    "laotse": "a variant spelling (Lao-tzu)",
    "capapie": "French, met only in crosswords (cap-a-pie)",
    "tralas": "a plural of an interjection",
    "rattats": "a plural of an interjection",
    "anyrate": "a partial (at any rate)",
    "penis": "unpleasant",
    "semen": "unpleasant",
    "sperm": "unpleasant",
    "erection": "unpleasant",
    "orgasm": "unpleasant",
    "orgasms": "unpleasant",
    "testes": "unpleasant",
    "rectal": "unpleasant",
    "brothel": "unpleasant",
    "brothels": "unpleasant",
}
BY_HAND_SCORE = 20


@dataclass(frozen=True)
class WordNetFacts:
    """What WordNet's synsets and its morphology say of the words:
    `abbreviations` (single words that, in every synset holding them, stand
    for a longer name of the synset: APR for April, DDS, PCT, SEN), `proper`
    (the words and phrases, space-joined, that WordNet writes only as names:
    Oslo, Amen-Ra, El Misti), `taxonomy` (the phrases WordNet has only as
    plants, animals and units: MARSH TEA, SEA ASH, ACRE INCH), `lemmas` (a word that is a
    form of WordNet lemmas -> those lemmas: SETTS -> sett, TRIED -> try) and
    `verb_forms` (a verb -> its other forms in the
    dictionaries: try -> tried, tries, trying), for the verb phrases
    (TRIED ON)."""

    abbreviations: frozenset[str]
    proper: frozenset[str]
    taxonomy: frozenset[str]
    lemmas: dict[str, tuple[str, ...]]
    verb_forms: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class Sources:
    """Every input of a build: the word lists (a-z, one a line), WordNet's
    index files, and wordfreq's English frequencies (token -> Zipf)."""

    lists: dict[str, frozenset[str]]
    wordnet_words: frozenset[str]
    wordnet_phrases: frozenset[str]  # the phrase's words joined by spaces
    wordnet_nouns: frozenset[str]  # those of them that are nouns (SET IN is not: no SET INS)
    wordnet_verbs: frozenset[str]  # those that are verbs (TRY ON: TRIED ON, TRIES ON)
    zipf: dict[str, float]
    wordnet: WordNetFacts
    # runs of 2-4 words in WordNet's glosses and examples that spell a
    # crossword answer -> how often: the only count of a phrase itself
    # ("it's a good thing that..."), for the answers no dictionary lists
    in_glosses: dict[str, int]


def read_list(path: Path) -> frozenset[str]:
    words = (line.strip().lower() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(word for word in words if word)


def read_wordnet(
    folder: Path,
) -> tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]:
    """WordNet's lemmas: single words, and phrases as space-joined words
    (every phrase, the noun phrases, which have plurals, and the verb
    phrases, whose verb has its forms)."""
    words: set[str] = set()
    phrases: set[str] = set()
    nouns: set[str] = set()
    verbs: set[str] = set()
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
                if name == "index.verb":
                    verbs.add(" ".join(parts))
    return frozenset(words), frozenset(phrases), frozenset(nouns), frozenset(verbs)


def _letters(text: str) -> str:
    return re.sub(r"[^a-z]", "", text.lower())


def _stands_for(short: str, name: str) -> bool:
    """Whether `short` reads as an abbreviation of `name` (letters only):
    the same first letter, and its letters in order in the longer name."""
    if len(name) <= len(short) + 1 or short[0] != name[0]:
        return False
    rest = iter(name)
    return all(letter in rest for letter in short)


def read_wordnet_facts(folder: Path, candidates: Iterable[str]) -> WordNetFacts:
    """WordNet's abbreviations, names and inflections (see WordNetFacts),
    read with nltk's WordNet reader; `candidates` are the words whose
    inflections are looked up."""
    from pybridge.suggest import WordNet

    reader = WordNet(folder).reader
    short_names: dict[str, list[bool]] = {}  # a word -> per synset, whether it abbreviates
    capitalised: dict[str, list[bool]] = {}  # a lemma -> per synset, whether written as a name
    classed: dict[str, list[bool]] = {}  # a phrase -> per synset, whether a plant, animal or unit
    for synset in reader.all_synsets():
        lemmas = synset.lemmas()
        names = [[_letters(part) for part in re.split(r"[_-]", lemma.name())] for lemma in lemmas]
        for lemma, parts in zip(lemmas, names, strict=True):
            name = lemma.name()  # (a word in capitals is an acronym, no name: NATO, DVD)
            written = name[:1].isupper() and (len(parts) > 1 or not name.isupper())
            capitalised.setdefault(" ".join(parts), []).append(written)
            if len(parts) > 1:
                classed.setdefault(" ".join(parts), []).append(synset.lexname() in TAXONOMY)
            elif 1 < len(parts[0]) <= 5:
                # a longer name of the synset that it is not a word of
                # (EMU is no abbreviation of Emu novaehollandiae)
                stands = any(
                    parts[0] not in other and _stands_for(parts[0], "".join(other))
                    for other in names
                )
                short_names.setdefault(parts[0], []).append(stands)
    abbreviations = {word for word, says in short_names.items() if all(says)}
    proper = frozenset(phrase for phrase, says in capitalised.items() if all(says))
    taxonomy = frozenset(phrase for phrase, says in classed.items() if all(says))
    bases_of: dict[str, set[str]] = {}
    verb_forms: dict[str, set[str]] = {}
    for word in candidates:
        for pos in "nva":
            base = reader.morphy(word, pos)
            if base is None or base == word:
                continue
            bases_of.setdefault(word, set()).add(base)
            if base in abbreviations:  # VOLS
                abbreviations.add(word)
            if pos == "v" and "_" not in base:
                verb_forms.setdefault(base, set()).add(word)
    return WordNetFacts(
        frozenset(abbreviations),
        proper,
        taxonomy,
        {word: tuple(sorted(bases)) for word, bases in bases_of.items()},
        {verb: tuple(sorted(forms)) for verb, forms in verb_forms.items()},
    )


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


def read_glosses(folder: Path, answers: frozenset[str]) -> dict[str, int]:
    """How often each run of 2 to 4 words of WordNet's glosses and examples
    (the text after `|` in its data files), within one clause (between
    punctuation), spells one of the `answers`; the run's words joined by
    spaces."""
    found: dict[str, int] = {}
    for name in WORDNET_DATA:
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            if " | " not in line:
                continue
            # a run never crosses punctuation: "ready, set, go" spells no SET GO
            for clause in re.split(r"[^a-z' -]+", line.split(" | ", 1)[1].lower()):
                words = re.findall(r"[a-z]+", clause)
                for start in range(len(words)):
                    for end in range(start + 2, min(start + 4, len(words)) + 1):
                        run = words[start:end]
                        if "".join(run) in answers:
                            phrase = " ".join(run)
                            found[phrase] = found.get(phrase, 0) + 1
    return dict(sorted(found.items()))


def read_sources(shared: Path, wordnet: Path) -> Sources:
    lists = {name: read_list(shared / path) for name, path in SHARED_LISTS.items()}
    wordnet_words, wordnet_phrases, wordnet_nouns, wordnet_verbs = read_wordnet(wordnet)
    words = sorted(set().union(*(lists[name] for name in SHARED_LISTS if name != "answers")))
    facts = read_wordnet_facts(wordnet, words)
    # (the phrases of WordNet too: a gloss using one vouches for it as fill)
    phrases = frozenset(phrase.replace(" ", "") for phrase in wordnet_phrases)
    glosses = read_glosses(wordnet, lists["answers"] | phrases)
    return Sources(
        lists,
        wordnet_words,
        wordnet_phrases,
        wordnet_nouns,
        wordnet_verbs,
        read_zipf(),
        facts,
        glosses,
    )


# ---------------------------------------------------------------- scoring


class Scorer:
    """Scores entries (a-z strings) from the sources."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources
        lists = sources.lists
        facts = sources.wordnet
        self.core = lists["scowl35"]
        self.scowl55 = lists["scowl55"]
        self.common = self.scowl55 | lists["wamerican"]
        self.rare = lists["wbritish-huge"]
        self.wordnet = sources.wordnet_words
        self.answers = lists["answers"]
        self.known = self.core | self.common | self.rare | self.wordnet
        # a word WordNet knows, itself or as a form of one of its words (SETTS)
        self.wordnet_known = self.wordnet | facts.lemmas.keys()
        self.abbreviations = facts.abbreviations
        # the words a phrase may be read into: dictionary words, of three
        # letters only from SCOWL, of two or one only the few listed
        self.phrase_words = {
            word
            for word in self.common | self.wordnet
            if len(word) > 3 or (len(word) == 3 and word in self.common)
        }
        self.phrase_words |= SHORT_WORDS | {"a", "i"}
        self.longest = max(map(len, self.phrase_words))
        # WordNet's phrases by their letters, plurals and verb forms too:
        # NOSERINGS, TRIEDON
        self.wordnet_readings: dict[str, list[tuple[str, ...]]] = {}
        for phrase in sorted(sources.wordnet_phrases):
            for form in self._forms(phrase):
                self.wordnet_readings.setdefault("".join(form), []).append(form)

    def _forms(self, phrase: str) -> list[tuple[str, ...]]:
        """A WordNet phrase's words, and those of its plurals (a noun's) and
        its verb's forms (a verb phrase's)."""
        words = tuple(phrase.split())
        forms = [words]
        if phrase in self.sources.wordnet_nouns:
            forms.append((*words[:-1], words[-1] + "s"))
            if words[-1].endswith(("s", "x", "z", "ch", "sh")):
                forms.append((*words[:-1], words[-1] + "es"))
        if phrase in self.sources.wordnet_verbs and words[0] != "be":
            # (not BE WELL as IS WELL, WAS DUE: a form of BE reads as a partial)
            verb_forms = self.sources.wordnet.verb_forms.get(words[0], ())
            forms.extend((form, *words[1:]) for form in verb_forms)
        return forms

    def zipf(self, word: str) -> float:
        return self.sources.zipf.get(word, 0.0)

    def familiarity(self, word: str) -> float:
        return 15 + 10 * self.zipf(word)

    def word_score(self, word: str) -> float:
        """A single word: its familiarity, raised for the core of English,
        lowered by how rare the lists that hold it are, and held below the
        line for what an editor sends back unless it is common: an
        abbreviation, a Roman numeral, a word WordNet does not know in any
        form (archaic and dialect forms: DOST, NAE), a form of a word that
        is itself below the line (SETTS)."""
        score = self._own_score(word)
        bases = [base for base in self.sources.wordnet.lemmas.get(word, ()) if base != word]
        if bases and word not in self.core and self._base_gap(word) > 0:
            # a form is no better known than its word (SETTS), unless text
            # writes it more: CORRUGATED, NONPLUSSED (corrugate, nonplus)
            score = min(score, max(self._base_score(base) for base in bases) + 2)
        return score

    @cache  # noqa: B019 - one scorer per build
    def _base_score(self, base: str) -> float:
        return self._own_score(base) if set(base) <= LETTERS else 100.0

    def _own_score(self, word: str) -> float:
        score = self._listed_score(word)
        if word not in self.wordnet_known and len(word) <= SHORT:  # DOST, NAE, RTE, SWUM
            score -= 10  # (a longer one is mostly a derived form: OBLIVIOUSLY, REENTERED)
        if self._odd_form(word):  # SAMES, MAGICS, CASTED
            score -= 25
        if word in self.core:
            return score
        if word in self.abbreviations or not set(word) & VOWELS:  # APR, SEN, DDS, PCT
            # only the common ones pass: CEO, FBI, NBA, not TBS, VOLS, ASST
            score = min(score, 10 * self.zipf(word) - 17)
        if ROMAN.fullmatch(word):  # III, XII, MCM
            score = min(score, 15)
        return score

    def _base_gap(self, word: str) -> float:
        """How much rarer a form is than its commonest word (0: none)."""
        bases = self.sources.wordnet.lemmas.get(word, ())
        return max([self.zipf(base) for base in bases], default=0.0) - self.zipf(word)

    def _far_rarer(self, word: str) -> bool:
        """Whether `word` is a form far rarer than its word (ODD_FORM_GAP)."""
        gap = ODD_SHORT_FORM_GAP if len(word) <= SHORT else ODD_FORM_GAP
        return self._base_gap(word) > gap

    def _odd_form(self, word: str) -> bool:
        """Whether `word` is a form no one writes: far rarer than its word
        and rare in itself (WRITTEN_FORM, SEEN_FORM), a thousand times rarer
        than its word, or a form of a function word (MES, THERES: the Zipf of
        such a token is a foreign word's or a name's)."""
        if not self._far_rarer(word):
            return False
        bases = self.sources.wordnet.lemmas.get(word, ())
        if any(base in FUNCTION_WORDS for base in bases) or self._base_gap(word) > NEVER_FORM_GAP:
            return True
        seen = word in self.sources.lists["wamerican"] and word in self.answers
        return self.zipf(word) < (SEEN_FORM if seen else WRITTEN_FORM)

    def _effective_zipf(self, word: str) -> float:
        """A word's frequency, or nearly its word's for a form that text
        seldom writes (SWIVELED, SEDATING: swivel, sedate) but not one far
        rarer than its word (SAMES, and TEAS, which text writes but not as
        often as tea)."""
        gap = self._base_gap(word)
        if self._far_rarer(word):
            return self.zipf(word)
        return max(self.zipf(word), self.zipf(word) + gap - 0.5)

    def _listed_score(self, word: str) -> float:
        if word in self.core:  # though not its odd forms no one writes: ALASES
            if not self.zipf(word):
                return 15
            zipf = self._effective_zipf(word)
            if zipf < 2.5:  # the core's rare words: LADE, and CHASTER, CLEFTING
                return 15 + 10 * zipf - (12 if len(word) <= SHORT else 6)
            return max(15 + 10 * zipf, 30)
        # Short tokens are frequent in text as abbreviations and foreign
        # words (SAE, SEI, WAT, TUN, SETT): outside the core they need more
        # to pass.
        short = {3: 14, 4: 8}.get(len(word), 0)
        if word in self.scowl55 or (word in self.common and word in self.wordnet_known):
            return self.familiarity(word) - 8 - short  # (wamerican has abbreviations: VOLS)
        if word in self.common and len(word) > SHORT:
            # a longer word newer than WordNet 3.0 (2006): BARISTAS, PHISHING,
            # FACEPALM (and the odd name the lists hold lower-cased: WOMBLE)
            return self.familiarity(word) - NEWER_WORD
        if word in self.rare:
            return self.familiarity(word) - 20 - short
        if word in self.sources.wordnet.proper:
            # a name WordNet holds: OSLO, ERIE, ZEUS (the abbreviations among
            # them, NATO, HTML, are held back with the others)
            return self.familiarity(word) - NAME - short
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
        article_last = words[-1] in ("a", "an", "the")  # HARDLY A, not the noun TYPE A
        if not content or (article_last and " ".join(words) not in self.sources.wordnet_nouns):
            return min(10.0, self._rarest(words))  # a partial, even in WordNet
        # a phrase of WordNet's that no crossword has used is mostly a
        # taxonomy (BEAR OAK, SEA MAT) or a term (STAT MI, MOT TEST):
        # correct, but dull; a species or a unit is, even if one has
        unused = 25 if len(entry) <= 7 else 18  # (short ones are mostly terms: RED TAI)
        score = self._rarest(content) - (0 if entry in self.answers else unused)
        if entry not in self.answers and len(entry) <= UNUSED_TERM:
            if words[0] in PARTIAL_START or words[0] == "be":
                return min(15.0, score)  # a partial, even in WordNet: AS WE SAY, BE DUE
            used = self.sources.in_glosses.get(" ".join(words), 0)
            # (text that writes it solid vouches for it too: JUNKFOOD, CHOKEHOLD)
            if used < IN_GLOSSES[0][0] and not self.zipf(entry):
                score = min(score, ANSWERS_ONLY)  # a term or a made-up plural: MEAN SUN, POP ARTS
        if " ".join(words) in self.sources.wordnet.taxonomy:
            score -= 10
        noun = " ".join(words) in self.sources.wordnet_nouns
        if any(len(word) == 1 and (word != "a" or noun) for word in words[1:]):
            # a numeral or a letter after a name (LEO I, HSV I), or a term
            # (DOMAIN OF A FUNCTION); an idiom holds an article (TAKE A BOW)
            score -= 25
        if any(len(word) == 1 and word not in "ai" for word in words) and entry not in self.answers:
            score -= 25  # a letter no crossword has used: BIG H, K LOR
        if " ".join(words) in self.sources.wordnet.proper and ROMAN.fullmatch(words[-1]):
            score -= 25  # a king or a pope: LEO X, LEO IX
        # a name in full, of three parts, passes only on known words: not
        # RACHEL LOUISE CARSON, WILLIAM HENRY HUDSON
        in_full = len(content) > 2
        if " ".join(words) in self.sources.wordnet.proper and any(
            (part not in self.known and (in_full or self.zipf(part) < NAME_PART))
            or (len(part) == 2 and part not in SHORT_WORDS)
            for part in words
        ):
            score -= 30  # a name with a foreign or unknown part: AMEN RA, EL MISTI
        return score - 5 * max(0, len(words) - 2)

    def _unvouched(self, entry: str, words: tuple[str, ...]) -> float:
        """A phrase no dictionary lists, only the crossword answers: below
        the line whatever its words (SAD LOT, SETS NO, TEST ONE, EVE ATE,
        SIDE HALL: without a count of the phrase itself nothing says it is
        one), ranked by its words."""
        if any(len(word) == 1 and word not in "ai" for word in words):
            return 0.0  # a lone letter: S GO, Y ST
        content = [word for word in words if word not in FUNCTION_WORDS]
        if not content:
            return min(10.0, self._rarest(words))  # a partial: ISTO, OHNO
        if words[0] in PARTIAL_START or words[-1] in PARTIAL_END:
            return min(15.0, self._rarest(words))
        score = self._rarest(content) - 35 - 5 * (len(words) - 2)
        if len(content) < len(words):  # AT EASE, GOT IT, but also AGE ONE, SEE OUT
            score -= 5
        if len(entry) <= 5:
            score -= 10  # short splits are mostly partials and abbreviations
        most = ANSWERS_ONLY
        if len(entry) >= LONG_ANSWER[0] and content == list(words):
            score, most = score + LONG_ANSWER[1], LONG_ANSWER[2]
        # (content words only: glosses say SO RARE, ONE LOT in passing)
        used = self.sources.in_glosses.get(" ".join(words), 0) if content == list(words) else 0
        for times, bonus, cap in IN_GLOSSES:
            if used >= times:
                return min(score + bonus, max(cap, most))
        return min(score, most)

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
        if not set(entry) & VOWELS and entry not in self.core:  # MM HG, HTTP
            best = min(best, self.word_score(entry))
        if entry in BY_HAND:
            best = min(best, BY_HAND_SCORE)
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


def ban_rules(text: str) -> list[str]:
    """The rules of the ban list's source (offensive.txt): one a line, lower
    case, no comments or blank lines."""
    rules = []
    for line in text.splitlines():
        rule = line.split("#", 1)[0].strip().lower()
        if rule:
            if not re.fullmatch(r"\*?[a-z]+\*?", rule):
                raise ValueError(f"offensive.txt: {line!r} is not word, word* or *word*")
            rules.append(rule)
    return rules


def banned(entries: Iterable[str], rules: Iterable[str]) -> list[str]:
    """The entries (upper case) that the rules ban, in order: `word` bans
    the word and its plural (other forms are lines of their own: a suffix
    rule would ban SPICED for SPIC, SHATTER for SHAT), `word*` every entry
    starting with it, `*word*` every entry holding it."""
    forms: set[str] = set()
    starts: list[str] = []
    inside: list[str] = []
    for rule in rules:
        root = rule.strip("*").upper()
        if rule.startswith("*"):
            inside.append(root)
        elif rule.endswith("*"):
            starts.append(root)
        else:
            forms.update(
                (root, root + ("ES" if root.endswith(("S", "X", "Z", "CH", "SH")) else "S"))
            )
    return sorted(
        entry
        for entry in entries
        if entry in forms
        or entry.startswith(tuple(starts))
        or any(part in entry for part in inside)
    )


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
    rules = ban_rules((HERE / OFFENSIVE_NAME).read_text(encoding="utf-8"))
    ban = banned((word for word, _ in entries), rules)
    (args.output / BANNED_PATH.name).write_text("".join(f"{word}\n" for word in ban), "utf-8")
    for name, text in notices(args.shared, args.wordnet).items():
        (args.output / name).write_text(text, encoding="utf-8")
    good = sum(score >= GOOD for _, score in entries)
    acceptable = sum(score >= ACCEPTABLE for _, score in entries)
    print(
        f"wrote {args.output / LIST_PATH.name}: {len(entries)} entries, {good} good ({GOOD}+), "
        f"{acceptable} acceptable ({ACCEPTABLE}+); {BANNED_PATH.name}: {len(ban)} entries"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
