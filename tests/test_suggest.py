"""Clue suggestions from WordNet (issue 36): a suggestion never gives its
answer away, checked here by a checker of our own (the Snowball stemmer,
not the suggester's Porter, and plain substring tests) over a sample of a
whole dictionary and over every suggested clue of a made 15x15; the sense
and shortening rules on known words; and what a machine without WordNet
gets."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pybridge import suggest
from pybridge.cli import main
from pybridge.suggest import shorten

needs_wordnet = pytest.mark.skipif(
    not suggest.available(), reason="WordNet (Debian's wordnet-base, with nltk) is missing"
)


def letters(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.upper())
    return "".join(ch for ch in decomposed if ch.isalnum())


def gives_away(answer: str, clue: str) -> str | None:
    """Why `clue` reveals `answer`, by rules of our own, or None."""
    from nltk.stem.snowball import SnowballStemmer

    stem = SnowballStemmer("english").stem
    if letters(answer) in letters(clue):
        return "holds the answer"
    target = stem(answer.lower())
    for word in re.findall(r"[^\W_]+", clue.lower()):
        if len(word) >= 3 and stem(word) == target:
            return f"{word!r} shares the answer's stem"
    return None


@pytest.fixture(scope="module")
def wordnet() -> suggest.WordNet:
    if not suggest.available():
        pytest.skip("WordNet (Debian's wordnet-base, with nltk) is missing")
    return suggest.wordnet()


@pytest.fixture(scope="module")
def sample(shared_dir: Path) -> list[str]:
    """Every 40th word of a whole dictionary (some 1,600 words)."""
    path = shared_dir / "bench" / "dicts" / "scowl55.txt"
    words = [line.strip().upper() for line in path.read_text(encoding="utf-8").splitlines()]
    return [word for word in words if word.isalpha()][::40]


@needs_wordnet
def test_no_suggestion_for_a_dictionary_sample_gives_its_answer_away(
    wordnet: suggest.WordNet, sample: list[str]
) -> None:
    clued = 0
    for word in sample:
        clue = wordnet.suggest(word)
        if clue is None:
            continue
        clued += 1
        assert gives_away(word, clue) is None, (word, clue)
        assert 0 < len(clue) <= suggest.LONGEST + 20, (word, clue)
        assert clue[0].isupper() or not clue[0].isalpha(), (word, clue)
    assert clued > len(sample) // 3  # most dictionary words have a WordNet sense


@needs_wordnet
@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_suggestions_never_reveal_property(
    wordnet: suggest.WordNet, sample: list[str], data: st.DataObject
) -> None:
    word = data.draw(st.sampled_from(sample))
    clue = wordnet.suggest(word)
    if clue is not None:
        assert gives_away(word, clue) is None
        assert not wordnet.reveals(word, clue)


@needs_wordnet
def test_every_suggested_clue_of_a_15x15_keeps_its_answer(
    shared_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = shared_dir / "bench" / "dicts" / "scored" / "scowl55-wordfreq.txt"
    argv = ["make", "--size", "15x15", "--dict", str(words), "--seed", "2", "--engine", "python"]
    # more blocks and words than a newspaper's: a fill above 40 comes fast (the clues are the point)
    argv += ["--blocks", "0.2", "--max-words", "any", "--max-cheaters", "any"]
    assert main([*argv, "--min-score", "40", "--output", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    placements = doc["solutions"][0]["placements"]
    suggested = [p for p in placements if p["clue_source"] == "wordnet"]
    assert len(suggested) >= len(placements) // 2
    for placement in suggested:
        assert gives_away(placement["word"], placement["clue"]) is None, placement
    for placement in placements:
        assert (placement["clue"] is None) == (placement["clue_source"] is None)


@needs_wordnet
@pytest.mark.parametrize(
    ("answer", "wanted"),
    [
        ("CRAG", "Steep rugged rock or cliff"),  # the gloss, its article dropped
        ("ERA", "Epoch"),  # a gloss too long to cut well gives way to a synonym
        ("IRAN", "Persia"),
        ("ORE", "Mineral that contains metal"),  # cut at a clause
        ("ATONCE", "Without delay or hesitation"),  # a phrase: at_once
        ("CRAGS", "Steep rugged rocks or cliffs"),  # a plural: the head nouns pluralised
        ("ALIENS", "Persons who come from a foreign country"),  # the clause's verb agrees
        ("RAN", "Moved fast by using one's feet"),  # a past tense: the gloss's verb too
        ("ARISEN", "Originated"),  # a participle: no "came" (come's participle is unlisted)
        ("ESPIES", "Catches sight of"),
        ("DICES", "Cuts into cubes"),  # the verb: "dice" is a plural already
        ("MAS", "Informal terms for a mother"),  # a head noun plural already stays
        ("LISTED", "Named"),  # its adjective ("on a list") gives it away: the verb's past
        ("EERIER", "More suggestive of the supernatural"),  # a comparative
        ("BIGGEST", "Largest"),  # a superlative: a synonym compared by the rules
        ("ONES", "Smallest whole numbers or numerals representing this number"),
        ("ELISA", "Assay that relies on an enzymatic conversion reaction"),  # no "... and is"
        ("IOWA", "Member of the Siouan people"),  # no "... formerly living"
        ("BARONS", "Noblemen of varying rank"),
        ("URNS", "Large vases that usually have a pedestal or feet"),
        ("SEEN", "Perceived by sight"),  # the first verb's part, not "or have the power..."
        ("SOAP", "Cleansing agent"),  # not its rarer sense "money offered as a bribe"
        ("CAMEOUT", "Appeared or became visible"),  # a phrase's verb inflected: come out
        ("CHAPELS", "Places of worship that have their own altar"),  # the clause agrees
        ("FAIRIES", "Small beings"),  # the phrase before an apposition ("..., human in form")
        ("LOPED", "Ran easily"),  # an irregular past WordNet lists alone (run: ran)
        ("ORDERS", "Gives instructions"),  # not "... to or direct somebody to do"
        ("RENO", "City in western Nevada"),  # cut before "at the foot of..."
        ("KOREA", "Asian peninsula"),  # cut before a participle, as a last resort
        ("MASSIF", "Block of the earth's crust"),  # not "... crust bounded"
        ("ADDEDON", "Appended"),
    ],
)
def test_known_suggestions(wordnet: suggest.WordNet, answer: str, wanted: str) -> None:
    assert wordnet.suggest(answer) == wanted


@needs_wordnet
@pytest.mark.parametrize("answer", ["ICECREAM", "TEA", "SSN", "XQZ", "ARE", "IDES"])
def test_answers_without_a_safe_clue_get_none(wordnet: suggest.WordNet, answer: str) -> None:
    # every gloss of ice cream and tea names them; SSN and XQZ are no WordNet words;
    # ARE is no past of "be"; the ides' gloss is "in the Roman calendar: the 15th of..."
    assert wordnet.suggest(answer) is None


@needs_wordnet
def test_reveals_catches_split_answers_and_shared_stems(wordnet: suggest.WordNet) -> None:
    assert wordnet.reveals("ATONE", "Be at one with")
    assert wordnet.reveals("RUNNER", "One who runs")
    assert wordnet.reveals("RUN", "Ran quickly")  # ran is a form of run
    assert wordnet.reveals("ICECREAM", "Frozen cream", ["ice", "cream"])
    assert not wordnet.reveals("CRAG", "Steep rugged rock or cliff")
    assert wordnet.reveals("ROSEHIPS", "Hips")  # a part of the compound
    assert wordnet.reveals("ODESSA", "Odesa")  # a spelling one letter apart
    assert not wordnet.reveals("ODESSA", "City in western Texas")


def test_shorten() -> None:
    assert shorten("a steep rugged rock or cliff") == "Steep rugged rock or cliff"
    assert shorten("(baseball) a hit") == "Hit (baseball)"
    assert shorten("a space reserved for sitting (as in a theater)") == "Space reserved for sitting"
    long = "a mineral that contains metal that is valuable enough to be mined in great quantities"
    assert shorten(long) == "Mineral that contains metal"
    assert shorten("x" * 80) is None
    cut = "an assay that relies on an enzymatic conversion reaction and is used to detect it"
    assert shorten(cut) == "Assay that relies on an enzymatic conversion reaction"
    assert shorten("(superlative of `good') having the most positive qualities") == (
        "Having the most positive qualities"
    )


def test_without_wordnet_make_says_what_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(suggest.WORDNET_VARIABLE, str(tmp_path))  # an empty folder
    words = tmp_path / "words.txt"
    words.write_text("AB\nCD\nAC\nBD\n", encoding="utf-8")
    argv = ["make", "--size", "2x2", "--blocks", "0", "--min-length", "2", "--dict", str(words)]
    assert main([*argv, "--seed", "1", "--engine", "python"]) == 0
    err = capsys.readouterr().err
    assert "no clue suggestions: clue suggestions need WordNet" in err
    assert "4 to write" in err
    grid = tmp_path / "grid.txt"
    grid.write_text("..\n..\n", encoding="utf-8")
    assert main(["solve", str(grid), "--dict", str(words), "--suggest"]) == 2
    assert "apt-get install wordnet-base" in capsys.readouterr().err
