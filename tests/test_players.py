"""The player registry: one list of levels, no import cycle, no swallowed import error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gongzhu import ai, players

ROOT = Path(__file__).resolve().parents[1]


def test_one_list_of_levels_for_the_cli_and_the_browser() -> None:
    assert ai.LEVELS == ("easy", "normal", "hard")
    assert players.PLAYER_LEVELS == ("random", "easy", "normal", "hard")
    for name in players.PLAYER_LEVELS:
        player = players.make_player(name, seed=1, seat=2)
        assert callable(player.play) and callable(player.expose)
    with pytest.raises(players.PlayerSpecError, match="random, easy, normal, hard, cmd:<command>"):
        players.make_player("expert", 1, 0)


def _import_with_broken_ai(module: str) -> subprocess.CompletedProcess[str]:
    """Import ``module`` in a fresh interpreter where importing ``gongzhu.ai`` fails."""
    code = f"import sys; sys.modules['gongzhu.ai'] = None; import {module}"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.parametrize("module", ["gongzhu.players", "gongzhu.cli"])
def test_a_broken_ai_package_fails_loudly(module: str) -> None:
    done = _import_with_broken_ai(module)
    assert done.returncode != 0
    assert "gongzhu.ai" in done.stderr and "ModuleNotFoundError" in done.stderr


def test_the_ai_package_does_not_import_the_registry() -> None:
    """No cycle: gongzhu.ai imports without gongzhu.players."""
    code = "import sys; sys.modules['gongzhu.players'] = None; import gongzhu.ai; print(gongzhu.ai.LEVELS)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "('easy', 'normal', 'hard')"
