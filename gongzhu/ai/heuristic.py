"""Normal's hand-written strategy, on bit masks, so it is also Hard's playout policy.

The rules of thumb (docs/rules.md point cards): keep the pig guarded by low spades and dump it the moment
someone else is winning a trick; shed big hearts early; win the goat only with diamonds nobody can
beat; take the transformer when your captures are positive (or when it would be alone) and dump it
when they are negative; block a player about to take all hearts (overtake a trick holding a heart,
lead a heart nobody can beat, discard a heart on a trick the runner has lost); run all hearts with a hand that
can.  Every function reads only the acting seat's own hand from the table.

Near the end of a match :class:`~gongzhu.ai.match.MatchPlan` (``plan``, read from the view's public
totals by :class:`gongzhu.ai.levels.NormalPlayer`) changes two things; without a plan (the default,
and always in Hard's playouts and opponent model) Normal plays for the hand's points as before:

* ``protect`` (this seat leads the match alone): it starts no run at all hearts unless it holds every
  heart still out, since a failed run can cost it the match (and in a match of a fixed number of
  hands it exposes nothing: :class:`gongzhu.ai.levels.NormalPlayer`);
* ``chase`` (it trails the leader by more than ``CHASE_GAP``): it runs all hearts on a weaker hand
  (``CHASE_RUN_HEARTS``); discarding, it gives the leader the card that costs it most when the leader
  surely takes the trick, keeps a guarded pig rather than give it to a trick the leader has lost,
  and does not push another seat to the match's ending total (that ends the match with the leader
  ahead).
"""

from __future__ import annotations

from ..cards import (
    CLUBS,
    DIAMONDS,
    FULL_MASK,
    GOAT_BIT,
    HEARTS,
    HEARTS_MASK,
    INDEX,
    PIG_BIT,
    POINT_MASK,
    SPADES,
    SUIT_MASKS,
    TRANSFORMER_BIT,
    indices,
)
from ..rules import winning_position
from .match import CHASE, PROTECT, MatchPlan
from .sim import Table, fast_score, high_bit, low_bit

AS, KS, QS = INDEX["AS"], INDEX["KS"], INDEX["QS"]
AH, KH, QH = INDEX["AH"], INDEX["KH"], INDEX["QH"]
JD, TC = INDEX["JD"], INDEX["TC"]
HIGH_SPADES = (1 << AS) | (1 << KS)
SPADE_MASK, DIAMOND_MASK, CLUB_MASK = SUIT_MASKS[SPADES], SUIT_MASKS[DIAMONDS], SUIT_MASKS[CLUBS]
# diamonds above the goat: QD, KD, AD
ABOVE_GOAT = SUIT_MASKS[DIAMONDS] & ~((1 << (JD + 1)) - 1)
CHASE_RUN_HEARTS = 7  # chasing: hearts held and taken that start a run (with the top heart still out)
PIG_GUARDS = 2  # chasing: low spades that let a seat keep the pig for the match leader


def delta(captured: int, cards: int, exposed_all: int, flip: bool = False) -> int:
    """How much capturing ``cards`` changes a hand score now (``flip``: the house rule all_hearts=flip,
    which turns the pig and the goat round once these captures hold every heart)."""
    after = captured | cards
    flipped = flip and after & HEARTS_MASK == HEARTS_MASK
    return fast_score(after, exposed_all, flipped) - fast_score(captured, exposed_all, flipped)


def hearts_runner(table: Table) -> int:
    """The seat that has captured every heart played so far (at least 6), or -1."""
    gone_hearts = table.gone & HEARTS_MASK
    if gone_hearts.bit_count() < 6:  # (the common case, before building the trick's mask)
        return -1
    if table.trick:
        gone_hearts &= ~_trick_mask(table.trick)
        if gone_hearts.bit_count() < 6:
            return -1
    for seat in range(4):
        if table.captured[seat] & HEARTS_MASK == gone_hearts:
            return seat
    return -1


def _trick_mask(trick: list[int]) -> int:
    m = 0
    for c in trick:
        m |= 1 << c
    return m


