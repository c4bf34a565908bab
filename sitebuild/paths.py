"""Where the build reads and writes, and what every step of it shares."""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

DIST = ROOT / "dist"

NODE_MODULES = ROOT / "node_modules"

WEB = ROOT / "web"

#: The page and its PyScript configurations: readable sources at the top of the repository.
PAGE = "index.html"

MAIN_CONFIG = "pyscript.toml"

#: The main thread's modules as one file (``{path: source}``), unpacked by ``ui/main.py`` before it
#: imports any: one request instead of one per module (sitebuild/configs.py).
UI_MODULES = "ui-modules.json"

#: What web/engine-worker.js loads (and index.html as the ``py`` type's main-thread configuration).
WORKER_CONFIG_SHIPPED = "engine-worker.json"

#: The engine worker's Pyodide, as ``engine-worker.json`` names it.
WORKER_INTERPRETER = "./runtime/pyodide/pyodide.mjs"

#: Python packages shipped into the site (copied as ``.py`` source files).
PY_PACKAGES: tuple[str, ...] = ("gongzhu", "ui")

#: Entry scripts (loaded by ``<script src>``, so not repeated in the ``files`` lists).
MAIN_ENTRY = "ui/main.py"

WORKER_ENTRY = "ui/engine_worker.py"

#: The engine's files the main thread loads too, beside ``ui/``: the vocabulary both runtimes speak
#: (``gongzhu/vocab.py``: plain data, MicroPython-safe). Alone in the main thread's ``gongzhu``
#: folder, without its ``__init__.py``: ``from gongzhu import vocab`` there imports nothing else.
MAIN_THREAD_ENGINE: tuple[str, ...] = ("gongzhu/vocab.py",)


class BuildError(RuntimeError):
    """The site could not be assembled."""


def log(message: str) -> None:
    print(f"[build] {message}", file=sys.stderr, flush=True)


def copy_file(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def content_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
