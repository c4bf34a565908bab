"""The build's memory snapshot of the booted engine, shipped gzipped and named in ``engine-worker.json``."""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

from .engine import BOOT_FETCHES, SNAPSHOT_DIR, SNAPSHOT_PREFIX
from .node import BOOT_ENGINE_JS, run_engine_js
from .paths import WORKER_CONFIG_SHIPPED
from .stdlib import STDLIB_ZIP

#: :data:`BOOT_ENGINE_JS`, then write the memory snapshot of the booted engine to ``config.out``.
SNAPSHOT_JS = (
    BOOT_ENGINE_JS
    + r"""
fs.writeFileSync(config.out, first.makeMemorySnapshot());
"""
)


def on_disk(dist: Path, wheels: dict[str, Any] | None) -> dict[str, Any] | None:
    """``engine-worker.json``'s ``wheels``, each with its ``path`` in ``dist`` (for Node)."""
    if not wheels:
        return None

    def located(entry: dict[str, Any]) -> dict[str, Any]:
        return {**entry, "path": str(dist / entry["url"])}

    return {"micropip": located(wheels["micropip"]), "packages": [located(w) for w in wheels["packages"]]}


def add_engine_snapshot(dist: Path) -> int:
    """Make the memory snapshot of the booted engine that a first visit restores instead of booting
    (Pyodide in Node, with the site's trimmed standard library: :data:`SNAPSHOT_JS`); ship it gzipped
    as ``runtime/pyodide/engine-snapshot-<release>.gz`` and name it in ``engine-worker.json``
    (``snapshot``: its ``url``, its length unzipped, ``bytes``, and gzipped, ``gzipped``, the SHA-256
    of its unzipped bytes, ``sha256``, checked before it is restored, and ``download``, the bytes a
    restore fetches: it and Pyodide's files, not the engine's). Returns the shipped size.

    Named by release, a snapshot never meets another release's engine (an old copy in an HTTP cache
    has another name); the worker checks the length and the digest and falls back to a normal boot on any fault."""
    import gzip

    config_path = dist / WORKER_CONFIG_SHIPPED
    config = json.loads(config_path.read_text(encoding="utf-8"))
    target = dist / SNAPSHOT_DIR / f"{SNAPSHOT_PREFIX}{config['release']}.gz"
    with tempfile.TemporaryDirectory(prefix="gongzhu-snapshot-") as tmp:
        raw = Path(tmp) / "engine.snapshot"
        wheels = on_disk(dist, config.get("wheels"))
        run_engine_js(SNAPSHOT_JS, dist / SNAPSHOT_DIR / STDLIB_ZIP, "engine snapshot", wheels, out=str(raw))
        data = raw.read_bytes()
    target.write_bytes(gzip.compress(data, compresslevel=6, mtime=0))
    pyodide_bytes = sum((dist / SNAPSHOT_DIR / name).stat().st_size for name in BOOT_FETCHES)
    config["snapshot"] = {
        "url": f"./{target.relative_to(dist).as_posix()}",
        "bytes": len(data),
        "gzipped": target.stat().st_size,
        "sha256": hashlib.sha256(data).hexdigest(),
        "download": target.stat().st_size + pyodide_bytes,
    }
    config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return target.stat().st_size
