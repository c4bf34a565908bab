"""The rules page (``dist/rules.html``), generated at build time in the five languages.

The prose of each language lives in ``docs/rules/<lang>.html``: eleven ``<section id=...>`` fragments in
the order of :data:`SECTIONS`, each opening with an ``<h2>`` (numbered here). Everything with a
number in it is generated from the engine's own scoring (:func:`gongzhu.score_breakdown`), so the page
cannot drift from the game:

* ``{{points_table}}``: the full points table, plain and exposed;
* ``{{trick_diagram}}``: the worked trick (A♣ led, 10♣ follows, Q♠ and J♦ discarded), as HTML cards
  in a horizontally scrollable box;
* ``{{checks}}``: the check computations;
* ``{{score:TC 3H}}`` / ``{{score:TC QS 7H/TC QS}}``: one hand score inline (captured/exposed);
* ``{{card:QS}}``: a card face such as Q♠.

Every generated number is an element with ``data-captured``/``data-exposed``/``data-score`` so the
tests can compare the page with the engine. The short labels of the generated parts are gettext
messages (``N_``) of the game's catalogs. All five languages go into one page; a small script shows
the one picked by ``?lang=``, the saved choice (the game's ``localStorage`` key) or the browser.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from gongzhu import Breakdown, score_breakdown
from gongzhu.cards import HEARTS_MASK, INDEX, POINT_MASK, to_mask
from gongzhu.house_rules import CHOICES, DEFAULT_RULES, Rules
from gongzhu.rules import trick_winner
from ui.view import i18n, texts

from .i18n import LANGUAGES, LOCALES, ROOT, load_messages

#: The page's prose per language, beside the rules' specification (docs/rules.md).
RULES_DIR = ROOT / "docs" / "rules"
# The page's own names of the languages and suits (one definition: the game's).
HTML_LANG, LANGUAGE_NAMES, SUIT_SYMBOLS = i18n.HTML_LANG, i18n.LANGUAGE_NAMES, texts.SUIT_SYMBOLS
PAGE_NAME = "rules.html"
#: The one rule that picks the page's language (web/language.js, shared with the loading screen).
LANGUAGE_SCRIPT = "language.js"

#: Section ids, in page order (every ``docs/rules/<lang>.html`` has exactly these).
SECTIONS: tuple[str, ...] = (
    "about",
    "players",
    "tricks",
    "points",
    "all-hearts",
    "exposing",
    "example",
    "checks",
    "end",
    "tips",
    "faq",
)

#: The worked trick: seat order of play, the leader first.
WORKED_TRICK: tuple[str, ...] = ("AC", "TC", "QS", "JD")
#: The check computations: (captured, exposed).
CHECKS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("TC", "QS", "7H"), ()),
    (("TC", "QS", "7H"), ("TC", "QS")),
    (("TC", "3H"), ()),
)

Translate = Callable[[str], str]


def N_(msgid: str) -> str:
    return msgid


PAGE_TITLE = N_("Rules of Gong Zhu")
HEADING = N_("How to play Gong Zhu")
BACK = N_("Back to the game")
LANGUAGE = N_("Language")
CONTENTS = N_("Contents")


# --------------------------------------------------------------------------- numbers


def breakdown(captured: Iterable[str], exposed: Iterable[str] = ()) -> Breakdown:
    return score_breakdown(to_mask(captured), to_mask(exposed))


def signed(n: int) -> str:
    """``−220``, ``+50``, ``0`` (a true minus sign), as ``ui.view.texts.signed`` shows scores in the game."""
    if n < 0:
        return f"−{-n}"
    return f"+{n}" if n > 0 else "0"


def unsigned(n: int) -> str:
    """``−220``, ``50``, ``0``: without the plus sign (the result of a formula)."""
    return signed(n).lstrip("+")


def formula(captured: Sequence[str], exposed: Sequence[str] = ()) -> tuple[str, int]:
    """``2 × (−100 + 100) = 0``: how the engine's breakdown adds up, and the score."""
    b = breakdown(captured, exposed)
    terms: list[int] = []
    if "QS" in captured:
        terms.append(b["pig"])
    if "JD" in captured:
        terms.append(b["goat"])
    if to_mask(captured) & HEARTS_MASK:
        terms.append(b["hearts"])
    text = unsigned(terms[0]) if terms else "0"
    for term in terms[1:]:
        text += f" − {-term}" if term < 0 else f" + {term}"
    if b["transformer"] == "multiplier":
        text = (
            f"{b['transformer_multiplier']} × ({text})"
            if len(terms) > 1
            else f"{b['transformer_multiplier']} × {text}"
        )
    elif b["transformer"] == "alone":
        text = signed(b["transformer_bonus"])
    assert b["score"] == b["transformer_bonus"] + b["subtotal"] * b["transformer_multiplier"]
    return f"{text} = {unsigned(b['score'])}", b["score"]


