"""Translations: every visible string in all five catalogs, docs/ui.md's fixed wording, plural rules."""

from __future__ import annotations

import ast
import gettext
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

from tools import i18n as tools_i18n
from tools import i18n_extract
from tools.po import PoError, parse_po
from ui.view import i18n

ROOT = Path(__file__).resolve().parents[1]
UI_SPEC = ROOT / "docs" / "ui.md"

Messages = dict[str, dict[str, str | list[str]]]

#: docs/ui.md "Required labels": English -> (French, Portuguese); checked against the document.
REQUIRED: dict[str, tuple[str, str]] = {
    "Easy": ("Facile", "Fácil"),
    "Normal": ("Normal", "Normal"),
    "Hard": ("Difficile", "Difícil"),
    "exposable": ("exposable", "pode expor"),
    "Pig ×2": ("Cochon ×2", "Porco ×2"),
    "Expose": ("Exposer", "Expor"),
    "Don't expose": ("Ne pas exposer", "Não expor"),
    "No card to expose this hand": (
        "Aucune carte à exposer cette manche",
        "Você não tem carta para expor nesta mão",
    ),
    "You must follow clubs": ("Vous devez fournir trèfle", "Você deve seguir paus"),
    "Hint": ("Indice", "Dica"),
    "Play": ("Jouer", "Jogar"),
    "View captured cards": ("Voir les cartes ramassées", "Ver cartas recolhidas"),
    "All-hearts threat ♥": ("Menace grand chelem ♥", "Ameaça de todas as copas"),
    "Speed up": ("Accélérer", "Avançar"),
    "Next hand": ("Manche suivante", "Próxima mão"),
    "Play again": ("Rejouer", "Jogar de novo"),
    "Victory!": ("Victoire !", "Vitória!"),
    "Defeat": ("Défaite", "Derrota"),
    "Eliminated": ("Éliminé", "Eliminado"),
}

#: The same wording extended to every suit, every exposable effect and the summary breakdown, built
#: from docs/ui.md's "names used in play" (suits: pique/cœur/carreau/trèfle, espadas/copas/ouros/paus;
#: pig cochon/porco, goat chèvre/cabra, transformer transfo/transformador).
DERIVED: dict[str, tuple[str, str]] = {
    "You must follow spades": ("Vous devez fournir pique", "Você deve seguir espadas"),
    "You must follow hearts": ("Vous devez fournir cœur", "Você deve seguir copas"),
    "You must follow diamonds": ("Vous devez fournir carreau", "Você deve seguir ouros"),
    "Goat ×2": ("Chèvre ×2", "Cabra ×2"),
    "Hearts ×2": ("Cœurs ×2", "Copas ×2"),
    "Transformer ×4": ("Transfo ×4", "Transformador ×4"),
    "Hearts": ("Cœurs", "Copas"),
    "Pig": ("Cochon", "Porco"),
    "Goat": ("Chèvre", "Cabra"),
    "Transformer": ("Transfo", "Transformador"),
}


