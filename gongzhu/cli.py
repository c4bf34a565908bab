"""``python -m gongzhu``: simulate matches, score a hand, run a tournament."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO

from .agent import DEFAULT_TIMEOUT, AgentError, check_timeout
from .cards import EXPOSABLE, CardError, parse_card_list, to_mask
from .game import IllegalAction, InvalidSeed, check_seed
from .house_rules import CHOICES, Rules, RulesError, parse_rules
from .players import PlayerSpecError
from .scoring import score_breakdown
from .simulate import Seats, play_matches, split_player_specs


class UsageError(ValueError):
    """Bad command-line input, reported in one line."""


def _score(args: argparse.Namespace) -> int:
    captured = parse_card_list(args.captured)
    exposed = parse_card_list(args.exposed)
    for card in exposed:
        if card not in EXPOSABLE:
            raise UsageError(f"card cannot be exposed: {card!r} (only {', '.join(EXPOSABLE)} can)")
    result = dict(score_breakdown(to_mask(captured), to_mask(exposed)))
    print(json.dumps({"captured": captured, "exposed": exposed, **result}))
    return 0


def add_bot_timeout(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bot-timeout", type=float, default=DEFAULT_TIMEOUT,
                        help="seconds an outside bot may take per answer")  # fmt: skip


def bot_timeout(args: argparse.Namespace) -> float:
    """``--bot-timeout``, checked: a finite number of seconds above 0."""
    try:
        return check_timeout(args.bot_timeout)
    except ValueError as error:
        raise UsageError(f"--bot-timeout: {error}") from None


def add_rules_argument(parser: argparse.ArgumentParser) -> None:
    keys = ", ".join(f"{key} ({'/'.join(values)})" for key, values in CHOICES.items())
    parser.add_argument("--rules", default="", help=f"house rules KEY=VALUE[,KEY=VALUE...]: {keys}")


def rules_argument(args: argparse.Namespace) -> Rules:
    """``--rules``, checked: a bad key or value is one line naming the choices."""
    try:
        return parse_rules(args.rules)
    except RulesError as error:
        raise UsageError(f"--rules: {error}") from None


def open_log(path: str, force: bool) -> IO[str]:
    """The log file to write; an existing one is overwritten only with ``--force``."""
    try:
        return open(path, "w" if force else "x", encoding="utf-8")
    except FileExistsError:
        raise UsageError(f"log {path!r} already exists; use --force to overwrite it") from None


def _simulate(args: argparse.Namespace) -> int:
    specs = split_player_specs(args.players)
    if len(specs) != 4:
        raise UsageError(f"--players needs 4 comma-separated players, got {len(specs)}: {specs}")
    if args.matches < 0:
        raise UsageError("--matches must be 0 or more")
    if args.max_hands is not None and args.max_hands < 1:
        raise UsageError("--max-hands must be 1 or more")
    try:
        check_seed(args.seed)
        check_seed(args.seed + max(args.matches - 1, 0))  # the last match's seed
    except InvalidSeed as error:
        raise UsageError(f"--seed and --matches: {error}") from None
    rules = rules_argument(args)
    with Seats(specs, bot_timeout(args)) as seats:  # every player checked before the log is touched
        if args.log == "-":
            play_matches(seats, args.matches, args.seed, sys.stdout, args.max_hands, rules)
            return 0
        with open_log(args.log, args.force) as out:
            play_matches(seats, args.matches, args.seed, out, args.max_hands, rules)
    print(f"{args.matches} match(es) written to {args.log}", file=sys.stderr)
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from . import tournament

    return tournament.command(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m gongzhu", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    sim = commands.add_parser("simulate", help="play whole matches and write the match log (JSON Lines)")
    sim.add_argument("--matches", type=int, default=1)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--players", default="random,random,random,random",
                     help="four players: random, easy, normal, hard or cmd:<command>")  # fmt: skip
    sim.add_argument("--log", default="-", help="file to write, '-' for standard output")
    sim.add_argument("--force", action="store_true", help="overwrite the --log file if it exists")
    sim.add_argument("--max-hands", type=int, default=None, help="stop a match after this many hands")
    add_bot_timeout(sim)
    add_rules_argument(sim)
    sim.set_defaults(run=_simulate)

    score = commands.add_parser("score", help="score one player's captured cards")
    score.add_argument("--captured", required=True, help="cards like QS,AH,5H")
    score.add_argument("--exposed", default="", help="every card exposed by anyone, like AH,TC")
    score.set_defaults(run=_score)

    try:
        from . import tournament
    except ImportError:  # pragma: no cover - the AI package is built separately
        pass
    else:
        tour = commands.add_parser("tournament", help="duplicate tournament: challenger against 3 baselines")
        tournament.add_arguments(tour)
        tour.set_defaults(run=_tournament)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except (CardError, UsageError, PlayerSpecError, AgentError, IllegalAction, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