def score_span(captured: Sequence[str], exposed: Sequence[str] = (), text: str | None = None) -> str:
    score = breakdown(captured, exposed)["score"]
    return (
        f'<span class="score" data-captured="{" ".join(captured)}" data-exposed="{" ".join(exposed)}" '
        f'data-score="{score}">{html.escape(text if text is not None else signed(score))}</span>'
    )


# --------------------------------------------------------------------------- cards


def card_label(code: str) -> str:
    """``QS`` -> ``Q♠``, ``TC`` -> ``10♣``, as ``ui.view.texts.card_label`` shows cards in the game."""
    return ("10" if code[0] == "T" else code[0]) + SUIT_SYMBOLS[code[1]]


def card_html(code: str, big: bool = False) -> str:
    red = " red" if code[1] in "HD" else ""
    size = " big" if big else ""
    return f'<span class="card{size}{red}" data-card="{code}">{card_label(code)}</span>'


def cards_html(codes: Iterable[str]) -> str:
    return " ".join(card_html(c) for c in codes)


# --------------------------------------------------------------------------- generated parts

ROW_LABELS = {
    "AH": N_("Ace of hearts"),
    "KH": N_("King of hearts"),
    "QH": N_("Queen of hearts"),
    "JH": N_("Jack of hearts"),
    "TH": N_("10, 9, 8, 7, 6, 5 of hearts, each"),
    "4H": N_("4, 3, 2 of hearts, each"),
    "hearts": N_("All 13 hearts, one player"),
    "hearts+QS": N_("The pig, with all 13 hearts"),
    "QS": N_("The pig"),
    "JD": N_("The goat"),
    "TC": N_("The transformer, alone"),
    "TC+": N_("The transformer, with other point cards"),
    "all16": N_("All 16 point cards, one player"),
}
COLUMN_CARD = N_("Card")
COLUMN_POINTS = N_("Points")
COLUMN_EXPOSED = N_("If exposed")
HEARTS = tuple(r + "H" for r in "AKQJT98765432")


def _cell(captured: Sequence[str], exposed: Sequence[str], text: str | None = None) -> str:
    return f"<td>{score_span(captured, exposed, text)}</td>"


def points_table(t: Translate) -> str:
    rows: list[str] = []

    def row(label: str, cards: str, plain: str, exposed: str) -> None:
        rows.append(
            f'<tr><th scope="row">{cards} <span class="label">{html.escape(t(label))}</span></th>{plain}{exposed}</tr>'
        )

    for code, same in (("AH", ()), ("KH", ()), ("QH", ()), ("JH", ()), ("TH", "98765"), ("4H", "32")):
        group = [code, *(r + "H" for r in same)]
        values = {breakdown([c])["score"] for c in group}
        assert len(values) == 1, f"the rules page groups {group} but the engine scores them {values}"
        row(ROW_LABELS[code], cards_html(group), _cell([code], []), _cell([code], ["AH"]))
    row(ROW_LABELS["hearts"], "13 ♥", _cell(HEARTS, []), _cell(HEARTS, ["AH"]))
    row(ROW_LABELS["QS"], card_html("QS"), _cell(["QS"], []), _cell(["QS"], ["QS"]))
    pig_all = breakdown([*HEARTS, "QS"])["pig"]
    pig_all_exposed = breakdown([*HEARTS, "QS"], ["QS"])["pig"]
    row(
        ROW_LABELS["hearts+QS"],
        card_html("QS") + " + 13 ♥",
        f'<td><span class="value" data-kind="pig-with-all-hearts">{signed(pig_all)}</span></td>',
        f'<td><span class="value" data-kind="pig-with-all-hearts-exposed">{signed(pig_all_exposed)}</span></td>',
    )
    row(ROW_LABELS["JD"], card_html("JD"), _cell(["JD"], []), _cell(["JD"], ["JD"]))
    row(ROW_LABELS["TC"], card_html("TC"), _cell(["TC"], []), _cell(["TC"], ["TC"]))
    times = breakdown(["TC", "JD"])["transformer_multiplier"]
    times_exposed = breakdown(["TC", "JD"], ["TC"])["transformer_multiplier"]
    row(
        ROW_LABELS["TC+"],
        card_html("TC") + " + …",
        f'<td><span class="value" data-kind="transformer-multiplier">× {times}</span></td>',
        f'<td><span class="value" data-kind="transformer-multiplier-exposed">× {times_exposed}</span></td>',
    )
    all16 = [*HEARTS, "QS", "JD", "TC"]
    row(ROW_LABELS["all16"], "16", _cell(all16, []), "<td>—</td>")
    head = (
        f'<thead><tr><th scope="col">{html.escape(t(COLUMN_CARD))}</th><th scope="col">'
        f'{html.escape(t(COLUMN_POINTS))}</th><th scope="col">{html.escape(t(COLUMN_EXPOSED))}</th></tr></thead>'
    )
    return (
        f'<div class="table-scroll"><table class="points">{head}<tbody>{"".join(rows)}</tbody></table></div>'
    )


