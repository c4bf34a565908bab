"""The daily deal (gongzhu/daily.py and the service's ``daily`` op)."""

from __future__ import annotations

import json

import pytest

from gongzhu import MAX_SEED
from gongzhu.daily import InvalidDate, check_date, daily_seed
from gongzhu.rng import SplitMix64
from gongzhu.service import call


def ask(op: str, **args: object) -> dict[str, object]:
    answer: dict[str, object] = json.loads(call(json.dumps({"op": op, "args": args})))
    return answer


def test_the_seed_comes_from_the_date_alone() -> None:
    assert daily_seed("2026-12-01") == SplitMix64(20261201).next_u64() & MAX_SEED
    assert daily_seed("2026-12-01") != daily_seed("2026-12-02")
    assert 0 <= daily_seed("2999-12-31") <= MAX_SEED


@pytest.mark.parametrize(
    "text",
    [
        "2026-02-30",
        "2026-13-01",
        "2026-1-01",
        "20261201",
        "1999-12-31",
        "2026-12-01x",
        "２０２６-12-01",
        20261201,
        None,
        "2026-12-0<",
    ],
)
def test_only_calendar_dates_are_taken(text: object) -> None:
    with pytest.raises(InvalidDate):
        check_date(text)


def test_leap_days() -> None:
    assert check_date("2028-02-29") == "2028-02-29"
    with pytest.raises(InvalidDate):
        check_date("2100-02-29")


def test_the_daily_op_deals_the_same_hand_each_time_and_refuses_bad_dates() -> None:
    first, again = ask("daily", date="2026-12-01"), ask("daily", date="2026-12-01")
    assert first["ok"] and first == again
    result = first["result"]
    assert isinstance(result, dict) and result["date"] == "2026-12-01"
    assert json.loads(result["state"])["seed"] == daily_seed("2026-12-01")
    assert ask("daily", date="2026-12-02")["result"] != result
    refused = ask("daily", date="<script>")
    assert not refused["ok"] and "InvalidDate" in str(refused["error"])


def test_the_hard_opponents_play_the_same_way_for_everyone() -> None:
    def first_moves() -> list[object]:
        packed = ask("daily", date="2026-12-01")["result"]
        assert isinstance(packed, dict)
        packed = ask("bots_expose", state=packed["state"], level="hard")["result"]
        assert isinstance(packed, dict)
        packed = ask("step", state=packed["state"], action={"type": "expose", "seat": 0, "cards": []})[
            "result"
        ]
        assert isinstance(packed, dict)
        moves = []
        for _ in range(3):
            view = packed["view"]
            if view["turn"] == 0:
                card = next(c for c in view["hand"] if view["refusals"][c] is None)
                packed = ask("step", state=packed["state"], action={"type": "play", "seat": 0, "card": card})[
                    "result"
                ]
            else:
                packed = ask("bot_step", state=packed["state"], seat=view["turn"], level="hard")["result"]
                moves.append(packed["action"])
            assert isinstance(packed, dict)
        return moves

    assert first_moves() == first_moves()
