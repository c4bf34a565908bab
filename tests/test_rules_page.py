"""The rules page: five languages, numbered sections, and every number equal to the engine's scoring."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from gongzhu import score_breakdown
from gongzhu.cards import to_mask
from tools import rules_page
from ui.view import texts
from ui.view.i18n import LANGUAGES

SCORE = re.compile(
    r'<span class="score" data-captured="([^"]*)" data-exposed="([^"]*)" data-score="(-?\d+)">([^<]*)</span>'
)
HEARTS = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"


@pytest.fixture(scope="module")
def page() -> str:
    return rules_page.render()


def articles(page: str) -> dict[str, str]:
    found = re.findall(r'<article data-lang="(\w+)".*?</article>', page, re.S)
    bodies = re.findall(r'(<article data-lang="\w+".*?</article>)', page, re.S)
    return dict(zip(found, bodies, strict=True))


def engine(captured: str, exposed: str = "") -> int:
    return score_breakdown(to_mask(captured.split()), to_mask(exposed.split()))["score"]


def test_one_article_per_language_english_visible_without_script(page: str) -> None:
    arts = articles(page)
    assert list(arts) == list(LANGUAGES)
    assert "hidden" not in arts["en"].split(">", 1)[0]
    assert all(" hidden" in arts[lang].split(">", 1)[0] for lang in LANGUAGES if lang != "en")
    assert "{{" not in page and "}}" not in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbered_sections_in_order(page: str, lang: str) -> None:
    article = articles(page)[lang]
    sections = re.findall(r'data-section="([\w-]+)"><h2><span class="n">(\d+)\.</span>', article)
    assert sections == [(sid, str(i + 1)) for i, sid in enumerate(rules_page.SECTIONS)]
    assert len(rules_page.SECTIONS) == 11
    # The table of contents links every section.
    assert article.count(f'href="#{lang}-') == len(rules_page.SECTIONS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_labels_are_translated(page: str, lang: str) -> None:
    article = articles(page)[lang]
    t = rules_page.translator(lang)
    for msgid in (rules_page.PAGE_TITLE, rules_page.BACK, rules_page.COLUMN_EXPOSED, rules_page.WINS):
        assert html.escape(t(msgid)) in article
        if lang != "en":
            assert t(msgid) != msgid
    assert f'data-title="{html.escape(t(rules_page.PAGE_TITLE))}"' in article
    assert 'class="back" href="./"' in article
    for code in LANGUAGES:
        assert f'data-lang-link="{code}"' in article


def test_every_number_on_the_page_is_the_engines(page: str) -> None:
    spans = SCORE.findall(page)
    assert len(spans) > 100
    for captured, exposed, score, text in spans:
        assert int(score) == engine(captured, exposed), (captured, exposed)
        shown = text.rsplit("= ", 1)[-1].replace("−", "-").replace("+", "")
        assert int(shown) == int(score), text


@pytest.mark.parametrize(
    ("captured", "exposed", "formula"),
    [
        ("TC QS 7H", "", "2 × (−100 − 10) = −220"),
        ("TC QS 7H", "TC QS", "4 × (−200 − 10) = −840"),
        ("TC 3H", "", "2 × 0 = 0"),
        ("AC TC QS JD", "", "2 × (−100 + 100) = 0"),
    ],
)
def test_worked_numbers_match_rules_md(page: str, captured: str, exposed: str, formula: str) -> None:
    """The page's check computations and worked trick, in every language, with docs/rules.md's values."""
    expected = {"TC QS 7H": -220, "TC 3H": 0, "AC TC QS JD": 0}[captured] if not exposed else -840
    assert engine(captured, exposed) == expected
    span = (
        f'<span class="score" data-captured="{captured}" data-exposed="{exposed}" '
        f'data-score="{expected}">{formula}</span>'
    )
    for lang, article in articles(page).items():
        assert span in article, lang


def test_worked_trick_diagram(page: str) -> None:
    for lang, article in articles(page).items():
        figure = re.search(
            r'<figure class="trick-figure" data-winner="(\d)" data-score="(-?\d+)">(.*?)</figure>',
            article,
            re.S,
        )
        assert figure, lang
        assert figure.group(1) == "0" and figure.group(2) == "0"
        cards = re.findall(r'class="card big[^"]*" data-card="(\w+)"', figure.group(3))
        assert cards == ["AC", "TC", "QS", "JD"]
        assert 'class="trick-scroll"' in figure.group(3)
        assert 'class="play winner" data-seat="0"' in figure.group(3)


def test_points_table_values(page: str) -> None:
    """The full points table, plain and exposed, as docs/rules.md states it."""
    expected = {
        ("AH", ""): -50, ("AH", "AH"): -100, ("KH", ""): -40, ("QH", ""): -30, ("JH", ""): -20,
        ("TH", ""): -10, ("TH", "AH"): -20, ("4H", ""): 0, (HEARTS, ""): 200, (HEARTS, "AH"): 400,
        ("QS", ""): -100, ("QS", "QS"): -200, ("JD", ""): 100, ("JD", "JD"): 200,
        ("TC", ""): 50, ("TC", "TC"): 100, (HEARTS + " QS JD TC", ""): 800,
    }  # fmt: skip
    table = re.search(r'<table class="points">.*?</table>', articles(page)["en"], re.S)
    assert table
    cells = {(c, e): int(s) for c, e, s, _text in SCORE.findall(table.group(0))}
    for key, value in expected.items():
        assert cells[key] == value, key
    for kind, value in {
        "pig-with-all-hearts": "+100",
        "pig-with-all-hearts-exposed": "+200",
        "transformer-multiplier": "× 2",
        "transformer-multiplier-exposed": "× 4",
    }.items():
        assert f'data-kind="{kind}">{value}<' in table.group(0)


def test_faq_and_profile_numbers_in_every_language(page: str) -> None:
    for lang, article in articles(page).items():
        faq = article.split('data-section="faq"')[1]
        assert 'data-captured="TC 3H" data-exposed="" data-score="0">0<' in faq, lang
        about = article.split('data-section="about"')[1].split("<section")[0]
        assert f'data-captured="{HEARTS} QS JD TC" data-exposed="" data-score="800">+800<' in about, lang
        for card in ("2S", "AH", "QS", "JD", "TC"):
            assert f'data-card="{card}"' in about, (lang, card)


def test_malformed_content_is_refused(tmp_path: Path) -> None:
    for lang in LANGUAGES:
        (tmp_path / f"{lang}.html").write_text(rules_page.read_content(lang), encoding="utf-8")
    broken = rules_page.read_content("fr").replace('<section id="faq">', '<section id="questions">')
    (tmp_path / "fr.html").write_text(broken, encoding="utf-8")
    with pytest.raises(rules_page.RulesError, match=r"fr\.html"):
        rules_page.render(rules_dir=tmp_path)
    (tmp_path / "fr.html").write_text(rules_page.read_content("fr") + "{{nope}}", encoding="utf-8")
    with pytest.raises(rules_page.RulesError, match="nope"):
        rules_page.render(rules_dir=tmp_path)


def test_build_writes_the_page(tmp_path: Path) -> None:
    path = rules_page.build_rules_pages(tmp_path)
    assert path == tmp_path / "rules.html"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>")
    assert '<html lang="en"' in text and '<meta name="viewport"' in text


def test_formats_agree_with_the_game() -> None:
    for n in (-840, -10, 0, 50, 800):
        assert rules_page.signed(n) == texts.signed(n)
    for code in ("QS", "TC", "2H", "AC"):
        assert rules_page.card_label(code) == texts.card_label(code)
