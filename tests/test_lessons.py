"""The guided lessons, engine side (gongzhu/lessons.py, the service's lesson ops): each lesson's deal is
checked, every legal choice of the player leads to its moment within its tricks, the lesson's way
passes and another fails, and a saved lesson resumes only when legal play reaches it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import pytest

import gongzhu
from gongzhu import InvalidState, lessons, service
from gongzhu.game import State, apply_legal, exposable_cards, legal_plays
from gongzhu.vocab import LESSONS


def _op(op: str, **args: Any) -> Any:
    reply = json.loads(service.call(json.dumps({"op": op, "args": args})))
    assert reply["ok"], reply
    return reply["result"]


def _paths(number: int, state: State, guided: bool = True) -> Iterator[tuple[bool, dict[str, Any], State]]:
    """Every way the player may play lesson ``number`` from ``state`` (the opponents as the page
    runs them): ``(followed the lesson's guide, the verdict once due, the state then)``."""
    while True:
        verdict = lessons.verdict(number, state)
        if verdict["due"]:
            yield guided, verdict, state
            return
        if state["phase"] == "expose":
            if state["expose_choices"][0] is None:
                held = exposable_cards(state["hands"][0])
                for k in range(len(held) + 1):
                    for cards in combinations(held, k):
                        after = apply_legal(state, {"type": "expose", "seat": 0, "cards": list(cards)})
                        yield from _paths(number, after, guided and list(cards) == verdict["expose"])
                return
            for seat in (1, 2, 3):
                if state["expose_choices"][seat] is None:
                    action = service.bot_action(state, seat, lessons.LESSON_LEVEL)
                    assert action is not None
                    state = apply_legal(state, action)
            continue
        if state["turn"] == 0:
            assert verdict["step"] is not None, (number, len(state["tricks"]))
            for card in legal_plays(state, 0):
                after = apply_legal(state, {"type": "play", "seat": 0, "card": card})
                yield from _paths(number, after, guided and card == verdict["guide"])
            return
        action = service.bot_action(state, state["turn"], lessons.LESSON_LEVEL)
        assert action is not None
        state = apply_legal(state, action)


@pytest.mark.parametrize("number", range(1, len(LESSONS) + 1))
def test_every_choice_reaches_the_moment_and_only_the_lessons_way_passes(number: int) -> None:
    lesson = lessons.lesson_of(number)
    assert lesson.key == LESSONS[number - 1]
    ends = list(_paths(number, lessons.lesson_table(number)))
    guided = [end for end in ends if end[0]]
    assert len(guided) == 1
    _, verdict, state = guided[0]
    assert verdict == {
        "due": True,
        "done": True,
        "outcome": lesson.key + "_done",
        "step": None,
        "guide": None,
        "expose": None,
    }
    assert len(state["tricks"]) <= lesson.until
    failed = [end for end in ends if not end[1]["done"]]
    assert failed and all(end[1]["outcome"] == lesson.key + "_retry" for end in failed)


def test_each_lessons_moment_is_the_engines_fact() -> None:
    """The guided way ends on the fact each lesson teaches, read from the state."""
    ends = {n: next(e for e in _paths(n, lessons.lesson_table(n)) if e[0])[2] for n in range(1, 8)}
    assert ends[1]["tricks"][0]["winner"] == 0
    assert "QS" in ends[2]["captured"][2] and "QS" not in ends[2]["captured"][0]
    assert "JD" in ends[3]["captured"][0]
    assert ends[4]["last_hand"]["breakdowns"][0]["all_hearts"] is True
    assert ends[4]["last_hand"]["scores"][0] == 200
    assert (
        ends[5]["captured"][0]
        and gongzhu.hand_breakdowns(ends[5]["captured"], ends[5]["exposed"])[0]["score"] == 50
    )
    assert ends[6]["exposed"][0] == ["JD"] and "JD" in ends[6]["captured"][0]
    assert ends[7]["phase"] == "match_over" and ends[7]["result"]["winner"] == 0
    assert min(ends[7]["result"]["totals"]) <= -1000


def test_a_deal_is_checked() -> None:
    deal = lessons.lesson_of(1).deal()
    assert gongzhu.check_deal(deal) == [gongzhu.sort_cards(h) for h in deal]
    with pytest.raises(gongzhu.InvalidDeal, match="twice"):
        gongzhu.check_deal([deal[0], deal[0], deal[2], deal[3]])
    with pytest.raises(gongzhu.InvalidDeal, match="13 cards"):
        gongzhu.check_deal([deal[0][:12], deal[1], deal[2], deal[3]])
    with pytest.raises(gongzhu.InvalidDeal, match="no card"):
        gongzhu.check_deal([[*deal[0][:12], "ZZ"], deal[1], deal[2], deal[3]])
    with pytest.raises(gongzhu.InvalidDeal):
        gongzhu.check_deal("AS")
    with pytest.raises(gongzhu.InvalidDeal, match="leader"):
        gongzhu.match_from_deal(1, deal, leader=4)
    with pytest.raises(lessons.InvalidLesson):
        lessons.lesson_table(0)
    with pytest.raises(lessons.InvalidLesson):
        lessons.lesson_table(True)


def test_the_lesson_ops_start_check_and_resume() -> None:
    started = _op("lesson_start", lesson=2)
    assert started["level"] == lessons.LESSON_LEVEL
    assert started["verdict"]["step"] == "pig_0" and started["verdict"]["guide"] == "5S"
    assert [p["card"] for p in started["view"]["trick"]["plays"]] == ["7S", "KS", "QS"]
    played = _op("step", state=started["state"], action={"type": "play", "seat": 0, "card": "5S"})
    assert _op("lesson_check", lesson=2, state=played["state"])["outcome"] == "pig_done"
    assert _op("lesson_resume", lesson=2, state=played["state"])["state"] == played["state"]
    reply = json.loads(
        service.call(json.dumps({"op": "lesson_resume", "args": {"lesson": 3, "state": played["state"]}}))
    )
    assert not reply["ok"] and reply["code"]
    tampered = json.loads(played["state"])
    tampered["captured"][2] = []
    with pytest.raises(InvalidState):
        lessons.resumed(2, tampered)
    # A lesson's table is no match from its seed: the match check refuses it.
    assert not json.loads(service.call(json.dumps({"op": "check", "args": {"state": started["state"]}})))[
        "ok"
    ]
