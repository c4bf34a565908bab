"""The tournament's executors (gongzhu/workers.py): one process, a local pool and a Dask cluster
play the same deals alike; a killed cluster worker's deals are played again; Ctrl-C and a bot's
error stop a run cleanly; the progress line shows on a terminal only."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import pytest

import gongzhu.players as players
from gongzhu.tournament import (
    DealResult,
    MatchResult,
    job_of,
    play_tasks,
    tasks_of,
)
from gongzhu.workers import Progress, batches, cluster, local_pool

BOT = f"{sys.executable} {Path(__file__).parent / 'bots' / 'protocol_bot.py'}"
CLI = [sys.executable, "-m", "gongzhu", "tournament"]


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[Executor]:
    """One two-worker LocalCluster for the tests of this file that need one (it takes seconds to start)."""
    with cluster("local:2") as executor:
        yield executor


def outcomes(challenger: str, baseline: str, deals: int, executor: Executor | None = None) -> list[Any]:
    """Each task's result, sorted by task, without the decision times (they are clocks)."""
    job = job_of(challenger, baseline, 5)
    out: list[Any] = []
    for _job, r in play_tasks(((job, t) for t in tasks_of(deals, 0)), deals, executor):
        if isinstance(r, DealResult):
            out.append(("deal", r.deal, r.margins, r.challenger_scores, r.baseline_scores))
        else:
            assert isinstance(r, MatchResult)
            out.append(("match", r.match, r.wins, r.hands, r.finished))
    return sorted(out)


def alike(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary without its clocks."""
    return {k: v for k, v in summary.items() if k != "seconds" and not k.startswith("decision_ms")}


def normal_seat(seed: int, seat: int) -> Any:
    """A registered player (module level, so it pickles by name): Normal."""
    return players.make_player("normal", seed, seat)


def test_one_process_a_pool_and_a_cluster_play_every_deal_alike(
    monkeypatch: Any, local_cluster: Executor
) -> None:
    """An outside bot against a registered player (a benchmark's, which travels with the tasks to the
    spawned cluster workers), 3 deals: identical deal for deal in one process, with four pool
    workers, and on a two-worker LocalCluster."""
    monkeypatch.setattr(players, "_REGISTRY", dict(players._REGISTRY))  # the registration ends with the test
    players.register_player("test-normal", normal_seat)
    one = outcomes(f"cmd:{BOT}", "test-normal", 3)
    assert [deal for _kind, deal, *_ in one] == [0, 1, 2]
    with local_pool(4) as pool:
        assert outcomes(f"cmd:{BOT}", "test-normal", 3, pool) == one
    assert outcomes(f"cmd:{BOT}", "test-normal", 3, local_cluster) == one


def test_register_player_refuses_the_games_names() -> None:
    for name in ("hard", "random", "cmd:x", ""):
        with pytest.raises(players.PlayerSpecError):
            players.register_player(name, normal_seat)


def test_a_killed_cluster_worker_has_its_deals_played_again(tmp_path: Path, local_cluster: Executor) -> None:
    """The first bot started kills the worker that started it (SIGKILL); its deals run again on a
    worker, and every deal is counted once, as in the undisturbed run."""
    lock = tmp_path / "killed"
    killer = f"cmd:if mkdir {lock} 2>/dev/null; then kill -9 $PPID; exit 1; fi; exec {BOT}"
    undisturbed = outcomes(f"cmd:{BOT}", "random", 6)
    disturbed = outcomes(killer, "random", 6, local_cluster)
    assert lock.exists()  # a worker was killed
    assert disturbed == undisturbed and len(disturbed) == 6


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


def bot_pids(folder: Path) -> list[int]:
    return [int(p.name) for p in folder.iterdir()]


def as_a_terminal_starts_it() -> None:
    """A command started from a terminal's shell has SIGINT at its default and not blocked, whatever
    the test process has: the run once ignored Ctrl-C under the whole suite (it ran on until its bots
    timed out), not alone, as if the test process had passed SIGINT on ignored or blocked."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_stops_a_pool_run_with_one_line_and_no_bot_left(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the terminal's process group) while two pool workers wait on silent bots."""
    bot = f"cmd:exec {BOT} --misbehave slow --pid-file {tmp_path}/$$"
    run = subprocess.Popen(
        [
            *CLI,
            "--challenger",
            bot,
            "--baseline",
            "random",
            "--deals",
            "4",
            "--jobs",
            "2",
            "--bot-timeout",
            "100",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_a_terminal_starts_it,
    )
    deadline = time.monotonic() + 30
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    pids = bot_pids(tmp_path)
    assert len(pids) == 2 and all(alive(p) for p in pids)
    os.killpg(run.pid, signal.SIGINT)
    _out, err = run.communicate(timeout=120)  # (about 1 s; the limit only ends a hang)
    assert run.returncode == 130, (
        run.returncode,
        err,
        signal.getsignal(signal.SIGINT),
        signal.pthread_sigmask(signal.SIG_BLOCK, []),
    )
    assert err.strip().splitlines() == ["error: tournament stopped (Ctrl-C); no summary"], err
    time.sleep(0.5)
    assert not any(alive(p) for p in pids)


def test_a_bots_error_on_a_cluster_stops_the_run_with_one_clear_line() -> None:
    run = subprocess.run(
        [*CLI, "--challenger", f"cmd:{BOT} --misbehave crash --after 2", "--baseline", "random",
         "--deals", "4", "--cluster", "local:2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    lines = run.stderr.strip().splitlines()
    assert run.returncode != 0
    assert len(lines) == 1 and "crashed or exited" in lines[0] and "bot at seat" in lines[0], run.stderr


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_line_shows_done_rate_and_time_left_on_a_terminal_only() -> None:
    shown, hidden = Terminal(), io.StringIO()
    for stream in (shown, hidden):
        progress = Progress(10, stream, every=0.0)
        progress.add(3)
        progress.close()
    assert hidden.getvalue() == ""
    assert shown.getvalue().startswith("\r3/10 done, ") and "/s, " in shown.getvalue()
    assert " left" in shown.getvalue() and shown.getvalue().endswith("\n")
    assert Progress(10, hidden).line(2.0) == "0/10 done, 0.0/s, 0m00s left"


def test_batches_keep_every_item_once_in_order() -> None:
    assert list(batches(range(7), 3)) == [[0, 1, 2], [3, 4, 5], [6]]
    assert list(batches([], 3)) == []
