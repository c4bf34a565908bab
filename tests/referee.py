"""An independent re-derivation of docs/rules.md, written from the page without the engine's code.

Used by the tests to check the simulator's match logs play by play.  Deliberately plain:
card codes and lists, no bit masks.
"""

from __future__ import annotations

from typing import Any

RANK_ORDER = "23456789TJQKA"
HEART_POINTS = {"A": -50, "K": -40, "Q": -30, "J": -20, "T": -10, "9": -10, "8": -10, "7": -10,
                "6": -10, "5": -10, "4": 0, "3": 0, "2": 0}  # fmt: skip
ALL_CARDS = {r + s for r in RANK_ORDER for s in "SHDC"}
POINT_CARDS = {r + "H" for r in RANK_ORDER} | {"QS", "JD", "TC"}


def legal_cards(
    hand: list[str], own_exposed: list[str], earlier_leads: set[str], trick: list[str]
) -> set[str]:
    """docs/rules.md "Leading and following" plus the exposed-card restriction."""

    def same_suit(suit: str) -> list[str]:
        return [c for c in hand if c[1] == suit]

    def restricted(card: str) -> bool:
        # exposed, its suit not yet led in an earlier trick, and not the only card of its suit in hand
        return card in own_exposed and card[1] not in earlier_leads and len(same_suit(card[1])) > 1

    if not trick:
        return {c for c in hand if not restricted(c)}
    led = trick[0][1]
    followers = same_suit(led)
    if not followers:
        return set(hand)
    return {c for c in followers if not restricted(c)}


def winner_of(leader: int, cards: list[str]) -> int:
    led = cards[0][1]
    best = max((RANK_ORDER.index(c[0]), i) for i, c in enumerate(cards) if c[1] == led)[1]
    return (leader + best) % 4


def score(captured: list[str], exposed_by_anyone: list[str]) -> int:
    captured_set = set(captured)
    exposed = set(exposed_by_anyone)
    hearts = [c for c in captured_set if c[1] == "H"]
    total = 0
    all_hearts = len(hearts) == 13
    if all_hearts:
        total += 400 if "AH" in exposed else 200
    else:
        total += sum(HEART_POINTS[c[0]] for c in hearts) * (2 if "AH" in exposed else 1)
    if "QS" in captured_set:
        pig = 100 if all_hearts else -100
        total += pig * (2 if "QS" in exposed else 1)
    if "JD" in captured_set:
        total += 200 if "JD" in exposed else 100
    if "TC" in captured_set:
        others = (captured_set & POINT_CARDS) - {"TC"}
        if not others:
            return 100 if "TC" in exposed else 50
        total *= 4 if "TC" in exposed else 2
    return total


def match_over(totals: list[int]) -> bool:
    return min(totals) <= -1000 and totals.count(max(totals)) == 1


def check_match_log(record: dict[str, Any]) -> None:
    """Assert that one match-log record follows the rules, hand by hand and play by play."""
    totals = [0, 0, 0, 0]
    next_leader: int | None = None
    hands = record["hands"]
    for number, hand in enumerate(hands, start=1):
        assert hand["number"] == number
        deal = hand["deal"]
        assert sorted(c for h in deal for c in h) == sorted(ALL_CARDS)
        assert all(len(h) == 13 for h in deal)
        for seat in range(4):
            assert set(hand["exposed"][seat]) <= set(deal[seat]) & {"AH", "QS", "JD", "TC"}
        leader = next(s for s in range(4) if "2S" in deal[s]) if number == 1 else next_leader
        holdings = [list(h) for h in deal]
        captured: list[list[str]] = [[], [], [], []]
        earlier_leads: set[str] = set()
        assert len(hand["tricks"]) == 13
        for trick in hand["tricks"]:
            assert trick["leader"] == leader
            cards: list[str] = []
            for offset, play in enumerate(trick["plays"]):
                seat = (leader + offset) % 4
                assert play["seat"] == seat
                expected = legal_cards(holdings[seat], hand["exposed"][seat], earlier_leads, cards)
                assert set(play["legal"]) == expected, (number, trick, play)
                assert play["card"] in expected
                holdings[seat].remove(play["card"])
                cards.append(play["card"])
            assert len(cards) == 4
            winner = winner_of(leader, cards)
            assert trick["winner"] == winner
            captured[winner] += cards
            earlier_leads.add(cards[0][1])
            leader = winner
        assert [sorted(c) for c in hand["captured"]] == [sorted(c) for c in captured]
        all_exposed = [c for e in hand["exposed"] for c in e]
        scores = [score(c, all_exposed) for c in captured]
        assert hand["scores"] == scores
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        assert hand["totals"] == totals
        next_leader = next(s for s in range(4) if "QS" in captured[s])
        if number < len(hands):
            assert not match_over(totals), "the match went on after it had ended"
    final = record["final"]
    assert final["totals"] == totals
    if final["complete"]:
        assert match_over(totals)
        ranking = sorted(range(4), key=lambda s: -totals[s])
        assert [totals[s] for s in final["ranking"]] == [totals[s] for s in ranking]
        assert final["winner"] == ranking[0]
        assert sorted(final["eliminated"]) == [s for s in range(4) if totals[s] <= -1000]
    else:
        assert not match_over(totals)
