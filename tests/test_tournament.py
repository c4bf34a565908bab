"""The duplicate tournament: identical deals in all four seatings, the margin and its interval."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import gongzhu.tournament as tournament
from gongzhu.game import MAX_SEED
from gongzhu.rng import SplitMix64, deal_seed, tournament_deal_seed
from gongzhu.tournament import play_deal, run_tournament, summarise

from .support.bench import bench_module

BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'protocol_bot.py'}"


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The tournament command; it returns once every process holding its stderr (bots too) has ended."""
    return subprocess.run(
        [sys.executable, "-m", "gongzhu", "tournament", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_each_deal_is_played_four_times_with_the_same_cards(monkeypatch: Any) -> None:
    seen: list[tuple[list[list[str]], list[str]]] = []
    real = tournament.play_hand

    def spy(state: Any, players: Any, clock: Any) -> Any:
        seen.append((state["deal"], [type(p).__name__ for p in players]))
        return real(state, players, clock)

    monkeypatch.setattr(tournament, "play_hand", spy)
    result = play_deal("easy", "random", seed=3, deal=0)
    assert len(seen) == 4
    assert all(deal == seen[0][0] for deal, _ in seen)
    assert [names.index("EasyPlayer") for _, names in seen] == [0, 1, 2, 3]
    assert all(names.count("RandomPlayer") == 3 for _, names in seen)
    assert len(result.margins) == 4
    other = play_deal("easy", "random", seed=3, deal=1)
    assert other.challenger_scores != result.challenger_scores or other.margins != result.margins


def test_a_later_deal_is_the_second_hand_after_a_first_the_same_table_played(monkeypatch: Any) -> None:
    """The first hand is played with the challenger's seat played by Normal and is not scored; the
    second is the challenger's, and it sees the first hand's plays."""
    seen: list[tuple[int, list[str], bool]] = []
    real = tournament.play_hand

    def spy(state: Any, players: Any, clock: Any = None) -> Any:
        names = [type(p).__name__ for p in players]
        seen.append((state["hand_number"], names, bool(state["last_hand"] and state["last_hand"]["tricks"])))
        return real(state, players, clock)

    monkeypatch.setattr(tournament, "play_hand", spy)
    result = play_deal("easy", "random", seed=3, deal=0, later=True)
    assert [number for number, _, _ in seen] == [1, 2] * 4
    for seat in range(4):
        (_, first, _), (_, second, shown) = seen[2 * seat], seen[2 * seat + 1]
        assert first[seat] == "NormalPlayer" and first.count("RandomPlayer") == 3
        assert second[seat] == "EasyPlayer" and second.count("RandomPlayer") == 3
        assert shown
    plain = play_deal("easy", "random", seed=3, deal=0)
    assert plain.challenger_scores != result.challenger_scores or plain.margins != result.margins


def test_margin_is_challenger_minus_baseline_mean() -> None:
    result = play_deal("normal", "random", seed=1, deal=2)
    for margin, mine, theirs in zip(
        result.margins, result.challenger_scores, result.baseline_scores, strict=True
    ):
        assert margin == pytest.approx(mine - theirs)


def test_summary_interval_is_paired_by_deal() -> None:
    results = [play_deal("easy", "random", 5, d) for d in range(6)]
    summary = summarise("easy", "random", 5, results, 1.0)
    margins = [r.margin for r in results]
    mean = sum(margins) / 6
    assert summary["mean_margin"] == pytest.approx(mean, abs=0.01)
    low, high = summary["ci95"]
    assert low <= summary["mean_margin"] <= high
    assert summary["games"] == 24 and summary["deals"] == 6


def test_same_player_on_both_sides_has_zero_margin_with_identical_cards() -> None:
    """Normal is deterministic, so the four seatings of normal vs normal are the same game."""
    summary = run_tournament("normal", "normal", deals=3, seed=2)
    assert summary["mean_margin"] == pytest.approx(0.0, abs=1e-9)
    assert summary["ci95"] == [0.0, 0.0]


def test_jobs_give_the_same_result() -> None:
    one = run_tournament("easy", "random", deals=4, seed=9, jobs=1)
    two = run_tournament("easy", "random", deals=4, seed=9, jobs=2)
    assert one["mean_margin"] == two["mean_margin"] and one["ci95"] == two["ci95"]


def test_command_prints_json(capsys: Any) -> None:
    assert tournament.main(["--challenger", "easy", "--baseline", "random", "--deals", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"mean_margin", "ci95", "deals", "games"} <= set(data)
    assert data["games"] == 8


def test_outside_bot_as_challenger() -> None:
    bot = f'cmd:{sys.executable} -c "{_FIRST_LEGAL_BOT}"'
    summary = run_tournament(bot, "random", deals=1, seed=1)
    assert summary["games"] == 4


_FIRST_LEGAL_BOT = (
    "import sys, json\n"
    "for line in sys.stdin:\n"
    "    r = json.loads(line)\n"
    "    a = {'expose': []} if r['type'] == 'expose' else {'card': r['legal'][0]} if r['type'] == 'play' else None\n"
    "    if a is not None: print(json.dumps(a), flush=True)\n"
)


def test_a_failing_bot_with_two_jobs_stops_with_one_clear_line() -> None:
    run = run_cli("--challenger", f"cmd:{BOT} --misbehave crash --after 2", "--baseline", "random",
                  "--deals", "6", "--jobs", "2")  # fmt: skip
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "crashed or exited" in lines[0] and "bot at seat" in lines[0], run.stderr


def test_a_failing_deal_stops_the_bots_of_the_other_worker(tmp_path: Path) -> None:
    """The first bot started crashes; the other worker's bot is waiting, silent, when the pool stops."""
    lock = tmp_path / "first"
    bot = (f"cmd:if mkdir {lock} 2>/dev/null; then sleep 0.5; exec {BOT} --misbehave crash; "
           f"else exec {BOT} --misbehave slow; fi")  # fmt: skip
    run = run_cli("--challenger", bot, "--baseline", "random", "--deals", "4", "--jobs", "2",
                  "--bot-timeout", "100", timeout=60)  # fmt: skip
    assert run.returncode != 0 and "crashed or exited" in run.stderr


def test_bot_timeout_applies_to_tournament_bots() -> None:
    run = run_cli("--challenger", f"cmd:{BOT} --misbehave slow", "--baseline", "random",
                  "--deals", "1", "--bot-timeout", "0.5")  # fmt: skip
    assert run.returncode != 0
    assert "no answer within 0.5 s" in run.stderr and len(run.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("value", ["inf", "nan", "-2"])
def test_a_bad_tournament_bot_timeout_is_one_clear_line(value: str) -> None:
    run = run_cli("--challenger", "random", "--baseline", "random", "--deals", "1", "--bot-timeout", value)
    lines = run.stderr.strip().splitlines()
    assert run.returncode != 0 and len(lines) == 1 and "--bot-timeout" in lines[0], run.stderr


def test_neighbouring_seeds_never_share_a_deal(monkeypatch: Any) -> None:
    seeds: list[int] = []
    real = tournament.new_match

    def spy(seed: int, *rules: Any) -> Any:
        seeds.append(seed)
        return real(seed, *rules)

    monkeypatch.setattr(tournament, "new_match", spy)
    play_deal("random", "random", seed=1, deal=100_000)
    play_deal("random", "random", seed=2, deal=0)
    assert seeds[0] != seeds[-1]
    first = {tournament_deal_seed(1, d) for d in range(300_000)}
    second = {tournament_deal_seed(2, d) for d in range(300_000)}
    assert len(first) == len(second) == 300_000 and not first & second
    assert min(first | second) >= 0 and max(first | second) <= MAX_SEED
    assert tournament_deal_seed(2**21 - 1, 2**32 - 1) <= MAX_SEED


def test_match_deals_keep_their_seeds() -> None:
    """The tournament's deal numbering is separate: match seeds still give the same deals as before."""
    assert SplitMix64(0).next_u64() == 0xE220A8397B1DCDAF  # the published SplitMix64 stream
    assert deal_seed(1, 1) == 1102166063972
    assert deal_seed(2**64 + 7, 3) == deal_seed(7, 3)


def test_deal_numbers_outside_the_seed_space_are_refused() -> None:
    with pytest.raises(ValueError, match="deal"):
        tournament_deal_seed(1, 2**32)
    with pytest.raises(ValueError, match="deal"):
        tournament_deal_seed(1, -1)


def test_many_deals_are_not_listed_up_front(monkeypatch: Any) -> None:
    """A run of a million deals stops at its first deal without building a million tasks."""

    def failing_deal(*args: Any) -> Any:
        raise RuntimeError("first deal")

    monkeypatch.setattr(tournament, "play_deal", failing_deal)
    tracemalloc.start()
    try:
        with pytest.raises(RuntimeError, match="first deal"):
            run_tournament("random", "random", deals=1_000_000, seed=1)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5_000_000


# --- whole matches ---------------------------------------------------------------------------


def test_each_match_is_played_four_times_with_the_same_deals(monkeypatch: Any) -> None:
    deals: list[list[list[list[str]]]] = [[], [], [], []]
    seating = {"seat": -1}
    real = tournament.play_hand

    def spy(state: Any, players: Any, clock: Any) -> Any:
        if state["hand_number"] == 1:
            seating["seat"] += 1
        names = [type(p).__name__ for p in players]
        assert names.index("EasyPlayer") == seating["seat"] and names.count("RandomPlayer") == 3
        deals[seating["seat"]].append(state["deal"])
        return real(state, players, clock)

    monkeypatch.setattr(tournament, "play_hand", spy)
    result = tournament.play_match("easy", "random", seed=4, match=0)
    assert seating["seat"] == 3 and len(result.wins) == 4 and result.hands == [len(d) for d in deals]
    for seat in range(4):  # the same deal, hand after hand, as far as both seatings went
        shared = min(len(deals[0]), len(deals[seat]))
        assert shared >= 1 and deals[seat][:shared] == deals[0][:shared]
    assert all(result.finished)


def test_a_deterministic_player_against_itself_wins_one_seating_in_four() -> None:
    """Normal vs Normal: the four seatings are the same match, so exactly one of them is a win."""
    summary = run_tournament("normal", "normal", deals=0, seed=3, matches=2)
    assert summary["matches"] == 2 and summary["match_games"] == 8
    assert summary["match_win_rate"] == 0.25 and summary["match_win_ci95"] == [0.25, 0.25]
    assert summary["match_unfinished"] == 0 and summary["match_mean_hands"] > 1


def _match(wins: int, match: int = 0) -> tournament.MatchResult:
    return tournament.MatchResult(match, [s < wins for s in range(4)], [5] * 4, [True] * 4)


def test_the_match_interval_is_a_bootstrap_over_duplicate_groups() -> None:
    summary = summarise("a", "b", 1, [_match(4), _match(4), _match(0), _match(2)], 1.0)
    assert summary["match_win_rate"] == 0.625
    low, high = summary["match_win_ci95"]
    assert 0.0 <= low < 0.625 < high <= 1.0
    # resampling whole groups: the interval only ever holds means of 4 group rates (multiples of 1/16)
    assert (16 * low).is_integer() and (16 * high).is_integer()
    again = summarise("a", "b", 1, [_match(2), _match(0), _match(4), _match(4)], 1.0)
    assert again["match_win_ci95"] == summary["match_win_ci95"]  # reproducible, order-free
    wider = summarise("a", "b", 1, [_match(4), _match(0)], 1.0)["match_win_ci95"]
    assert wider[1] - wider[0] > high - low


def test_an_unfinished_match_is_not_a_win(monkeypatch: Any) -> None:
    monkeypatch.setattr(tournament, "MAX_MATCH_HANDS", 1)
    result = tournament.play_match("normal", "random", seed=2, match=0)
    assert result.hands == [1, 1, 1, 1] and result.wins == [False] * 4 and result.finished == [False] * 4
    summary = summarise("normal", "random", 2, [result], 1.0)
    assert summary["match_unfinished"] == 4 and summary["match_win_rate"] == 0.0


def test_matches_and_deals_together_with_jobs() -> None:
    one = run_tournament("easy", "random", deals=2, seed=6, matches=2)
    two = run_tournament("easy", "random", deals=2, seed=6, matches=2, jobs=3)
    keys = ("mean_margin", "ci95", "match_win_rate", "match_win_ci95", "match_mean_hands")
    assert [one[k] for k in keys] == [two[k] for k in keys]
    assert one["deals"] == 2 and one["matches"] == 2


def test_command_reports_matches(capsys: Any) -> None:
    args = ["--challenger", "easy", "--baseline", "random", "--deals", "0", "--matches", "1"]
    assert tournament.main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == 1 and 0 <= data["match_win_rate"] <= 1 and len(data["match_win_ci95"]) == 2
    assert tournament.main(args) == 0
    assert "challenger won" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["--challenger", "easy", "--deals", "0"],
        ["--challenger", "easy", "--matches", "-1"],
        ["--challenger", "easy", "--jobs", "2", "--cluster", "local:2"],
        ["--challenger", "easy", "--cluster", "local:x"],
        ["--deals", "1"],
        ["--challenger", "open-hand", "--deals", "1"],
    ],
)
def test_bad_match_arguments_are_one_clear_line(args: list[str]) -> None:
    run = run_cli(*args, "--baseline", "random")
    lines = run.stderr.strip().splitlines()
    assert run.returncode != 0 and len(lines) == 1, run.stderr


# --- the open-hand reference player ----------------------------------------------------------


def test_the_open_hand_player_is_no_level_and_no_player_spec() -> None:
    from gongzhu.ai import LEVELS
    from gongzhu.players import PlayerSpecError, make_player

    assert "open-hand" not in LEVELS
    with pytest.raises(PlayerSpecError):
        make_player("open-hand", 1, 0)
    assert not Path(tournament.__file__).with_name("open_hand.py").exists()  # a benchmark tool, in bench/


def test_the_open_hand_player_reads_the_true_hands(monkeypatch: Any) -> None:
    """It is handed the state, and searches the one true world (no sampling)."""
    open_hand = bench_module("open_hand")
    import gongzhu.players as players

    monkeypatch.setattr(players, "_REGISTRY", dict(players._REGISTRY))  # the registration ends with the test
    open_hand.register_open_hand()
    worlds: list[list[int]] = []
    real = open_hand.evaluate_plays

    def spy(*args: Any) -> Any:
        worlds.append(args[-1])
        evaluation = real(*args)
        assert evaluation.worlds == 1
        return evaluation

    monkeypatch.setattr(open_hand, "evaluate_plays", spy)
    summary = run_tournament(open_hand.OPEN_HAND, "normal", deals=1, seed=2)
    assert summary["challenger"] == "open-hand" and summary["games"] == 4 and worlds
    assert all(sum(w.bit_count() for w in world) <= 52 and all(world) for world in worlds)


def test_judged_hard_plays_hards_cards_and_judges_each_in_the_true_deal() -> None:
    """The benchmarks' audits (bench/decision_regret.py, bench/open_hand_regret.py) must not change
    Hard's play: the hand is the one a plain Hard plays, and every judgement values Hard's choice."""
    from gongzhu.ai import HardPlayer, NormalPlayer
    from gongzhu.ai.config import HARD_MARGIN
    from gongzhu.cards import DECK
    from gongzhu.game import new_match
    from gongzhu.simulate import play_hand

    judged: list[tuple[str, dict[int, float]]] = []

    class Judge(bench_module("open_hand").JudgedHard):  # type: ignore[misc]
        def judge_play(self, view: Any, card: str, true: Any) -> None:
            assert card in view["legal"] and len(true.values) == len(view["legal"]) and true.worlds == 1
            judged.append((card, true.values))

    seed = 4
    plain = [HardPlayer(seed, 0, HARD_MARGIN), *(NormalPlayer(seed, s) for s in (1, 2, 3))]
    _, expected = play_hand(new_match(seed), plain)
    _, audited = play_hand(new_match(seed), [Judge(seed, 0), *plain[1:]])
    assert audited == expected and len(judged) >= 5
    assert all(DECK.index(card) in values for card, values in judged)


def test_the_exposure_credit_benchmark_replays_the_tournaments_hands() -> None:
    """bench/expose_credit.py plays only the hands whose exposure a credit changes, Hard's exposure
    forced: at Hard's own credit (minus its expose margin) it picks Hard's exposure, and a hand with the
    exposure forced to it is the tournament's hand."""
    from gongzhu.ai.config import HARD
    from gongzhu.ai.hard import choose_expose
    from gongzhu.game import new_match, view_for

    bench = bench_module("expose_credit")
    seed, deal = 1, 0
    dseed = tournament_deal_seed(seed, deal)
    result = play_deal("hard", "normal", seed, deal)
    state = new_match(dseed)
    for seat in range(4):
        view = view_for(state, seat)
        exposure: list[str] = []
        if view["exposable"]:
            exposure, evaluation = choose_expose(view, dseed, HARD)  # as HardPlayer exposes
            assert bench.picks(evaluation, [-HARD.expose_margin]) == [exposure]
        assert bench.margin_with(dseed, seat, exposure, "normal") == result.margins[seat]


def test_a_stopped_strength_run_resumes_where_its_log_stops(tmp_path: Path) -> None:
    """bench/strength.py --log … --part k/n started again plays only the tasks its log lacks, so a
    run stopped for time can be finished (and its log holds each deal once)."""
    log = tmp_path / "run.jsonl"
    first = play_deal("easy", "random", 1, 1)
    log.write_text(json.dumps(dataclasses.asdict(first)) + "\n")
    root = Path(__file__).parent.parent
    command = [
        sys.executable,
        "bench/strength.py",
        "--pairs",
        "easy:random",
        "--deals",
        "4",
        "--log",
        str(log),
    ]
    for part in ("0/2", "1/2"):
        env = {**os.environ, "PYTHONPATH": str(root)}
        subprocess.run([*command, "--part", part], cwd=root, check=True, env=env)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(line["deal"] for line in lines) == [0, 1, 2, 3]
    assert lines[0] == dataclasses.asdict(first)
    by_deal = {line["deal"]: line["margins"] for line in lines}
    assert by_deal[2] == play_deal("easy", "random", 1, 2).margins


def test_the_exposure_pairing_benchmark_plays_only_the_seatings_whose_exposure_differs(
    monkeypatch: Any,
) -> None:
    """bench/expose_paired.py: a variant of Hard that differs only in its exposures plays a later
    hand as the base does wherever it exposes the same, so the difference the script gives a deal
    (the changed seatings played both ways, the others 0) is the difference of the tournament's two
    full plays of it."""
    import functools

    from gongzhu import players as registry
    from gongzhu.ai.config import HARD
    from gongzhu.ai.hard import HardPlayer

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    judged = dataclasses.replace(HARD, budget=1500)  # the game's exposures, by the habits
    small = dataclasses.replace(judged, expose_judging=None)
    registry.register_player("small", functools.partial(HardPlayer, config=small))
    registry.register_player("small-expose", functools.partial(HardPlayer, config=judged))
    row = bench_module("expose_paired").play_deal("small", "small-expose", "easy", 1, 0)
    assert row["changed"] == [False, False, False, True]  # one seating exposes otherwise
    base = play_deal("small", "easy", 1, 0, later=True).margins
    variant = play_deal("small-expose", "easy", 1, 0, later=True).margins
    assert row["differences"] == pytest.approx([v - b for v, b in zip(variant, base, strict=True)], abs=1e-9)
