"""bench/panel.py and bench/able.py: the opponent panels' styles play legally and differently from Normal."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from gongzhu import new_match, view_for
from gongzhu.game import apply_legal
from gongzhu.players import make_player

from .support.bench import bench_module

panel = bench_module("panel")
able = bench_module("able")


def _play_hand(seed: int, players: list[Any], seen: list[tuple[dict[str, Any], str]] | None = None) -> None:
    """One whole hand; every answer must be legal (the engine would refuse it)."""
    state = new_match(seed)
    for seat in range(4):
        if state["expose_choices"][seat] is None:
            view = view_for(state, seat)
            cards = players[seat].expose(view)
            assert set(cards) <= set(view["exposable"])
            state = apply_legal(state, {"type": "expose", "seat": seat, "cards": cards})
    while state["phase"] == "play":
        view = view_for(state, state["turn"])
        card = players[state["turn"]].play(view)
        assert card in view["legal"], (players[state["turn"]], card, view["legal"])
        if seen is not None and len(view["legal"]) > 1:
            seen.append((view, card))
        state = apply_legal(state, {"type": "play", "seat": state["turn"], "card": card})


def test_every_panel_style_plays_legal_cards_on_many_hands() -> None:
    for name in panel.PANEL:
        for seed in range(30):
            _play_hand(2000 + seed, [panel.style_player(name, seed, s) for s in range(4)])


def test_each_style_plays_differently_from_normal_and_from_the_others() -> None:
    panel.register_panel()
    views = panel.fixed_positions()
    assert len(views) > 500
    rates: dict[tuple[str, str], float] = {}
    styles = ["normal", "cautious", "aggressive", "noisy", "easy"]
    for i, a in enumerate(styles):
        for b in styles[i + 1 :]:
            rates[a, b] = panel.disagreement(a, b, views)
    for b in styles[1:]:
        assert rates["normal", b] >= 0.25, (b, rates["normal", b])
    for pair, rate in rates.items():
        assert rate >= 0.1, (pair, rate)


def test_a_mixed_table_seats_its_two_styles_alternately() -> None:
    players = [panel.style_player("cautious+aggressive", 1, s) for s in range(4)]
    assert [p.name for p in players] == ["cautious", "aggressive", "cautious", "aggressive"]
    assert type(panel.style_player("noisy+easy", 1, 1)).__name__ == "EasyPlayer"


def test_the_panel_styles_are_specs_of_a_tournament_once_registered() -> None:
    import gongzhu.tournament as tournament

    panel.register_panel()
    result = tournament.play_deal("normal", "cautious+aggressive", 1, 0)
    assert len(result.margins) == 4 and len(result.decision_times) > 0


def test_a_stopped_panel_run_resumes_and_tabulates_every_style(tmp_path: Path) -> None:
    """bench/strength.py --panel --log DIR plays every deal for every style and challenger once, skips
    what the logs hold (a run stopped for time resumes), and --from-log DIR tabulates the panel."""
    import dataclasses
    import json
    import os
    import subprocess

    import gongzhu.tournament as tournament

    panel.register_panel()
    first = tournament.play_deal("normal", "cautious", 1, 1)
    (tmp_path / "normal-vs-cautious.jsonl").write_text(json.dumps(dataclasses.asdict(first)) + "\n")
    root = Path(__file__).parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = [sys.executable, "bench/strength.py", "--panel", "--challengers", "normal,easy"]
    command += ["--styles", "cautious,noisy+easy", "--deals", "3"]
    for part in ("0/2", "1/2"):
        subprocess.run([*command, "--log", str(tmp_path), "--part", part], cwd=root, check=True, env=env)
    for challenger in ("normal", "easy"):
        for style in ("cautious", "noisy+easy"):
            lines = (tmp_path / f"{challenger}-vs-{style}.jsonl").read_text().splitlines()
            assert sorted(json.loads(line)["deal"] for line in lines) == [0, 1, 2]
    lines = (tmp_path / "normal-vs-cautious.jsonl").read_text().splitlines()
    assert json.loads(lines[0]) == dataclasses.asdict(first)
    by_deal = {json.loads(line)["deal"]: json.loads(line)["margins"] for line in lines}
    assert by_deal[2] == tournament.play_deal("normal", "cautious", 1, 2).margins
    table = subprocess.run(
        [*command, "--from-log", str(tmp_path)], cwd=root, check=True, env=env, capture_output=True, text=True
    ).stdout
    assert "| cautious | 3, " in table and "| noisy+easy | 3, " in table
    assert "| **panel mean** | +" in table or "| **panel mean** | -" in table
    assert "(3) |" in table  # the paired difference, easy − normal, on the three deals


# --- the able panel ---------------------------------------------------------------------------


def test_every_able_style_plays_legal_cards_and_exposures() -> None:
    able.register_able()
    for name in able.ABLE_PANEL:
        for seed in range(3):
            _play_hand(2100 + seed, [make_player(name, seed, s) for s in range(4)])


def test_each_able_style_plays_otherwise_than_normal_on_a_third_of_the_positions() -> None:
    """The issue's bar: at least 30% disagreement with Normal (the first 200 fixed positions here;
    ``python bench/able.py`` measures all of them)."""
    able.register_able()
    views = panel.fixed_positions()[:200]
    for name in able.ABLE_PANEL:
        assert panel.disagreement("normal", name, views) >= 0.3, name


def test_the_exposer_exposes_more_often_than_normal() -> None:
    able.register_able()
    exposed = {"normal": 0, "exposer": 0}
    for seed in range(40):
        state = new_match(5000 + seed)
        for seat in range(4):
            view = view_for(state, seat)
            for name in exposed:
                exposed[name] += bool(make_player(name, 1, seat).expose(view))
    assert exposed["exposer"] > exposed["normal"], exposed


def test_the_able_styles_are_no_levels_and_play_a_tournament_once_registered() -> None:
    import gongzhu.tournament as tournament
    from gongzhu.ai import LEVELS

    assert not set(able.ABLE_PANEL) & set(LEVELS)
    able.register_able()
    result = tournament.play_deal("normal", "duckers", 1, 0)
    assert len(result.margins) == 4


def test_the_able_styles_read_nothing_into_the_others_plays() -> None:
    """Each able style draws its worlds alike and plays its exposures out with Normal in every seat,
    whatever the game's Hard does with the previous hand (its habits weigh Hard's worlds and exposures)."""
    from gongzhu.ai.worlds import Uniform

    for name, config in able.STYLES.items():
        assert config.expose_judging is None, name
        assert isinstance(config.worlds, Uniform | able.DuckingWorlds), name
