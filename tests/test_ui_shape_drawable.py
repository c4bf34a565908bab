"""What passes the shape check can be drawn (issue 28): the early paint of a save, before the
engine has seen it, never raises.

A property test: from a real table of each phase (``expose``, ``play``, ``hand_over``,
``match_over``), hypothesis makes saves with fields removed, nulled or replaced by other values;
every one that ``ui/core/store.py`` accepts (its shape check, ``ui/core/shape.py``) is resumed and every
region of the page is rendered without an exception.
"""

from __future__ import annotations

import copy
import functools
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gongzhu.table_view import TableView
from tests.support.replay import op, play_out
from ui.core import flow, shape, store
from ui.core.state import UIState
from ui.view import render, table


@functools.cache
def tables() -> dict[str, dict[str, Any]]:
    """A real table (engine state and seat 0's view) of each phase."""
    start = op("new_match", seed=5)
    return {
        "expose": start,
        "play": play_out(
            start, lambda v: v["phase"] == "play" and len(v["tricks"]) >= 2 and v["trick"]["plays"]
        ),
        "hand_over": play_out(start, lambda v: v["phase"] == "hand_over"),
        "match_over": play_out(start, lambda v: v["phase"] == "match_over"),
    }


def save_text(packed: dict[str, Any], view: Any, **flags: Any) -> str:
    data = {"schema": 1, "state": packed["state"], "view": view, "hand_level": "normal", "bots_exposed": True,
            "hold": False, "speed": False, "selected": None, "expose_sel": []}  # fmt: skip
    data.update(flags)
    return json.dumps(data)


def draw_all(text: str) -> None:
    """Resume the save as the page does before the engine answers and render every region, the
    settings sheet closed and open (the panels open only once the engine has answered: a tap on
    their buttons waits for it, ``flow.on_action``)."""
    saved = store.decode(text)
    s = flow.resume(UIState(), saved)
    table.html_phase(s)
    table.turn_attr(s)
    flow.busy(s)
    render.regions(s)
    s.screen.sheet = True
    render.regions(s)


#: Values a field may be replaced by: each shape-valid somewhere.
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=60),
    st.sampled_from(
        ["QS", "TC", "AH", "2D", "play", "expose", "hand_over", "match_over", "none", "alone", "S"]
    ),
    st.just([]),
    st.just({}),
    st.lists(st.sampled_from(["QS", "JD", "TC", "AH", "5S"]), max_size=4, unique=True),
    st.lists(st.integers(min_value=0, max_value=3), min_size=4, max_size=4),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into ``value`` (dict keys and list indices), the shallow ones first."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key in value:
            out.extend(_paths(value[key], (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value[:4]):
            out.extend(_paths(item, (*prefix, index)))
    return out


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, dict[str, Any], Any]:
    """A phase, its table, and its view with one to three fields removed or replaced."""
    phase = draw(st.sampled_from(sorted(tables())))
    packed = tables()[phase]
    view = copy.deepcopy(packed["view"])
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = _paths(view)
        path = draw(st.sampled_from(paths))
        parent = view
        for step in path[:-1]:
            parent = parent[step]
        if isinstance(parent, dict) and draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(VALUES)
    return phase, packed, view


@settings(
    max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow]
)
@given(mutated())
def test_every_save_the_shape_check_accepts_can_be_drawn(case: tuple[str, dict[str, Any], Any]) -> None:
    _phase, packed, view = case
    text = save_text(packed, view)
    try:
        shape.check_view(view)
    except shape.ShapeError:
        return  # (refused: set aside, never drawn)
    draw_all(text)


@pytest.mark.parametrize("phase", ["expose", "play", "hand_over", "match_over"])
def test_a_real_table_of_each_phase_is_drawn(phase: str) -> None:
    packed = tables()[phase]
    draw_all(save_text(packed, packed["view"], review_trick=2))


@pytest.mark.parametrize(
    ("phase", "field"),
    [("match_over", "result"), ("hand_over", "last_hand"), ("match_over", "last_hand"), ("play", "turn")],
)
def test_a_phase_without_the_field_it_is_drawn_from_is_refused(phase: str, field: str) -> None:
    view = copy.deepcopy(tables()[phase]["view"])
    view[field] = None
    with pytest.raises(shape.ShapeError):
        shape.check_view(view)


def test_the_engine_declares_the_view_it_sends() -> None:
    """``gongzhu.table_view.TableView`` (the UI's type of the view too) has exactly the fields sent."""
    for packed in tables().values():
        assert set(TableView.__required_keys__) == set(packed["view"])
        assert not TableView.__optional_keys__


def test_a_save_from_before_a_table_fact_waits_for_the_engine_to_be_drawn() -> None:
    packed = tables()["play"]
    view = copy.deepcopy(packed["view"])
    del view["exposed_held"]  # (sent since 2026-12-01)
    s = flow.resume(UIState(), store.decode(save_text(packed, view)))
    assert (
        s.table.view is None and s.table.state == packed["state"]
    )  # resumable, not drawn: the loading state
    render.regions(s)
    flow.checked(s, op("check", state=s.table.state))
    assert s.table.view is not None and "exposed_held" in s.table.view
    render.regions(s)


@pytest.mark.parametrize("bad", [True, 3, "quick", ["match_end"], {"match_end": 500}])
def test_house_rules_that_are_not_rule_names_are_refused(bad: Any) -> None:
    """The table's badge and the summaries name the house rules: a saved view whose ``house_rules``
    is not an object of rule values is set aside before anything draws it."""
    view = copy.deepcopy(tables()["play"]["view"])
    shape.check_view(view)  # (the real view passes)
    view["house_rules"] = bad
    with pytest.raises(shape.ShapeError):
        shape.check_view(view)
