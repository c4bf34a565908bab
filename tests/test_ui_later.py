"""The UI modules the saved table does not need (ui/core/later.py): not imported before the table is
drawn, imported on first use (a panel opened before ``later.import_rest`` got to it), then all."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from ui.core import later
from ui.view import chart

ROOT = Path(__file__).resolve().parents[1]


def table_modules() -> list[str]:
    """The UI modules ``ui/main.py`` imports before it draws the table (its ``load_modules``)."""
    tree = ast.parse((ROOT / "ui" / "main.py").read_text(encoding="utf-8"))
    load = next(n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef) and n.name == "load_modules")
    return [
        n.module.removeprefix("ui.") + "." + a.name
        for n in ast.walk(load)
        if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("ui.")
        for a in n.names
    ]


#: Run in a fresh interpreter: import what ui/main.py imports before the paint (PyScript's module
#: stood in for), draw a resumed table, then use each later part; print what was imported when.
SCRIPT = """
import asyncio, json, sys, types

class Anything:  # (PyScript's window and document: only called, never read back, by these steps)
    def __getattr__(self, name):
        return Anything()

    def __call__(self, *args, **kwargs):
        return Anything()

window = Anything()
window.Math = types.SimpleNamespace(random=lambda: 0.25)
pyscript = types.ModuleType("pyscript")
pyscript.window, pyscript.document = window, Anything()
pyscript.ffi = types.ModuleType("pyscript.ffi")
pyscript.ffi.create_proxy = lambda f: f
sys.modules["pyscript"], sys.modules["pyscript.ffi"] = pyscript, pyscript.ffi

from tests.support.replay import op, play_out
import importlib
for name in NAMES:
    importlib.import_module("ui." + name)
from ui.shell import app
from ui.core import flow, later
from ui.view import render
from ui.core.state import UIState

def deferred():
    return sorted(n for step in later.STEPS for n in step if "ui." + n in sys.modules)

out = {"after_import": deferred()}
s = app.s
flow.resume(s, {"state": None, "view": op("new_match", seed=3)["view"], "hand_level": "normal",
                "bots_exposed": False, "hold": False, "speed": False, "selected": None, "expose_sel": []})
table = render.regions(s)
out["after_table"] = deferred()
out["table_has_hand"] = "data-card" in table["hand"]
s.stats.record = later.load("features.record").Record()  # (what opening the panel reads first: ReadRecord)
s.screen.panel = "statistics"
out["statistics"] = 'data-testid="statistics"' in render.regions(s)["overlay"]
s.screen.panel = None
s.screen.sheet = True
sheet = render.regions(s)["sheet"]
out["menu"] = [t for t in ("open-daily", "open-statistics") if 'data-testid="' + t + '"' in sheet]
s.screen.sheet = False
summary = UIState()
summary.link.engine_ready = True
summary.table.view = play_out(op("new_match", seed=5), lambda v: v["phase"] == "hand_over")["view"]
overlay = render.regions(summary)["overlay"]
out["summary"] = [t for t in ("hand-summary", "match-chart", "summary-statistics", "review-hand")
                  if 'data-testid="' + t + '"' in overlay]
asyncio.run(later.import_rest())
out["after_rest"] = deferred()
print(json.dumps(out))
"""


def run_fresh() -> dict[str, Any]:
    script = SCRIPT.replace("NAMES", repr(table_modules()))
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_table_is_drawn_without_the_later_modules_and_each_later_part_still_works() -> None:
    assert "shell.app" in table_modules() and "view.render" in table_modules()
    out = run_fresh()
    assert out["after_import"] == []  # nothing of the review, statistics, daily deal... before the paint
    assert out["after_table"] == [] and out["table_has_hand"]  # nor to draw the resumed table
    # opened before import_rest got to them: imported on first use, drawn as ever
    assert out["statistics"]
    assert out["menu"] == ["open-daily", "open-statistics"]
    assert out["summary"] == ["hand-summary", "match-chart", "summary-statistics", "review-hand"]
    everything = sorted(n for step in later.STEPS for n in step)
    assert out["after_rest"] == everything
    assert all((ROOT / "ui" / (name.replace(".", "/") + ".py")).exists() for name in everything)


def test_a_deferred_module_is_the_module_itself_once_read() -> None:
    stand_in = later.Deferred("view.chart")
    assert stand_in.chart_html is chart.chart_html
    assert later.load("view.chart") is chart
    try:
        stand_in.no_such_thing  # noqa: B018
    except AttributeError:
        pass
    else:
        raise AssertionError("a missing attribute of a deferred module must raise AttributeError")
