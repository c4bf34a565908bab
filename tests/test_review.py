"""Issue 15, the engine side: the hand review, the coach (Hard's search from seat 0's view at each of
its decisions) and the table-memory aid (from the view only)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gongzhu import coach, service
from gongzhu.ai import REASONS
from gongzhu.cards import DECK, INDEX
from gongzhu.game import State, apply_legal, new_match, view_for
from gongzhu.memory import memory_aid
from gongzhu.review import NotOver, check_stored, hand_review
from gongzhu.rules import winning_position
from gongzhu.table_view import table_view


def finish_hand(seed: int, pig_blunder: bool = False) -> tuple[State, int | None]:
    """Hand 1 of ``seed`` played out by Normal at every seat; with ``pig_blunder`` seat 0 instead
    plays QS into the first spade trick where it wins the trick with it while it holds another card
    to play (taking its own pig). The trick of the blunder, or None."""
    state = new_match(seed)
    blunder = None
    while state["phase"] in ("expose", "play"):
        view = view_for(state, 0)
        if (
            pig_blunder
            and blunder is None
            and view["turn"] == 0
            and "QS" in view["legal"]
            and len(view["legal"]) > 1
        ):
            plays = [INDEX[p["card"]] for p in view["trick"]["plays"]]
            if plays and plays[0] // 13 == 0 and winning_position([*plays, INDEX["QS"]]) == len(plays):
                blunder = len(view["tricks"]) + 1
                state = apply_legal(state, {"type": "play", "seat": 0, "card": "QS"})
                continue
        for seat in range(4):
            action = service.bot_action(state, seat, "normal")
            if action is not None:
                state = apply_legal(state, action)
                break
    return state, blunder


@pytest.fixture(scope="module")
def blundered() -> tuple[State, int]:
    state, trick = finish_hand(5, pig_blunder=True)
    assert trick is not None
    return state, trick


def test_review_is_refused_during_a_hand() -> None:
    with pytest.raises(NotOver):
        hand_review(new_match(3))
    reply = json.loads(
        service.call(json.dumps({"op": "review", "args": {"state": json.dumps(new_match(3))}}))
    )
    assert reply["ok"] is False and reply["error"].startswith("NotOver")


def test_review_shows_every_trick_as_played(blundered: tuple[State, int]) -> None:
    state, _ = blundered
    review = hand_review(state)
    assert [t["number"] for t in review["tricks"]] == list(range(1, 14))
    for trick, played in zip(review["tricks"], state["tricks"], strict=True):
        assert trick["plays"] == played["plays"] and trick["winner"] == played["winner"]
        assert trick["leader"] == trick["plays"][0]["seat"]
        cards = [p["card"] for p in trick["plays"]]
        assert set(trick["points"]) == {c for c in cards if c[1] == "H" or c in ("QS", "JD", "TC")}
    # every seat played exactly the cards it was dealt
    for seat in range(4):
        played = sorted(p["card"] for t in review["tricks"] for p in t["plays"] if p["seat"] == seat)
        assert played == sorted(review["deal"][seat])
    assert review["scores"] == state["history"][-1]["scores"]
    assert review["exposed"] == state["exposed"]


def test_decisions_are_the_exposure_and_every_unforced_card(blundered: tuple[State, int]) -> None:
    state, _ = blundered
    befores = coach.decision_states(state)
    exposing = bool(view_for(coach.hand_start(state), 0)["exposable"])
    assert (befores[0]["phase"] == "expose") is exposing
    plays = [b for b in befores if b["phase"] == "play"]
    assert all(b["turn"] == 0 and len(view_for(b, 0)["legal"]) > 1 for b in plays)
    seat0 = [p["card"] for t in state["tricks"] for p in t["plays"] if p["seat"] == 0]
    assert [coach.chosen(state, b)[0] for b in plays] == [
        c for c, b in zip(seat0, _seat0_states(state), strict=True) if len(view_for(b, 0)["legal"]) > 1
    ]


def _seat0_states(state: State) -> list[State]:
    """The state before each of seat 0's plays (forced ones included), by replaying the hand."""
    current = coach.hand_start(state)
    for seat in range(4):
        if current["expose_choices"][seat] is None:
            current = apply_legal(
                current, {"type": "expose", "seat": seat, "cards": state["expose_choices"][seat]}
            )
    out = []
    for trick in state["tricks"]:
        for play in trick["plays"]:
            if play["seat"] == 0:
                out.append(current)
            current = apply_legal(current, {"type": "play", **play})
    return out


