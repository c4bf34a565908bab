"""Outside bots speaking the JSON Lines protocol of ``docs/agent-protocol.md``.

A seat given as ``cmd:<shell command>`` is played by that command: started once for the run, one
request per line on its stdin, one answer per line read from its stdout within the time limit.

Requests and answers are matched: ``expose`` and ``play`` expect exactly one line each, ``match_end``
none.  A line that the bot sent before the request it would answer was written (a second answer, an
answer to ``match_end``) is refused when the next request is made, and one left over when the bot is
stopped is refused then.  Every wait has a time limit, and closing a bot stops its whole process group,
children included, whether or not the bot itself is still running.  Bots are not sandboxed: see
``docs/security.md``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import queue
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .game import View
from .players import Player, make_player

DEFAULT_TIMEOUT = 10.0
MAX_TIMEOUT = 86_400.0  # one day: longer is a mistake, and threading waits overflow near 2**63 ns
CMD_PREFIX = "cmd:"
MAX_LINE_BYTES = 1 << 20  # an answer is a few dozen bytes; a longer line is refused, not buffered
_READ_CHUNK = 1 << 16
_QUEUED_LINES = 8  # lines read ahead at most; then the bot waits on its full pipe
_GRACE = 1.0  # seconds a bot gets to exit by itself once its input is closed


_RUNNING: set[int] = set()  # process groups of the bots started here and not yet closed
_starting = 0  # bots being started here and not yet in _RUNNING
_stop_asked: Callable[[], None] | None = None  # a stop asked while one was starting, done once it is in


def stop_running_bots(then: Callable[[], None]) -> None:
    """Kill every bot this process started and has not closed, then call ``then`` (a pool worker told
    to stop at once, from its signal handler). Asked while a bot is being started, the stop waits
    until that bot is registered: a bot started but not yet known would outlive its worker (and hold
    the tournament's stderr open)."""
    global _stop_asked
    if _starting:
        _stop_asked = then
        return
    for group in list(_RUNNING):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(group, signal.SIGKILL)
    _RUNNING.clear()
    then()


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

    def __reduce__(self) -> tuple[type[AgentError], tuple[int, str, dict[str, Any] | None, str | None]]:
        """Rebuilt from its four fields (a tournament's worker processes send it to the parent)."""
        return (AgentError, (self.seat, self.problem, self.request, self.answer))


def check_timeout(seconds: float) -> float:
    """``seconds`` if it is a usable answer time limit, else :class:`ValueError` saying why."""
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT):
        raise ValueError(
            f"bot timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g}, got {seconds!r}"
        )
    return seconds