def shooting(table: Table, seat: int, plan: MatchPlan | None = None) -> bool:
    """Going for all hearts: no one else holds a captured heart and my hand owns the top hearts
    (``plan``: near the end of a match, see the module doc)."""
    hand = table.hands[seat]
    others = 0
    for s in range(4):
        if s != seat:
            others |= table.captured[s]
    if others & HEARTS_MASK:
        return False
    out_hearts = HEARTS_MASK & ~table.gone & ~hand
    my_hearts = hand & HEARTS_MASK
    if not my_hearts:
        return False
    if plan is not None:
        if plan.mode == PROTECT and out_hearts:
            return False
        if plan.mode == CHASE:
            held = my_hearts.bit_count()
            return (
                (not out_hearts or high_bit(out_hearts) < high_bit(my_hearts))
                and held >= out_hearts.bit_count()
                and held + (table.captured[seat] & HEARTS_MASK).bit_count() >= CHASE_RUN_HEARTS
            )
    # every outstanding heart is below my lowest high heart, and I hold many hearts
    return (
        my_hearts.bit_count() >= 8
        and (not out_hearts or high_bit(out_hearts) < high_bit(my_hearts))
        and (hand & (1 << AH) != 0)
    )


def shed_priority(table: Table, seat: int, card: int, plan: MatchPlan | None = None) -> int:
    """How much this seat wants to get rid of ``card`` when someone else takes it."""
    hand = table.hands[seat]
    bit = 1 << card
    suit = card // 13
    rank = card % 13
    if card == QS:
        return 300
    if card == JD:
        # under all_hearts=flip the goat costs a player running all the hearts 100
        return 200 if table.flip and shooting(table, seat, plan) else -200
    if card == TC:
        return 60 if table.own_score(table.captured[seat]) < 0 else -40
    if suit == HEARTS:
        return 40 + rank * 8 if rank >= 3 else 10 + rank
    if suit == SPADES and bit & HIGH_SPADES and not (table.gone | hand) & PIG_BIT:
        return 150 + rank  # AS/KS with the pig still out
    if suit == DIAMONDS and card > JD and not table.gone & GOAT_BIT:
        return rank - 20  # keep high diamonds while the goat is out
    count = (hand & SUIT_MASKS[suit]).bit_count()
    return rank * 2 + (12 if count <= 2 else 0)


