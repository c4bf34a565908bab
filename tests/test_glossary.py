"""The catalogs and the rules pages speak the glossary (locales/GLOSSARY.md), read from the glossary
itself: every entry of every catalog whose English names a term (the "en" table's words) uses that
term's word (the "use" column), and no entry or rules page has a word the "avoid" column rules out."""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

import pytest

from tools import i18n as tools_i18n
from tools.po import PoFile, parse_po
from tools.rules_page import RULES_DIR

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "locales" / "GLOSSARY.md"
RULES = RULES_DIR
TRANSLATED = ("zh", "fr", "pt", "uk")
#: Terms every language's table names (the game's vocabulary, issue 33).
REQUIRED_TERMS = (
    "Gong Zhu",
    "match",
    "hand",
    "trick",
    "lead",
    "expose",
    "pig",
    "goat",
    "transformer",
    "all hearts",
    "point cards",
    "deal of the day",
    "coach",
)
#: Where a term comes from (the glossary's legend).
SOURCES = {"UI.md", "rules text", "common use"}
#: Scripts written without spaces: a term matches anywhere, not as a whole word.
NO_WORD_BOUNDARIES = ("zh",)


def glossary(text: str) -> dict[str, list[dict[str, str]]]:
    """``{lang: [row, ...]}`` from the tables under ``## <lang>`` headings; a row maps the table's
    column names (``en``, the language code, ``source``, ``avoid``) to its cells."""
    tables: dict[str, list[dict[str, str]]] = {}
    lang = ""
    header: list[str] = []
    for line in text.splitlines():
        heading = re.fullmatch(r"## (\w+)\s*", line)
        if heading:
            lang, header = heading.group(1), []
            tables[lang] = []
            continue
        if not lang or not line.startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if not header:
            header = cells
        elif not set(line) <= set("|-: "):
            tables[lang].append(dict(zip(header, cells, strict=True)))
    return tables


def words(cell: str) -> list[str]:
    """The words of a cell (each in backticks)."""
    return re.findall(r"`([^`]+)`", cell)


def avoided(row: dict[str, str]) -> list[str]:
    """The words of a row's ``avoid`` cell."""
    return words(row.get("avoid", ""))


def pattern(term: str, lang: str) -> re.Pattern[str]:
    """A term of the glossary as a regular expression: ``*`` is any ending; a whole word except in a
    language written without spaces; any case when the term is in lower case, else its own."""
    body = r"\w*".join(re.escape(part) for part in term.split("*"))
    if lang not in NO_WORD_BOUNDARIES:
        body = r"(?<!\w)" + body + r"(?!\w)"
    return re.compile(body, 0 if any(c.isupper() for c in term) else re.IGNORECASE)


def plain(text: str) -> str:
    """A translation as the glossary's words are matched in it: without soft hyphens."""
    return text.replace("\u00ad", "")


def terms_named(english: str, terms: dict[str, list[str]]) -> set[str]:
    """The terms whose English words are in ``english``; a match that lies inside a longer match of
    another term (*deal* in *daily deal*, *hand* in *your hand*) counts only for the longer one."""
    spans = [
        (term, match.start(), match.end())
        for term, english_words in terms.items()
        for word in english_words
        for match in pattern(word, "en").finditer(english)
    ]
    return {
        term
        for term, start, end in spans
        if not any(
            other != term and o_start <= start and end <= o_end and o_end - o_start > end - start
            for other, o_start, o_end in spans
        )
    }


def texts(catalog: PoFile) -> list[tuple[str, str]]:
    """``(msgid, translation)`` for every form of every entry."""
    return [(entry.msgid, form) for entry in catalog.entries for form in entry.msgstr]


def rules_text(lang: str) -> str:
    return (RULES / f"{lang}.html").read_text(encoding="utf-8")


def offences(lang: str, rows: list[dict[str, str]], catalog: PoFile, rules: str) -> list[str]:
    """Every use of a ruled-out word: ``"<where>: <term> in <text>"``."""
    found = []
    for row in rows:
        for term in avoided(row):
            rx = pattern(term, lang)
            for msgid, text in texts(catalog):
                if rx.search(plain(text)):
                    found.append(f"{lang}.po: {term!r} ({row['en']}) in {msgid!r} -> {text!r}")
            for match in rx.finditer(rules):
                context = rules[max(0, match.start() - 30) : match.end() + 30]
                found.append(f"docs/rules/{lang}.html: {term!r} ({row['en']}) in {context!r}")
    return found


