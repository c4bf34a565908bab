"""What one seat knows, read from its view into masks: the AI's only input.

Besides the obvious (own hand, played cards, captures, exposed cards) this infers the voids a seat
has shown: a failure to follow suit, and the exposed-card restriction (an exposed card played in the
first trick of its suit was its owner's only card of that suit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import INDEX, to_mask
from ..house_rules import DEFAULT_RULES, Rules, rules_from_json
from .sim import Table

TWO_OF_SPADES = INDEX["2S"]


@dataclass
class EarlierHand:
    """The previous hand of the match as the view shows it once it is over: every play is public
    then, and every seat's hand is known (it played all of its cards)."""

    number: int  # its hand number
    plays: list[tuple[int, int]]  # (seat, card) of its 52 plays, in order
    exposed: list[int]  # the cards each seat exposed in it
    totals: list[int]  # the match totals before it

    def hands(self) -> list[int]:
        """The four hands it was played from."""
        hands = [0, 0, 0, 0]
        for seat, card in self.plays:
            hands[seat] |= 1 << card
        return hands


@dataclass
class Knowledge:
    seat: int
    hand: int
    hand_sizes: list[int]
    captured: list[int]
    exposed: list[int]
    gone: int  # every card played so far, current trick included
    led: int
    leader: int  # leader of the current trick
    trick: list[int]
    voids: list[int]  # 4-bit suit set per seat
    history: list[tuple[int, int]]  # (seat, card) of every play this hand, in order
    first_leader: int
    hand_number: int
    totals: list[int]  # the match totals before this hand (public)
    rules: Rules = DEFAULT_RULES  # the match's house rules (the view's ``rules``)
    earlier: EarlierHand | None = None  # the previous hand's plays, when the view has them

    def table(self, hands: list[int] | None = None) -> Table:
        """A table of what this seat knows, with ``hands`` (used as given: a sampled world, the
        search's) or else only this seat's hand filled in (the levels' own decisions)."""
        if hands is None:
            hands = [0, 0, 0, 0]
            hands[self.seat] = self.hand
        return Table(
            hands, list(self.captured), self.exposed, self.led, self.leader, list(self.trick), self.gone,
            self.rules.flip,
        )  # fmt: skip

    def known_holdings(self) -> list[int]:
        """Cards known to be in each other seat's hand: its exposed cards not yet played, and the
        first-lead card of hand 1 (2S, or the house rules' 2C)."""
        known = [e & ~self.gone for e in self.exposed]
        known[self.seat] = 0
        two = 1 << INDEX[self.rules.first_lead]
        if self.hand_number == 1 and not (self.gone | self.hand) & two and self.first_leader != self.seat:
            known[self.first_leader] |= two
        return known


def read_view(view: dict[str, Any]) -> Knowledge:
    seat: int = view["seat"]
    exposed = [to_mask(e) for e in view["exposed"]]
    voids = [0, 0, 0, 0]
    history: list[tuple[int, int]] = []
    led = 0
    gone = 0
    tricks: list[dict[str, Any]] = list(view["tricks"])
    current: dict[str, Any] = view["trick"]
    for trick in [*tricks, current]:
        plays = trick["plays"]
        if not plays:
            continue
        lead_suit = INDEX[plays[0]["card"]] // 13
        first_of_suit = not (led >> lead_suit) & 1
        for play in plays:
            s, c = play["seat"], INDEX[play["card"]]
            history.append((s, c))
            gone |= 1 << c
            if c // 13 != lead_suit:
                voids[s] |= 1 << lead_suit
            elif first_of_suit and exposed[s] >> c & 1:
                voids[s] |= 1 << lead_suit  # only card of the suit (exposed-card restriction)
        if trick is not current:
            led |= 1 << lead_suit
    first_leader = tricks[0]["leader"] if tricks else current["leader"]
    captured = [to_mask(c) for c in view["captured"]]
    gone |= captured[0] | captured[1] | captured[2] | captured[3]
    return Knowledge(
        seat=seat,
        hand=to_mask(view["hand"]),
        hand_sizes=list(view["hand_sizes"]),
        captured=captured,
        exposed=exposed,
        gone=gone,
        led=led,
        leader=current["leader"],
        trick=[INDEX[p["card"]] for p in current["plays"]],
        voids=voids,
        history=history,
        first_leader=first_leader,
        hand_number=view["hand_number"],
        totals=list(view["totals"]),
        rules=rules_from_json(view.get("rules")),
        earlier=earlier_hand(view.get("last_hand")),
    )


def earlier_hand(last: Any) -> EarlierHand | None:
    """The previous hand from the view's ``last_hand``, or None when its plays are not there (hand 1,
    a partial view, or a save from before the summary kept them)."""
    if not isinstance(last, dict) or len(last.get("tricks") or ()) != 13:
        return None
    plays = [(p["seat"], INDEX[p["card"]]) for trick in last["tricks"] for p in trick["plays"]]
    totals = [t - s for t, s in zip(last["totals"], last["scores"], strict=True)]
    return EarlierHand(last["number"], plays, [to_mask(e) for e in last["exposed"]], totals)
