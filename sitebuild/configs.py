"""The PyScript configurations as shipped: ``pyscript.toml`` with its ``[files]`` table and
``engine-worker.json``, written whole; the main thread's modules as one file.

The UI's ~50 modules ship as one JSON file (``ui-modules.json``), which ``ui/main.py`` writes out
into MicroPython's file system before it imports any. Over HTTP/1.1 a browser opens six connections
to a site, so fifty small files cost about nine round trips one after the other: measured through
``bench/load.py`` on 2026-12-06, the UI's modules were the last of the first paint's files to arrive,
3.1 s into a first visit at 2 Mbit/s and 150 ms. (PyScript's own archive form, a zip in ``[files]``,
needs its 160 kB zip reader: bench/results/first-visit.md.)"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .paths import MAIN_CONFIG, ROOT, UI_MODULES, WORKER_CONFIG_SHIPPED, WORKER_INTERPRETER, BuildError


def _read_config(name: str) -> tuple[str, dict[str, Any]]:
    """A top-level PyScript configuration: its text and its data (``[files]`` is the build's)."""
    text = (ROOT / name).read_text(encoding="utf-8")
    try:
        config = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BuildError(f"{name}: {exc}") from exc
    if "files" in config:
        raise BuildError(f"{name}: [files] is computed by build.py; remove it from the file")
    return text, config


def _files_table(dist: Path, name: str, config: dict[str, Any], files: Sequence[str]) -> dict[str, str]:
    """PyScript ``files`` entries (site URL relative to the configuration -> the same path in the
    virtual file system); checks first that the interpreter the configuration names is shipped."""
    interpreter = str(config.get("interpreter", ""))
    if not (dist / interpreter).is_file():
        raise BuildError(f"{name}: interpreter {interpreter!r} is not shipped")
    return {f"./{p}": f"./{p}" for p in files}


def write_pyscript_configs(dist: Path, ui_files: Sequence[str], engine_files: Sequence[str]) -> None:
    """``pyscript.toml`` as it is plus its ``[files]`` table (:data:`UI_MODULES`, which holds
    ``ui_files``); ``engine-worker.json``: the engine's
    interpreter, files and the page's ``plugins`` (from ``pyscript.toml``).

    The engine's configuration is also index.html's ``<py-config>``: no ``py`` script runs on the
    page, yet without a ``py`` configuration listing the plugins off PyScript fetches every ``py``
    plugin chunk (404s; checked in Chromium). JSON, which needs no parser chunk.
    """
    text, main = _read_config(MAIN_CONFIG)
    modules = {path: (dist / path).read_text(encoding="utf-8") for path in sorted(ui_files)}
    (dist / UI_MODULES).write_text(
        json.dumps(modules, ensure_ascii=False, separators=(",", ":")), encoding="utf-8"
    )
    for path in modules:  # only in the bundle now, unless the engine worker loads it too
        if path not in engine_files:
            (dist / path).unlink()
    for folder in sorted({(dist / path).parent for path in modules}, key=lambda p: -len(p.parts)):
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    lines = [
        f"{json.dumps(url)} = {json.dumps(path)}"
        for url, path in _files_table(dist, MAIN_CONFIG, main, [UI_MODULES]).items()
    ]
    table = (
        "\n# Written by build.py: the modules this interpreter loads, as one file (ui/main.py unpacks it).\n"
        "[files]\n" + "\n".join(lines)
    )
    (dist / MAIN_CONFIG).write_text(text.rstrip("\n") + "\n" + table + "\n", encoding="utf-8")

    engine = {"interpreter": WORKER_INTERPRETER}
    files = _files_table(dist, WORKER_CONFIG_SHIPPED, engine, engine_files)
    data = {**engine, "plugins": main.get("plugins", []), "files": files}
    (dist / WORKER_CONFIG_SHIPPED).write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