ROLE_LEADS = N_("leads")
ROLE_FOLLOWS = N_("follows suit")
ROLE_DISCARDS = N_("discards")
WINS = N_("wins the trick")
DIAGRAM_LABEL = N_("Diagram of the worked trick")
CAPTURED = N_("Captured point cards")
SCORE_IF_ALONE = N_("Hand score if nothing else is captured")
PLAYER = N_("Player {n}")


def trick_diagram(t: Translate) -> str:
    winner = trick_winner([(seat, INDEX[c]) for seat, c in enumerate(WORKED_TRICK)])
    lead_suit = WORKED_TRICK[0][1]
    plays: list[str] = []
    for seat, code in enumerate(WORKED_TRICK):
        role = ROLE_LEADS if seat == 0 else ROLE_FOLLOWS if code[1] == lead_suit else ROLE_DISCARDS
        wins = f'<span class="wins">★ {html.escape(t(WINS))}</span>' if seat == winner else ""
        plays.append(
            f'<li class="play{" winner" if seat == winner else ""}" data-seat="{seat}">'
            f'<span class="who">{html.escape(t(PLAYER).format(n=seat + 1))}</span>'
            f'{card_html(code, big=True)}<span class="role">{html.escape(t(role))}</span>{wins}</li>'
        )
    captured = [c for c in WORKED_TRICK if to_mask([c]) & POINT_MASK]
    text, score = formula(WORKED_TRICK)
    result = (
        f'<div class="result"><p>{html.escape(t(CAPTURED))}: {cards_html(captured)}</p>'
        f"<p>{html.escape(t(SCORE_IF_ALONE))}:</p>"
        f'<p class="formula">{score_span(list(WORKED_TRICK), [], text)}</p></div>'
    )
    return (
        f'<figure class="trick-figure" data-winner="{winner}" data-score="{score}">'
        f'<div class="trick-scroll" role="region" tabindex="0" aria-label="{html.escape(t(DIAGRAM_LABEL))}">'
        f'<div class="trick-inner"><ol class="trick">{"".join(plays)}</ol>'
        f'<div class="arrow" aria-hidden="true">→</div>{result}</div></div></figure>'
    )


CHECK_CAPTURED = N_("Captured")
CHECK_EXPOSED = N_("Exposed")
CHECK_NOTHING = N_("nothing")
CHECK_SCORE = N_("Hand score")


def checks(t: Translate) -> str:
    items: list[str] = []
    for captured, exposed in CHECKS:
        text, _score = formula(captured, exposed)
        shown_exposed = cards_html(exposed) if exposed else html.escape(t(CHECK_NOTHING))
        items.append(
            f'<li class="check"><p>{html.escape(t(CHECK_CAPTURED))}: {cards_html(captured)} · '
            f"{html.escape(t(CHECK_EXPOSED))}: {shown_exposed}</p>"
            f'<p class="formula">{html.escape(t(CHECK_SCORE))}: {score_span(captured, exposed, text)}</p></li>'
        )
    return f'<ol class="checks">{"".join(items)}</ol>'


# --------------------------------------------------------------------------- house rules

