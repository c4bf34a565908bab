"""The engine as the worker boots it: the modules its entry imports, their files, and the engine
release (everything a memory snapshot of the booted engine depends on) in ``engine-worker.json``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .paths import ROOT, WORKER_CONFIG_SHIPPED, WORKER_ENTRY, content_hash

#: Everything a memory snapshot of the booted engine depends on (besides the engine's sources).
ENGINE_RUNTIME: tuple[str, ...] = ("engine-worker.js", "engine-boot.mjs", "runtime/pyodide")

#: The files of ``runtime/pyodide`` that a boot fetches (``pyodide.mjs`` and ``pyodide.asm.mjs`` are
#: imported as modules): with the engine's sources, the ``download`` a first visit's loading screen
#: counts (web/engine-worker.js).
BOOT_FETCHES: tuple[str, ...] = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")

#: Where the build's snapshot of the booted engine is shipped (gzipped), under its engine release:
#: beside Pyodide's files, so that a first visit's engine hands its download to the service worker
#: like theirs (web/engine-worker.js, web/sw.js). Not part of the release it is made for.
SNAPSHOT_DIR = "runtime/pyodide"

SNAPSHOT_PREFIX = "engine-snapshot-"


def is_snapshot(path: Path) -> bool:
    return path.name.startswith(SNAPSHOT_PREFIX)


def engine_modules(entry: str = WORKER_ENTRY) -> list[str]:
    """The engine modules the worker's entry imports, directly or not (sorted): the worker imports
    them at boot, so that a restored snapshot has them (it has no files)."""
    import ast

    found: set[str] = set()
    todo = ["gongzhu"]
    entry_tree = ast.parse((ROOT / entry).read_text(encoding="utf-8"))
    todo += [n for n in imported_modules(entry_tree, "") if n.startswith("gongzhu")]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = ROOT / name.replace(".", "/")
        source = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        if not source.is_file():
            continue  # a name imported from a module, not a module
        found.add(name)
        package = name if source.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(source.read_text(encoding="utf-8"))
        todo += [n for n in imported_modules(tree, package) if n.startswith("gongzhu")]
    return sorted(found)


def engine_files() -> list[str]:
    """The source files of :func:`engine_modules` (sorted): what the engine worker fetches and writes
    into Pyodide's file system before it imports them, as the build's snapshot maker does."""
    return sorted(
        f"{m.replace('.', '/')}{'/__init__' if (ROOT / m.replace('.', '/')).is_dir() else ''}.py"
        for m in engine_modules()
    )


def imported_modules(tree: Any, package: str) -> list[str]:
    """Every module an AST imports (absolute names; ``from x import y`` gives ``x`` and ``x.y``)."""
    import ast

    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return names


def add_engine_release(dist: Path, engine_files: Sequence[str], wheels: dict[str, Any] | None = None) -> str:
    """Add ``entry`` (the Python module whose ``call`` answers requests), ``modules`` (the engine
    modules it imports, which the worker imports at boot: :func:`engine_modules`), ``release``,
    ``download`` (the bytes a boot fetches: :data:`BOOT_FETCHES`, the engine's sources or wheels)
    and ``wheels`` (the engine as wheels, ``sitebuild.wheels.ship_wheels``; absent when the engine
    ships as its module files, ``engine_files``) to ``engine-worker.json``, for
    ``web/engine-worker.js``; return the release.

    The release hashes everything a memory snapshot of the booted engine depends on: the Pyodide
    runtime (and the wheels, shipped beside it), the worker script, the entry and the engine's
    sources. The worker keeps one snapshot, under this release: a release that changes any of them
    drops the old one.
    """
    inputs = [*engine_files, WORKER_ENTRY]
    for name in ENGINE_RUNTIME:
        path = dist / name
        found = path.rglob("*") if path.is_dir() else [path]
        inputs += [p.relative_to(dist).as_posix() for p in found if p.is_file() and not is_snapshot(p)]
    digest = hashlib.sha256()
    for rel in sorted(set(inputs)):
        digest.update(f"{rel}\0{content_hash(dist / rel)}\n".encode())
    release = digest.hexdigest()[:16]
    config_path = dist / WORKER_CONFIG_SHIPPED
    config = json.loads(config_path.read_text(encoding="utf-8"))
    fetched = [*engine_files, WORKER_ENTRY, *(f"{SNAPSHOT_DIR}/{name}" for name in BOOT_FETCHES)]
    if wheels:
        fetched += [w["url"].removeprefix("./") for w in [wheels["micropip"], *wheels["packages"]]]
        config["wheels"] = wheels
    else:
        config.pop("wheels", None)
    download = sum((dist / rel).stat().st_size for rel in fetched)
    config.update(entry=f"./{WORKER_ENTRY}", modules=engine_modules(), release=release, download=download)
    config.pop("snapshot", None)  # a shipped snapshot belongs to the release it was made for
    config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return release
