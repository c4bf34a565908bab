"""The headless simulator and its match log, checked against the independent referee."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from gongzhu.simulate import simulate, split_player_specs

from .referee import check_match_log

BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'protocol_bot.py'}"


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gongzhu", *args], capture_output=True, text=True, timeout=timeout
    )


def one_error_line(run: subprocess.CompletedProcess[str]) -> str:
    """The run failed with exactly one line on stderr, an ``error:`` line (no traceback)."""
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    return lines[0]


def test_fifty_random_matches_agree_with_the_referee() -> None:
    out = io.StringIO()
    simulate(["random"] * 4, 50, 1000, out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 50
    for line in lines:
        record = json.loads(line)
        assert record["final"]["complete"] is True
        check_match_log(record)


def test_same_seed_same_players_gives_a_byte_identical_log(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        run = run_cli(
            "simulate",
            "--matches",
            "5",
            "--seed",
            "9",
            "--players",
            "random,random,random,random",
            "--log",
            str(path),
        )
        assert run.returncode == 0, run.stderr
    assert first.read_bytes() == second.read_bytes()
    other = tmp_path / "c.jsonl"
    run_cli("simulate", "--matches", "5", "--seed", "10", "--log", str(other))
    assert other.read_bytes() != first.read_bytes()


def test_max_hands_caps_a_match() -> None:
    out = io.StringIO()
    simulate(["random"] * 4, 4, 0, out, max_hands=1)
    for line in out.getvalue().splitlines():
        record = json.loads(line)
        assert len(record["hands"]) == 1
        check_match_log(record)
        if not record["final"]["complete"]:
            assert "winner" not in record["final"]


def test_outside_bot_plays_and_sees_only_its_seat(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    log = tmp_path / "log.jsonl"
    run = run_cli("simulate", "--matches", "2", "--seed", "3", "--log", str(log),
                  "--players", f"random,cmd:{BOT} --record {requests},random,random")  # fmt: skip
    assert run.returncode == 0, run.stderr
    for line in log.read_text().splitlines():
        check_match_log(json.loads(line))
    seen = [json.loads(line) for line in requests.read_text().splitlines()]
    kinds = {r["type"] for r in seen}
    assert {"play", "match_end"} <= kinds
    records = [json.loads(line) for line in log.read_text().splitlines()]
    for request in seen:
        if request["type"] == "play":
            assert request["seat"] == 1
            assert set(request["legal"]) <= set(request["hand"])
            assert {"hand_number", "totals", "exposed", "tricks", "trick"} <= set(request)
            hidden = {
                c
                for record in records
                for hand in record["hands"]
                for s in (0, 2, 3)
                for c in hand["deal"][s]
            }
            assert not (set(request["hand"]) & hidden - set(request["hand"]))


def test_split_player_specs_keeps_commas_inside_commands() -> None:
    assert split_player_specs("random,cmd:bot --x 1,2,random,random") == [
        "random",
        "cmd:bot --x 1,2",
        "random",
        "random",
    ]


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("illegal", "'card' is not one of 'legal'"),
        ("malformed", "answer is not JSON"),
        ("crash", "crashed or exited"),
        ("slow", "no answer within"),
        ("close-stdout", "closed its output"),
        ("close-stdin", "closed its input"),
        ("endless", "longer than"),
        ("invalid-utf8", "not valid UTF-8"),
        ("deep", "nested too deeply"),
        ("twice", "sent a line when no answer was expected"),
    ],
)
def test_broken_bot_stops_with_a_clear_error_and_keeps_finished_matches(
    tmp_path: Path, mode: str, message: str
) -> None:
    log = tmp_path / "log.jsonl"
    # 13 good plays per hand at most: with --max-hands 1, match 1 finishes, match 2 breaks.
    # `exec`: the bot is the process itself, so closing its stdout ends the pipe (no shell holds it).
    # 5 s: a bot's first answer on a busy machine can take over a second; `slow` stays silent 120 s.
    run = run_cli("simulate", "--matches", "3", "--seed", "1", "--max-hands", "1", "--bot-timeout", "5",
                  "--log", str(log), "--players", f"random,random,cmd:exec {BOT} --misbehave {mode} --after 13,random",
                  timeout=60)  # fmt: skip
    line = one_error_line(run)
    assert "seat 2" in line and message in line
    assert '"type": "play"' in run.stderr, "the error names the request"
    lines = log.read_text().splitlines()
    assert len(lines) == 1
    check_match_log(json.loads(lines[0]))


def test_bad_player_spec_is_refused() -> None:
    run = run_cli("simulate", "--players", "random,random,wizard,random")
    assert run.returncode != 0 and "unknown player 'wizard'" in run.stderr
    run = run_cli("simulate", "--players", "random,random")
    assert run.returncode != 0 and "4" in run.stderr


def test_a_bad_player_spec_leaves_an_existing_log_untouched(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("previous run\n")
    run = run_cli("simulate", "--players", "random,random,wizard,random", "--log", str(log))
    assert "unknown player 'wizard'" in one_error_line(run)
    assert log.read_text() == "previous run\n"


def test_an_existing_log_is_overwritten_only_with_force(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text("previous run\n")
    run = run_cli("simulate", "--log", str(log))
    assert "--force" in one_error_line(run)
    assert log.read_text() == "previous run\n"
    run = run_cli("simulate", "--log", str(log), "--force")
    assert run.returncode == 0, run.stderr
    check_match_log(json.loads(log.read_text()))


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0"])
def test_a_bad_bot_timeout_is_one_clear_line(tmp_path: Path, value: str) -> None:
    log = tmp_path / "log.jsonl"
    run = run_cli("simulate", "--max-hands", "1", "--bot-timeout", value, "--log", str(log),
                  "--players", f"random,cmd:{BOT},random,random", timeout=60)  # fmt: skip
    assert "--bot-timeout" in one_error_line(run)
    assert not log.exists()


def test_seeds_out_of_range_are_refused_before_the_log_is_written(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    run = run_cli("simulate", "--seed", str(2**53 - 1), "--matches", "2", "--log", str(log))
    assert "--seed" in one_error_line(run)
    assert not log.exists()