HOUSE_RULES = N_("House rules")
HOUSE_INTRO = N_(
    "Chosen in the game's settings for the next match; the daily deal always uses the standard rules."
)
HOUSE_MATCH_END = N_("Match end")
HOUSE_MATCH_END_TEXT = N_(
    "The match ends after the hand in which a total reaches {a} (or {b}, a quick match) with one player "
    "alone on top, or after a fixed number of hands ({n} or {m}): then the highest total wins, and a "
    "tie at the top plays one more hand."
)
HOUSE_EXPOSING = N_("No exposing")
HOUSE_EXPOSING_TEXT = N_("No expose phase: the exposure multipliers never apply.")
HOUSE_FIRST_LEAD = N_("First lead")
HOUSE_FIRST_LEAD_TEXT = N_("The holder of {card} instead of {default} leads the first hand of the match.")
HOUSE_FLIP = N_("All hearts flips pig and goat")
HOUSE_FLIP_TEXT = N_(
    "When one player takes all 13 hearts, the pig scores {pig} and the goat {goat} for every player "
    "(doubled when exposed); the hearts and the transformer score as usual."
)
HOUSE_STANDARD = N_("Standard all hearts")
#: The flip rule's examples (captured; another player took all the hearts unless they are listed).
FLIP_EXAMPLES: tuple[tuple[str, ...], ...] = (("QS",), ("JD",), ("TC", "QS"), (*HEARTS, "JD"))


def house_rules(t: Translate) -> str:
    """The house rules (docs/rules.md "House rules"), after the numbered sections: what each rule
    does, with the flip rule's examples scored by the engine both ways."""
    quick, four, eight = Rules(match_end="-500"), Rules(match_end="hands:4"), Rules(match_end="hands:8")
    assert CHOICES["match_end"] == (DEFAULT_RULES.match_end, quick.match_end, four.match_end, eight.match_end)
    flipped_pig = score_breakdown(to_mask(["QS"]), 0, flipped=True)["pig"]
    flipped_goat = score_breakdown(to_mask(["JD"]), 0, flipped=True)["goat"]
    items = [
        (HOUSE_MATCH_END, t(HOUSE_MATCH_END_TEXT).format(
            a=unsigned(DEFAULT_RULES.elimination or 0), b=unsigned(quick.elimination or 0), n=four.hands, m=eight.hands
        )),
        (HOUSE_EXPOSING, t(HOUSE_EXPOSING_TEXT)),
        (HOUSE_FIRST_LEAD, t(HOUSE_FIRST_LEAD_TEXT).format(
            card=card_label(CHOICES["first_lead"][1]), default=card_label(DEFAULT_RULES.first_lead)
        )),
        (HOUSE_FLIP, t(HOUSE_FLIP_TEXT).format(pig=signed(flipped_pig), goat=signed(flipped_goat))),
    ]  # fmt: skip
    terms = "".join(f"<dt>{html.escape(t(term))}</dt><dd>{html.escape(text)}</dd>" for term, text in items)
    rows = []
    for captured in FLIP_EXAMPLES:
        mask = to_mask(captured)
        label = cards_html(c for c in captured if c not in HEARTS) + (
            " + 13 ♥" if HEARTS[0] in captured else ""
        )
        standard, flip = score_breakdown(mask, 0)["score"], score_breakdown(mask, 0, flipped=True)["score"]
        rows.append(
            f'<tr data-captured="{" ".join(captured)}" data-standard="{standard}" data-flip="{flip}">'
            f'<th scope="row">{label}</th><td>{signed(standard)}</td><td>{signed(flip)}</td></tr>'
        )
    head = "".join(
        f'<th scope="col">{html.escape(t(h))}</th>' for h in (CHECK_CAPTURED, HOUSE_STANDARD, HOUSE_FLIP)
    )
    return (
        f'<div class="house-rules" data-part="house-rules"><h2>{html.escape(t(HOUSE_RULES))}</h2>'
        f"<p>{html.escape(t(HOUSE_INTRO))}</p><dl>{terms}</dl>"
        f'<table class="points flip"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
        "</div>"
    )


# --------------------------------------------------------------------------- page

_PLACEHOLDER = re.compile(r"\{\{(\w+)(?::([^}]*))?\}\}")
_SECTION = re.compile(r'<section id="([\w-]+)">\s*<h2>(.*?)</h2>', re.S)


class RulesError(RuntimeError):
    """A rules content file is malformed."""


def read_content(language: str, rules_dir: Path = RULES_DIR) -> str:
    return (rules_dir / f"{language}.html").read_text(encoding="utf-8")


