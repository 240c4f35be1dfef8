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
ICECREAM), no word of the clue is a part of the answer ("hips" for
ROSEHIPS) or one letter from it or from a word of it ("Odesa" for ODESSA).
Senses glossed as vulgar, offensive or sexual are passed over. An
answer that is no WordNet word (an abbreviation, most phrases) gets no
suggestion: the commands list those
entries as the clues left to write.

A plural noun, an inflected verb or a compared adjective that WordNet
does not clue as a word of its own (CRAGS, RAN, ESPIES, LISTED, EERIER)
gets a sense of its base form, its gloss put in the answer's form: the
head nouns of the gloss's first noun phrase pluralised (a verb of a
relative clause made to agree: "persons who come"), the gloss's first verb
inflected ("moved fast"), or its first adjective compared ("more
suggestive", "largest"), by English's rules and WordNet's lists of
irregular forms (an irregular past only where that list names one: ran,
took, taken; not "came" for a participle); no form of "be" is guessed.
"""

from __future__ import annotations

import functools
import io
import os
import re
import unicodedata
import warnings
from collections.abc import Iterable, Iterator, Sequence
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
    (
        ", ",
        ": ",
        " that ",
        " which ",
        " who ",
        " whose ",
        " including ",
        " especially ",
        " usually ",
        " typically ",
    ),
    (" with ", " having ", " similar to ", " used ", " made ", " from ", " for ", " by ", " in "),
    (" involving ", " at ", " to "),
)
ARTICLES = ("a ", "an ", "the ")
UNFIT = re.compile(
    r"vulgar|obscen|offensive|disparag|derogat|\bslur|\bslang for|sexual|intercourse", re.IGNORECASE
)  # a newsletter or a classroom prints these clues
DOMAIN = re.compile(r"^\(([A-Za-z][A-Za-z -]{0,29})\)\s*")  # (baseball); not (plural of `x')
PRONOUNS = frozenset({"something", "someone", "somebody", "anything", "it", "one", "thing"})
# where a gloss's first noun phrase ends: its head noun is the word before
PHRASE_ENDS = frozenset(
    [
        "of",
        "that",
        "which",
        "who",
        "whose",
        "with",
        "for",
        "in",
        "from",
        "used",
        "by",
        "to",
        "on",
        "at",
        "as",
        "especially",
        "usually",
        "typically",
        "having",
        "made",
    ]
)
ASIDE = re.compile(r"\s*\([^()]*\)")
# nouns that are their own plural (or one already): no "dices", "sheeps"
INVARIANT = frozenset(
    [
        "dice",
        "sheep",
        "deer",
        "moose",
        "swine",
        "aircraft",
        "series",
        "species",
        "offspring",
        "cattle",
        "people",
        "police",
        "news",
        "means",
        "headquarters",
        "data",
        "media",
    ]
)
NOT_MEN = ("human", "shaman", "talisman", "caiman", "ottoman", "german", "roman", "dolman")
COMPARED = {"comparative": "More", "superlative": "Most"}
PARTICIPLE_ENDINGS = ("en", "wn", "ne", "un")  # taken, drawn, gone, begun
# first words of adjective glosses that take no "more": "of or relating to", "having"
NOT_COMPARED = frozenset(
    [
        "of",
        "relating",
        "having",
        "being",
        "not",
        "very",
        "extremely",
        "highly",
        "most",
        "more",
        "used",
        "in",
        "on",
        "at",
        "with",
        "without",
        "characterized",
        "marked",
        "denoting",
    ]
)
# words a gloss cut at a clause may not end on ("...reaction and is")
DANGLING = frozenset(
    [
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "the",
        "a",
        "an",
        "of",
        "to",
        "that",
        "which",
        "who",
        "with",
        "for",
        "by",
        "in",
        "on",
        "at",
        "as",
        "its",
        "their",
        "his",
        "her",
        "not",
        "from",
        "into",
        "than",
        "this",
        "these",
        "such",
    ]
)

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
        parts = {part for name in names for part in re.split(r"[_\-' ]+", name.lower()) if part}
        for synset in self.senses(names):
            for clue in self._clues_of(synset, names):
                if not self.reveals(answer, clue, parts):
                    return clue
        # no lemma, or none of its senses clues it safely (LISTED, whose
        # adjective is "on a list"): the word as a form of another
        return self._inflected(answer)

    def _inflected(self, answer: str) -> str | None:
        """A clue for a plural noun, an inflected verb or a compared
        adjective (CRAGS, RAILED, ESPIES, SKATING, EERIER) that WordNet
        does not clue as a word of its own: a sense of its base form, its
        gloss (or a synonym) put in the same form. The parts of speech are
        tried by the use of their most used sense (DICES: the verb, as
        "dice" is a plural already)."""
        word = answer.lower()
        if not word.isalpha() or not word.isascii():
            return None
        readings = []
        for pos, base, form in [*self._forms_of(word), *self._phrase_forms(word)]:
            if form is None or (pos == "n" and base in INVARIANT):
                continue
            kinds = ("a", "s") if pos == "a" else (pos,)  # "s": an adjective satellite
            senses = [synset for synset in self.senses([base]) if synset.pos() in kinds]
            if senses:
                used = -self._count(senses[0], base)
                readings.append((used, "nva".index(pos), base, form, senses))
        for _, _, base, form, senses in sorted(readings, key=lambda r: r[:2]):
            parts = {base, word, *base.split("_")}
            for synset in senses:
                for clue in self._inflected_clues(synset, base, form):
                    if not self.reveals(answer, clue, parts):
                        return clue
        return None

    def _forms_of(self, word: str) -> Iterator[tuple[str, str, str | None]]:
        """(part of speech, base, form) of a single word: CRAGS is crag's plural."""
        for pos in "nva":
            base = self.reader.morphy(word, pos)
            if base and base != word and "_" not in base and len(base) >= 2:
                yield pos, base, _form(word, base, pos)  # LEST is no superlative of "l"

    def _phrase_forms(self, word: str) -> Iterator[tuple[str, str, str | None]]:
        """(part of speech, base, form) of a WordNet phrase inflected and
        written as one word: CAMEOUT (come_out's past), KEEPSON (keep_on),
        GOODEGGS (good_egg's plural): its first word a verb's form, or its
        last a noun's plural."""
        for k in range(2, len(word) - 1):
            head, tail = word[:k], word[k:]
            verb = self.reader.morphy(head, "v")
            if verb and verb != head and self.reader.synsets(f"{verb}_{tail}", "v"):
                yield "v", f"{verb}_{tail}", _form(head, verb, "v")
            noun = self.reader.morphy(tail, "n")
            if noun and noun != tail and self.reader.synsets(f"{head}_{noun}", "n"):
                yield "n", f"{head}_{noun}", "plural"

    @staticmethod
    def _count(synset: Synset, name: str) -> int:
        """How often WordNet's tagged texts use `name` in this sense."""
        return sum(lemma.count() for lemma in synset.lemmas() if lemma.name().lower() == name)

    def _inflected_clues(self, synset: Synset, base: str, form: str) -> Iterator[str]:
        gloss = synset.definition()
        if UNFIT.search(gloss):
            return
        first, *others = gloss.split(";")
        parts = [first, *(part for part in others if part.strip().lower().startswith(ARTICLES))]
        for part in parts:
            short = shorten(part)
            if short is None:
                continue
            put = self._in_form(short, form, phrase=True)
            if put is not None:
                yield put
        for lemma in synset.lemmas():
            name = lemma.name()
            if name.lower() != base and name.isalpha() and name.islower() and len(name) >= 3:
                inflected = self._in_form(name, form, phrase=False)
                if inflected is not None:
                    yield inflected[:1].upper() + inflected[1:]

    def _in_form(self, text: str, form: str, *, phrase: bool) -> str | None:
        """`text` (a gloss's phrase, or a lemma when not `phrase`) put in
        `form`: plural, a comparison, or a verb form."""
        if form == "plural":
            return self._plural_phrase(text) if phrase else self._plural(text)
        if form in COMPARED:
            return self._compared_phrase(text, form) if phrase else self._compared(text, form)
        return self._verb_phrase(text, form) if phrase else self._verb(text, form)

    def _compared_phrase(self, phrase: str, form: str) -> str | None:
        """An adjective's gloss ("Suggestive of the supernatural") compared:
        "More suggestive of the supernatural"; None when the gloss does not
        start with an adjective ("Of or relating to...", "Having...")."""
        head = phrase.split(" ", 1)[0].lower()
        if head in NOT_COMPARED or not head.isalpha():
            return None
        if not any(s.pos() in ("a", "s") for s in self.reader.synsets(head, "a")):
            return None
        compared = self._compared(head, form)
        rest = phrase[len(head) :]
        return compared[:1].upper() + compared[1:] + rest

    def _compared(self, adjective: str, form: str) -> str:
        """An adjective compared: WordNet's irregular forms (good: better),
        -er/-est on a word of one syllable or of two ending in -y (larger,
        happiest), else "more"/"most" before it."""
        ending = "er" if form == "comparative" else "est"
        for written, base in self._adjective_forms():
            if base == adjective and written.endswith(ending) and not written.startswith(base):
                return written  # better, worst
        syllables = len(re.findall(r"[aeiouy]+", adjective.rstrip("e")))
        if syllables == 2 and adjective.endswith("y") and adjective[-2:-1] not in "aeiou":
            return adjective[:-1] + "i" + ending
        if syllables == 1:
            if adjective.endswith("e"):
                return adjective + ending[1:]
            if adjective.endswith("y") and adjective[-2:-1] not in "aeiou":
                return adjective[:-1] + "i" + ending
            return (adjective + adjective[-1] if _doubles(adjective) else adjective) + ending
        return f"{COMPARED[form].lower()} {adjective}"

    @functools.lru_cache(maxsize=1)  # noqa: B019 - one WordNet per process, kept
    def _adjective_forms(self) -> tuple[tuple[str, str], ...]:
        """WordNet's irregular adjective forms (adj.exc): (better, good)..."""
        path = self.folder / "adj.exc"
        if not path.is_file():
            return ()
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        return tuple((parts[0], parts[1]) for parts in map(str.split, lines) if len(parts) >= 2)

    def _plural_phrase(self, phrase: str) -> str | None:
        """A noun phrase in the plural: its head nouns (before the first
        preposition or clause, each side of an `or`/`and`) pluralised;
        "Any of various primates..." is plural already."""
        lowered = phrase.lower()
        for lead in ("any of various ", "any of several ", "any of numerous ", "any of many "):
            if lowered.startswith(lead):
                rest = phrase[len(lead) :]
                return rest[:1].upper() + rest[1:]
        phrase = phrase.split(",")[0]  # "small being, human in form": the phrase before
        if lowered.startswith("any ") and len(phrase) > 4:
            phrase = phrase[4:5].upper() + phrase[5:]  # "any property detected by": "Properties"
        words = phrase.split(" ")
        if words[0].lower().endswith("ing") or words[0][:1].isdigit():
            return None  # "Trying something...": a gerund; "16 ounces...": a measure
        end = next(
            (
                k
                for k, w in enumerate(words)
                if k and (w.lower() in PHRASE_ENDS or self._verbal(w, words[k - 1], words[k + 1 :]))
            ),
            len(words),
        )
        if end == 0 or words[end - 1].lower() in PHRASE_ENDS or not words[end - 1].isalpha():
            return None
        heads = [k - 1 for k in range(1, end) if words[k].lower() in ("or", "and")] + [end - 1]
        for k in heads:
            if words[k].lower() in PRONOUNS or not self.reader.synsets(words[k].lower(), "n"):
                return None  # no noun to pluralise ("authorizeds")
            if self._plural_already(words[k].lower()):
                continue  # "informal terms for a mother"
            plural = self._plural(words[k].lower()) if words[k].isalpha() else None
            if plural is None:
                return None
            words[k] = plural if words[k].islower() else plural[:1].upper() + plural[1:]
        relative = next(
            (
                k
                for k in range(end, min(len(words), end + 4))
                if words[k] in ("who", "that", "which")
            ),
            None,
        )  # "places of worship that have", "persons who come"
        if relative is not None and relative + 1 < len(words):
            verb = relative + 1
            if words[verb].endswith("ly") and verb + 1 < len(words):
                verb += 1  # "vases that usually have"
            agreed = self._agreeing(words[verb])  # "persons who come", not "comes"
            if agreed is None:
                return None
            words[verb] = agreed
            words[verb + 1 :] = [
                {"its": "their", "itself": "themselves"}.get(w, w) for w in words[verb + 1 :]
            ]
        # "or a numeral": an article before a head made plural goes
        kept = [w for k, w in enumerate(words) if k >= end or k == 0 or w not in ("a", "an")]
        return " ".join(kept)

    def _plural_already(self, noun: str) -> bool:
        """Whether a gloss's head noun is a plural already ("terms")."""
        if not noun.endswith("s") or noun.endswith(("ss", "us", "is")):
            return False
        singulars = [noun[:-1], noun[:-2] if noun.endswith("es") else ""]
        if noun.endswith("ies"):
            singulars.append(noun[:-3] + "y")
        return any(one and self.reader.synsets(one, "n") for one in singulars)

    def _verbal(self, word: str, before: str = "", after: Sequence[str] = ()) -> bool:
        """Whether `word` is a participle ending a noun phrase ("fish found
        in...", "a numeral representing...", "person authorized to...",
        "tree bearing small fruit" but not "office building for")."""
        word = word.lower()
        if word in self._irregular_forms():
            return True  # found, taken, led
        if word.endswith("ing") and self.reader.synsets(word, "n") and after:
            following = after[0].lower()  # "bearing small fruit": an object follows
            takes_object = following in ("a", "an", "the") or bool(
                self.reader.synsets(following, "a")
            )
            return takes_object and bool(self.reader.morphy(word, "v"))
        if not word.endswith(("ed", "ing")) or self.reader.synsets(word, "n"):
            return False  # "building", "bed"
        if word.endswith("ing") or self.reader.morphy(word, "a") is None:
            return bool(self.reader.morphy(word, "v"))  # not "rugged"
        # an adjective that is a verb's participle too, after a noun: "person authorized"
        noun_before = bool(self.reader.synsets(before.lower(), "n"))
        return bool(self.reader.morphy(word, "v")) and noun_before

    def _agreeing(self, verb: str) -> str | None:
        """A relative clause's verb agreeing with a plural subject (is: are,
        has: have, comes: come); None when it cannot be told."""
        fixed = {"is": "are", "was": "were", "has": "have", "does": "do"}
        if verb in fixed:
            return fixed[verb]
        if not verb.endswith("s") or verb.endswith("ss"):
            return verb  # "who lived", "that can"
        base = self.reader.morphy(verb, "v")
        return base if base and base != verb else None

    def _plural(self, noun: str) -> str | None:
        """A noun's plural: WordNet's exceptions (child: children), else the rules."""
        irregular = self._exceptions("noun").get(noun)
        if irregular is not None:
            return irregular
        if noun in INVARIANT:
            return noun  # series, species
        if not noun.isalpha() or noun.endswith(("ness", "ship")):
            return None  # "happinesses": a mass noun has no plural to speak of
        if noun.endswith("man") and not noun.endswith(NOT_MEN):
            return noun[:-3] + "men"  # nobleman: noblemen
        if noun.endswith(("s", "x", "z", "ch", "sh")):
            return noun + "es"
        if noun.endswith("y") and noun[-2:-1] not in "aeiou":
            return noun[:-1] + "ies"
        return noun + "s"

    def _verb_phrase(self, phrase: str, form: str) -> str | None:
        """A verb gloss ("Move fast by using one's feet") in the answer's
        form: its first verb (and one coordinated with `or`/`and`) inflected."""
        head, comma, _ = phrase.partition(", ")
        if comma and len(head.split(" ")) >= 2:
            phrase = head  # "perform an action, or work out or perform": the first verb's part
        words = phrase.split(" ")
        if "or" in words[2:]:  # "perceive by sight or have the power to...": the first part
            first_part = words[: words.index("or", 2)]
            while first_part and first_part[-1].lower() in DANGLING:
                first_part.pop()  # "give instructions [to]"
            if len(first_part) >= 2:  # not "choose [by or as if by...]"
                words = first_part
        first = self._verb(words[0].lower(), form)
        if first is None:
            return None
        words[0] = first[:1].upper() + first[1:]
        if (
            len(words) > 2
            and words[1] in ("or", "and")
            and self.reader.morphy(words[2], "v") == words[2]
        ):
            second = self._verb(words[2], form)
            if second is None:
                return None
            words[2] = second
        return " ".join(words)

    def _verb(self, verb: str, form: str) -> str | None:
        """`verb` in `form` (third, past, ing), or None for an irregular past."""
        if not verb.isalpha():
            return None
        special = {"be": {"third": "is", "ing": "being"}, "have": {"third": "has", "past": "had"}}
        if verb in special:
            return special[verb].get(form)
        if form == "third":
            if verb.endswith(("s", "x", "z", "ch", "sh", "o")):
                return verb + "es"
            return (
                verb[:-1] + "ies"
                if verb.endswith("y") and verb[-2:-1] not in "aeiou"
                else verb + "s"
            )
        if form == "ing":
            if verb.endswith("ie"):
                return verb[:-2] + "ying"
            if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
                return verb[:-1] + "ing"
            return (verb + verb[-1] if _doubles(verb) else verb) + "ing"
        if verb in self._irregular_verbs():
            return self._irregular_past(verb, participle=form == "participle")
        if verb.endswith("e"):
            return verb + "d"
        if verb.endswith("y") and verb[-2:-1] not in "aeiou":
            return verb[:-1] + "ied"
        return (verb + verb[-1] if _doubles(verb) else verb) + "ed"

    @functools.lru_cache(maxsize=2)  # noqa: B019 - one WordNet per process, kept
    def _exceptions(self, pos: str) -> dict[str, str]:
        """WordNet's irregular forms (`pos`.exc) by base form: child -> children."""
        path = self.folder / f"{pos}.exc"
        forms: dict[str, str] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split()
                if len(parts) >= 2:
                    forms.setdefault(parts[1], parts[0])
        return forms

    @functools.lru_cache(maxsize=1)  # noqa: B019 - one WordNet per process, kept
    def _irregular_forms(self) -> frozenset[str]:
        """The irregular past forms WordNet lists (found, taken, led)."""
        path = self.folder / "verb.exc"
        if not path.is_file():
            return frozenset()
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        return frozenset(
            parts[0] for parts in map(str.split, lines) if parts and not parts[0].endswith("ing")
        )

    def _irregular_past(self, verb: str, participle: bool = False) -> str | None:
        """The simple past (or the past participle) of an irregular verb,
        from WordNet's list of its forms (run: ran, take: took, taken); None
        when the list leaves it open."""
        forms = [
            form
            for form in self._verb_forms().get(verb, ())
            if not form.endswith(("ing", "s")) and form != verb
        ]
        own = [form for form in forms if form.endswith(PARTICIPLE_ENDINGS) == participle]
        if participle and not own:
            own = [form for form in forms if form.endswith(("d", "t"))]  # made, kept: alike
        return own[0] if len(own) == 1 else None

    @functools.lru_cache(maxsize=1)  # noqa: B019 - one WordNet per process, kept
    def _verb_forms(self) -> dict[str, tuple[str, ...]]:
        """WordNet's irregular verb forms (verb.exc) by base: take -> (taken, took)."""
        path = self.folder / "verb.exc"
        forms: dict[str, list[str]] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split()
                if len(parts) >= 2:
                    forms.setdefault(parts[1], []).append(parts[0])
        return {base: tuple(found) for base, found in forms.items()}

    @functools.lru_cache(maxsize=1)  # noqa: B019 - one WordNet per process, kept
    def _irregular_verbs(self) -> frozenset[str]:
        """The verbs whose past WordNet lists as irregular (take: took)."""
        path = self.folder / "verb.exc"
        irregular = set()
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                parts = line.split()
                if len(parts) >= 2 and not parts[0].endswith(("ing", "ed", "s")):
                    irregular.add(parts[1])
        return frozenset(irregular)

    def senses(self, names: Iterable[str]) -> list[Synset]:
        """The senses of these words, most used first (a noun or verb first at equal use)."""
        ranked: dict[str, tuple[int, int, int, int, Synset]] = {}
        for name in names:
            for k, synset in enumerate(self.reader.synsets(name)):
                count = sum(
                    lemma.count() for lemma in synset.lemmas() if lemma.name().lower() == name
                )
                if not any(lemma.name().lower() == name for lemma in synset.lemmas()):
                    continue  # a sense of another word that `name` is a form of (rose: rise)
                # at equal use, a sense the word heads (emu: the bird) before one
                # it is a synonym of (electromagnetic unit), a noun or verb first
                head = 0 if synset.lemmas()[0].name().lower() == name else 1
                key = (-count, head, POS_ORDER.get(synset.pos(), 4), k, synset)
                if synset.name() not in ranked or key[:4] < ranked[synset.name()][:4]:
                    ranked[synset.name()] = key
        return [entry[4] for entry in sorted(ranked.values(), key=lambda entry: entry[:4])]

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
        whole = {letters.lower(), *(plain(part).lower() for part in parts)}
        for word in words_of(clue):
            if _part_or_variant(plain(word).lower(), letters.lower(), whole):
                return True
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


def _form(word: str, base: str, pos: str) -> str | None:
    """Which form of `base` the answer `word` is: plural (a noun), third
    (runs), ing (running) or past (a verb), comparative or superlative (an
    adjective); None when it cannot be told."""
    if pos == "n":
        return "plural"
    if pos == "a":
        if word.endswith("er"):
            return "comparative"
        return "superlative" if word.endswith("est") else None
    if base == "be":  # "are", "am": no form of ours
        return {"is": "third", "being": "ing", "was": "past", "were": "past"}.get(word)
    if word.endswith("ing"):
        return "ing"
    if word.endswith("s") and not word.endswith("ss"):
        return "third"
    if word.endswith(PARTICIPLE_ENDINGS):
        return "participle"  # arisen, taken: the clue's verb a participle too
    return "past"


def _doubles(verb: str) -> bool:
    """Whether a short verb doubles its last consonant (stop: stopped, stopping)."""
    return (
        len(verb) <= 4
        and len(verb) >= 3
        and verb[-1] not in "aeiouwxy"
        and verb[-2] in "aeiou"
        and verb[-3] not in "aeiou"
    )


def _dangles(word: str) -> bool:
    """Whether a clue cut short may not end on `word`: a function word, an
    adverb or a participle ("people formerly living", "bacteria occurring",
    "company that is organized")."""
    participle = word in ("made", "used", "found", "known", "called", "given", "taken", "seen")
    participle = participle or word in ("have", "has", "had", "can", "may", "will")
    participle = participle or word in ("thought", "said", "held", "built", "kept", "left", "sold")
    participle = participle or word in ("once", "often", "sometimes", "also", "still")
    ending = word.endswith("ly") or (word.endswith(("ing", "ed")) and len(word) > 5)
    return word in DANGLING or participle or ending


def _part_or_variant(word: str, answer: str, whole: set[str]) -> bool:
    """Whether a clue's word is a part of the answer (HIPS of ROSEHIPS: 4
    letters or more inside it, 3 at its start or end) or a spelling of it or
    of a word of it one letter apart (ODESA for ODESSA)."""
    if len(word) >= 4 and word in answer:
        return True
    if len(word) == 3 and word not in DANGLING and answer.startswith(word) | answer.endswith(word):
        return True
    return len(word) >= 4 and any(_one_apart(word, other) for other in whole if len(other) >= 4)


def _one_apart(a: str, b: str) -> bool:
    """Whether `a` and `b` differ by one letter changed, added or left out."""
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    k = next((i for i, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[k:] == long[k + 1 :]


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
    # asides: "(as in a theater or on a train)", "(followed by `to')", "(superlative of `good')"
    text = ASIDE.sub("", text).strip().rstrip(".,:")
    text = re.sub(r",? etc$", "", text)  # "a society or learned body etc"
    lowered = text.lower()
    for article in ARTICLES:
        if lowered.startswith(article):
            text = text[len(article) :]
            break
    context = re.match(r"(?:in|of|on|at|for|with|among) [^:]{1,40}: ", text, re.IGNORECASE)
    if context:
        text = text[context.end() :]  # the definition after its context
        text = text[:1].upper() + text[1:]
    if len(text) > LONGEST:
        cut = _cut(text, tiers)
        if cut is None:
            return None
        kept = text[:cut].rstrip(",;: ").split(" ")
        while kept and _dangles(kept[-1].lower()):
            kept.pop()  # "...reaction and is used to detect": not "...reaction and is"
            if len(kept) >= 2 and kept[-2].lower() in ("that", "which", "who"):
                del kept[-2:]  # "instrumentalities that combine [interrelated...]"
        if len(kept) < 2:
            return None
        text = " ".join(kept)
    if domain and len(text) + len(domain) + 3 <= LONGEST:
        text = f"{text} ({domain})"
    if not text:
        return None
    return text[:1].upper() + text[1:]


def _cut(text: str, tiers: int) -> int | None:
    """Where to cut a long gloss: the last clause boundary of the first
    tier (of the first `tiers`) that has one leaving three words or more
    within LONGEST; in the last tier two, also before a participle ("Asian
    peninsula separating...")."""
    for k, tier in enumerate(CLAUSES[:tiers]):
        patterns = [re.escape(clause) for clause in tier]
        if k == len(CLAUSES) - 1 and not text.split(" ", 1)[0].endswith("ing"):
            patterns.append(r" (?=[a-z]{3,}ing )")  # not in "Denoting a quantity consisting..."
        least = 2 if k == len(CLAUSES) - 1 else 3  # "Asian peninsula" only as a last resort
        fitting = [
            match.start()
            for pattern in patterns
            for match in re.finditer(pattern, text)
            if 12 <= match.start() <= LONGEST and len(text[: match.start()].split()) >= least
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