def missing(
    lang: str,
    rows: list[dict[str, str]],
    catalog: PoFile,
    terms: dict[str, list[str]],
    exceptions: Collection[tuple[str, str]] = (),
) -> list[str]:
    """Every translation whose English names a term and that has none of the term's ``use`` words
    (an entry and term listed in ``exceptions`` aside): ``"<lang>.po: <term> in <msgid> -> <text>"``."""
    use = {row["en"]: words(row["use"]) for row in rows if words(row["use"])}
    found = []
    for entry in catalog.entries:
        english = " / ".join(filter(None, (entry.msgid, entry.msgid_plural)))
        for term in sorted(terms_named(english, terms)):
            if term not in use or (entry.msgid, term) in exceptions:
                continue
            for text in entry.msgstr:
                if not any(pattern(word, lang).search(plain(text)) for word in use[term]):
                    found.append(f"{lang}.po: {term!r} {use[term]} in {entry.msgid!r} -> {text!r}")
    return found


TABLES = glossary(GLOSSARY.read_text(encoding="utf-8"))
#: Each checked term's English words (the "en" table).
TERMS = {row["en"]: words(row["words"]) for row in TABLES["en"]}
#: Per language, the (msgid, term) pairs that say the term another way (the "exceptions" table).
EXCEPTIONS = {
    lang: {(row["entry"], row["term"]) for row in TABLES["exceptions"] if row["lang"] == lang}
    for lang in TRANSLATED
}


def test_one_table_per_language_naming_the_games_terms() -> None:
    assert set(TRANSLATED) <= set(TABLES)
    for lang in TRANSLATED:
        rows = TABLES[lang]
        assert rows and all(set(row) == {"en", lang, "source", "use", "avoid"} for row in rows), lang
        named = {row["en"].split(" (")[0].split(" / ")[0] for row in rows}
        assert set(REQUIRED_TERMS) <= named, (lang, set(REQUIRED_TERMS) - named)
        for row in rows:
            assert row[lang], (lang, row)
            assert {part.strip() for part in row["source"].split(",")} <= SOURCES, (lang, row)
            # a word to use is for a term with English words to find it by
            assert not words(row["use"]) or row["en"] in TERMS, (lang, row)
        # every term with English words has its row, and (bar a few) the words to use for it
        assert set(TERMS) <= {row["en"] for row in rows}, (lang, set(TERMS) - {row["en"] for row in rows})
        assert sum(bool(words(row["use"])) for row in rows) >= len(TERMS) - 1, lang
    assert sum(len(avoided(row)) for lang in TRANSLATED for row in TABLES[lang]) >= 10
    assert set(REQUIRED_TERMS) <= {term.split(" (")[0].split(" / ")[0] for term in TERMS}
    assert all(TERMS.values()), TERMS


def test_exceptions_name_real_entries_and_terms() -> None:
    """An exception is for an entry that is in the catalogs and whose English names the term."""
    english = {entry.msgid for entry in tools_i18n.read_catalog(tools_i18n.po_path("en")).entries}
    assert TABLES["exceptions"]
    for row in TABLES["exceptions"]:
        assert row["lang"] in TRANSLATED and row["why"], row
        assert row["entry"] in english, row
        assert row["term"] in terms_named(row["entry"], TERMS), row


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_and_rules_page_use_no_ruled_out_term(lang: str) -> None:
    catalog = tools_i18n.read_catalog(tools_i18n.po_path(lang))
    found = offences(lang, TABLES[lang], catalog, rules_text(lang))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_entry_uses_the_glossarys_word_for_each_term_its_english_names(lang: str) -> None:
    """Both ways, for every entry of the catalog (so for every entry added or changed): the
    translation of an English text that names a term has the word the glossary gives for it."""
    catalog = tools_i18n.read_catalog(tools_i18n.po_path(lang))
    found = missing(lang, TABLES[lang], catalog, TERMS, EXCEPTIONS[lang])
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("lang", "msgstr", "rules", "term"),
    [
        ("fr", "Dernière levée", "", "levée*"),
        ("fr", "Pli", "<p>Les levées comptent</p>", "levée*"),
        ("uk", "Коза ×2", "", "коза"),
        ("uk", "Вівця", "<p>Гун Чжу</p>", "Гун Чжу"),
        ("zh", "第几局", "", "第几局"),
        ("zh", "局", "<p>全红心</p>", "全红心"),
        ("pt", "Cara: {mine}", "", "Cara:"),
    ],
)
def test_a_ruled_out_term_is_caught(lang: str, msgstr: str, rules: str, term: str) -> None:
    """The check itself, on a catalog and a rules page made to break the glossary."""
    catalog = parse_po(f'msgid "x"\nmsgstr "{msgstr}"\n', Path(f"{lang}.po"))
    found = offences(lang, TABLES[lang], catalog, rules)
    assert any(repr(term) in line for line in found), found


