"""Outside bots speaking the JSON Lines protocol of ``docs/agent-protocol.md``.

A seat given as ``cmd:<shell command>`` is played by that command: started once for the run, one
request per line on its stdin, one answer per line read from its stdout within the time limit.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
from typing import Any

from .game import View
from .players import Player, make_player

DEFAULT_TIMEOUT = 10.0
CMD_PREFIX = "cmd:"


class AgentError(RuntimeError):
    """An outside bot broke the protocol; the message names the seat, the request and the answer."""

    def __init__(self, seat: int, problem: str, request: dict[str, Any] | None, answer: str | None) -> None:
        shown = "" if answer is None else f"; answer: {answer.strip()[:300]!r}"
        request_text = "" if request is None else f"; request: {json.dumps(request)[:300]}"
        super().__init__(f"bot at seat {seat}: {problem}{request_text}{shown}")
        self.seat = seat
        self.problem = problem
        self.request = request
        self.answer = answer


def _request(kind: str, view: View, **fields: Any) -> dict[str, Any]:
    """The fields every request carries (``type``, ``seat``, ``hand_number``, ``totals``, ``hand``)."""
    return {
        "type": kind,
        "seat": view["seat"],
        "hand_number": view["hand_number"],
        "totals": view["totals"],
        "hand": view["hand"],
        **fields,
    }


def expose_request(view: View) -> dict[str, Any]:
    return _request("expose", view, exposable=view["exposable"])


def play_request(view: View) -> dict[str, Any]:
    return _request(
        "play",
        view,
        legal=view["legal"],
        exposed=view["exposed"],
        tricks=view["tricks"],
        trick=view["trick"]["plays"],
    )


class CommandBot:
    """A :class:`~gongzhu.players.Player` backed by an outside process."""

    def __init__(self, command: str, seat: int, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command
        self.seat = seat
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
                start_new_session=True,  # its own process group, so close() can stop the whole command
            )
        except OSError as error:  # pragma: no cover - a shell is always there on POSIX
            raise AgentError(seat, f"could not start {command!r}: {error}", None, None) from error
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _send(self, request: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise AgentError(
                self.seat, f"bot has exited (code {self.process.poll()})", request, None
            ) from error

    def _ask(self, request: dict[str, Any]) -> tuple[dict[str, Any], str]:
        self._send(request)
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise AgentError(self.seat, f"no answer within {self.timeout:g} s", request, None) from None
        if line is None:
            code = self.process.wait()
            raise AgentError(self.seat, f"bot crashed or exited (code {code})", request, None)
        try:
            answer = json.loads(line)
        except json.JSONDecodeError:
            raise AgentError(self.seat, "answer is not JSON", request, line) from None
        if not isinstance(answer, dict):
            raise AgentError(self.seat, "answer is not a JSON object", request, line)
        return answer, line

    def expose(self, view: View) -> list[str]:
        request = expose_request(view)
        answer, line = self._ask(request)
        cards = answer.get("expose")
        if not isinstance(cards, list) or any(c not in view["exposable"] for c in cards):
            raise AgentError(self.seat, "'expose' must be a subset of 'exposable'", request, line)
        if len(set(cards)) != len(cards):
            raise AgentError(self.seat, "'expose' lists a card twice", request, line)
        return list(cards)

    def play(self, view: View) -> str:
        request = play_request(view)
        answer, line = self._ask(request)
        card = answer.get("card")
        if not isinstance(card, str) or card not in view["legal"]:
            raise AgentError(self.seat, "'card' is not one of 'legal'", request, line)
        return card

    def match_end(self, totals: list[int]) -> None:
        with contextlib.suppress(AgentError):
            self._send({"type": "match_end", "totals": totals})

    def close(self) -> None:
        """Close its stdin and give it a moment to exit, then stop its whole process group."""
        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                assert self.process.stdin is not None
                self.process.stdin.close()
            try:
                self.process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def make_any_player(spec: str, seed: int, seat: int) -> Player:
    """A level player or, for ``cmd:<command>``, an outside bot."""
    if spec.startswith(CMD_PREFIX):
        return CommandBot(spec[len(CMD_PREFIX) :], seat)
    return make_player(spec, seed, seat)


def close_player(player: Player) -> None:
    close = getattr(player, "close", None)
    if callable(close):
        close()