def render_article(language: str, content: str, t: Translate) -> str:
    ids = [m.group(1) for m in _SECTION.finditer(content)]
    if tuple(ids) != SECTIONS:
        raise RulesError(f"docs/rules/{language}.html: sections {ids}, expected {list(SECTIONS)}")

    def placeholder(match: re.Match[str]) -> str:
        name, arg = match.group(1), match.group(2)
        if name == "points_table":
            return points_table(t)
        if name == "trick_diagram":
            return trick_diagram(t)
        if name == "checks":
            return checks(t)
        if name == "card" and arg:
            return card_html(arg.strip())
        if name == "score" and arg:
            captured, _sep, exposed = arg.partition("/")
            return score_span(captured.split(), exposed.split())
        raise RulesError(f"docs/rules/{language}.html: unknown placeholder {match.group(0)}")

    body = _PLACEHOLDER.sub(placeholder, content)
    toc: list[str] = []

    def number(match: re.Match[str]) -> str:
        n = SECTIONS.index(match.group(1)) + 1
        toc.append(f'<li><a href="#{language}-{match.group(1)}">{match.group(2)}</a></li>')
        return (
            f'<section id="{language}-{match.group(1)}" data-section="{match.group(1)}">'
            f'<h2><span class="n">{n}.</span> {match.group(2)}</h2>'
        )

    body = _SECTION.sub(number, body)
    current = ' aria-current="true"'
    switch = " ".join(
        f'<a href="?lang={code}" hreflang="{HTML_LANG[code]}" lang="{HTML_LANG[code]}" data-lang-link="{code}"'
        f"{current if code == language else ''}>{name}</a>"
        for code, name in LANGUAGE_NAMES.items()
    )
    return (
        f'<article data-lang="{language}" lang="{HTML_LANG[language]}" data-title="{html.escape(t(PAGE_TITLE))}"'
        f"{'' if language == 'en' else ' hidden'}>"
        f'<header class="bar"><a class="back" href="./">← {html.escape(t(BACK))}</a>'
        f'<nav class="langs" aria-label="{html.escape(t(LANGUAGE))}">{switch}</nav></header>'
        f"<h1>{html.escape(t(HEADING))}</h1>"
        f'<nav class="toc" aria-label="{html.escape(t(CONTENTS))}"><ol>{"".join(toc)}</ol></nav>'
        f"{body}{house_rules(t)}</article>"
    )


STYLE = """
:root { color-scheme: light; --felt: #0b5d3b; --felt-dark: #084a2f; --ink: #f4f1e8; --paper: #fbfaf6;
  --text: #1d2b24; --red: #c0262d; --line: #d8d3c4; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--felt); color: var(--text);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", sans-serif; }
main { max-width: 52rem; margin: 0 auto; background: var(--paper); min-height: 100vh; padding: 0 1rem 3rem; }
.bar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between;
  background: var(--felt-dark); color: var(--ink); margin: 0 -1rem; padding: .6rem 1rem; position: sticky; top: 0; z-index: 1; }
.bar a { color: var(--ink); }
.back { font-weight: 600; text-decoration: none; padding: .5rem 0; min-height: 44px; display: inline-flex; align-items: center; }
.langs { display: flex; flex-wrap: wrap; gap: .25rem; }
.langs a { text-decoration: none; padding: .45rem .55rem; border-radius: .4rem; min-height: 44px; display: inline-flex; align-items: center; }
.langs a[aria-current] { background: var(--ink); color: var(--felt-dark); font-weight: 600; }
h1 { font-size: 1.7rem; margin: 1.2rem 0 .5rem; color: var(--felt-dark); }
h2 { font-size: 1.3rem; margin: 2rem 0 .6rem; color: var(--felt-dark); border-bottom: 2px solid var(--line); padding-bottom: .2rem; }
h2 .n { color: var(--red); }
.toc ol { padding-left: 1.4rem; margin: .3rem 0 1rem; }
.toc a { color: var(--felt-dark); }
section { scroll-margin-top: 4.5rem; }
.card { display: inline-block; font-weight: 700; white-space: nowrap; padding: 0 .2em; border: 1px solid var(--line);
  border-radius: .25em; background: #fff; color: #111; line-height: 1.35; }
.card.red { color: var(--red); }
.card.big { width: 4.2rem; height: 5.8rem; font-size: 1.6rem; display: flex; align-items: center; justify-content: center;
  border-radius: .5rem; box-shadow: 0 2px 4px rgba(0,0,0,.25); margin: .4rem auto; }
.table-scroll { overflow-x: auto; max-width: 100%; }
table.points { border-collapse: collapse; width: 100%; }
table.points th, table.points td { border-bottom: 1px solid var(--line); padding: .4rem .5rem; text-align: left; vertical-align: middle; }
table.points td { white-space: nowrap; font-variant-numeric: tabular-nums; }
table.points th[scope="row"] { font-weight: 400; }
.trick-scroll { overflow-x: auto; max-width: 100%; border: 1px solid var(--line); border-radius: .6rem; background: var(--felt); color: var(--ink);
  -webkit-overflow-scrolling: touch; }
.trick-scroll:focus-visible { outline: 3px solid var(--red); }
.trick-inner { display: flex; align-items: center; gap: 1rem; padding: 1rem; width: max-content; min-width: 100%; }
ol.trick { display: flex; gap: .5rem; list-style: none; margin: 0; padding: 0; }
.play { width: 5.5rem; text-align: center; padding: .4rem; border-radius: .5rem; }
.play.winner { background: rgba(255, 255, 255, .15); outline: 2px solid #f5d76e; }
.who, .role, .wins { display: block; font-size: .85rem; }
.wins { color: #f5d76e; font-weight: 700; }
.arrow { font-size: 2rem; }
.result { width: 15rem; }
.result p { margin: .3rem 0; }
.formula { font-weight: 700; font-variant-numeric: tabular-nums; }
.trick-figure { margin: 1rem 0; }
ol.checks { padding-left: 1.4rem; }
.check p { margin: .2rem 0; }
.check { margin-bottom: .8rem; }
.faq dt { font-weight: 700; margin-top: .8rem; }
.faq dd { margin-left: 0; }
@media (max-width: 600px) {
  .bar { position: static; }
  .langs a { padding: .3rem .4rem; }
  h1 { font-size: 1.45rem; }
}
"""

