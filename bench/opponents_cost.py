"""What each way of modelling the opponents costs Hard per decision, in CPython (the browser budget's share).

    python bench/opponents_cost.py [--deals 4] [--styles normal,cautious+aggressive,noisy] [--models …]
    python bench/opponents_cost.py --styles selfish --models hard-learned

The same play decisions (every position with a choice in the first eight tricks of hand 1 of
``--deals`` deals, the table played by one style in every seat; bench/panel.py) are decided by Hard
at its browser budget with each world model (gongzhu/ai/worlds.py, by the names of bench/variants.py;
``--models``, all by default; any other variant of bench/variants.py by its name, valuing the hand
margin; a style of bench/able.py too), and the CPU time of each is given as a ratio to the game's
(``gongzhu.ai.config.HARD``).  The work is a fixed number of simulated plays each way, so the ratio is
what a model adds; the browser decision time (bench/browser_ai.py) scales with it.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from able import register_able
from panel import style_player
from playouts import percentile
from variants import VARIANTS, WORLD_MODELS

from gongzhu import new_match, view_for
from gongzhu.ai.config import HARD, HARD_MARGIN, HardConfig
from gongzhu.ai.hard import choose_play
from gongzhu.game import apply_legal

#: The game's world model, by its name in bench/variants.py.
GAME = next(name for name, model in WORLD_MODELS.items() if model == HARD.worlds)


def style_positions(style: str, deals: int, later: bool = False) -> list[dict[str, Any]]:
    """Play-phase views with a choice, tricks 1–8 of hand 1 (``later``: of hand 2, after hand 1), with
    ``style`` in every seat."""
    views = []
    for seed in range(deals):
        state = new_match(500 + seed)
        players = [style_player(style, seed, s) for s in range(4)]
        for hand in (1, 2) if later else (1,):
            for s in range(4):
                if state["expose_choices"][s] is None:
                    state = apply_legal(state, {"type": "expose", "seat": s, "cards": []})
            while state["phase"] == "play":
                view = view_for(state, state["turn"])
                if len(view["legal"]) > 1 and len(state["tricks"]) < 8 and hand == (2 if later else 1):
                    views.append(view)
                card = players[state["turn"]].play(view)
                state = apply_legal(state, {"type": "play", "seat": state["turn"], "card": card})
            if later and hand == 1:
                state = apply_legal(state, {"type": "next_hand"})
    return views


def decider(name: str) -> HardConfig:
    """The Hard a model or variant name decides by, valuing the hand margin."""
    if name in WORLD_MODELS:
        return replace(HARD_MARGIN, worlds=WORLD_MODELS[name])
    return replace(VARIANTS[name], match_aware=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--styles", default="normal,cautious+aggressive,noisy")
    parser.add_argument("--later", action="store_true", help="the positions of hand 2 (Hard judges hand 1)")
    parser.add_argument(
        "--models", default=",".join(WORLD_MODELS), help="the world models to time, comma-separated"
    )
    args = parser.parse_args()
    register_able()
    models = [GAME] + [m for m in args.models.split(",") if m != GAME]
    configs = {name: decider(name) for name in models}
    for style in args.styles.split(","):
        views = style_positions(style, args.deals, args.later)
        seconds: dict[str, list[float]] = {mode: [] for mode in models}
        for view in views:
            for mode in models:
                start = time.process_time()
                choose_play(view, 1, configs[mode])
                seconds[mode].append(time.process_time() - start)
        print(f"{style}: {len(views)} decisions, CPU time (ms)")
        for mode, values in seconds.items():
            ratio = sum(values) / sum(seconds[GAME])
            print(
                f"  {mode:14s} p50 {1000 * percentile(values, 0.5):6.1f}  p95 {1000 * percentile(values, 0.95):6.1f}"
                f"  total / the game's ({GAME}) {ratio:.3f}"
            )


if __name__ == "__main__":
    main()
