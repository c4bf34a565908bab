"""The catalogs and the rules pages speak the glossary (locales/GLOSSARY.md): no word that the
glossary's "avoid" column rules out, read from the glossary itself, in any entry or rules page."""

from __future__ import annotations

import re
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


def avoided(row: dict[str, str]) -> list[str]:
    """The words of a row's ``avoid`` cell (each in backticks)."""
    return re.findall(r"`([^`]+)`", row.get("avoid", ""))


def pattern(term: str, lang: str) -> re.Pattern[str]:
    """A term of the avoid column as a regular expression: ``*`` is any ending; a whole word except
    in a language written without spaces; any case when the term is in lower case, else its own."""
    body = re.escape(term.rstrip("*")) + (r"\w*" if term.endswith("*") else "")
    if lang not in NO_WORD_BOUNDARIES:
        body = r"(?<!\w)" + body + r"(?!\w)"
    return re.compile(body, 0 if any(c.isupper() for c in term) else re.IGNORECASE)


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
                if rx.search(text):
                    found.append(f"{lang}.po: {term!r} ({row['en']}) in {msgid!r} -> {text!r}")
            for match in rx.finditer(rules):
                context = rules[max(0, match.start() - 30) : match.end() + 30]
                found.append(f"docs/rules/{lang}.html: {term!r} ({row['en']}) in {context!r}")
    return found


TABLES = glossary(GLOSSARY.read_text(encoding="utf-8"))


def test_one_table_per_language_naming_the_games_terms() -> None:
    assert set(TRANSLATED) <= set(TABLES)
    for lang in TRANSLATED:
        rows = TABLES[lang]
        assert rows and all(set(row) == {"en", lang, "source", "avoid"} for row in rows), lang
        named = {row["en"].split(" (")[0].split(" / ")[0] for row in rows}
        assert set(REQUIRED_TERMS) <= named, (lang, set(REQUIRED_TERMS) - named)
        for row in rows:
            assert row[lang], (lang, row)
            assert {part.strip() for part in row["source"].split(",")} <= SOURCES, (lang, row)
    assert sum(len(avoided(row)) for lang in TRANSLATED for row in TABLES[lang]) >= 10


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_and_rules_page_use_no_ruled_out_term(lang: str) -> None:
    catalog = tools_i18n.read_catalog(tools_i18n.po_path(lang))
    found = offences(lang, TABLES[lang], catalog, rules_text(lang))
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


def test_whole_words_only_outside_chinese() -> None:
    assert not pattern("коза", "uk").search("козирів")  # trumps, not the goat
    assert pattern("levée*", "fr").search("Les Levées")
    assert not pattern("dehors", "fr").search("dehorsé")
    assert pattern("第几局", "zh").search("这是第几局？")
    costly = pattern("Cara:", "pt")
    assert costly.search("Cara: a dama") and not costly.search("Jogada cara: a dama")
