"""What e2e tests once played in Chromium only to check the engine's logic, checked here in CPython
through the worker's own ops, played as the page plays (``tests/support/replay.py``: the player never
exposes and always plays its first playable card, the opponents at Normal). The e2e tests keep what
only a browser shows (the page's text, its storage, its reloads) and start from a position computed
here instead of playing up to it."""

from __future__ import annotations

from tests.support.replay import QUICK_SEED, finish_like_page, op, quick_match_hands


def test_a_quick_match_ends_once_a_total_reaches_minus_500_with_one_leader() -> None:
    """Replaces tests/e2e/test_house_rules.py's quick match played hand after hand in Chromium: the
    match under ``match_end=-500`` ends at the first hand that takes a total to −500 or below, with a
    single leader, the eliminated seats those at −500 or below, and its rules in every view."""
    *starts, final = quick_match_hands()
    view = final["view"]
    assert all(start["view"]["rules"]["match_end"] == "-500" for start in starts)
    assert view["rules"]["match_end"] == "-500"
    result = view["result"]
    totals = result["totals"]
    assert result["complete"] and totals == view["totals"]
    assert min(totals) <= -500 and totals.count(max(totals)) == 1
    assert result["winner"] == totals.index(max(totals)) == result["ranking"][0]
    assert result["eliminated"] == [s for s in range(4) if totals[s] <= -500]
    assert sorted(result["ranking"]) == [0, 1, 2, 3]
    assert [totals[s] for s in result["ranking"]] == sorted(totals, reverse=True)
    # the standard match would have gone on: −1000 is its end
    standard = op("new_match", seed=QUICK_SEED)
    for _ in range(len(starts)):
        standard = finish_like_page(standard)
        assert standard["view"]["phase"] == "hand_over"
        standard = op("step", state=standard["state"], action={"type": "next_hand"})