def _request(kind: str, view: View, **fields: Any) -> dict[str, Any]:
    """The fields every request carries (``type``, ``seat``, ``hand_number``, ``totals``, ``hand``,
    ``rules``: the match's house rules)."""
    return {
        "type": kind,
        "seat": view["seat"],
        "hand_number": view["hand_number"],
        "totals": view["totals"],
        "hand": view["hand"],
        "rules": view["rules"],
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


@dataclass(frozen=True)
class _Line:
    """What the reader thread saw on the bot's stdout."""

    data: bytes | None  # one line without its newline; None at the end of the output
    sent: int  # messages written to the bot when the bytes arrived (an answer needs its request sent)
    too_long: bool = False  # the line passed MAX_LINE_BYTES; ``data`` is its beginning


class CommandBot:
    """A :class:`~gongzhu.players.Player` backed by an outside process."""

    def __init__(self, command: str, seat: int, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command = command  # the shell command, as given after ``cmd:``
        self.seat = seat  # the seat it plays, named in every error
        self.timeout = check_timeout(timeout)  # seconds per answer (and per request written)
        self._sent = 0  # messages written so far; the reader stamps each line with it
        self._lines: queue.Queue[_Line] = queue.Queue(_QUEUED_LINES)  # read ahead, bounded
        self._ended = False  # the reader reported the end of the output
        self._closed = False  # close() has run
        self._leftover: _Line | None = None  # the first unasked line found by close()
        global _starting, _stop_asked
        _starting += 1
        try:
            self.process = subprocess.Popen(
                command,
                shell=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                start_new_session=True,  # its own process group, so close() can stop the whole command
            )
            _RUNNING.add(self.process.pid)
        except OSError as error:  # pragma: no cover - a shell is always there on POSIX
            raise AgentError(seat, f"could not start {command!r}: {error}", None, None) from error
        finally:
            _starting -= 1
            if _stop_asked is not None and not _starting:
                then, _stop_asked = _stop_asked, None
                stop_running_bots(then)
        assert self.process.stdin is not None and self.process.stdout is not None
        self._stdin = self.process.stdin.fileno()
        os.set_blocking(self._stdin, False)  # writes wait in select() with a time limit instead
        self._reader = threading.Thread(target=self._read, args=(self.process.stdout.fileno(),), daemon=True)
        self._reader.start()

    def _read(self, fd: int) -> None:
        """Split the output into lines, each stamped with the messages sent when it arrived."""
        pending = b""
        while True:
            try:
                chunk = os.read(fd, _READ_CHUNK)
            except OSError:
                chunk = b""
            sent = self._sent
            if not chunk:
                if pending:
                    self._lines.put(_Line(pending, sent))
                self._lines.put(_Line(None, sent))
                return
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                if len(line) > MAX_LINE_BYTES:
                    pending = line
                    break
                self._lines.put(_Line(line, sent))
            if len(pending) > MAX_LINE_BYTES:
                # Stop reading: the bot then blocks on its full pipe until close() stops it.
                self._lines.put(_Line(pending[:300], sent, too_long=True))
                self._lines.put(_Line(None, sent))
                return

    def _send(self, message: dict[str, Any], request: dict[str, Any] | None) -> None:
        """Write one message line, refusing output the bot sent before it (no answer was due)."""
        self._refuse_leftover(request)
        if self._ended:
            if request is None:
                return  # a notice to a bot that has gone: nothing to say
            raise AgentError(self.seat, self._why_gone("output"), request, None)
        data = memoryview((json.dumps(message) + "\n").encode())
        deadline = time.monotonic() + self.timeout
        self._sent += 1
        while data:
            remaining = deadline - time.monotonic()
            try:
                writable = remaining > 0 and select.select([], [self._stdin], [], remaining)[1]
                if not writable:
                    raise AgentError(
                        self.seat, f"did not read its input within {self.timeout:g} s", request, None
                    )
                data = data[os.write(self._stdin, data) :]
            except BlockingIOError:
                continue
            except OSError as error:
                raise AgentError(self.seat, self._why_gone("input"), request, None) from error

    def _refuse_leftover(self, request: dict[str, Any] | None) -> None:
        with contextlib.suppress(queue.Empty):
            line = self._lines.get_nowait()
            if line.data is None:
                self._ended = True
            else:
                raise self._unasked(line, request)

    def _unasked(self, line: _Line, request: dict[str, Any] | None) -> AgentError:
        """The error for a line that arrived when no answer was expected."""
        assert line.data is not None
        problem = f"line longer than {MAX_LINE_BYTES} bytes" if line.too_long else "sent a line"
        return AgentError(self.seat, f"{problem} when no answer was expected", request, _text(line.data))

    def _ask(self, request: dict[str, Any]) -> tuple[dict[str, Any], str]:
        self._send(request, request)
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise AgentError(self.seat, f"no answer within {self.timeout:g} s", request, None) from None
        if line.data is None:
            self._ended = True
            raise AgentError(self.seat, self._why_gone("output"), request, None)
        text = _text(line.data)
        if line.too_long:
            raise AgentError(self.seat, f"answer line longer than {MAX_LINE_BYTES} bytes", request, text)
        if line.sent < self._sent:
            raise self._unasked(line, request)
        try:
            answer = json.loads(line.data.decode("utf-8"))
        except UnicodeDecodeError:
            raise AgentError(self.seat, "answer is not valid UTF-8", request, text) from None
        except RecursionError:
            raise AgentError(self.seat, "answer is nested too deeply", request, text) from None
        except ValueError:
            raise AgentError(self.seat, "answer is not JSON", request, text) from None
        if not isinstance(answer, dict):
            raise AgentError(self.seat, "answer is not a JSON object", request, text)
        return answer, text

    def _why_gone(self, stream: str) -> str:
        """Why the bot's ``stream`` ("input" or "output") closed: it exited, or it closed just that."""
        try:
            code = self.process.wait(timeout=min(self.timeout, _GRACE))
        except subprocess.TimeoutExpired:
            return f"bot closed its {stream} but is still running"
        return f"bot crashed or exited (code {code})"

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
        """The end-of-match notice; the bot must not answer it."""
        self._send({"type": "match_end", "totals": totals}, None)

    def close(self) -> None:
        """Close its stdin and give it a moment to exit, then stop its whole process group.

        The group is stopped even when the bot has exited by itself: its children may live on.  The
        output it left unread is kept for :meth:`finish`.
        """
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=_GRACE)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        _RUNNING.discard(self.process.pid)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=_GRACE)
        self._drain()

    def _drain(self) -> None:
        """Read what is left of the output up to its end (or for a moment, if something still holds it)."""
        deadline = time.monotonic() + _GRACE
        while not self._ended:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return  # a process that left the group still holds the pipe (and the reader)
            if line.data is None:
                self._ended = True
            elif self._leftover is None:
                self._leftover = line
        assert self.process.stdout is not None
        self.process.stdout.close()  # the reader has returned

    def finish(self) -> None:
        """:meth:`close`, then refuse a line the bot sent that no request asked for."""
        self.close()
        if self._leftover is not None:
            raise self._unasked(self._leftover, None)


def _text(data: bytes) -> str:
    """A line as shown in an error (bytes that are not UTF-8 replaced)."""
    return data.decode("utf-8", "replace")


def make_any_player(spec: str, seed: int, seat: int, bot_timeout: float = DEFAULT_TIMEOUT) -> Player:
    """A level player or, for ``cmd:<command>``, an outside bot."""
    if spec.startswith(CMD_PREFIX):
        return CommandBot(spec[len(CMD_PREFIX) :], seat, bot_timeout)
    return make_player(spec, seed, seat)


def check_player_spec(spec: str) -> None:
    """Raise :class:`~gongzhu.players.PlayerSpecError` for a spec that names no player, starting nothing."""
    if not spec.startswith(CMD_PREFIX):
        make_player(spec, 0, 0)


def close_player(player: Player) -> None:
    close = getattr(player, "close", None)
    if callable(close):
        close()


def finish_player(player: Player) -> None:
    """Close a player at the end of a clean run (an outside bot's leftover output is an error)."""
    finish = getattr(player, "finish", None)
    if callable(finish):
        finish()
    else:
        close_player(player)