SCRIPT = """
(function () {
  var LANGS = %(langs)s;
  var forced = new URLSearchParams(location.search).get("lang") || "";
  function show(lang) {
    var articles = document.querySelectorAll("article[data-lang]");
    for (var i = 0; i < articles.length; i++) {
      var article = articles[i];
      article.hidden = article.getAttribute("data-lang") !== lang;
      if (!article.hidden) {
        document.documentElement.lang = article.lang;
        document.documentElement.setAttribute("data-lang", lang);
        document.title = article.getAttribute("data-title");
      }
    }
    var back = document.querySelectorAll("a.back");
    for (var j = 0; j < back.length; j++) back[j].href = forced === lang ? "./?lang=" + lang : "./";
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-lang-link]");
    if (!link) return;
    event.preventDefault();
    var lang = link.getAttribute("data-lang-link");
    try { localStorage.setItem(window.gongzhuLanguage.KEY, lang); } catch (e) {}
    forced = "";
    history.replaceState(null, "", location.pathname + location.hash);
    show(lang);
    window.scrollTo(0, 0);
  });
  show(window.gongzhuLanguage(LANGS));
})();
"""


def render_page(articles: Sequence[str], english_title: str) -> str:
    script = SCRIPT % {"langs": json.dumps(list(LANGUAGES))}
    return (
        '<!doctype html>\n<html lang="en" data-lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(english_title)}</title>\n"
        '<link rel="icon" href="./favicon.svg" type="image/svg+xml">\n'
        f"<style>{STYLE}</style>\n</head>\n<body>\n<main>\n"
        + "\n".join(articles)
        + f'\n</main>\n<script src="./{LANGUAGE_SCRIPT}"></script>\n<script>{script}</script>\n</body>\n</html>\n'
    )


def translator(language: str, locales: Path = LOCALES) -> Translate:
    messages = load_messages(language, locales)

    def t(msgid: str) -> str:
        text = messages.get(msgid)
        return text if isinstance(text, str) and text else msgid

    return t


def render(rules_dir: Path = RULES_DIR, locales: Path = LOCALES) -> str:
    articles = [
        render_article(language, read_content(language, rules_dir), translator(language, locales))
        for language in LANGUAGES
    ]
    return render_page(articles, translator("en", locales)(PAGE_TITLE))


def build_rules_pages(dist: Path, rules_dir: Path = RULES_DIR, locales: Path = LOCALES) -> Path:
    """Write ``dist/rules.html`` (all five languages) and return its path."""
    target = dist / PAGE_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(rules_dir, locales), encoding="utf-8")
    return target
