"""Train the learned play model (``gongzhu/ai/learned.py``) from this engine's own games.

    PYTHONPATH=. python3 bench/train_play_model.py --hands 300 --jobs 2 --games GAMES.json

writes ``gongzhu/ai/play_weights.py`` (``--out``), the model's weights as data.

The games: the first hand of the matches of seeds ``--seed`` … ``--seed + hands - 1``, four copies
of the game's Hard at ``--budget`` simulated plays a decision (a quarter of the game's by default, so
the data takes minutes), exposures included.  Every play with a choice is one example: the features
of each legal card as the player saw it (its own hand, the table), and the card it chose.  The
hands of seeds whose number is a multiple of ten are held out, and the log-likelihood per play there
is printed beside Normal's (its card with slips) and any card's.

The model: one softmax regression per situation (leading, following suit, discarding), fitted by
full-batch gradient descent (Adam, ``--rounds`` steps, an L2 penalty of ``--l2``).  Everything is
seeded, so the same arguments write the same file.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gongzhu import new_match, view_for
from gongzhu.ai.config import HARD
from gongzhu.ai.hard import HardPlayer
from gongzhu.ai.heuristic import normal_play
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.learned import FEATURES, SITUATION_COUNT, card_features, row_chances
from gongzhu.ai.sim import situation
from gongzhu.cards import INDEX, to_mask
from gongzhu.game import apply_legal

#: One play: its situation, each legal card's features, and the index of the chosen one among them.
Example = tuple[int, list[list[float]], int]


def hand_examples(seed: int, budget: int) -> list[Example]:
    """The plays with a choice of the first hand of match ``seed``, four Hards at ``budget``."""
    config = replace(HARD, budget=budget)
    players = [HardPlayer(seed, s, config) for s in range(4)]
    state = new_match(seed)
    for seat in range(4):
        if state["expose_choices"][seat] is None:
            cards = players[seat].expose(view_for(state, seat))
            state = apply_legal(state, {"type": "expose", "seat": seat, "cards": cards})
    examples: list[Example] = []
    while state["phase"] == "play":
        seat = state["turn"]
        view = view_for(state, seat)
        card = players[seat].play(view)
        if len(view["legal"]) > 1:
            table = read_view(view).table()
            legal = to_mask(view["legal"])
            rows = card_features(table, seat, legal, normal_play(table, seat, legal))
            chosen = [c for c, _ in rows].index(INDEX[card])
            examples.append((situation(table, legal), [f for _, f in rows], chosen))
        state = apply_legal(state, {"type": "play", "seat": seat, "card": card})
    return examples


def log_likelihood(weights: list[float], examples: list[Example]) -> float:
    """The mean log chance the model gives the chosen cards."""
    total = 0.0
    for where, rows, chosen in examples:
        total += math.log(row_chances(weights, where, rows)[chosen])
    return total / len(examples)


def fit(examples: list[Example], rounds: int, l2: float, rate: float = 0.05) -> list[float]:
    """The weights of a softmax regression per situation (Adam on the mean negative log-likelihood)."""
    n = len(FEATURES)
    weights = [0.0] * (SITUATION_COUNT * n)
    m = [0.0] * len(weights)
    v = [0.0] * len(weights)
    b1, b2, eps = 0.9, 0.999, 1e-8
    for step in range(1, rounds + 1):
        grad = [l2 * w for w in weights]
        for where, rows, chosen in examples:
            start = where * n
            p = row_chances(weights, where, rows)
            scale = 1.0 / len(examples)
            for i, f in enumerate(rows):
                g = (p[i] - (1.0 if i == chosen else 0.0)) * scale
                if g:
                    for j, x in enumerate(f):
                        if x:
                            grad[start + j] += g * x
        for j, g in enumerate(grad):
            m[j] = b1 * m[j] + (1 - b1) * g
            v[j] = b2 * v[j] + (1 - b2) * g * g
            weights[j] -= rate * (m[j] / (1 - b1**step)) / (math.sqrt(v[j] / (1 - b2**step)) + eps)
    return weights


def baselines(examples: list[Example]) -> tuple[float, float]:
    """The mean log chance of the chosen cards for any legal card alike, and for Normal's card
    slipping to another 2% of the time."""
    uniform = normal = 0.0
    for _where, rows, chosen in examples:
        uniform -= math.log(len(rows))
        normal += math.log(0.98) if rows[chosen][0] else math.log(0.02 / (len(rows) - 1))
    return uniform / len(examples), normal / len(examples)


WEIGHTS_PATH = Path(__file__).resolve().parent.parent / "gongzhu" / "ai" / "play_weights.py"


def weights_source(weights: list[float], trained: dict[str, Any]) -> str:
    """The source of ``gongzhu/ai/play_weights.py``: the features, the weights and how they were trained."""
    lines = [
        '"""The learned play model\'s weights (:mod:`gongzhu.ai.learned`): data written by',
        f'``{trained["command"]}``; do not edit."""',
        "",
        "from typing import Any",
        "",
        "#: the features the weights are for, in order",
        f"FEATURES = {tuple(FEATURES)!r}",
        "#: one weight per situation (lead, follow, discard) and feature, situation-major",
        "WEIGHTS = (",
        *(
            f"    {', '.join(repr(round(w, 6)) for w in weights[s * len(FEATURES) : (s + 1) * len(FEATURES)])},"
            for s in range(SITUATION_COUNT)
        ),
        ")",
        "#: how they were trained, and how well they explain the held-out plays (mean log chance a play)",
        f"TRAINED: dict[str, Any] = {trained!r}",
        "",
    ]
    return "\n".join(lines)