@pytest.mark.parametrize(
    ("lang", "msgid", "msgstr", "term"),
    [
        ("zh", "2♠ leads", "2♠ 首攻", "lead"),
        ("zh", "Standard all hearts", "全部红心：标准", "all hearts"),
        ("zh", "Practice: the daily deal", "练习：每日牌局", "deal of the day"),
        ("fr", "hands played {hands}", "donnes jouées {hands}", "hand (13 tricks)"),
        ("fr", "Back to the summary", "Retour au résumé", "summary (of a hand)"),
        ("pt", "the daily deal always", "o jogo do dia sempre", "deal of the day"),
        ("uk", "the daily deal always", "щоденна роздача завжди", "deal of the day"),
        ("uk", "Eliminated", "Вибув", "eliminated"),
    ],
)
def test_a_term_said_otherwise_is_caught(lang: str, msgid: str, msgstr: str, term: str) -> None:
    """The words-to-use check itself, on entries that say a term in a word the glossary does not give
    (the wrong entries of 2026-12-03's review)."""
    catalog = parse_po(f'msgid "{msgid}"\nmsgstr "{msgstr}"\n', Path(f"{lang}.po"))
    found = missing(lang, TABLES[lang], catalog, TERMS)
    assert any(repr(term) in line for line in found), found
    excepted = missing(lang, TABLES[lang], catalog, TERMS, {(msgid, term)})
    assert not any(repr(term) in line for line in excepted), excepted  # (an exception is heeded)


@pytest.mark.parametrize(
    ("lang", "msgid", "msgstr"),
    [
        ("zh", "Daily deal", "每日一局"),  # not "deal" (牌局): the longer term holds it
        ("zh", "Your hand", "你的手牌"),  # not the hand of 13 tricks (局)
        ("fr", "All hearts", "Tous les cœurs"),
        ("pt", "A stored hand review", "Uma revisão de mão"),
        ("uk", "Transformer ×4", "Транс\u00adфор\u00adма\u00adтор ×4"),  # soft hyphens ignored
        ("uk", "Goats won", "Виграно овець"),
    ],
)
def test_a_term_in_the_glossarys_word_passes(lang: str, msgid: str, msgstr: str) -> None:
    catalog = parse_po(f'msgid "{msgid}"\nmsgstr "{msgstr}"\n', Path(f"{lang}.po"))
    assert terms_named(msgid, TERMS)
    assert not missing(lang, TABLES[lang], catalog, TERMS)


def test_english_words_match_whole_words_and_the_longest_term() -> None:
    assert terms_named("Standard all hearts", TERMS) == {"all hearts"}
    assert terms_named("Hearts ×2", TERMS) == {"hearts (the suit)"}
    assert terms_named("The daily deal of {date}", TERMS) == {"deal of the day"}
    assert terms_named("deal {seed}", TERMS) == {"deal (a numbered shuffle)"}
    assert terms_named("Your hand", TERMS) == {"hand (the cards held)"}
    assert terms_named("Next hand", TERMS) == {"hand (13 tricks)"}
    assert not terms_named("Shanghai", TERMS)  # (no "hand" inside a word)
    assert terms_named("Led by {leader}", TERMS) == {"lead"}


def test_whole_words_only_outside_chinese() -> None:
    assert not pattern("коза", "uk").search("козирів")  # trumps, not the goat
    assert pattern("levée*", "fr").search("Les Levées")
    assert not pattern("dehors", "fr").search("dehorsé")
    assert pattern("第几局", "zh").search("这是第几局？")
    assert pattern("donne* du jour", "fr").search("Donnes du jour jouées")
    assert not pattern("donne* du jour", "fr").search("donnes du journal")
    costly = pattern("Cara:", "pt")
    assert costly.search("Cara: a dama") and not costly.search("Jogada cara: a dama")