def normal_play(table: Table, seat: int, legal: int, plan: MatchPlan | None = None) -> int:
    """Normal's card (``plan``: how to play near the end of a match, see the module doc)."""
    if legal & (legal - 1) == 0:
        return low_bit(legal)
    trick = table.trick
    if not trick:
        return _lead(table, seat, legal, plan)
    lead_mask = SUIT_MASKS[trick[0] // 13]
    if legal & lead_mask:
        return _follow(table, seat, legal, plan)
    return _discard(table, seat, legal, plan)


def _runner_beaten(table: Table, runner: int) -> bool:
    """The all-hearts runner has played to this trick and someone else is winning it."""
    trick = table.trick
    position = (runner - table.leader) & 3
    return position < len(trick) and winning_position(trick) != position


def _keeps_pig_for(table: Table, seat: int, target: int) -> bool:
    """Chasing: the pig stays in hand rather than go to a trick ``target`` (the match leader) has
    played to and is not winning, while low spades guard it and tricks are left to give it later."""
    trick = table.trick
    hand = table.hands[seat]
    position = (target - table.leader) & 3
    return (
        position < len(trick)
        and winning_position(trick) != position
        and (hand & SPADE_MASK & ((1 << QS) - 1)).bit_count() >= PIG_GUARDS
        and not hand & HIGH_SPADES
        and hand.bit_count() > 3
    )


def _load_target(table: Table, seat: int, legal: int, target: int) -> int:
    """Chasing: the discard that costs the match leader most when it surely takes this trick (it
    wins it and no card still out can beat it), or -1 when none costs it anything."""
    trick = table.trick
    position = winning_position(trick)
    if (table.leader + position) & 3 != target:
        return -1
    win_card = trick[position]
    out = FULL_MASK & ~table.gone & ~table.hands[seat] & SUIT_MASKS[win_card // 13]
    if len(trick) < 3 and out and high_bit(out) > win_card:
        return -1
    taken = table.captured[target] | _trick_mask(trick)
    now = table.own_score(taken)
    best, best_loss = -1, 0
    for c in indices(legal & POINT_MASK):
        loss = now - table.own_score(taken | (1 << c))
        if loss > best_loss:
            best, best_loss = c, loss
    return best


def _sparing(table: Table, legal: int, target: int, room: tuple[int, ...]) -> int:
    """Chasing: the discards that do not push the trick's winner (not the match leader) to the
    match's ending total by this hand's captures so far, which would end the match with the leader
    ahead; all of ``legal`` when none or every one would."""
    trick = table.trick
    winner = (table.leader + winning_position(trick)) & 3
    if winner == target:
        return legal
    taken = table.captured[winner] | _trick_mask(trick)
    spared = 0
    for c in indices(legal):
        if table.own_score(taken | (1 << c)) > -room[winner]:
            spared |= 1 << c
    return spared or legal


def _discard(table: Table, seat: int, legal: int, plan: MatchPlan | None = None) -> int:
    runner = hearts_runner(table)
    if runner not in (-1, seat) and legal & HEARTS_MASK and _runner_beaten(table, runner):
        return high_bit(legal & HEARTS_MASK)  # a heart the runner can no longer take ends the run
    if shooting(table, seat, plan):
        non_hearts = legal & ~HEARTS_MASK & ~PIG_BIT
        if non_hearts:
            legal = non_hearts
    if (
        plan is not None
        and plan.mode == CHASE
        and legal & PIG_BIT
        and legal & ~PIG_BIT
        and _keeps_pig_for(table, seat, plan.target)
    ):
        legal &= ~PIG_BIT
    if plan is not None and plan.mode == CHASE and not shooting(table, seat, plan):
        loaded = _load_target(table, seat, legal, plan.target)
        if loaded >= 0:
            return loaded
        if plan.room is not None:
            legal = _sparing(table, legal, plan.target, plan.room)
    best, best_v = -1, -(10**9)
    for c in indices(legal):
        v = shed_priority(table, seat, c, plan)
        if v > best_v:
            best, best_v = c, v
    return best


def _follow(table: Table, seat: int, legal: int, plan: MatchPlan | None = None) -> int:
    trick = table.trick
    pos = len(trick)
    win_pos = winning_position(trick)
    win_card = trick[win_pos]
    suit = trick[0] // 13
    tmask = _trick_mask(trick)
    mine = table.captured[seat]
    e = table.exposed_all
    runner = hearts_runner(table)
    block = runner >= 0 and runner != seat
    if pos == 3:
        best, best_v = -1, -(10**9)
        for c in indices(legal):
            if c > win_card:
                v = delta(mine, tmask | (1 << c), e, table.flip) * 2 + (c % 13)
                if block and (tmask | (1 << c)) & HEARTS_MASK:
                    v += 150
            else:
                v = shed_priority(table, seat, c, plan)
                if c == TC:
                    # the winner takes the transformer: only matters to us through future captures
                    v = 60 if table.own_score(mine) < 0 else -40
            if v > best_v:
                best, best_v = c, v
        return best
    under = legal & ((1 << win_card) - 1)
    over = legal & ~under
    out = FULL_MASK & ~table.gone & ~table.hands[seat]
    out_suit = out & SUIT_MASKS[suit]
    if shooting(table, seat, plan) and over:
        return high_bit(over)
    if block and over and (suit == HEARTS or tmask & HEARTS_MASK):
        return low_bit(over)
    if suit == DIAMONDS:
        # win the goat with a diamond nobody can beat
        boss_over = over & ~((1 << high_bit(out_suit)) - 1) if out_suit else over
        wants_goat = not (table.flip and shooting(table, seat, plan))  # flipped, the goat costs the runner
        if (
            (tmask & GOAT_BIT or (legal & GOAT_BIT and not out_suit & ABOVE_GOAT))
            and boss_over
            and wants_goat
        ):
            if legal & GOAT_BIT and boss_over & GOAT_BIT:
                return JD
            if tmask & GOAT_BIT and not tmask & (PIG_BIT | HEARTS_MASK):
                return high_bit(boss_over)
    if suit == CLUBS and tmask & TRANSFORMER_BIT and over:
        boss_over = over & ~((1 << high_bit(out_suit)) - 1) if out_suit else over
        if boss_over and delta(mine, tmask | (1 << high_bit(boss_over)), e, table.flip) > 0:
            return high_bit(boss_over)
    if under:
        choice = under & ~GOAT_BIT if under & ~GOAT_BIT else under
        if suit == CLUBS and choice & TRANSFORMER_BIT and table.own_score(mine) >= 0:
            rest = choice & ~TRANSFORMER_BIT
            if rest:
                choice = rest
        return high_bit(choice)
    # forced to go over
    if suit == SPADES and not (table.gone | table.hands[seat]) & PIG_BIT:
        safe = over & ~PIG_BIT
        return low_bit(safe) if safe else low_bit(over)
    if suit == SPADES and over & PIG_BIT:
        safe = over & ~PIG_BIT
        if safe:
            return high_bit(safe)
    if tmask & POINT_MASK and suit != HEARTS:
        return low_bit(over)
    safe = over & ~GOAT_BIT & ~TRANSFORMER_BIT
    return high_bit(safe) if safe else high_bit(over)


def _lead(table: Table, seat: int, legal: int, plan: MatchPlan | None = None) -> int:
    hand = table.hands[seat]
    out = FULL_MASK & ~table.gone & ~hand
    if shooting(table, seat, plan) and legal & HEARTS_MASK:
        return high_bit(legal & HEARTS_MASK)
    runner = hearts_runner(table)
    if runner not in (-1, seat):
        out_hearts = out & HEARTS_MASK
        boss = legal & HEARTS_MASK & ~((1 << high_bit(out_hearts)) - 1) if out_hearts else legal & HEARTS_MASK
        if boss:
            return low_bit(boss)  # win a heart trick: the runner takes no more than a share of them
    best, best_v = -1, 1e18
    for suit in range(4):
        sm = SUIT_MASKS[suit]
        cards = legal & sm
        if not cards:
            continue
        out_suit = out & sm
        candidates = [low_bit(cards)]
        if suit == DIAMONDS and cards & GOAT_BIT and not out_suit & ABOVE_GOAT:
            candidates.append(JD)
        if suit == DIAMONDS and not (table.gone | hand) & GOAT_BIT and cards & ABOVE_GOAT:
            candidates.append(high_bit(cards))
        for c in candidates:
            v = _lead_risk(table, seat, c, hand, out_suit)
            if v < best_v:
                best, best_v = c, v
    return best


def _lead_risk(table: Table, seat: int, card: int, hand: int, out_suit: int) -> float:
    suit = card // 13
    rank = card % 13
    n_out = out_suit.bit_count()
    if n_out == 0:
        risk = 60.0  # everyone else discards onto us
        if card == JD:
            risk = -20.0
    else:
        lower = (out_suit & ((1 << card) - 1)).bit_count()
        risk = 50.0 * lower / n_out + rank
        if n_out <= 2:
            risk += 15.0  # others may be void and dump points
    bit = 1 << card
    my_suit = hand & SUIT_MASKS[suit]
    pig_out = not (table.gone | hand) & PIG_BIT
    if suit == SPADES:
        if hand & PIG_BIT:
            risk += 40.0 if bit != PIG_BIT else 200.0
        elif pig_out and card < QS:
            risk += -20.0 if not hand & HIGH_SPADES else 10.0
        elif pig_out and bit & HIGH_SPADES:
            risk += 80.0
    elif suit == HEARTS:
        risk += 10.0 + (rank * 4 if rank >= 3 else 0)
    elif suit == DIAMONDS:
        if card == JD:
            risk = risk - 60.0 if not out_suit & ABOVE_GOAT else risk + 80.0
        elif card > JD and not (table.gone | hand) & GOAT_BIT:
            # fishing for the goat with a high diamond only works when it is the boss
            risk += -5.0 if not out_suit or card > high_bit(out_suit) else 40.0
    elif suit == CLUBS and card == TC:
        risk += 30.0
    if my_suit.bit_count() <= 2 and rank < 8:
        risk -= 8.0  # void a short suit to discard into later
    return risk


# --- exposing -------------------------------------------------------------------------------


def normal_expose(hand: int) -> int:
    """Cards Normal exposes: only with a hand that makes the exposed card's doubling safe."""
    chosen = 0
    spades = hand & SPADE_MASK
    if hand & PIG_BIT and not hand & HIGH_SPADES and (spades & ((1 << QS) - 1)).bit_count() >= 4:
        chosen |= PIG_BIT
    diamonds = hand & DIAMOND_MASK
    if hand & GOAT_BIT and (diamonds & ABOVE_GOAT).bit_count() >= 2 and diamonds.bit_count() >= 5:
        chosen |= GOAT_BIT
    if (
        hand & TRANSFORMER_BIT
        and hand & GOAT_BIT
        and chosen & GOAT_BIT
        and (hand & CLUB_MASK).bit_count() >= 5
    ):
        chosen |= TRANSFORMER_BIT
    hearts = hand & HEARTS_MASK
    if hand & (1 << AH) and hearts.bit_count() >= 9 and hand & (1 << KH) and hand & (1 << QH):
        chosen |= 1 << AH
    return chosen
