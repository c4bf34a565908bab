"""Nothing from a view, the UI flags or a catalog is ever written to the page as markup.

Every region is rendered from real views of every phase in which every string (card codes, seat
names, reasons, translations, messages) is replaced by markup; no ``<b`` may come out. The saved
view is also held to ui/core/shape.py before the page may draw it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.broken_saves import PAYLOAD, packed
from tests.support.replay import op, play_out
from ui.core import shape
from ui.core.state import UIState
from ui.view import i18n, render

MARKUP = '<b x="1">'


class Poisoned(dict):  # type: ignore[type-arg]
    """A catalog that translates every msgid to markup."""

    def get(self, key: Any, default: Any = None) -> Any:
        return MARKUP


@pytest.fixture
def poisoned_catalog() -> Iterator[None]:
    i18n.install("fr", Poisoned())
    yield
    i18n.install("en", {})


def _views() -> dict[str, dict[str, Any]]:
    start = packed(5)
    playing = play_out(
        start, lambda v: v["phase"] == "play" and len(v["tricks"]) >= 2 and v["trick"]["plays"]
    )
    over = play_out(playing, lambda v: v["phase"] == "hand_over")
    end = play_out(over, lambda v: v["phase"] == "match_over")
    exposing = next(
        p for p in (op("new_match", seed=s) for s in range(1, 60)) if p["view"]["exposable"]
    )  # a deal where the player may expose
    return {
        "expose": exposing["view"],
        "play": playing["view"],
        "hand_over": over["view"],
        "match_over": end["view"],
    }


VIEWS = _views()


def _values(value: Any) -> Any:
    if isinstance(value, str):
        return MARKUP
    if isinstance(value, list):
        return [_values(v) for v in value]
    if isinstance(value, dict):
        return {k: _values(v) for k, v in value.items()}
    return value


def _poison(view: dict[str, Any]) -> dict[str, Any]:
    """Every string value of ``view`` markup (the card codes keying the refusals too), except the
    phase, so that each phase's regions render."""
    out: dict[str, Any] = _values(view)
    out["refusals"] = {MARKUP: {"reason": MARKUP, "card": MARKUP}}
    out["phase"] = view["phase"]
    return out


@pytest.mark.parametrize("phase", list(VIEWS))
@pytest.mark.parametrize("panel", [None, "captured", "last-trick"])
def test_no_value_is_written_as_markup(poisoned_catalog: None, phase: str, panel: str | None) -> None:
    view = _poison(VIEWS[phase])
    app = UIState()
    for key, value in {
        "table.view": view, "settings.level": MARKUP, "table.hand_level": MARKUP, "table.selected": MARKUP, "table.expose_sel": [MARKUP],
        "screen.message": MARKUP, "screen.notice": MARKUP, "screen.alert": MARKUP, "link.engine_note": MARKUP, "saving.unsaved": True,
        "motion.toast": MARKUP, "motion.fresh_card": MARKUP, "screen.panel": panel, "table.hold": phase == "play", "settings.four_colour": True,
        "screen.loading_text": MARKUP, "screen.progress": 50, "saving.elsewhere": True, "link.failed": "", "settings.memory_aid": True,
    }.items():  # fmt: skip
        part, field = key.split(".")  # (a part of the state, its field)
        setattr(getattr(app, part), field, value)
    regions = render.regions(app)
    assert regions["hand"] and regions["bar"] and regions["seat-1"]
    for region, html in regions.items():
        assert "<b x" not in html and "<b " not in html, (region, html[html.find("<b ") - 80 :][:200])
    app.table.view = None
    assert all("<b " not in html for html in render.regions(app).values())
    app.link.failed = MARKUP
    assert all("<b " not in html for html in render.regions(app).values())
    app.table.view, app.link.failed, app.link.ask_seed = view, "", 12
    assert all("<b " not in html for html in render.regions(app).values())


def test_the_saved_views_of_every_phase_pass_the_shape_check() -> None:
    for view in VIEWS.values():
        shape.check_view(json.loads(json.dumps(view)))


@pytest.mark.parametrize("phase", list(VIEWS))
def test_markup_anywhere_in_a_saved_view_is_refused(phase: str) -> None:
    view = VIEWS[phase]
    text = json.dumps(view)
    # every string of the view, one at a time, replaced by the PyScript payload
    strings = sorted({s for s in _strings(view)})
    assert strings
    for s in strings:
        tampered = json.loads(text.replace(json.dumps(s), json.dumps(PAYLOAD)))
        with pytest.raises(shape.ShapeError):
            shape.check_view(tampered)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)


def test_shape_check_bounds() -> None:
    view = json.loads(json.dumps(VIEWS["play"]))
    for change in (
        lambda v: v.update(hand=v["hand"] + ["2C"] * 5),
        lambda v: v.update(turn=4),
        lambda v: v.update(totals=[0, 0, 0, 1.5]),
        lambda v: v.update(hand_number=True),
        lambda v: v.update(history=[{"number": 1}] * 600),
        lambda v: v.update(extra="x" * 41),
        lambda v: v["captured"][1].append("ZZ"),
    ):
        tampered = json.loads(json.dumps(view))
        change(tampered)
        with pytest.raises(shape.ShapeError):
            shape.check_view(tampered)


def test_the_hand_summarys_tricks_are_shape_checked() -> None:
    view = json.loads(json.dumps(VIEWS["hand_over"]))
    assert len(view["last_hand"]["tricks"]) == 13
    shape.check_view(view)
    del view["last_hand"]["tricks"]
    shape.check_view(view)  # a save from before the summary kept its tricks is drawn as before
    for change in (
        lambda last: last["tricks"][5]["plays"][2].update(card="ZZ"),
        lambda last: last["tricks"][0]["plays"][0].update(seat=4),
        lambda last: last["tricks"][12].update(winner="2"),
        lambda last: last["tricks"][3]["plays"].append({"seat": 0, "card": "2C"}),
        lambda last: last["tricks"].append(last["tricks"][0]),
        lambda last: last.update(tricks={"plays": []}),
    ):
        tampered = json.loads(json.dumps(VIEWS["hand_over"]))
        change(tampered["last_hand"])
        with pytest.raises(shape.ShapeError):
            shape.check_view(tampered)