def test_taking_ones_own_pig_is_flagged_costly(blundered: tuple[State, int]) -> None:
    state, trick = blundered
    count = len(coach.decision_states(state))
    found = [a for a in (coach.analyse(state, i, seed=11) for i in range(count)) if a["trick"] == trick]
    assert len(found) == 1
    analysis = found[0]
    assert analysis["chosen"] == ["QS"] and analysis["best"] != ["QS"]
    assert analysis["costly"] is True and analysis["cost"] >= coach.COSTLY_POINTS
    assert analysis["cost"] == analysis["best_expected"] - analysis["chosen_expected"]
    assert analysis["reason"] in REASONS
    # the player's own expected hand score: taking one's own pig keeps its -100 in it
    assert analysis["chosen_expected"] <= -100 < analysis["best_expected"]


def _coach(packed: str, index: int, part: Any = None) -> dict[str, Any]:
    args = (
        {"state": packed, "index": index} if part is None else {"state": packed, "index": index, "part": part}
    )
    reply: dict[str, Any] = json.loads(service.call(json.dumps({"op": "coach", "args": args})))
    return reply


def test_the_analysis_is_reproducible_and_runs_in_small_steps(blundered: tuple[State, int]) -> None:
    state, _ = blundered
    packed = json.dumps(state)
    answers = [_coach(packed, 1)["result"]]
    while "part" in answers[-1]:
        answers.append(_coach(packed, 1, answers[-1]["part"])["result"])
    assert len(answers) == coach.STEPS  # a decision's deals cut into steps, the sums carried along
    assert [a["part"]["step"] for a in answers[:-1]] == list(range(1, coach.STEPS))
    result = answers[-1]
    assert result["index"] == 1 and result["count"] == len(coach.decision_states(state))
    assert result == coach.analyse(state, 1, service.hint_seed(state["seed"], 1))  # reproducible
    assert _coach(packed, 1) == _coach(packed, 1)
    past = _coach(packed, result["count"])
    assert past["ok"] is False and past["error"].startswith("IndexError")
    for bad in (
        {"step": 0, "sums": {}},
        {"step": coach.STEPS, "sums": {}},
        {"step": 2, "sums": {"QS": "x"}},
        7,
    ):
        refused = _coach(packed, 1, bad)
        assert refused["ok"] is False and "part" in refused["error"]
    wrong = dict(answers[0]["part"], sums={"AS": 0.0})  # sums for choices this decision does not have
    assert _coach(packed, 1, wrong)["ok"] is False


def test_stored_analyses_are_checked_against_the_hand(blundered: tuple[State, int]) -> None:
    state, _ = blundered
    seed = service.hint_seed(state["seed"], 1)
    analyses = [coach.analyse(state, i, seed) for i in range(3)]
    assert coach.check_analyses(state, analyses) == analyses
    assert coach.check_analyses(state, []) == []
    costly = next(i for i, a in enumerate(analyses) if a["costly"])
    for change in (
        {"cost": 1},  # the cost must follow from the figures
        {"costly": False},
        {"chosen": ["2C"]},  # not what the player played
        {"best": ["AH"]},  # not a card the player could play
        {"best_expected": 10**6},
        {"reason": "<script>"},
        {"trick": 5},
        {"index": 7},
        {"extra": 1},
    ):
        forged = [dict(a) for a in analyses]
        forged[costly].update(change)
        with pytest.raises(coach.BadAnalysis):
            coach.check_analyses(state, forged)
    with pytest.raises(coach.BadAnalysis):
        coach.check_analyses(state, "nope")


