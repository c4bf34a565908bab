"""House rules (docs/rules.md "House rules"): the rules value, each variant's check values, the
simulator's logs under every variant checked by the independent referee, and old data still loading."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gongzhu import InvalidState, apply, hand_breakdowns, match_result, new_match, validate_state, view_for
from gongzhu.cards import HEARTS_MASK, to_codes, to_mask
from gongzhu.game import rules_of
from gongzhu.house_rules import CHOICES, DEFAULT_RULES, Rules, RulesError, parse_rules, rules_from_json
from gongzhu.scoring import score_breakdown
from gongzhu.simulate import simulate
from gongzhu.state_check import Problem, upgrade_state

from .helpers import EVERY_RULES, random_step
from .referee import check_match_log
from .referee import score as referee_score
from .test_ai import small_hard

BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'protocol_bot.py'}"
HEARTS = to_codes(HEARTS_MASK)
FLIP = Rules(all_hearts="flip")


# --- the rules value ------------------------------------------------------------------------


def test_the_default_rules_are_todays_rules_and_every_first_choice() -> None:
    assert DEFAULT_RULES.to_json() == {
        "match_end": "-1000", "exposing": "on", "first_lead": "2S", "all_hearts": "standard"
    }  # fmt: skip
    assert DEFAULT_RULES.to_json() == {key: values[0] for key, values in CHOICES.items()}
    assert rules_from_json(None) == DEFAULT_RULES and DEFAULT_RULES.changed() == {}
    assert new_match(5)["rules"] == DEFAULT_RULES.to_json()


def test_rules_text_is_parsed_and_bad_keys_or_values_name_the_choices() -> None:
    rules = parse_rules("match_end=hands:8, exposing=off")
    assert rules == Rules(match_end="hands:8", exposing="off")
    assert rules.changed() == {"match_end": "hands:8", "exposing": "off"}
    assert rules.hands == 8 and rules.elimination is None and not rules.exposing_on
    assert parse_rules("") == DEFAULT_RULES
    with pytest.raises(RulesError, match="match_end has no value '-300'; choose -1000/-500/hands:4/hands:8"):
        parse_rules("match_end=-300")
    with pytest.raises(RulesError, match="unknown rule 'trumps'; rules are match_end, exposing, first_lead"):
        parse_rules("trumps=hearts")
    with pytest.raises(RulesError, match="not KEY=VALUE"):
        parse_rules("exposing")
    with pytest.raises(RulesError, match="given twice"):
        parse_rules("exposing=on,exposing=off")
    with pytest.raises(RulesError):
        rules_from_json({"match_end": -500})  # values are strings, as in the log
    with pytest.raises(RulesError):
        rules_from_json(["match_end"])


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_the_command_line_refuses_bad_rules_in_one_line(command: str) -> None:
    extra = (
        ["--baseline", "random", "--challenger", "random", "--deals", "1"] if command == "tournament" else []
    )
    for text, words in [
        ("exposing=maybe", "exposing has no value 'maybe'; choose on/off"),
        ("colour=red", "unknown rule 'colour'; rules are match_end, exposing, first_lead, all_hearts"),
    ]:
        run = subprocess.run(
            [sys.executable, "-m", "gongzhu", command, *extra, "--rules", text],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 2 and lines == [f"error: --rules: rule {words}" if "has no" in words
                                                 else f"error: --rules: {words}"], run.stderr  # fmt: skip


def test_the_tournament_plays_and_reports_its_rules() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "gongzhu", "tournament", "--baseline", "random", "--challenger", "random",
         "--deals", "1", "--matches", "1", "--json", "--rules", "match_end=hands:4,exposing=off"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["rules"]["match_end"] == "hands:4" and summary["rules"]["exposing"] == "off"
    assert summary["match_mean_hands"] >= 4  # a 4-hand match plays at least 4 hands


# --- check values, variant by variant ---------------------------------------------------------


@pytest.mark.parametrize(
    ("captured", "exposed", "standard", "flip"),
    [
        (HEARTS, [], 200, 200),
        ([*HEARTS, "QS"], [], 300, 300),
        ([*HEARTS, "JD"], [], 300, 100),
        (["QS"], [], -100, 100),
        (["JD"], [], 100, -100),
        (["TC", "QS"], [], -200, 200),
        (["TC", "JD"], [], 200, -200),
        (["TC", "QS"], ["TC", "QS"], -800, 800),
        ([*HEARTS, "QS", "JD", "TC"], [], 800, 400),
        (["TC"], [], 50, 50),
    ],
)
def test_all_hearts_flip_check_values(
    captured: list[str], exposed: list[str], standard: int, flip: int
) -> None:
    mask, shown = to_mask(captured), to_mask(exposed)
    assert score_breakdown(mask, shown)["score"] == standard == referee_score(captured, exposed)
    assert (
        score_breakdown(mask, shown, flipped=True)["score"] == flip == referee_score(captured, exposed, True)
    )


def test_a_whole_flipped_hand_and_a_hand_nobody_ran() -> None:
    others = [c for c in to_codes((1 << 52) - 1) if c not in HEARTS and c not in ("QS", "JD", "TC")]
    captured = [HEARTS + others[:10], ["QS", *others[10:20]], ["JD", *others[20:30]], ["TC", *others[30:]]]
    scores = [b["score"] for b in hand_breakdowns(captured, [[], [], [], []], FLIP)]
    assert scores == [200, 100, -100, 50]
    assert [b["score"] for b in hand_breakdowns(captured, [[], [], [], []])] == [200, -100, 100, 50]
    # nobody took all thirteen hearts: flip scores exactly as standard
    split = [[*HEARTS[:12], "QS"], ["JD", HEARTS[12]], ["TC"], []]
    assert hand_breakdowns(split, [[], [], [], []], FLIP) == hand_breakdowns(split, [[], [], [], []])


def test_match_end_check_values() -> None:
    quick, four = Rules(match_end="-500"), Rules(match_end="hands:4")
    result = match_result([-510, 120, 100, -300], quick, 3)
    assert result is not None and result["winner"] == 1 and result["eliminated"] == [0]
    assert match_result([-510, 120, 100, -300]) is None
    assert match_result([-200, 90, 90, 20], four, 4) is None, "a tie at the top plays one more hand"
    result = match_result([-300, 140, 90, 70], four, 5)
    assert result is not None and result["winner"] == 1 and result["eliminated"] == []
    assert match_result([-1200, 300, 0, 0], four, 3) is None, "no total ends a match of a fixed length"
    assert match_result([-1200, 300, 0, 0], four, 4) is not None


def test_exposing_off_has_no_expose_phase() -> None:
    rules = Rules(exposing="off")
    state = new_match(3, rules)  # seed 3 deals exposable cards (test_game)
    assert state["phase"] == "play" and state["turn"] == state["leader"]
    assert state["expose_choices"] == [[], [], [], []] and state["exposed"] == [[], [], [], []]
    view = view_for(state, 0)
    assert view["exposable"] == [] and view["rules"]["exposing"] == "off"
    refusal = apply(state, {"type": "expose", "seat": 0, "cards": []})
    assert not isinstance(refusal, dict) and refusal.reason.value == "wrong_phase"
    rng = random.Random(1)
    while state["phase"] != "match_over":
        state, _ = random_step(state, rng)
        if state["phase"] in ("expose",):
            raise AssertionError("an expose phase under exposing=off")
    assert all(not state["exposed"][s] for s in range(4))


def test_first_lead_2c_gives_hand_one_to_the_two_of_clubs() -> None:
    for seed in range(20):
        state = new_match(seed, Rules(first_lead="2C"))
        assert "2C" in state["hands"][state["leader"]]
        assert "2S" in new_match(seed)["hands"][new_match(seed)["leader"]]


# --- every variant: the referee, validation, old data -----------------------------------------


@pytest.mark.parametrize(
    "rules", EVERY_RULES, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.changed().items())
)
def test_random_matches_under_every_rule_set_agree_with_the_referee(rules: Rules) -> None:
    out = io.StringIO()
    simulate(["random"] * 4, 8, 500, out, rules=rules)
    for line in out.getvalue().splitlines():
        record = json.loads(line)
        assert record["rules"] == rules.to_json()
        assert record["final"]["complete"] is True
        check_match_log(record)


def test_a_log_without_rules_is_read_as_the_default_rules() -> None:
    out = io.StringIO()
    simulate(["random"] * 4, 3, 77, out)
    for line in out.getvalue().splitlines():
        record = json.loads(line)
        del record["rules"]  # as logged before the rules were recorded
        check_match_log(record)


def test_a_schema_1_save_upgrades_to_the_default_rules() -> None:
    rng = random.Random(4)
    state = new_match(11)
    for _ in range(70):
        state, _ = random_step(state, rng)
    old = {k: v for k, v in state.items() if k != "rules"} | {"schema": 1}
    with pytest.raises(InvalidState):
        validate_state(old)
    upgraded = upgrade_state(old)
    validate_state(upgraded)
    assert upgraded == state and rules_of(old) == DEFAULT_RULES
    assert "rules" not in old  # the input is never modified


def test_rules_that_no_variant_has_or_that_changed_mid_match_are_refused() -> None:
    state = new_match(3, Rules(exposing="off"))
    with pytest.raises(InvalidState) as caught:
        validate_state({**state, "rules": {**state["rules"], "exposing": "sometimes"}})
    assert caught.value.code is Problem.RULES
    with pytest.raises(InvalidState) as caught:
        validate_state({k: v for k, v in state.items() if k != "rules"})
    assert caught.value.code is Problem.RULES
    # a default-rules state in its expose phase cannot be a match without exposing, and the 2S
    # holder's lead is not the 2C holder's
    default = new_match(3)
    for claim in ({"exposing": "off"}, {"first_lead": "2C"}):
        with pytest.raises(InvalidState) as caught:
            validate_state({**default, "rules": {**default["rules"], **claim}})
        assert caught.value.code is Problem.MISMATCH, claim


def test_a_bot_is_told_the_rules_and_never_asked_to_expose_when_exposing_is_off(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    out = io.StringIO()
    bot = f"cmd:{BOT} --record {requests}"
    simulate([bot, "random", "random", "random"], 1, 3, out, max_hands=2, rules=Rules(exposing="off"))
    sent = [json.loads(line) for line in requests.read_text().splitlines()]
    asked = [r for r in sent if r.get("type") != "match_end"]
    assert asked and all(r["type"] == "play" for r in asked)
    assert all(r["rules"]["exposing"] == "off" for r in asked)
    check_match_log(json.loads(out.getvalue()))


def test_every_rule_set_has_a_whole_hand_that_validates_at_each_step() -> None:
    for number, rules in enumerate(EVERY_RULES):
        rng = random.Random(number)
        state = new_match(9, rules)
        for _ in range(60):
            state, _ = random_step(state, rng)
            validate_state(json.loads(json.dumps(state)))
            if state["phase"] == "match_over":
                break


def test_the_page_draws_a_view_of_any_rules_and_still_refuses_markup() -> None:
    from gongzhu.table_view import table_view
    from ui.core import shape

    for rules in EVERY_RULES:
        shape.check_view(table_view(new_match(2, rules)))
    view = table_view(new_match(2, Rules(match_end="hands:8")))
    view["rules"]["match_end"] = "<b>8</b>"
    with pytest.raises(shape.ShapeError):
        shape.check_view(view)


def test_the_engine_service_starts_a_match_under_house_rules_and_refuses_unknown_ones() -> None:
    from gongzhu.service import call

    answer = json.loads(
        call(json.dumps({"op": "new_match", "args": {"seed": 4, "rules": {"match_end": "-500"}}}))
    )
    assert answer["ok"] and answer["result"]["view"]["rules"]["match_end"] == "-500"
    assert json.loads(answer["result"]["state"])["rules"] == Rules(match_end="-500").to_json()
    default = json.loads(call(json.dumps({"op": "new_match", "args": {"seed": 4}})))
    assert default["result"]["view"]["rules"] == DEFAULT_RULES.to_json()
    bad = json.loads(call(json.dumps({"op": "new_match", "args": {"seed": 4, "rules": {"exposing": "no"}}})))
    assert not bad["ok"] and bad["error"].startswith("RulesError: rule exposing has no value 'no'")


# --- the computer players read the rules from the view ----------------------------------------


def test_the_ais_fast_score_flips_like_the_rules() -> None:
    from gongzhu.ai.sim import fast_score
    from gongzhu.scoring import hand_score

    rng = random.Random(5)
    for _ in range(3000):
        captured = rng.getrandbits(52) | (HEARTS_MASK if rng.random() < 0.3 else 0)
        exposed = rng.getrandbits(52) & to_mask(["AH", "QS", "JD", "TC"])
        for flipped in (False, True):
            assert fast_score(captured, exposed, flipped) == hand_score(captured, exposed, flipped)


def _goat_after_a_run(rules: Rules) -> dict[str, object]:
    """Seat 0 has taken all 13 hearts and plays last to a diamond trick holding the goat: AD wins
    it, 2D ducks. The goat is +100 to it by the standard rules, −100 under all_hearts=flip."""
    from .ai_helpers import crafted_state

    hands = [["AD", "2D", "3C"], ["4C", "5C"], ["6C", "7C"], ["8C", "9C"]]
    state = crafted_state(hands, 1, ["JD", "QD", "5D"], captured=[HEARTS, [], [], []])
    state["rules"] = rules.to_json()
    return view_for(state, 0)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_take_the_goat_after_a_run_only_when_it_is_not_flipped(level: str) -> None:
    from gongzhu.ai import make_level

    player = make_level(level, 3, 0)
    assert player.play(_goat_after_a_run(DEFAULT_RULES)) == "AD"
    assert player.play(_goat_after_a_run(FLIP)) == "2D"


def test_the_first_lead_card_of_the_rules_is_known_to_be_with_the_first_leader() -> None:
    from gongzhu.ai.knowledge import read_view
    from gongzhu.cards import INDEX

    seed = next(s for s in range(50) if "2C" not in new_match(s, Rules(first_lead="2C"))["hands"][0])
    state = new_match(seed, Rules(first_lead="2C", exposing="off"))
    known = read_view(view_for(state, 0)).known_holdings()
    assert known[state["leader"]] == 1 << INDEX["2C"]
    default = new_match(seed, Rules(exposing="off"))
    if default["leader"] != 0:
        assert read_view(view_for(default, 0)).known_holdings()[default["leader"]] == 1 << INDEX["2S"]


def test_hards_match_objective_reads_the_rules_end() -> None:
    from gongzhu.ai.match import match_in_reach, win_chance

    quick, four = Rules(match_end="-500"), Rules(match_end="hands:4")
    assert match_in_reach([-260, 0, 0, 0], quick) and not match_in_reach([-240, 0, 0, 0], quick)
    assert not match_in_reach([-260, 0, 0, 0])  # far from −1000
    assert match_in_reach([0, 0, 0, 0], four, 3) and not match_in_reach([0, 0, 0, 0], four, 2)
    assert win_chance([-510, 100, 50, 0], 1, quick) == 1.0 and win_chance([-510, 100, 50, 0], 1) < 1
    assert win_chance([-100, 100, 50, 0], 1, four, 4) == 1.0
    assert 0 < win_chance([-100, 100, 50, 0], 1, four, 3) < 1
    # the same lead is worth more with one hand left than with three
    assert win_chance([0, 100, 0, 0], 1, four, 3) > win_chance([0, 100, 0, 0], 1, four, 1)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_a_hand_under_every_single_house_rule(level: str) -> None:
    from gongzhu.simulate import Seats, run_match

    singles = [r for r in EVERY_RULES if len(r.changed()) == 1] + [EVERY_RULES[-1]]
    budget_cap = 1 if level == "hard" else 2
    with Seats([level, "random", "normal", "easy"]) as seats:
        for number, rules in enumerate(singles):
            players = list(seats.for_match(number))
            if level == "hard":  # Hard's search at the tests' budget: the same logic, every rule read
                players[0] = small_hard(number, 0)
            record = run_match(number, players, seats.specs, budget_cap, rules)
            check_match_log(record)


def test_the_coach_replays_a_hand_under_its_own_rules() -> None:
    from gongzhu import coach

    rng = random.Random(8)
    state = new_match(6, Rules(exposing="off", all_hearts="flip"))
    while state["phase"] == "play":
        state, _ = random_step(state, rng)
    decisions = coach.decision_states(state)
    assert decisions and all(d["phase"] == "play" and d["rules"] == state["rules"] for d in decisions)


def test_the_rules_page_shows_the_house_rules_in_every_language_with_the_engines_numbers() -> None:
    import re

    from tools import rules_page

    page = rules_page.render()
    sections = re.findall(r'<div class="house-rules" data-part="house-rules">.*?</table></div>', page, re.S)
    assert len(sections) == 5  # one per language
    for section in sections:
        rows = re.findall(
            r'<tr data-captured="([^"]*)" data-standard="(-?\d+)" data-flip="(-?\d+)">', section
        )
        assert len(rows) == len(rules_page.FLIP_EXAMPLES)
        for captured, standard, flip in rows:
            mask = to_mask(captured.split())
            assert int(standard) == score_breakdown(mask, 0)["score"]
            assert int(flip) == score_breakdown(mask, 0, flipped=True)["score"]
    english = sections[0]
    assert "the pig scores +100 and the goat −100 for every player" in english
    assert "a total reaches −1000 (or −500, a quick match)" in english and "(4 or 8)" in english
    assert "The holder of 2♣ instead of 2♠ leads" in english
    assert "La partie s’arrête" in sections[2]  # French, translated


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_view_recorded_before_the_rules_is_played_and_hinted_by_the_default_rules(level: str) -> None:
    """A view or bot request without ``rules`` (saved, logged or transcribed before they were added)
    is read as the default rules by every level and by the hint: the same decisions as with them."""
    from gongzhu.ai import hint, make_level
    from gongzhu.ai.knowledge import read_view

    rng = random.Random(2)
    state = new_match(12)
    while state["phase"] != "play" or not state["tricks"]:
        state, _ = random_step(state, rng)
    expose_state = new_match(3)  # seed 3 deals exposable cards
    for current in (state, expose_state):
        seat = current["turn"] if current["phase"] == "play" else 0
        view = view_for(current, seat)
        old = {k: v for k, v in view.items() if k != "rules"}
        assert read_view(old).rules == DEFAULT_RULES
        player, again = make_level(level, 5, seat), make_level(level, 5, seat)
        if level == "hard":  # a small search: the same seed and view give the same card
            player.budget = again.budget = 200  # type: ignore[union-attr]
        if current["phase"] == "play":
            assert player.play(old) == again.play(view) and player.play(old) in view["legal"]
        elif view["exposable"]:
            assert player.expose(old) == again.expose(view)
    if level == "hard":
        view = view_for(state, state["turn"])
        old = {k: v for k, v in view.items() if k != "rules"}
        assert hint(old, 3, budget=200) == hint(view, 3, budget=200)


def test_the_hint_speaks_for_the_rules_in_play() -> None:
    """After an all-hearts run the hint wins the goat by the standard rules and ducks it under
    all_hearts=flip, where it would cost the runner 100 (the reason codes the page explains)."""
    from gongzhu.ai import hint

    standard = hint(_goat_after_a_run(DEFAULT_RULES), 3, budget=300)
    flipped = hint(_goat_after_a_run(FLIP), 3, budget=300)
    assert (standard["card"], standard["reason"]) == ("AD", "wins_goat")
    assert (flipped["card"], flipped["reason"]) == ("2D", "ducks")
