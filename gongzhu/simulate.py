"""Headless matches between players, written as the match log of ``docs/game-log.md``."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import IO, Any, Protocol, runtime_checkable

from .agent import (
    CMD_PREFIX,
    DEFAULT_TIMEOUT,
    check_player_spec,
    check_timeout,
    close_player,
    finish_player,
    make_any_player,
)
from .game import State, apply_legal, legal_plays, new_match, view_for
from .house_rules import DEFAULT_RULES, Rules
from .players import Player, level_names

DecisionClock = Callable[[int, float], None]


@runtime_checkable
class OpenPlayer(Protocol):
    """A player that decides from the whole state, every hand included: the benchmarks' open-hand
    reference (bench/open_hand.py), never one of the game's players."""

    def expose_open(self, state: State) -> list[str]: ...

    def play_open(self, state: State) -> str: ...


def split_player_specs(text: str) -> list[str]:
    """``"random,cmd:bot --x 1,2,easy"`` → specs: a piece that is neither a level nor ``cmd:…``
    continues the outside bot's command before it (commands may contain commas)."""
    levels = set(level_names())
    specs: list[str] = []
    for piece in text.split(","):
        new_spec = piece.strip() in levels or piece.startswith(CMD_PREFIX)
        if specs and specs[-1].startswith(CMD_PREFIX) and not new_spec:
            specs[-1] += "," + piece
        else:
            specs.append(piece.strip())
    return specs


class Seats:
    """The four players of a run: outside bots live for the whole run, levels are made per match.

    Every spec is checked before any bot starts, and a failure while starting them stops those
    already running.  Use it as a context manager: leaving the block cleanly finishes the bots
    (their leftover output is an error), leaving it by an exception just closes them.
    """

    def __init__(self, specs: Sequence[str], bot_timeout: float = DEFAULT_TIMEOUT) -> None:
        if len(specs) != 4:
            raise ValueError(f"need 4 players, got {len(specs)}: {list(specs)}")
        check_timeout(bot_timeout)
        for spec in specs:
            check_player_spec(spec)
        self.specs = list(specs)  # the four player specs, seat by seat
        self._bots: dict[int, Player] = {}  # seat -> its outside bot, started once for the run
        try:
            for seat, spec in enumerate(self.specs):
                if spec.startswith(CMD_PREFIX):
                    self._bots[seat] = make_any_player(spec, 0, seat, bot_timeout)
        except BaseException:
            self.close()
            raise

    def for_match(self, seed: int) -> list[Player]:
        return [
            self._bots.get(seat) or make_any_player(spec, seed, seat) for seat, spec in enumerate(self.specs)
        ]

    def close(self) -> None:
        """Stop every bot (after an error: their leftover output no longer matters)."""
        for bot in self._bots.values():
            close_player(bot)

    def finish(self) -> None:
        """Stop every bot at the end of a clean run, refusing output no request asked for."""
        try:
            for bot in self._bots.values():
                finish_player(bot)
        finally:
            self.close()

    def __enter__(self) -> Seats:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        if kind is None:
            self.finish()
        else:
            self.close()


def play_hand(
    state: State, players: Sequence[Player | OpenPlayer], clock: DecisionClock | None = None
) -> tuple[State, dict[str, Any]]:
    """Play the current hand from its expose phase to its end; returns the new state and its log.

    ``clock(seat, seconds)``, when given, is told how long each decision took.  Every player sees
    only its view, except an :class:`OpenPlayer` (benchmarks only), which is given the state.
    """
    log: dict[str, Any] = {"number": state["hand_number"], "deal": [list(h) for h in state["deal"]]}
    for seat in range(4):
        if state["expose_choices"][seat] is None:
            cards = _decide(players[seat], state, seat, clock)
            state = apply_legal(state, {"type": "expose", "seat": seat, "cards": cards})
    log["exposed"] = [list(e) for e in state["exposed"]]
    tricks: list[dict[str, Any]] = []
    plays: list[dict[str, Any]] = []
    while state["phase"] == "play":
        seat = state["turn"]
        legal = legal_plays(state, seat)
        card = _decide(players[seat], state, seat, clock)
        if not plays:
            leader = seat
        plays.append({"seat": seat, "card": card, "legal": legal})
        state = apply_legal(state, {"type": "play", "seat": seat, "card": card})
        if len(plays) == 4:
            tricks.append({"leader": leader, "plays": plays, "winner": state["tricks"][-1]["winner"]})
            plays = []
    log["tricks"] = tricks
    log["captured"] = [list(c) for c in state["captured"]]
    log["scores"] = list(state["last_hand"]["scores"])
    log["totals"] = list(state["totals"])
    return state, log


def _decide(player: Player | OpenPlayer, state: State, seat: int, clock: DecisionClock | None) -> Any:
    """The player's exposure or card for the current phase, timed from its view (or the state)."""
    expose = state["phase"] == "expose"
    if isinstance(player, OpenPlayer):
        start = time.perf_counter()
        decision: Any = player.expose_open(state) if expose else player.play_open(state)
    else:
        view = view_for(state, seat)
        start = time.perf_counter()
        decision = player.expose(view) if expose else player.play(view)
    if clock is not None:
        clock(seat, time.perf_counter() - start)
    return decision


def run_match(
    seed: int,
    players: Sequence[Player],
    specs: Sequence[str],
    max_hands: int | None = None,
    rules: Rules = DEFAULT_RULES,
) -> dict[str, Any]:
    """One whole match (or ``max_hands`` of it) under ``rules`` as a match-log record."""
    state = new_match(seed, rules)
    hands: list[dict[str, Any]] = []
    while True:
        state, hand_log = play_hand(state, players)
        hands.append(hand_log)
        if state["phase"] == "match_over" or (max_hands is not None and len(hands) >= max_hands):
            break
        state = apply_legal(state, {"type": "next_hand"})
    record: dict[str, Any] = {"seed": seed, "players": list(specs), "rules": rules.to_json(), "hands": hands}
    if state["result"] is not None:
        record["final"] = dict(state["result"])
    else:
        record["final"] = {"complete": False, "totals": list(state["totals"])}
    for player in players:
        notify = getattr(player, "match_end", None)
        if callable(notify):
            notify(list(state["totals"]))
    return record


def play_matches(
    seats: Seats,
    matches: int,
    seed: int,
    out: IO[str],
    max_hands: int | None = None,
    rules: Rules = DEFAULT_RULES,
) -> int:
    """Play ``matches`` matches (seeds ``seed``, ``seed + 1``, …), one log line each, flushed as it ends."""
    for number in range(matches):
        match_seed = seed + number
        record = run_match(match_seed, seats.for_match(match_seed), seats.specs, max_hands, rules)
        out.write(json.dumps(record, separators=(",", ":")) + "\n")
        out.flush()
    return matches


def simulate(
    specs: Sequence[str],
    matches: int,
    seed: int,
    out: IO[str],
    max_hands: int | None = None,
    bot_timeout: float = DEFAULT_TIMEOUT,
    rules: Rules = DEFAULT_RULES,
) -> int:
    """:func:`play_matches` with the players of ``specs``, their bots stopped at the end."""
    with Seats(specs, bot_timeout) as seats:
        return play_matches(seats, matches, seed, out, max_hands, rules)
