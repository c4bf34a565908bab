"""Outside bots: their processes are always stopped, and a broken answer is one clear error naming the seat."""

from __future__ import annotations

import io
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from gongzhu import agent
from gongzhu.agent import AgentError, check_timeout
from gongzhu.simulate import Seats, simulate

BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'protocol_bot.py'}"


def process_gone(pid: int, within: float = 5.0) -> bool:
    """Whether process ``pid`` has ended (or is a zombie) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)


def wait_for_file(path: Path, within: float) -> bool:
    deadline = time.monotonic() + within
    while not path.exists() or not path.read_text():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_bots_children_are_stopped_even_after_the_bot_itself_exited(tmp_path: Path) -> None:
    child_pid_file = tmp_path / "child.pid"
    specs = ["random", f"cmd:{BOT} --child-pid-file {child_pid_file}", "random", "random"]
    simulate(specs, 1, 5, io.StringIO(), max_hands=1, bot_timeout=2)
    assert wait_for_file(child_pid_file, 1)
    assert process_gone(int(child_pid_file.read_text()))


def test_a_bot_started_before_a_bad_spec_does_not_keep_running(tmp_path: Path) -> None:
    pid_file = tmp_path / "bot.pid"
    with pytest.raises(ValueError, match="unknown player 'wizard'"):
        Seats([f"cmd:{BOT} --linger --pid-file {pid_file}", "random", "wizard", "random"], 2)
    if wait_for_file(pid_file, 1.5):
        assert process_gone(int(pid_file.read_text()))


def test_a_bot_that_answers_match_end_is_refused_and_the_match_is_kept(tmp_path: Path) -> None:
    out = io.StringIO()
    specs = ["random", "random", "random", f"cmd:{BOT} --answer-match-end"]
    with pytest.raises(AgentError, match="seat 3: sent a line when no answer was expected") as caught:
        simulate(specs, 1, 2, out, max_hands=1, bot_timeout=2)
    assert '"card": "2C"' in str(caught.value), "the error shows the extra line"
    assert len(out.getvalue().splitlines()) == 1


def test_agent_error_survives_pickling_for_worker_processes() -> None:
    error = AgentError(2, "answer is not JSON", {"type": "play", "seat": 2}, "oops\n")
    copy = pickle.loads(pickle.dumps(error))
    assert isinstance(copy, AgentError)
    assert str(copy) == str(error)
    assert (copy.seat, copy.problem, copy.request, copy.answer) == (
        2,
        "answer is not JSON",
        error.request,
        "oops\n",
    )


@pytest.mark.parametrize("value", [float("inf"), float("nan"), -1.0, 0.0, 1e12])
def test_bot_timeout_must_be_a_sensible_number_of_seconds(value: float) -> None:
    with pytest.raises(ValueError, match="bot timeout must be"):
        check_timeout(value)


def test_a_good_bot_timeout_is_kept() -> None:
    assert check_timeout(0.5) == 0.5


def test_a_stop_asked_while_a_bot_starts_kills_that_bot_once_it_is_known(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pool worker's stop (its SIGTERM handler) that lands between the bot's start and its
    registration waits for the registration, then kills it: else the bot outlives the worker."""
    real_popen = subprocess.Popen
    stops: list[str] = []

    def popen_then_stop(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        process = real_popen(*args, **kwargs)
        agent.stop_running_bots(lambda: stops.append("stopped"))  # the signal lands here
        assert stops == []  # not yet: the bot is not known
        return process

    monkeypatch.setattr(agent.subprocess, "Popen", popen_then_stop)
    monkeypatch.setattr(agent, "_stop_asked", None)  # (and put back: the next start must not stop)
    bot = agent.CommandBot("sleep 60", seat=2)
    assert stops == ["stopped"] and agent._stop_asked is None  # done once, not again at the next start
    assert bot.process.wait(timeout=30) == -signal.SIGKILL
