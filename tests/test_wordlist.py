"""The shipped scored word list (pybridge/wordlist/): hand-picked junk and
good entries against its scores, its shape, its licences, and that its build
script makes it again byte for byte."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from pybridge.lexicon import load_dictionary
from pybridge.wordlist import ACCEPTABLE, BANNED_PATH, GOOD, LIST_PATH

WORDNET = Path("/usr/share/wordnet")


def _words(text: str) -> list[str]:
    return text.split()


# Entries an editor would send back: repeated letters, abbreviations no one
# clues, partials, odd plurals and forms, runs of words that are no phrase,
# obscure names.
JUNK = _words("""
SSSS AAAS TSS SALEB AMASA ORAE AOA TAA AEAS ISTO AINTI ASA EKEBY ACIDY ALER ASSS AEE
SASINE TREEAT THEERA ASBAD ALIENTO SEENOT INAREA YST SGO STRE NOST RST MEU SEI
SAE STG SLS AGS EDES SADDA LARE ORNON ONERE ETUI ESNE AAAAAAAAAAAAAAA ALASES SPAREST
MES THERES NOES LEFTS HARDLYA PARTOFIT ITISSAID ONEDOLLAR ACTINGIN ELMISTI
EQUIPMENTS INFORMATIONS EVIDENCES DIEING PROGRAMING BRINTON
DEGREEOFATERM DEPTHOFTHEWATER DOMAINOFAFUNCTION RANGEOFAFUNCTION SHAPEOFABALL STREAMOFAIR
BOTTOMOFTHESHOE MOMENTOFACOUPLE TERMOFACONTRACT LACKOFAGREEMENT LAYEROFTHEEARTH DAYINJUNE
SHOWERWITHLOVE GETALOOK RACHELLOUISECARSON HOMERATHOMPSON WILLIAMHENRYHUDSON SIRRONALDROSS
JULIUSMARX
""")
# What an editor struck from default fills (the lead's reading of make's
# 15x15 seed 7, then ours of seeds 1-20): crosswordese, abbreviations,
# archaic and dialect forms, Roman numerals, obscure names, phrases only a
# crossword list holds, forms no one writes, words failing the breakfast test.
EDITOR_STRUCK = _words("""
III NAE DOST TUN LADE SETT SETTS AMENRA EARLET SIDEHALL TBS VOLS ASST
SADLOT SETSNO TESTONE EVEATE DDS RTE SAMES MAGICS GOS CASTED ATES THOUS IRES
ANI ERNE SEAMEW FALA STNICK LEOI ANAL INCEST
SETGO READYSET REDBLUE DRYINK FEETAIL COVENT PASSTIME OPENTONE AREAMAP MEATSTEW LEADTREE
""")
# What an editor struck from make's default fills of 20 seeds at 15x15 and
# 21x21 (session 7): partials, a form of BE read as a phrase, WordNet's terms
# and made-up plurals no crossword uses (with common words, so they had
# looked like fill), crosswordese, variants, words failing the breakfast test.
EDITOR_STRUCK_FROM_DEFAULTS = _words("""
ISWELL BEDUE ASWESAY ANYRATE LOGUP IJOHN PHASEII
MEANSUN SETGUN TAXBOOST BELLSEAT AGENTBANK TIMEBALL TESTRANGE TRADEBILL TRADELAST SHARKOIL
IRONBLUE MASSUNIT AREAUNIT BLOWGAS PEACECORPSES GRAPHPAPERS MALEPERSONS
INTI BANI LIRAS AMEER CISSY EFFED NOREAST BOTREE LAOTSE CAPAPIE TRALAS RATTATS
PENIS SEMEN SPERM ERECTION ORGASMS TESTES RECTAL BROTHELS
""")
# Offensive words: left out by the default ban list (banned.txt).
OFFENSIVE = _words("TWAT ARSED ARSE SHIT WANKER NIGGAZ TWINKS TAKEASHIT SONOFABITCH NEGRO BADASS")

# Familiar words and phrases, some short, some long.
ACCEPTABLE_ENTRIES = _words("""
ABET ALOE NACHO NASA TEA ERA ONE STAR OPERA SALSA YETI PESTO RODEO ORIOLE CABARET
GOODTHING NOSERINGS TINEAR INTHEAIR EXTENSIONLADDER WETBAR STEPON ICEAGE
SWIVELED SEDATING PLIES CAROLS CEO NASA FBI GOTIT OLDHAT BIGDEAL DATE EASE RENAL
TEAS COOLS OVALS SKIED CLUED BARISTAS PHISHING CORRUGATED NONPLUSSED OSLO ZEUS EARHART
WALTDISNEY MARDIGRAS ALEXANDERGRAHAMBELL TAKEABOW INANUTSHELL TURNAPROFIT
JUNKFOOD FANNYPACK CHOKEHOLD ACTSAS CLOSETO TEESUP ASYET LEANTOS BREAKINS FOLLOWUPS SNAPPEA
""")
GOOD_ENTRIES = _words("AREA WATER HOUSE STAR OPERA ICECREAM XRAY TSHIRT NOSERINGS INTHEAIR")


@pytest.fixture(scope="module")
def scores() -> dict[str, int]:
    found: dict[str, int] = {}
    for line in LIST_PATH.read_text(encoding="utf-8").splitlines():
        word, score = line.split(";")
        found[word] = int(score)
    return found


@pytest.mark.parametrize("word", JUNK)
def test_junk_scores_below_the_acceptable_line(scores: dict[str, int], word: str) -> None:
    assert scores.get(word, 0) < ACCEPTABLE  # absent: never used


@pytest.mark.parametrize("word", EDITOR_STRUCK + EDITOR_STRUCK_FROM_DEFAULTS)
def test_what_an_editor_strikes_scores_below_the_line(scores: dict[str, int], word: str) -> None:
    assert scores.get(word, 0) < ACCEPTABLE


def test_offensive_words_are_on_the_default_ban_list() -> None:
    banned = set(BANNED_PATH.read_text(encoding="utf-8").split())
    assert set(OFFENSIVE) <= banned
    assert not {"COCK", "DICK", "SPICED", "SHATTER", "SCUNTHORPE"} & banned  # innocent senses


@pytest.mark.parametrize("word", ACCEPTABLE_ENTRIES)
def test_familiar_entries_are_acceptable(scores: dict[str, int], word: str) -> None:
    assert scores[word] >= ACCEPTABLE


@pytest.mark.parametrize("word", GOOD_ENTRIES)
def test_common_words_and_phrases_are_good(scores: dict[str, int], word: str) -> None:
    assert scores[word] >= GOOD


def test_the_list_is_plain_scored_lines_in_order() -> None:
    lines = LIST_PATH.read_text(encoding="utf-8").splitlines()
    assert all(re.fullmatch(r"[A-Z]{3,21};(100|[1-9][0-9])", line) for line in lines)
    words = [line.split(";")[0] for line in lines]
    assert words == sorted(set(words))
    assert 100_000 < len(words) < 300_000  # a sensible size: fast to load


def test_the_dictionary_reader_takes_it_whole() -> None:
    dictionary = load_dictionary([LIST_PATH], cached=False)
    assert dictionary.skipped == {}
    assert dictionary.scores is not None
    assert len(dictionary.words) == len(LIST_PATH.read_text(encoding="utf-8").splitlines())


def test_licences_and_attribution_are_beside_it() -> None:
    folder = LIST_PATH.parent
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for source in ("wordfreq", "xwords-rs", "SCOWL", "WordNet", "CC BY-SA 4.0"):
        assert source in readme
    for name in (
        "LICENSE-CC-BY-SA-4.0.txt",
        "LICENSE-Apache-2.0.txt",
        "NOTICE-SCOWL.txt",
        "NOTICE-WordNet.txt",
    ):
        assert (folder / name).stat().st_size > 1000, name
        assert name in readme


def test_the_build_makes_the_shipped_list_again(shared_dir: Path, tmp_path: Path) -> None:
    pytest.importorskip("wordfreq", reason="the build needs wordfreq: pip install -e '.[wordlist]'")
    if not (WORDNET / "index.noun").exists():
        pytest.skip("the build needs WordNet's files: apt-get install wordnet-base")
    from pybridge.wordlist import build

    status = build.main(
        ["--shared", str(shared_dir), "--wordnet", str(WORDNET), "--output", str(tmp_path)]
    )
    assert status == 0
    for made in tmp_path.iterdir():
        assert made.read_bytes() == (LIST_PATH.parent / made.name).read_bytes(), made.name


@pytest.mark.parametrize("seed", [1, 2])
def test_default_fills_have_no_entry_below_the_line_and_none_banned(
    scores: dict[str, int], seed: int, tmp_path: Path
) -> None:
    """make with the defaults only (a 15x15, the shipped list): every entry
    of the fill is acceptable by the list's own scores, read here, and none
    is on the default ban list."""
    make = ["make", "--size", "15x15", "--seed", str(seed), "--no-suggest", "--output", "json"]
    done = subprocess.run(
        [sys.executable, "-m", "pybridge", *make],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    entries = [p["word"] for p in json.loads(done.stdout)["solutions"][0]["placements"]]
    assert len(entries) >= 70
    low = [(word, scores.get(word)) for word in entries if scores.get(word, 0) < ACCEPTABLE]
    assert low == []
    assert not set(entries) & set(BANNED_PATH.read_text(encoding="utf-8").split())
