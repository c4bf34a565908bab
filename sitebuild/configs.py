"""The PyScript configurations as shipped: ``pyscript.toml`` with its ``[files]`` table and
``engine-worker.json``, written whole."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .paths import MAIN_CONFIG, ROOT, WORKER_CONFIG_SHIPPED, WORKER_INTERPRETER, BuildError


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
    """``pyscript.toml`` as it is plus its ``[files]`` table; ``engine-worker.json``: the engine's
    interpreter, files and the page's ``plugins`` (from ``pyscript.toml``).

    The engine's configuration is also index.html's ``<py-config>``: no ``py`` script runs on the
    page, yet without a ``py`` configuration listing the plugins off PyScript fetches every ``py``
    plugin chunk (404s; checked in Chromium). JSON, which needs no parser chunk.
    """
    text, main = _read_config(MAIN_CONFIG)
    lines = [
        f"{json.dumps(url)} = {json.dumps(path)}"
        for url, path in _files_table(dist, MAIN_CONFIG, main, ui_files).items()
    ]
    table = "\n# Written by build.py: the modules this interpreter loads.\n[files]\n" + "\n".join(lines)
    (dist / MAIN_CONFIG).write_text(text.rstrip("\n") + "\n" + table + "\n", encoding="utf-8")

    engine = {"interpreter": WORKER_INTERPRETER}
    files = _files_table(dist, WORKER_CONFIG_SHIPPED, engine, engine_files)
    data = {**engine, "plugins": main.get("plugins", []), "files": files}
    (dist / WORKER_CONFIG_SHIPPED).write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
