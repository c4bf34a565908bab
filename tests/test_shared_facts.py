"""Facts the MicroPython UI must hold itself (it cannot import :mod:`gongzhu`), held equal to the
engine's definition: the ranks, suits and phases, the signal cards, the −1000 line the chart draws,
the dates a ``?daily=`` link may name and the daily deal's level."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import example, given
from hypothesis import strategies as st

from gongzhu.cards import GOAT, PIG, RANKS, SUITS, TRANSFORMER
from gongzhu.daily import DAILY_LEVEL, InvalidDate, check_date
from gongzhu.game import ELIMINATION, PHASES
from ui.core import flow, shape, state
from ui.features import daily, dates, sound
from ui.view import chart, table


def test_the_ui_knows_the_engines_cards_and_phases() -> None:
    assert (shape.RANKS, shape.SUITS) == (RANKS, SUITS)
    assert shape.PHASES == state.PHASES == PHASES
    assert tuple(table.PHASES) == PHASES  # each phase's CSS name


def test_the_ui_signals_the_engines_signal_cards() -> None:
    assert table.SIGNAL_CARDS == (PIG, GOAT, TRANSFORMER)
    assert tuple(sound.SIGNALS) == table.SIGNAL_CARDS


def test_the_chart_draws_the_line_where_the_engine_ends_the_match() -> None:
    assert chart.ELIMINATION == ELIMINATION


def engine_takes(text: str) -> bool:
    try:
        return check_date(text) == text
    except InvalidDate:
        return False


#: Strings shaped like dates, most of them near a real one: digits, a sign, a space or a non-ASCII
#: digit in any place, and the calendar's edges (the 29th of February, the 31st, years 1999/3000).
date_like = st.builds(
    lambda y, m, d, sep: f"{y}{sep}{m}{sep}{d}",
    st.sampled_from(
        ["1999", "2000", "2024", "2026", "2100", "2400", "2999", "3000", "0000", "２０２６", "+202"]
    ),
    st.sampled_from(["00", "01", "02", "04", "12", "13", "1", "+1", "٠٢"]),
    st.sampled_from(["00", "01", "28", "29", "30", "31", "32", "1", " 1"]),
    st.sampled_from(["-", "-", "-", "/", "."]),
)


@given(st.one_of(date_like, st.text(max_size=12)))
@example("2000-02-29")
@example("2100-02-29")
@example("2026-02-29")
@example("2026-04-31")
@example("2999-12-31")
def test_a_daily_link_takes_exactly_the_dates_the_engine_takes(text: str) -> None:
    taken, valid = daily.parse_date(text)
    if text == "":
        assert (taken, valid) == (None, True)  # empty: today's deal
    else:
        assert (taken == text and valid) == engine_takes(text), text


@given(st.one_of(date_like, st.text(max_size=12)))
@example("2026-02-30")
@example("1999-12-31")
def test_the_uis_one_date_check_takes_exactly_the_dates_the_engine_takes(text: str) -> None:
    assert dates.is_date(text) == engine_takes(text), text


def test_every_day_of_the_engines_years_is_taken_by_both() -> None:
    day = date(2000, 1, 1)
    while day.year < 3000:
        text = day.isoformat()
        assert engine_takes(text) and daily.parse_date(text) == (text, True)
        day += timedelta(days=97)


def test_the_daily_deal_is_played_at_the_engines_daily_level() -> None:
    ui = state.UIState()
    ui.settings.level = next(level for level in ("easy", "normal") if level != DAILY_LEVEL)
    ui.day.on_table = "2026-12-02"
    flow.begin_hand(ui)
    assert ui.table.hand_level == DAILY_LEVEL
    ui.day.on_table = None
    flow.begin_hand(ui)
    assert ui.table.hand_level == ui.settings.level