def _ui_md_table() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    in_table = False
    for line in UI_SPEC.read_text(encoding="utf-8").splitlines():
        if line.startswith("| meaning"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        if in_table and not line.startswith("|---"):
            _meaning, en, fr, pt = (cell.strip() for cell in line.strip("|").split("|"))
            for e, f, p in zip(en.split(" / "), fr.split(" / "), pt.split(" / "), strict=True):
                rows[e] = (f, p)
    return rows


@pytest.fixture(scope="module")
def template() -> Catalog:
    return i18n_extract.extract()


@pytest.fixture(scope="module")
def messages() -> Messages:
    return {lang: tools_i18n.load_messages(lang) for lang in i18n.LANGUAGES}


def test_languages_agree() -> None:
    assert tuple(tools_i18n.LANGUAGES) == i18n.LANGUAGES == ("en", "zh", "fr", "pt", "uk")


def test_every_visible_string_is_translated_in_all_five_catalogs(template: Catalog) -> None:
    assert len(template) > 50
    problems = tools_i18n.check()
    assert not problems, "\n".join(str(p) for p in problems)


def test_check_reports_missing_fuzzy_and_untranslated(tmp_path: Path, template: Catalog) -> None:
    """The completeness check itself: a broken copy of the catalogs is caught entry by entry."""
    for lang in i18n.LANGUAGES:
        (tmp_path / f"{lang}.po").write_bytes(tools_i18n.po_path(lang).read_bytes())
    fr = i18n_extract.read_catalog(tmp_path / "fr.po")
    del fr["Hint"]
    fr["Play"].flags.add("fuzzy")
    fr["Expose"].string = ""
    i18n_extract.write_catalog(fr, tmp_path / "fr.po")
    before = {(p.language, p.msgid, p.what) for p in tools_i18n.check()}
    problems = {(p.language, p.msgid, p.what) for p in tools_i18n.check(locales=tmp_path)}
    assert problems - before == {
        ("fr", "Hint", "missing"),
        ("fr", "Play", "fuzzy"),
        ("fr", "Expose", "untranslated"),
    }
    with pytest.raises(tools_i18n.CatalogError):
        tools_i18n.compile_catalogs(tmp_path / "dist", locales=tmp_path, strict=True)


def test_hard_coded_labels_match_ui_md() -> None:
    assert _ui_md_table() == REQUIRED


#: A soft hyphen: where a translator lets a long word break on a narrow card (invisible otherwise).
SOFT_HYPHEN = "\u00ad"


def _shown(text: str | list[str]) -> str:
    """A label as it reads on screen: its soft hyphens are invisible unless the word breaks there."""
    assert isinstance(text, str)
    return text.replace(SOFT_HYPHEN, "")


@pytest.mark.parametrize("msgid", [*REQUIRED, *DERIVED])
def test_fixed_labels_exact_in_english_french_portuguese(msgid: str, messages: Messages) -> None:
    fr, pt = {**REQUIRED, **DERIVED}[msgid]
    assert _shown(messages["en"][msgid]) == msgid
    assert _shown(messages["fr"][msgid]) == fr
    assert _shown(messages["pt"][msgid]) == pt
    for lang in ("zh", "uk"):
        assert messages[lang][msgid], lang
        assert _shown(messages[lang][msgid]) != msgid or msgid == "Normal", (lang, msgid)


def test_soft_hyphens_only_inside_the_long_words_of_a_card_mark(messages: Messages) -> None:
    """The transformer's mark breaks inside its long word on a 360 px phone (tests/e2e/test_text_fit.py),
    at a syllable, never between two letters of one; no other entry carries a soft hyphen. (English
    shows its msgids, no catalog: there the browser's own hyphenation, ``hyphens: auto``, applies.)"""
    assert messages["pt"]["Transformer ×4"] == SOFT_HYPHEN.join(("Trans", "for", "ma", "dor ×4"))
    assert messages["uk"]["Transformer ×4"] == SOFT_HYPHEN.join(("Транс", "фор", "ма", "тор ×4"))
    marked = {
        (lang, key)
        for lang in i18n.LANGUAGES
        for key, text in messages[lang].items()
        if SOFT_HYPHEN in str(text)
    }
    assert marked == {("pt", "Transformer ×4"), ("uk", "Transformer ×4")}


def test_the_ui_uses_every_fixed_label(template: Catalog) -> None:
    """Every label of docs/ui.md (and its per-suit / per-card siblings) is a msgid of the UI's own code."""
    ids = {m.id for m in template if any(path != "ui/view/i18n.py" for path, _line in m.locations)}
    assert set(REQUIRED) | set(DERIVED) <= ids


def test_special_card_names_in_chinese_and_ukrainian(messages: Messages) -> None:
    assert (messages["zh"]["Pig"], messages["zh"]["Goat"], messages["zh"]["Transformer"]) == (
        "猪",
        "羊",
        "变压器",
    )
    assert (messages["uk"]["Pig"], messages["uk"]["Goat"], messages["uk"]["Transformer"]) == (
        "Свиня",
        "Вівця",  # (the Ukrainian rules text's word: locales/GLOSSARY.md)
        "Трансформатор",
    )


def test_placeholders_survive_translation(messages: Messages) -> None:
    field = re.compile(r"\{(\w*)\}")
    for msgid in messages["en"]:
        wanted = sorted(field.findall(msgid))
        for lang in i18n.LANGUAGES:
            text = messages[lang][msgid]
            for form in text if isinstance(text, list) else [text]:
                assert sorted(field.findall(form)) == wanted, (lang, msgid, form)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_plural_forms_header_matches_the_ui_rule(lang: str) -> None:
    catalog = tools_i18n.read_catalog(tools_i18n.po_path(lang))
    rule = gettext.c2py(catalog.plural_expr)
    assert [rule(n) for n in range(300)] == [i18n.plural_index(lang, n) for n in range(300)]
    assert catalog.num_plurals == {"en": 2, "zh": 1, "fr": 2, "pt": 2, "uk": 3}[lang]


def test_ukrainian_has_three_plural_forms() -> None:
    forms = {
        n: i18n.plural_index("uk", n) for n in (1, 2, 3, 4, 5, 10, 11, 12, 14, 20, 21, 22, 25, 101, 111, 112)
    }
    assert forms == {1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 10: 2, 11: 2, 12: 2, 14: 2, 20: 2, 21: 0, 22: 1, 25: 2,
                     101: 0, 111: 2, 112: 2}  # fmt: skip
    i18n.install("uk", {"{n} card": ["{n} карта", "{n} карти", "{n} карт"]})
    try:
        assert [i18n.ngettext("{n} card", "{n} cards", n) for n in (1, 3, 5, 11, 21)] == [
            "{n} карта", "{n} карти", "{n} карт", "{n} карт", "{n} карта"
        ]  # fmt: skip
    finally:
        i18n.install("en", {})
    assert i18n.ngettext("{n} card", "{n} cards", 1) == "{n} card"
    assert i18n.ngettext("{n} card", "{n} cards", 2) == "{n} cards"


def test_french_and_portuguese_singular_covers_zero_and_one() -> None:
    for lang in ("fr", "pt"):
        assert [i18n.plural_index(lang, n) for n in (0, 1, 2, 5)] == [0, 0, 1, 1]
    assert [i18n.plural_index("en", n) for n in (0, 1, 2)] == [1, 0, 1]
    assert i18n.plural_index("zh", 7) == 0


def test_one_english_word_with_two_translations_by_context(messages: Messages) -> None:
    """``pgettext``: "Normal" is a difficulty, a play speed and a trick pause, each agreeing with its
    own noun in French and Ukrainian; a context missing from the catalog falls back to English."""
    assert messages["fr"]["Normal"] == "Normal"  # le niveau (UI.md's fixed label)
    assert messages["fr"]["play speed\x04Normal"] == "Normale"  # la vitesse
    assert messages["fr"]["one card\x04Exposed"] == "Exposée" != messages["fr"]["Exposed"]
    i18n.install("fr", messages["fr"])
    try:
        assert i18n.pgettext("trick pause", "Normal") == "Normale"
        assert i18n._("Normal") == "Normal"
        assert i18n.pgettext("no such context", "Normal") == "Normal"
    finally:
        i18n.install("en", {})
    i18n.install("uk", {"c\x04{n} card": ["{n} карта", "{n} карти", "{n} карт"]})
    try:
        assert [i18n.npgettext("c", "{n} card", "{n} cards", n) for n in (1, 2, 5)] == [
            "{n} карта", "{n} карти", "{n} карт"
        ]  # fmt: skip
        assert i18n.ngettext("{n} card", "{n} cards", 2) == "{n} cards"
    finally:
        i18n.install("en", {})


def test_compiled_json_is_what_the_ui_reads(tmp_path: Path, template: Catalog) -> None:
    counts = tools_i18n.compile_catalogs(tmp_path, strict=True)
    ids = {_babel_key(m) for m in template if m.id}
    for lang in i18n.LANGUAGES:
        data = json.loads((tmp_path / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
        assert set(data) == ids, lang
        assert counts[lang] == len(ids)
        i18n.install(lang, data)
        try:
            assert i18n.language() == lang
            assert i18n._("Pig ×2") == data["Pig ×2"]
            assert i18n._("not a msgid") == "not a msgid"
        finally:
            i18n.install("en", {})


def test_choose_language() -> None:
    assert i18n.choose_language(["pt-BR", "en"]) == "pt"
    assert i18n.choose_language(["de-DE", "zh-CN"]) == "zh"
    assert i18n.choose_language(["uk-UA"]) == "uk"
    assert i18n.choose_language(["de", "es"]) == "en"
    assert i18n.choose_language([]) == "en"
    assert i18n.choose_language(["fr"], forced="uk") == "uk"
    assert i18n.choose_language(["fr"], forced="xx") == "fr"
    assert i18n.choose_language(["fr"], saved="pt") == "pt"
    assert i18n.choose_language(["fr"], forced="zh", saved="pt") == "zh"
    assert i18n.choose_language(["fr"], saved="klingon") == "fr"


#: How many leading arguments of each translation call must be literal strings (context, msgids).
LITERAL_ARGS = {"_": 1, "N_": 1, "pgettext": 2, "ngettext": 2, "npgettext": 3}


def test_every_translated_call_has_a_literal_msgid() -> None:
    """Babel only extracts literals: ``_(variable)`` in the UI would never be translated."""
    offenders = []
    for path in sorted((ROOT / "ui").glob("*.py")):
        if path.name == "i18n.py":  # the lookup API itself
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                literals = LITERAL_ARGS.get(node.func.id, 0)
                args = node.args[:literals]
                if literals and not (
                    len(args) == literals
                    and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args)
                ):
                    offenders.append(f"{path.name}:{node.lineno}")
    assert not offenders, f"non-literal msgids: {offenders}"


def test_language_menu_and_rules_link() -> None:
    i18n.install("fr", tools_i18n.load_messages("fr"))
    try:
        menu = i18n.language_menu_html()
        assert 'data-testid="language"' in menu and 'aria-label="Langue"' in menu
        for code, name in i18n.LANGUAGE_NAMES.items():
            assert f'value="{code}"' in menu and f">{name}</option>" in menu
        assert '<option value="fr" lang="fr" selected>' in menu
        assert menu.count(" selected") == 1
        link = i18n.rules_link_html()
        assert link.startswith(
            '<a class="btn rules-link" data-testid="rules-link" href="./rules.html?lang=fr"'
        )
        assert link.endswith(">Règles</a>")
    finally:
        i18n.install("en", {})


# --- the build's standard-library reader (tools/po.py) against Babel, the translators' tool


def _babel_messages(lang: str) -> dict[str, str | list[str]]:
    """What the build compiled with Babel before tools/po.py existed (the reference)."""
    out: dict[str, str | list[str]] = {}
    for message in i18n_extract.read_catalog(tools_i18n.po_path(lang)):
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if not message.id or message.fuzzy or not all(isinstance(s, str) and s.strip() for s in strings):
            continue
        key = _babel_key(message)
        out[key] = list(strings) if isinstance(message.string, (list, tuple)) else str(message.string)
    return out


def _babel_key(message: Message) -> str:
    """A Babel message's key in the compiled catalogs: ``context + "\\x04" + msgid`` or the msgid."""
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return msgid if message.context is None else message.context + "\x04" + msgid


def test_source_messages_are_babels_extraction(template: Catalog) -> None:
    babel = {_babel_key(m): m.pluralizable for m in template if m.id}
    assert tools_i18n.source_messages() == babel


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_compiled_json_is_byte_identical_to_babels(lang: str, tmp_path: Path) -> None:
    tools_i18n.compile_catalogs(tmp_path, languages=[lang], strict=True)
    babel = (
        json.dumps(_babel_messages(lang), ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"
    )
    assert (tmp_path / "locales" / f"{lang}.json").read_bytes() == babel.encode("utf-8")


PO_SAMPLE = r"""# A translator's comment
msgid ""
msgstr ""
"Language: uk\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || "
"n%100>=20) ? 1 : 2);\n"

#: ui/shell/app.py
#, python-brace-format
msgid "Hello {name}"
msgstr "Привіт {name}"

msgctxt "menu"
msgid ""
"A long "
"line"
msgstr "Довгий\t\"рядок\"\n"

#, fuzzy
msgid "Draft"
msgstr "Чернетка"

msgid "Empty"
msgstr ""

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} карта"
msgstr[1] "{n} карти"
msgstr[2] "{n} карт"

#~ msgid "Old"
#~ msgstr "Старе"
"""


def test_po_reader_handles_context_continuations_flags_plurals_and_obsolete_entries() -> None:
    po = parse_po(PO_SAMPLE)
    assert po.num_plurals == 3 and po.plural_expr.startswith("(n%10==1 && n%100!=11 ? 0 : n%10>=2")
    by_id = {entry.msgid: entry for entry in po.entries}
    assert set(by_id) == {"Hello {name}", "A long line", "Draft", "Empty", "{n} card"}
    assert by_id["Hello {name}"].flags == {"python-brace-format"}
    assert by_id["A long line"].msgctxt == "menu"
    assert by_id["A long line"].msgstr == ['Довгий\t"рядок"\n']
    assert by_id["Draft"].fuzzy and not by_id["Empty"].translated
    assert by_id["{n} card"].msgid_plural == "{n} cards"
    assert tools_i18n.catalog_messages(po) == {
        "Hello {name}": "Привіт {name}",
        "menu\x04A long line": 'Довгий\t"рядок"\n',
        "{n} card": ["{n} карта", "{n} карти", "{n} карт"],
    }


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('msgid "a"\nmsgstr "b"\nnonsense\n', 3),
        ('msgid "a"\nmsgstr "b\\q"\n', 2),
        ('msgid "a"\nmsgstr[0] "b"\n', 2),
        ('msgid "a"\n\nmsgid "b"\nmsgstr "c"\n', 1),
    ],
)
def test_po_reader_names_the_line_of_a_malformed_catalog(text: str, line: int) -> None:
    with pytest.raises(PoError, match=f"x.po:{line}:"):
        parse_po(text, Path("x.po"))