def _shuffle_hidden(state: State, rng: random.Random) -> State:
    """``state`` with the unplayed cards of seats 1-3 dealt among them again (same counts)."""
    copy: State = json.loads(json.dumps(state))
    pool = [c for s in (1, 2, 3) for c in copy["hands"][s]]
    rng.shuffle(pool)
    for s in (1, 2, 3):
        n = len(copy["hands"][s])
        copy["hands"][s], pool = sorted(pool[:n], key=INDEX.__getitem__), pool[n:]
    return copy


def test_the_coach_never_reads_the_hidden_hands(blundered: tuple[State, int]) -> None:
    state, _ = blundered
    rng = random.Random(4)
    for before in coach.decision_states(state)[1:4]:
        other = _shuffle_hidden(before, rng)
        assert other["hands"] != before["hands"]
        assert view_for(other, 0) == view_for(before, 0)
        choice = coach.chosen(state, before)
        assert coach.evaluate(other, choice, 9) == coach.evaluate(before, choice, 9)


def test_the_engine_checks_stored_reviews_against_the_match(blundered: tuple[State, int]) -> None:
    state, _ = blundered
    table = apply_legal(state, {"type": "next_hand"}) if state["phase"] == "hand_over" else state
    text = json.dumps(state)
    seed = service.hint_seed(state["seed"], 1)
    good = {"state": text, "analyses": [coach.analyse(state, 0, seed)]}
    checked = check_stored(table, [good])
    assert checked["set_aside"] == 0 and [h["hand_number"] for h in checked["hands"]] == [1]
    assert checked["hands"][0]["scores"] == state["history"][-1]["scores"]
    forged_state = json.loads(text)
    forged_state["tricks"][0]["winner"] = (forged_state["tricks"][0]["winner"] + 1) % 4
    bad = [
        {"state": json.dumps(forged_state), "analyses": []},  # not reachable by legal play
        {"state": text, "analyses": [dict(good["analyses"][0], cost=999)]},
        {"state": text[:-5], "analyses": []},
        {"state": "x" * 20000, "analyses": []},
        "entry",
    ]
    assert check_stored(table, bad) == {"hands": [], "set_aside": len(bad)}
    other = apply_legal(new_match(state["seed"] + 1), {"type": "expose", "seat": 0, "cards": []})
    assert check_stored(other, [good]) == {"hands": [], "set_aside": 0}  # another match's: left out


def _crafted_view(**fields: Any) -> dict[str, Any]:
    view = view_for(new_match(1), 0)
    view.update(fields)
    return view


def test_memory_aid_derives_voids_exposures_and_points_from_the_view() -> None:
    tricks = [
        {"leader": 0, "plays": [{"seat": 0, "card": "2C"}, {"seat": 1, "card": "3C"},
                                {"seat": 2, "card": "5H"}, {"seat": 3, "card": "4C"}], "winner": 3},
    ]  # fmt: skip
    trick = {"leader": 3, "plays": [{"seat": 3, "card": "JD"}, {"seat": 0, "card": "2D"}]}
    view = _crafted_view(
        phase="play",
        hand=["AS", "3D"],
        exposed=[[], ["QS"], [], ["JD", "TC"]],
        tricks=tricks,
        trick=trick,
        captured=[[], [], [], ["2C", "3C", "4C", "5H"]],
        turn=1,
    )
    aid = memory_aid(view)
    assert aid["voids"] == [
        [],
        [],
        ["C"],
        ["D"],
    ]  # seat 2 did not follow; 3 led its exposed JD (only diamond)
    assert aid["exposed_out"] == [[], ["QS"], [], ["TC"]]
    assert "5H" not in aid["points_out"] and "JD" not in aid["points_out"]
    assert {"QS", "TC", "AH"} <= set(aid["points_out"]) and len(aid["points_out"]) == 16 - 2


def test_the_table_view_carries_the_memory_aid(blundered: tuple[State, int]) -> None:
    state, _ = blundered
    view = table_view(state, 0)
    assert view["memory"] == memory_aid(view_for(state, 0))
    assert view["memory"]["points_out"] == []  # the hand is over: every point card was played
    assert all(c in DECK for cards in view["memory"]["exposed_out"] for c in cards)
