"""The engine's standard library: Pyodide's ``python_stdlib.zip`` shipped with only the modules the
engine worker imports (``engine-stdlib.txt``, written by a probe of the engine in Node)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .engine import engine_modules, imported_modules
from .node import BOOT_ENGINE_JS, run_engine_js
from .paths import NODE_MODULES, ROOT, BuildError

#: Pyodide's standard library zip, shipped with only the modules the engine worker imports.
STDLIB_ZIP = "python_stdlib.zip"

#: The standard library files the engine worker imports at run time: Pyodide's own bootstrap, the
#: engine, making and restoring its memory snapshot, and every op of ``gongzhu.service``.
#: Written by ``python3 build.py --engine-stdlib`` (Pyodide in Node, :data:`STDLIB_PROBE_JS`).
#: Beside the tools that generate the build's other inputs; not shipped.
ENGINE_STDLIB = "tools/engine-stdlib.txt"

#: The standard library files micropip adds to :data:`ENGINE_STDLIB` when the engine ships as a wheel
#: that micropip installs at boot (``sitebuild.wheels``). Written by the same probe, run twice.
MICROPIP_STDLIB = "tools/micropip-stdlib.txt"

_MICROPIP_STDLIB_HEADER = """\
# The standard library files micropip imports beyond tools/engine-stdlib.txt (one per line): built
# with --engine-as wheel, the engine's boot installs the engine's wheel with micropip
# (sitebuild/wheels.py), so build.py ships these too. Written by `python3 build.py --engine-stdlib`,
# which probes the boot both ways.
"""

_ENGINE_STDLIB_HEADER = """\
# The standard library files the engine worker imports at run time (one per line): Pyodide's
# bootstrap, the engine (gongzhu.service and what it imports), making and restoring the engine's
# memory snapshot, and every op of gongzhu.service. build.py ships python_stdlib.zip with only
# these (2.5 MB -> ~0.8 MB). Written by `python3 build.py --engine-stdlib`; the build fails when
# an engine module imports a standard module missing here.
"""

#: :data:`BOOT_ENGINE_JS`, then: make and restore the snapshot, run :data:`STDLIB_PROBE_OPS` and
#: print the sorted paths (in the zip) of the modules it loaded, as JSON.
STDLIB_PROBE_JS = (
    BOOT_ENGINE_JS
    + r"""
const FROM_ZIP = "sorted({f.split('.zip/')[1] for m in list(sys.modules.values()) if '.zip/' in (f := getattr(m, '__file__', None) or '')})";
const booted = first.runPython(`import sys; ${FROM_ZIP}`).toJs();
const snapshot = first.makeMemorySnapshot();
const second = await restore(snapshot);
second.runPython(config.ops);
const restored = second.runPython(`import sys; ${FROM_ZIP}`).toJs();
console.log(JSON.stringify([...new Set([...booted, ...restored])].sort()));
"""
)

#: Python run in the restored engine by the probe: every op of the service, the error paths too.
STDLIB_PROBE_OPS = """
import json
from gongzhu.ai import LEVELS
from gongzhu.service import OPS, call

def ask(op, **args):
    reply = json.loads(call(json.dumps({"op": op, "args": args})))
    return reply.get("result") if reply["ok"] else None

used = {"ping", "new_match", "daily", "check", "bots_expose", "bot_step", "step", "hint", "review", "coach"}
used.add("check_reviews")
used |= {"lesson_start", "lesson_check", "lesson_resume"}
assert used == set(OPS), sorted(set(OPS) ^ used)
ask("ping", text="x")
call("not json")
ask("nope")
ask("check", state={"bad": 1})
ask("daily", date="2026-01-31")
for level in LEVELS:  # each level decides an expose and two plays; the hand is played out by Easy
    state = json.loads(ask("new_match", seed=len(level))["state"])
    ask("hint", state=state)
    state = json.loads(ask("bots_expose", state=state, level=level)["state"])
    state = json.loads(ask("step", state=state, action={"type": "expose", "seat": 0, "cards": []})["state"])
    ask("step", state=state, action={"type": "play", "seat": 0, "card": "XX"})
    for move in range(60):
        if state["phase"] != "play":
            break
        if move < 2:
            ask("hint", state=state)
        mover = level if move < 2 else LEVELS[0]
        state = json.loads(ask("bot_step", state=state, seat=state["turn"], level=mover)["state"])
    assert state["phase"] == "hand_over", state["phase"]
    ask("check", state=state)
    ask("review", state=state)
    ask("coach", state=state, index=0)
    ask("check_reviews", table=state, hands=[{"bad": 1}])
