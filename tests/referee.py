"""An independent re-derivation of docs/rules.md, written from the page without the engine's code.

Used by the tests to check the simulator's match logs play by play.  Deliberately plain:
card codes and lists, no bit masks.  The house rules ("House rules" in docs/rules.md) are read from
the log record's ``rules`` (absent: the defaults), as plain strings.
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


DEFAULT_RULES = {"match_end": "-1000", "exposing": "on", "first_lead": "2S", "all_hearts": "standard"}


def score(captured: list[str], exposed_by_anyone: list[str], flipped: bool = False) -> int:
    """One player's hand score; ``flipped``: all_hearts=flip and somebody took all 13 hearts."""
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
        pig = 100 if all_hearts or flipped else -100
        total += pig * (2 if "QS" in exposed else 1)
    if "JD" in captured_set:
        goat = -100 if flipped else 100
        total += goat * (2 if "JD" in exposed else 1)
    if "TC" in captured_set:
        others = (captured_set & POINT_CARDS) - {"TC"}
        if not others:
            return 100 if "TC" in exposed else 50
        total *= 4 if "TC" in exposed else 2
    return total


def match_over(totals: list[int], rules: dict[str, str] = DEFAULT_RULES, hands_played: int = 0) -> bool:
    one_leader = totals.count(max(totals)) == 1
    end = rules["match_end"]
    if end.startswith("hands:"):
        return hands_played >= int(end[len("hands:") :]) and one_leader
    return min(totals) <= int(end) and one_leader


def check_match_log(record: dict[str, Any]) -> None:
    """Assert that one match-log record follows the rules, hand by hand and play by play."""
    rules = {**DEFAULT_RULES, **record.get("rules", {})}
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
            if rules["exposing"] == "off":
                assert hand["exposed"][seat] == []
        first = rules["first_lead"]
        leader = next(s for s in range(4) if first in deal[s]) if number == 1 else next_leader
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
        flipped = rules["all_hearts"] == "flip" and any(
            sum(1 for card in c if card[1] == "H") == 13 for c in captured
        )
        scores = [score(c, all_exposed, flipped) for c in captured]
        assert hand["scores"] == scores
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
        assert hand["totals"] == totals
        next_leader = next(s for s in range(4) if "QS" in captured[s])
        if number < len(hands):
            assert not match_over(totals, rules, number), "the match went on after it had ended"
    final = record["final"]
    assert final["totals"] == totals
    if final["complete"]:
        assert match_over(totals, rules, len(hands))
        ranking = sorted(range(4), key=lambda s: -totals[s])
        assert [totals[s] for s in final["ranking"]] == [totals[s] for s in ranking]
        assert final["winner"] == ranking[0]
        end = rules["match_end"]
        limit = None if end.startswith("hands:") else int(end)
        assert sorted(final["eliminated"]) == [
            s for s in range(4) if limit is not None and totals[s] <= limit
        ]
    else:
        assert not match_over(totals, rules, len(hands))
