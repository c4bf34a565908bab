"""The engine booted in Node exactly as the worker boots it: ``web/engine-boot.mjs``, the one boot
script the worker imports too, run by Pyodide's npm package (the shipped snapshot, the probe)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from .engine import engine_files, engine_modules
from .paths import ROOT, WORKER_ENTRY, BuildError

#: Run by Node with ``ROOT`` (the sources), ``ZIP`` (a standard library zip) and the JSON config
#: (``files``, ``path``, ``modules``, ``wheels``) as its argument: the engine booted by ``web/engine-boot.mjs``, as
#: the worker boots it, ready for a memory snapshot (``first``); ``restore(snapshot)`` restores one.
BOOT_ENGINE_JS = r"""
import fs from "node:fs";
const { loadPyodide } = await import(`${ROOT}/node_modules/pyodide/pyodide.mjs`);
const { bootEngine, restoreEngine } = await import(`${ROOT}/web/engine-boot.mjs`);
const options = { indexURL: `${ROOT}/node_modules/pyodide/`, stdLibURL: ZIP };
const config = JSON.parse(process.argv[1]);
const files = config.files.map((rel) => [rel, fs.readFileSync(`${ROOT}/${rel}`, "utf8")]);
const wheel = ({ name, sha256, path }) => ({ name, sha256, bytes: fs.readFileSync(path) });
const wheels = config.wheels && { micropip: wheel(config.wheels.micropip), packages: config.wheels.packages.map(wheel) };
const first = await bootEngine(loadPyodide, { ...options, _makeSnapshot: true },
  { files, path: config.path, modules: config.modules, wheels });
const restore = (snapshot) => restoreEngine(loadPyodide, options, snapshot);
"""


def run_engine_js(
    script: str, stdlib: Path, what: str, wheels: dict[str, Any] | None = None, **extra: str
) -> str:
    """Run ``script`` (:data:`BOOT_ENGINE_JS` and more) in Node with the standard library zip
    ``stdlib`` and the engine's files and modules as the worker boots them (``extra``: more config
    keys); its standard output. ``wheels``: the engine as wheels instead of its files, as
    ``engine-worker.json`` names them, each with its ``path`` on disk. Raises :class:`BuildError` on
    any failure."""
    modules = engine_modules()
    files = [WORKER_ENTRY] if wheels else [*engine_files(), WORKER_ENTRY]
    entry_dir = str(Path(WORKER_ENTRY).parent)
    config = {
        "files": files,
        "path": entry_dir,
        "modules": [Path(WORKER_ENTRY).stem, *modules],
        "wheels": wheels,
        **extra,
    }
    script = script.replace(
        "import fs",
        f"const ROOT = {json.dumps(str(ROOT))}; const ZIP = {json.dumps(str(stdlib))};\nimport fs",
        1,
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script, json.dumps(config)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise BuildError(f"{what} failed: {done.stderr.strip()[-2000:]}")
    return done.stdout