lesson = ask("lesson_start", lesson=6)
ask("lesson_check", lesson=6, state=lesson["state"])
ask("lesson_resume", lesson=6, state=lesson["state"])
"""


def read_engine_stdlib(root: Path = ROOT, name: str = ENGINE_STDLIB) -> list[str]:
    lines = (root / name).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def _stdlib_member(names: set[str], module: str) -> str | None:
    path = module.replace(".", "/")
    for candidate in (f"{path}.py", f"{path}/__init__.py"):
        if candidate in names:
            return candidate
    return None


def trim_stdlib(source: Path, dest: Path, members: Sequence[str]) -> None:
    """Write ``dest``: the zip ``source`` with only ``members`` (and their packages' directories),
    copied as they are (same compression), in the source's order."""
    import zipfile

    with zipfile.ZipFile(source) as zin:
        names = set(zin.namelist())
        keep: set[str] = set()
        for member in members:
            if member not in names:
                raise BuildError(f"{ENGINE_STDLIB}: {member} is not in Pyodide's {STDLIB_ZIP}")
            keep.add(member)
            parts = member.split("/")[:-1]
            keep.update("/".join(parts[: i + 1]) + "/" for i in range(len(parts)))
        with zipfile.ZipFile(dest, "w") as zout:
            for info in zin.infolist():
                if info.filename in keep:
                    zout.writestr(info, zin.read(info), compress_type=info.compress_type)


def check_engine_stdlib(modules: Sequence[str], listed: Sequence[str], stdlib: Path) -> None:
    """Every standard module the engine's sources import has its file (a member of the zip
    ``stdlib``) in ``listed``, else the build fails: a new import must be probed first."""
    import ast
    import zipfile

    with zipfile.ZipFile(stdlib) as zin:
        names = set(zin.namelist())
    missing: set[str] = set()
    for module in modules:
        path = ROOT / module.replace(".", "/")
        source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        package = module if source.name == "__init__.py" else module.rpartition(".")[0]
        for name in imported_modules(ast.parse(source.read_text(encoding="utf-8")), package):
            member = None if name.startswith("gongzhu") else _stdlib_member(names, name)
            if member and member not in listed:
                missing.add(f"{module} imports {name}")
    if missing:
        raise BuildError(
            f"{ENGINE_STDLIB} lacks what the engine imports ({'; '.join(sorted(missing))}): "
            "run python3 build.py --engine-stdlib"
        )


def probe_engine_stdlib(stdlib: Path, wheels: dict[str, Any] | None = None) -> list[str]:
    """Run the engine in Pyodide in Node with the standard library zip ``stdlib``
    (:data:`STDLIB_PROBE_JS`); the modules it loaded from the zip. ``wheels``: the engine installed
    from wheels (as ``run_engine_js`` takes them) instead of its files. Raises on any failure."""
    done = run_engine_js(STDLIB_PROBE_JS, stdlib, "engine stdlib probe", wheels, ops=STDLIB_PROBE_OPS)
    return [str(name) for name in json.loads(done.strip().splitlines()[-1])]


def write_engine_stdlib() -> list[str]:
    """``python3 build.py --engine-stdlib``: probe the engine with Pyodide's whole standard library,
    booted from its files and from its wheels, and write the modules it loaded into
    :data:`ENGINE_STDLIB` and the ones micropip adds into :data:`MICROPIP_STDLIB`."""
    import tempfile

    from .snapshot import on_disk
    from .wheels import ship_wheels

    whole = NODE_MODULES / "pyodide" / STDLIB_ZIP
    modules = probe_engine_stdlib(whole)
    with tempfile.TemporaryDirectory(prefix="gongzhu-wheels-") as tmp:
        wheels = on_disk(Path(tmp), ship_wheels(Path(tmp)))
        extra = sorted(set(probe_engine_stdlib(whole, wheels)) - set(modules))
    (ROOT / ENGINE_STDLIB).write_text(_ENGINE_STDLIB_HEADER + "\n".join(modules) + "\n", encoding="utf-8")
    (ROOT / MICROPIP_STDLIB).write_text(_MICROPIP_STDLIB_HEADER + "\n".join(extra) + "\n", encoding="utf-8")
    return modules


def ship_engine_stdlib(dist: Path, wheels: bool) -> None:
    """Replace the shipped ``python_stdlib.zip`` with the engine's trimmed one (``wheels``: with
    what micropip imports too)."""
    shipped = dist / "runtime" / "pyodide" / STDLIB_ZIP
    listed = read_engine_stdlib() + (read_engine_stdlib(name=MICROPIP_STDLIB) if wheels else [])
    check_engine_stdlib(engine_modules(), listed, shipped)
    trimmed = shipped.with_suffix(".trimmed")
    trim_stdlib(shipped, trimmed, listed)
    trimmed.replace(shipped)