def settings(argv: list[str]) -> list[str]:
    """The command line's arguments but where the plays are kept (``--games``: a cache, not a setting)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--games":
            skip = True
        elif not arg.startswith("--games="):
            kept.append(arg)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7000, help="the first match's seed")
    parser.add_argument(
        "--budget", type=int, default=HARD.budget // 4, help="the Hards' simulated plays a decision"
    )
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--l2", type=float, default=1e-3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=WEIGHTS_PATH)
    parser.add_argument(
        "--games", type=Path, help="keep the plays in this JSON file, and read them from it when it exists"
    )
    args = parser.parse_args()

    seeds = list(range(args.seed, args.seed + args.hands))
    if args.games and args.games.exists():
        played = json.loads(args.games.read_text(encoding="utf-8"))
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            played = list(pool.map(hand_examples, seeds, [args.budget] * len(seeds)))
        if args.games:
            args.games.write_text(json.dumps(played), encoding="utf-8")
    train = [e for seed, ex in zip(seeds, played, strict=True) if seed % 10 for e in ex]
    held = [e for seed, ex in zip(seeds, played, strict=True) if not seed % 10 for e in ex]
    weights = fit(train, args.rounds, args.l2)
    uniform, normal = baselines(held)
    model = log_likelihood(weights, held)
    print(f"{len(train)} plays to train on, {len(held)} held out")
    print(
        f"held-out log-likelihood a play: model {model:.3f}, Normal's card {normal:.3f}, any card {uniform:.3f}"
    )
    trained = {
        "command": " ".join(["PYTHONPATH=. python3 bench/train_play_model.py", *settings(sys.argv[1:])]),
        "hands": args.hands,
        "seed": args.seed,
        "budget": args.budget,
        "rounds": args.rounds,
        "l2": args.l2,
        "plays": len(train),
        "held_out_plays": len(held),
        "held_out_log_likelihood": {
            "model": round(model, 4),
            "normal": round(normal, 4),
            "any": round(uniform, 4),
        },
    }
    args.out.write_text(weights_source(weights, trained), encoding="utf-8")


if __name__ == "__main__":
    main()
