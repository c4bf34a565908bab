"""The page's keys, decided by ``ui/actions.py`` ``on_key`` (the shell only carries out its plan):
the settings sheet, the hand review, the hand's roving focus, Enter/Space on a card and Escape on
a panel, each run through the real runner (tests/support/page.py) as ``ui/shell/app.py`` runs it."""

from __future__ import annotations

from tests.support.page import Page, playable
from tests.support.replay import op, play_out
from ui import actions
from ui.core import flow
from ui.core.state import UIState
from ui.features import review


def press(page: Page, key: str, card: str | None = None, repeat: bool = False) -> actions.KeyPlan:
    """A key pressed as the shell hands it over: the plan, its input taken by the runner."""
    plan = actions.on_key(page.s, key, card, repeat)
    if plan.transition is not None:
        page.input(plan.transition, *plan.args)
    return plan


def _my_turn(seed: int = 9) -> Page:
    page = Page(UIState())
    page.s.link.engine_ready = True
    page.run(flow.started(page.s, op("new_match", seed=seed)))
    page.drive()
    if page.s.table.view is not None and page.s.table.view["phase"] == "expose":
        page.run(actions.on_action(page.s, "expose-none"))
    view = page.s.table.view
    assert view is not None and view["phase"] == "play" and view["turn"] == 0
    return page


def _hand_over(seed: int = 5) -> Page:
    packed = play_out(op("new_match", seed=seed), lambda v: v["phase"] == "hand_over")
    s = UIState()
    s.link.engine_ready = True
    flow.checked(s, packed)  # (the engine's table)
    page = Page(s)
    page.drive()
    return page


def test_the_open_sheet_takes_escape_and_tab_and_nothing_else() -> None:
    page = _my_turn()
    s = page.s
    page.run(actions.on_action(s, "menu"))
    assert s.screen.sheet
    card = s.table.view["hand"][0] if s.table.view else None
    tab = press(page, "Tab")
    assert tab.trap == actions.SHEET_DIALOG and not tab.prevent and tab.transition is None
    for key in ("ArrowRight", "Enter", " ", "End"):
        plan = press(page, key, card)
        assert (plan.prevent, plan.trap, plan.focus, plan.transition) == (False, None, None, None), key
    assert s.table.selected is None and s.screen.sheet  # (the hand behind the sheet is not touched)
    escape = press(page, "Escape")
    assert escape.prevent and escape.transition is flow.menu and not s.screen.sheet


def test_arrows_home_and_end_move_the_focus_through_the_hand() -> None:
    page = _my_turn()
    s = page.s
    assert s.table.view is not None
    hand = s.table.view["hand"]
    plan = press(page, "ArrowRight", hand[0])
    assert plan.prevent and plan.focus == hand[1] == s.table.focus and plan.transition is None
    assert press(page, "ArrowLeft", hand[0]).focus == hand[0]  # (kept within the hand)
    assert press(page, "End", hand[0]).focus == hand[-1] == s.table.focus
    assert press(page, "Home", hand[-1]).focus == hand[0]
    gone = press(page, "ArrowDown", "XX")  # (a card no longer in the hand: the focus stays)
    assert gone.prevent and gone.focus is None
    off_hand = press(page, "ArrowRight")  # (the focus is not on a hand card: the browser's own)
    assert not off_hand.prevent and off_hand.focus is None and off_hand.transition is None


def test_enter_or_space_on_a_card_selects_it_then_plays_it_and_a_held_key_taps_once() -> None:
    page = _my_turn()
    s = page.s
    card = playable(s)[0]
    plan = press(page, "Enter", card)
    assert plan.prevent and plan.transition is flow.tap_card and plan.args == (card,)
    assert s.table.focus == card and s.table.selected == card
    held = press(page, " ", card, repeat=True)
    assert held.prevent and held.transition is None and s.table.selected == card
    before = len(s.table.view["hand"]) if s.table.view else 0
    press(page, " ", card)
    assert s.table.view is not None and card not in s.table.view["hand"]
    assert len(s.table.view["hand"]) == before - 1


def test_an_open_review_takes_its_keys_and_reads_each_trick_out() -> None:
    page = _hand_over()
    s = page.s
    page.run(actions.on_action(s, "review-hand"))
    assert s.review.trick == 1
    plan = press(page, "ArrowRight")
    assert plan.prevent and plan.transition is review.key_pressed and s.review.trick == 2
    assert page.said[-1].startswith("Trick 2: ")
    press(page, "End")
    assert s.review.trick == 13
    press(page, "ArrowUp")
    press(page, "Home")
    assert s.review.trick == 1
    other = press(page, "Enter")  # (not the review's: nothing)
    assert other.transition is None and s.review.trick == 1
    press(page, "Escape")
    assert s.review.trick == 0
    # closed: the arrows are the hand's again (no hand card has the focus: nothing)
    assert press(page, "ArrowRight").transition is None


def test_a_key_the_review_took_does_nothing_once_it_closed_meanwhile() -> None:
    page = _hand_over()
    s = page.s
    page.run(actions.on_action(s, "review-hand"))
    plan = actions.on_key(s, "ArrowRight")
    page.run(review.close(s))
    page.input(plan.transition, *plan.args)
    assert s.review.trick == 0


def test_escape_closes_a_panel_and_is_left_alone_without_one() -> None:
    page = _my_turn()
    s = page.s
    nothing = press(page, "Escape")
    assert (nothing.prevent, nothing.transition) == (False, None)
    page.run(actions.on_action(s, "statistics"))
    assert s.screen.panel == "statistics"
    plan = press(page, "Escape")
    assert not plan.prevent and plan.transition is actions.on_action and plan.args == ("close",)
    assert s.screen.panel is None
