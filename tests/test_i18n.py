"""Translations: every visible string in all five catalogs, UI.md's fixed wording, plural rules."""

from __future__ import annotations

import ast
import gettext
import json
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from tools import i18n as tools_i18n
from ui import i18n

ROOT = Path(__file__).resolve().parents[1]
UI_SPEC = ROOT.parent / "shared" / "spec" / "UI.md"

Messages = dict[str, dict[str, str | list[str]]]

#: UI.md "Required labels": English -> (French, Portuguese). Kept here so the test runs without
#: shared/; checked against UI.md itself when it is there.
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
#: from UI.md's "names used in play" (suits: pique/cœur/carreau/trèfle, espadas/copas/ouros/paus;
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
    return tools_i18n.extract()


@pytest.fixture(scope="module")
def messages() -> Messages:
    return {lang: tools_i18n.load_messages(lang) for lang in i18n.LANGUAGES}


def test_languages_agree() -> None:
    assert tuple(tools_i18n.LANGUAGES) == i18n.LANGUAGES == ("en", "zh", "fr", "pt", "uk")


def test_every_visible_string_is_translated_in_all_five_catalogs(template: Catalog) -> None:
    assert len(template) > 50
    problems = tools_i18n.check(template=template)
    assert not problems, "\n".join(str(p) for p in problems)


def test_check_reports_missing_fuzzy_and_untranslated(tmp_path: Path, template: Catalog) -> None:
    """The completeness check itself: a broken copy of the catalogs is caught entry by entry."""
    for lang in i18n.LANGUAGES:
        (tmp_path / f"{lang}.po").write_bytes(tools_i18n.po_path(lang).read_bytes())
    fr = tools_i18n.read_catalog(tmp_path / "fr.po")
    del fr["Hint"]
    fr["Play"].flags.add("fuzzy")
    fr["Expose"].string = ""
    tools_i18n.write_catalog(fr, tmp_path / "fr.po")
    before = {(p.language, p.msgid, p.what) for p in tools_i18n.check(template=template)}
    problems = {(p.language, p.msgid, p.what) for p in tools_i18n.check(locales=tmp_path, template=template)}
    assert problems - before == {
        ("fr", "Hint", "missing"),
        ("fr", "Play", "fuzzy"),
        ("fr", "Expose", "untranslated"),
    }
    with pytest.raises(tools_i18n.CatalogError):
        tools_i18n.compile_catalogs(tmp_path / "dist", locales=tmp_path, strict=True)


def test_hard_coded_labels_match_ui_md() -> None:
    if not UI_SPEC.is_file():
        pytest.skip("shared/spec/UI.md is not beside the repository")
    assert _ui_md_table() == REQUIRED


@pytest.mark.parametrize("msgid", [*REQUIRED, *DERIVED])
def test_fixed_labels_exact_in_english_french_portuguese(msgid: str, messages: Messages) -> None:
    fr, pt = {**REQUIRED, **DERIVED}[msgid]
    assert messages["en"][msgid] == msgid
    assert messages["fr"][msgid] == fr
    assert messages["pt"][msgid] == pt
    for lang in ("zh", "uk"):
        assert messages[lang][msgid], lang
        assert messages[lang][msgid] != msgid or msgid == "Normal", (lang, msgid)


def test_the_ui_uses_every_fixed_label(template: Catalog) -> None:
    """Every label of UI.md (and its per-suit / per-card siblings) is a msgid of the UI's own code."""
    ids = {m.id for m in template if any(path != "ui/i18n.py" for path, _line in m.locations)}
    assert set(REQUIRED) | set(DERIVED) <= ids


def test_special_card_names_in_chinese_and_ukrainian(messages: Messages) -> None:
    assert (messages["zh"]["Pig"], messages["zh"]["Goat"], messages["zh"]["Transformer"]) == (
        "猪",
        "羊",
        "变压器",
    )
    assert (messages["uk"]["Pig"], messages["uk"]["Goat"], messages["uk"]["Transformer"]) == (
        "Свиня",
        "Коза",
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


def test_compiled_json_is_what_the_ui_reads(tmp_path: Path, template: Catalog) -> None:
    counts = tools_i18n.compile_catalogs(tmp_path, strict=True)
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
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


def test_every_translated_call_has_a_literal_msgid() -> None:
    """Babel only extracts literals: ``_(variable)`` in the UI would never be translated."""
    offenders = []
    for path in sorted((ROOT / "ui").glob("*.py")):
        if path.name == "i18n.py":  # the lookup API itself
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id in ("_", "N_") and not (
                    node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)
                ):
                    offenders.append(f"{path.name}:{node.lineno}")
                if node.func.id == "ngettext" and not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:2]
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
