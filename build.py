#!/usr/bin/env python3
"""Assemble the static site in ``dist/`` and optionally serve it.

Usage::

    python3 build.py                    # npm ci if needed, then build dist/
    python3 build.py --serve [--port N] [--prefix /gongzhu/]

The build needs the standard library and npm, nothing else. It is atomic: the site is assembled in
a temporary folder beside ``dist/``, which replaces ``dist/`` only when every step succeeded; a failed
build prints one line, exits non-zero and leaves the previous ``dist/`` as it was.

The page is ``index.html``; its PyScript configurations are ``pyscript.toml`` (main thread) and
``engine-worker.toml`` (the engine worker). They are copied as they are, with only what must be
computed filled in: the ``[files]`` tables (the shipped modules), the service worker's precache
list and release hash, and the loading screen's failure texts (``web/boot.js``).

The site is fully self-contained: the Python runtimes (MicroPython for the UI on the
main thread, Pyodide for the engine in a web worker) and PyScript come from the npm
packages pinned in ``package-lock.json`` and are copied into ``dist/runtime/``. Nothing
is fetched from a CDN at run time. Every URL in the site is relative, so ``dist/`` works
under any sub-path (GitHub Pages serves a project site under ``/<repo>/``).

The serving helpers (:func:`serve_in_thread`, :class:`SiteServer`) are importable by
tests: they serve ``dist/`` on 127.0.0.1 under a sub-path on a free port.
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
NODE_MODULES = ROOT / "node_modules"
WEB = ROOT / "web"
#: The page and its PyScript configurations: readable sources at the top of the repository.
PAGE = "index.html"
MAIN_CONFIG = "pyscript.toml"
WORKER_CONFIG = "engine-worker.toml"
#: What index.html loads for the worker (and as the ``py`` type's main-thread configuration).
WORKER_CONFIG_SHIPPED = "engine-worker.json"

#: Python packages shipped into the site (copied as ``.py`` source files).
PY_PACKAGES: tuple[str, ...] = ("gongzhu", "ui")

#: Entry scripts (loaded by ``<script src>``, so not repeated in the ``files`` lists).
MAIN_ENTRY = "ui/main.py"
WORKER_ENTRY = "ui/engine_worker.py"

#: Runtime files copied from ``node_modules``: (package dir, glob patterns, dist dir).
#: Only what the page actually loads is shipped (checked by the e2e tests, which fail on
#: any 404 or outside request). PyScript's chunk file names carry a content hash, hence
#: the patterns; each pattern must match exactly one file so that an upgrade that renames
#: or splits chunks fails the build instead of shipping a broken site.
PYSCRIPT_PATTERNS: tuple[str, ...] = (
    "core.js",
    "core.css",
    "core-*.js",
    "error-*.js",
)
RUNTIME_FILES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("@pyscript/core/dist", PYSCRIPT_PATTERNS, "runtime/pyscript"),
    (
        "@micropython/micropython-webassembly-pyscript",
        ("micropython.mjs", "micropython.wasm"),
        "runtime/micropython",
    ),
    (
        "pyodide",
        (
            "pyodide.mjs",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
            "pyodide-lock.json",
        ),
        "runtime/pyodide",
    ),
)


class BuildError(RuntimeError):
    """The site could not be assembled."""


@dataclass(frozen=True)
class BuildResult:
    """What a build produced: every shipped file (relative to ``dist/``) and its size."""

    dist: Path
    files: dict[str, int]

    @property
    def total_bytes(self) -> int:
        return sum(self.files.values())

    def bytes_under(self, prefix: str) -> int:
        return sum(size for name, size in self.files.items() if name.startswith(prefix))


def log(message: str) -> None:
    print(f"[build] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- npm


def _required_packages(root: Path = ROOT) -> list[str]:
    with (root / "package.json").open(encoding="utf-8") as fh:
        package: dict[str, Any] = json.load(fh)
    deps: dict[str, str] = package.get("dependencies", {})
    return sorted(deps)


def _lock_packages(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as fh:
        packages: dict[str, Any] = json.load(fh).get("packages", {})
    return {name: entry for name, entry in packages.items() if name}  # "" is the project itself


def node_modules_stale(root: Path = ROOT) -> str | None:
    """Why ``npm ci`` is needed, or None when node_modules holds what package-lock.json pins.

    Compares contents, not dates (a fresh clone's files all carry the clone's time): npm writes
    ``node_modules/.package-lock.json`` on every install, with the lock's package entries.
    """
    modules = root / "node_modules"
    missing = [name for name in _required_packages(root) if not (modules / name / "package.json").is_file()]
    if missing:
        return "missing " + ", ".join(missing)
    installed = modules / ".package-lock.json"
    if not installed.is_file():
        return "node_modules has no .package-lock.json"
    if _lock_packages(installed) != _lock_packages(root / "package-lock.json"):
        return "node_modules differs from package-lock.json"
    return None


def ensure_node_modules(force: bool = False) -> None:
    """Run ``npm ci`` when node_modules does not hold what package-lock.json pins."""
    reason = "forced" if force else node_modules_stale()
    if reason is None:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(f"npm is needed to install the browser runtime ({reason}): install Node.js and npm")
    log(f"npm ci ({reason})")
    done = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=ROOT, check=False)
    if done.returncode != 0:
        raise BuildError(f"npm ci failed (exit {done.returncode}); see npm's output above")


# --------------------------------------------------------------------------- build


def _python_sources(package: str) -> Iterator[Path]:
    base = ROOT / package
    if not base.is_dir():
        return
    for path in sorted(base.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        yield path


def _copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def _match_one(directory: Path, pattern: str) -> Path:
    matches = sorted(p for p in directory.iterdir() if p.is_file() and fnmatch.fnmatch(p.name, pattern))
    if len(matches) != 1:
        names = ", ".join(p.name for p in matches) or "nothing"
        raise BuildError(f"{directory}/{pattern} must match exactly one file, matched {names}")
    return matches[0]


#: PyScript's TOML parser, loaded to read pyscript.toml: two chunks match ``toml-*.js`` (the other
#: serves the unused editor plugins), so the one to ship is the one PyScript's core chunk imports.
TOML_CHUNK = re.compile(r"\./(toml-[\w-]+\.js)")


def _copy_runtime(dist: Path) -> None:
    for package_dir, patterns, dest_dir in RUNTIME_FILES:
        src_dir = NODE_MODULES / package_dir
        if not src_dir.is_dir():
            raise BuildError(f"{src_dir} is missing; run npm ci")
        for pattern in patterns:
            src = _match_one(src_dir, pattern)
            _copy(src, dist / dest_dir / src.name)
    pyscript_dir = NODE_MODULES / RUNTIME_FILES[0][0]
    core = _match_one(pyscript_dir, "core-*.js")
    chunks = sorted(set(TOML_CHUNK.findall(core.read_text(encoding="utf-8"))))
    if len(chunks) != 1:
        raise BuildError(f"{core.name} must import exactly one toml-*.js chunk, imports {chunks or 'none'}")
    _copy(pyscript_dir / chunks[0], dist / RUNTIME_FILES[0][2] / chunks[0])


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
    """``pyscript.toml`` as it is plus its ``[files]`` table; ``engine-worker.toml`` as
    ``engine-worker.json`` with its files and the page's ``plugins`` (from ``pyscript.toml``).

    The engine's configuration is also the main thread's ``<py-config>``: PyScript lets the main
    thread's ``py`` configuration win over a ``py`` worker's own, and it needs the plugin list to
    skip unused plugin chunks. JSON, because PyScript 0.7 reads TOML on the main thread only.
    """
    text, main = _read_config(MAIN_CONFIG)
    lines = [
        f"{json.dumps(url)} = {json.dumps(path)}"
        for url, path in _files_table(dist, MAIN_CONFIG, main, ui_files).items()
    ]
    table = "\n# Written by build.py: the modules this interpreter loads.\n[files]\n" + "\n".join(lines)
    (dist / MAIN_CONFIG).write_text(text.rstrip("\n") + "\n" + table + "\n", encoding="utf-8")

    _text, engine = _read_config(WORKER_CONFIG)
    files = _files_table(dist, WORKER_CONFIG, engine, engine_files)
    data = {**engine, "plugins": main.get("plugins", []), "files": files}
    (dist / WORKER_CONFIG_SHIPPED).write_text(
        json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )


# --- instant start: the engine worker's config and release (web/engine-worker.js) ------------
#: Everything a memory snapshot of the booted engine depends on (besides the engine's sources).
ENGINE_RUNTIME: tuple[str, ...] = ("engine-worker.js", "engine-boot.mjs", "runtime/pyodide")
#: The files of ``runtime/pyodide`` that a boot fetches (``pyodide.mjs`` and ``pyodide.asm.mjs`` are
#: imported as modules): with the engine's sources, the ``download`` a first visit's loading screen
#: counts (web/engine-worker.js).
BOOT_FETCHES: tuple[str, ...] = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def add_engine_release(dist: Path, engine_files: Sequence[str]) -> str:
    """Add ``entry`` (the Python module whose ``call`` answers requests), ``modules`` (the engine
    modules it imports, which the worker imports at boot: :func:`engine_modules`), ``release`` and
    ``download`` (the bytes a boot fetches: :data:`BOOT_FETCHES` and the engine's sources) to
    ``engine-worker.json``, for ``web/engine-worker.js``; return the release.

    The release hashes everything a memory snapshot of the booted engine depends on: the Pyodide
    runtime, the worker script, the entry and the engine's sources. The worker keeps one snapshot,
    under this release: a release that changes any of them drops the old one.
    """
    inputs = [*engine_files, WORKER_ENTRY]
    for name in ENGINE_RUNTIME:
        path = dist / name
        found = path.rglob("*") if path.is_dir() else [path]
        inputs += [p.relative_to(dist).as_posix() for p in found if p.is_file() and not _is_snapshot(p)]
    digest = hashlib.sha256()
    for rel in sorted(inputs):
        digest.update(f"{rel}\0{_content_hash(dist / rel)}\n".encode())
    release = digest.hexdigest()[:16]
    config_path = dist / WORKER_CONFIG_SHIPPED
    config = json.loads(config_path.read_text(encoding="utf-8"))
    fetched = [*engine_files, WORKER_ENTRY, *(f"{SNAPSHOT_DIR}/{name}" for name in BOOT_FETCHES)]
    download = sum((dist / rel).stat().st_size for rel in fetched)
    config.update(entry=f"./{WORKER_ENTRY}", modules=engine_modules(), release=release, download=download)
    config.pop("snapshot", None)  # a shipped snapshot belongs to the release it was made for
    config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return release


# --- instant start: the engine's standard library --------------------------------------------
#: Pyodide's standard library zip, shipped with only the modules the engine worker imports.
STDLIB_ZIP = "python_stdlib.zip"
#: The standard library files the engine worker imports at run time: Pyodide's own bootstrap, the
#: engine, making and restoring its memory snapshot, and every op of ``gongzhu.service``.
#: Written by ``python3 build.py --engine-stdlib`` (Pyodide in Node, :data:`STDLIB_PROBE_JS`).
ENGINE_STDLIB = "engine-stdlib.txt"
_ENGINE_STDLIB_HEADER = """\
# The standard library files the engine worker imports at run time (one per line): Pyodide's
# bootstrap, the engine (gongzhu.service and what it imports), making and restoring the engine's
# memory snapshot, and every op of gongzhu.service. build.py ships python_stdlib.zip with only
# these (2.5 MB -> ~0.8 MB). Written by `python3 build.py --engine-stdlib`; the build fails when
# an engine module imports a standard module missing here.
"""

#: Run by Node with ``ROOT`` (the sources), ``ZIP`` (a standard library zip) and the JSON config
#: (``files``, ``path``, ``modules``) as its argument: boots Pyodide as web/engine-worker.js does, with
#: the engine's files written and its modules imported, ready for a memory snapshot (``first``).
_BOOT_ENGINE_JS = r"""
import fs from "node:fs";
const { loadPyodide } = await import(`${ROOT}/node_modules/pyodide/pyodide.mjs`);
const indexURL = `${ROOT}/node_modules/pyodide/`;
const config = JSON.parse(process.argv[1]);
const first = await loadPyodide({ indexURL, stdLibURL: ZIP, _makeSnapshot: true });
for (const rel of config.files) {
  const dir = rel.split("/").slice(0, -1).join("/");
  if (dir) first.FS.mkdirTree(dir);
  first.FS.writeFile(rel, fs.readFileSync(`${ROOT}/${rel}`, "utf8"));
}
first.runPython(`import sys, importlib\nsys.path.insert(0, ${JSON.stringify(config.path)})\n` +
  `for _m in ${JSON.stringify(config.modules)}: importlib.import_module(_m)`);
"""

#: :data:`_BOOT_ENGINE_JS`, then: make and restore the snapshot, run :data:`STDLIB_PROBE_OPS` and
#: print the sorted paths (in the zip) of the modules it loaded, as JSON.
STDLIB_PROBE_JS = (
    _BOOT_ENGINE_JS
    + r"""
const FROM_ZIP = "sorted({f.split('.zip/')[1] for m in list(sys.modules.values()) if '.zip/' in (f := getattr(m, '__file__', None) or '')})";
const booted = first.runPython(`import sys; ${FROM_ZIP}`).toJs();
const snapshot = first.makeMemorySnapshot();
const second = await loadPyodide({ indexURL, stdLibURL: ZIP, _loadSnapshot: snapshot });
second.runPython("import random; random.seed()");
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
"""


def engine_modules(entry: str = WORKER_ENTRY) -> list[str]:
    """The engine modules the worker's entry imports, directly or not (sorted): the worker imports
    them at boot, so that a restored snapshot has them (it has no files)."""
    import ast

    found: set[str] = set()
    todo = ["gongzhu"]
    entry_tree = ast.parse((ROOT / entry).read_text(encoding="utf-8"))
    todo += [n for n in _imported(entry_tree, "") if n.startswith("gongzhu")]
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
        todo += [n for n in _imported(tree, package) if n.startswith("gongzhu")]
    return sorted(found)


def engine_files() -> list[str]:
    """The source files of :func:`engine_modules` (sorted): what the engine worker fetches and writes
    into Pyodide's file system before it imports them, as the build's snapshot maker does."""
    return sorted(
        f"{m.replace('.', '/')}{'/__init__' if (ROOT / m.replace('.', '/')).is_dir() else ''}.py"
        for m in engine_modules()
    )


def _imported(tree: Any, package: str) -> list[str]:
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


def read_engine_stdlib(root: Path = ROOT) -> list[str]:
    lines = (root / ENGINE_STDLIB).read_text(encoding="utf-8").splitlines()
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
        for name in _imported(ast.parse(source.read_text(encoding="utf-8")), package):
            member = None if name.startswith("gongzhu") else _stdlib_member(names, name)
            if member and member not in listed:
                missing.add(f"{module} imports {name}")
    if missing:
        raise BuildError(
            f"{ENGINE_STDLIB} lacks what the engine imports ({'; '.join(sorted(missing))}): "
            "run python3 build.py --engine-stdlib"
        )


def probe_engine_stdlib(stdlib: Path) -> list[str]:
    """Run the engine in Pyodide in Node with the standard library zip ``stdlib``
    (:data:`STDLIB_PROBE_JS`); the modules it loaded from the zip. Raises on any failure."""
    done = _run_engine_js(STDLIB_PROBE_JS, stdlib, "engine stdlib probe", ops=STDLIB_PROBE_OPS)
    return [str(name) for name in json.loads(done.strip().splitlines()[-1])]


def _run_engine_js(script: str, stdlib: Path, what: str, **extra: str) -> str:
    """Run ``script`` (:data:`_BOOT_ENGINE_JS` and more) in Node with the standard library zip
    ``stdlib`` and the engine's files and modules as the worker boots them (``extra``: more config
    keys); its standard output. Raises :class:`BuildError` on any failure."""
    modules = engine_modules()
    files = [*engine_files(), WORKER_ENTRY]
    entry_dir = str(Path(WORKER_ENTRY).parent)
    config = {"files": files, "path": entry_dir, "modules": [Path(WORKER_ENTRY).stem, *modules], **extra}
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


def write_engine_stdlib() -> list[str]:
    """``python3 build.py --engine-stdlib``: probe the engine with Pyodide's whole standard library
    and write the modules it loaded into :data:`ENGINE_STDLIB`."""
    modules = probe_engine_stdlib(NODE_MODULES / "pyodide" / STDLIB_ZIP)
    (ROOT / ENGINE_STDLIB).write_text(_ENGINE_STDLIB_HEADER + "\n".join(modules) + "\n", encoding="utf-8")
    return modules


def ship_engine_stdlib(dist: Path) -> None:
    """Replace the shipped ``python_stdlib.zip`` with the engine's trimmed one."""
    shipped = dist / "runtime" / "pyodide" / STDLIB_ZIP
    listed = read_engine_stdlib()
    check_engine_stdlib(engine_modules(), listed, shipped)
    trimmed = shipped.with_suffix(".trimmed")
    trim_stdlib(shipped, trimmed, listed)
    trimmed.replace(shipped)


# --- instant start: the engine's snapshot, shipped -------------------------------------------
#: :data:`_BOOT_ENGINE_JS`, then write the memory snapshot of the booted engine to ``config.out``.
SNAPSHOT_JS = (
    _BOOT_ENGINE_JS
    + r"""
fs.writeFileSync(config.out, first.makeMemorySnapshot());
"""
)
#: Where the build's snapshot of the booted engine is shipped (gzipped), under its engine release:
#: beside Pyodide's files, so that a first visit's engine hands its download to the service worker
#: like theirs (web/engine-worker.js, web/sw.js). Not part of the release it is made for.
SNAPSHOT_DIR = "runtime/pyodide"
SNAPSHOT_PREFIX = "engine-snapshot-"


def _is_snapshot(path: Path) -> bool:
    return path.name.startswith(SNAPSHOT_PREFIX)


def add_engine_snapshot(dist: Path) -> int:
    """Make the memory snapshot of the booted engine that a first visit restores instead of booting
    (Pyodide in Node, with the site's trimmed standard library: :data:`SNAPSHOT_JS`); ship it gzipped
    as ``runtime/pyodide/engine-snapshot-<release>.gz`` and name it in ``engine-worker.json``
    (``snapshot``: its ``url`` and its length unzipped, ``bytes``). Returns the shipped size.

    Named by release, a snapshot never meets another release's engine (an old copy in an HTTP cache
    has another name); the worker checks the length and falls back to a normal boot on any fault."""
    import gzip

    config_path = dist / WORKER_CONFIG_SHIPPED
    config = json.loads(config_path.read_text(encoding="utf-8"))
    target = dist / SNAPSHOT_DIR / f"{SNAPSHOT_PREFIX}{config['release']}.gz"
    with tempfile.TemporaryDirectory(prefix="gongzhu-snapshot-") as tmp:
        raw = Path(tmp) / "engine.snapshot"
        _run_engine_js(SNAPSHOT_JS, dist / SNAPSHOT_DIR / STDLIB_ZIP, "engine snapshot", out=str(raw))
        data = raw.read_bytes()
    target.write_bytes(gzip.compress(data, compresslevel=6, mtime=0))
    config["snapshot"] = {"url": f"./{target.relative_to(dist).as_posix()}", "bytes": len(data)}
    config_path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return target.stat().st_size


# --- end instant start


# --- offline (PWA): service worker precache list and release version ------------------------
#: The service worker; build.py rewrites its ``const BUILD = ...;`` line.
SERVICE_WORKER = "sw.js"
#: Shipped but never precached (the service worker itself is fetched by the browser).
NOT_PRECACHED: tuple[str, ...] = (SERVICE_WORKER,)
_SW_BUILD_LINE = re.compile(r"^const BUILD = .*;.*$", re.MULTILINE)


def _content_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def write_service_worker(dist: Path) -> str:
    """Write the precache list and the release version into ``dist/sw.js``; return the version.

    Every shipped file (path relative to the site, size, content hash) is listed, and the
    version hashes them all (``lean``: the files not downloaded where the link is one to spare,
    web/link.js: the build's engine snapshot): any change to any file changes the service worker's bytes, so the
    browser installs it as an update, which fills a new cache and deletes the old one. Run it
    last, once everything else is in ``dist`` (tests rerun it on a modified copy of a build).
    """
    template = (WEB / SERVICE_WORKER).read_text(encoding="utf-8")
    if len(_SW_BUILD_LINE.findall(template)) != 1:
        raise BuildError(f"web/{SERVICE_WORKER} needs exactly one 'const BUILD = ...;' line")
    entries: list[tuple[str, int, str]] = []
    for path in sorted(dist.rglob("*")):
        rel = path.relative_to(dist).as_posix()
        if path.is_file() and rel not in NOT_PRECACHED:
            entries.append((rel, path.stat().st_size, _content_hash(path)))
    digest = hashlib.sha256(json.dumps(entries).encode("utf-8")).hexdigest()[:16]
    lean = [rel for rel, _size, _hash in entries if _is_snapshot(Path(rel))]
    data = json.dumps({"version": digest, "files": entries, "lean": lean}, separators=(",", ":"))
    line = f"const BUILD = {data}; // written by build.py"
    (dist / SERVICE_WORKER).write_text(_SW_BUILD_LINE.sub(lambda _m: line, template), encoding="utf-8")
    return digest


# --- end offline (PWA)


def _assemble(dist: Path) -> None:
    """Write every file of the site into the empty folder ``dist``."""
    # The page and the static web assets (CSS, icons, glue scripts, the service worker's template).
    _copy(ROOT / PAGE, dist / PAGE)
    for src in sorted(WEB.rglob("*")):
        if src.is_file():
            _copy(src, dist / src.relative_to(WEB))

    # Python packages, as source.
    shipped_py: dict[str, list[str]] = {}
    for package in PY_PACKAGES:
        rels = []
        for src in _python_sources(package):
            rel = src.relative_to(ROOT).as_posix()
            _copy(src, dist / rel)
            rels.append(rel)
        shipped_py[package] = rels

    _copy_runtime(dist)
    ship_engine_stdlib(dist)  # (instant start: only what the engine imports)

    # --- card faces (tools/card_faces.py): the sprite into the page, the back as a file.
    from tools.card_faces import CardFilesError, write_card_files

    try:
        sizes = write_card_files(dist, PAGE)
    except CardFilesError as exc:
        raise BuildError(str(exc)) from exc
    for name, (raw, packed) in sizes.items():
        log(f"card faces: {name} {raw:,} bytes ({packed:,} gzipped)")
    # --- end card faces

    # --- i18n (tools/i18n.py, tools/rules_page.py): locales/*.po -> locales/<lang>.json
    # (the build fails on a missing or fuzzy translation) and the rules page, rules.html.
    from tools.i18n import CatalogError, compile_catalogs
    from tools.loading_notice import NoticeError, write_boot_script
    from tools.rules_page import RulesError, build_rules_pages

    try:
        compile_catalogs(dist)
        build_rules_pages(dist)
        write_boot_script(dist)
    except (CatalogError, RulesError, NoticeError) as exc:
        raise BuildError(str(exc)) from exc
    # --- end i18n

    # Main thread (MicroPython): the UI package, minus the two entry scripts; the worker
    # (Pyodide): the engine modules its entry imports (not the command line, the tournament...).
    ui_files = [p for p in shipped_py["ui"] if p not in (MAIN_ENTRY, WORKER_ENTRY)]
    worker_files = engine_files()
    write_pyscript_configs(dist, ui_files, worker_files)
    add_engine_release(dist, worker_files)
    log(f"engine snapshot: {add_engine_snapshot(dist):,} bytes gzipped")

    # --- offline (PWA): last, it lists and hashes every other shipped file.
    version = write_service_worker(dist)
    log(f"service worker: release {version}")
    # --- end offline (PWA)


def _replace(dist: Path, built: Path) -> None:
    """Put the finished site ``built`` in the place of ``dist`` (two renames on one file system)."""
    if not dist.exists():
        built.rename(dist)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{dist.name}-old-", dir=dist.parent))
    old.rmdir()
    dist.rename(old)
    built.rename(dist)
    shutil.rmtree(old, ignore_errors=True)


def build(dist: Path = DIST, *, install: bool = True) -> BuildResult:
    """Assemble the site, then replace ``dist`` with it; return what was shipped.

    Atomic: everything is written into a temporary folder beside ``dist``; ``dist`` is replaced
    only when every step succeeded, and left exactly as it was otherwise (the folder is removed).
    """
    if install:
        ensure_node_modules()
    dist.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{dist.name}-new-", dir=dist.parent))
    try:
        _assemble(work)
        _replace(dist, work)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise

    files = {p.relative_to(dist).as_posix(): p.stat().st_size for p in sorted(dist.rglob("*")) if p.is_file()}
    result = BuildResult(dist=dist, files=files)
    log(
        f"dist/: {len(files)} files, {result.total_bytes:,} bytes "
        f"(pyodide {result.bytes_under('runtime/pyodide/'):,}, "
        f"micropython {result.bytes_under('runtime/micropython/'):,}, "
        f"pyscript {result.bytes_under('runtime/pyscript/'):,})"
    )
    return result


# --------------------------------------------------------------------------- serve

EXTRA_MIME_TYPES: dict[str, str] = {
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".zip": "application/zip",
    ".gz": "application/gzip",
    ".py": "text/x-python; charset=utf-8",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".html": "text/html; charset=utf-8",
}


def normalize_prefix(prefix: str) -> str:
    """``gongzhu`` / ``/gongzhu`` / ``/gongzhu/`` -> ``/gongzhu/``; ``""`` or ``/`` -> ``/``."""
    stripped = prefix.strip("/")
    return f"/{stripped}/" if stripped else "/"


class _SubPathHandler(SimpleHTTPRequestHandler):
    """Serves ``directory`` under ``prefix`` only; everything else is a 404."""

    prefix = "/"

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        return EXTRA_MIME_TYPES.get(Path(path).suffix.lower()) or super().guess_type(path)

    def do_GET(self) -> None:
        if self._route():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._route():
            super().do_HEAD()

    def _route(self) -> bool:
        """Redirect ``/prefix`` to ``/prefix/``; 404 outside the prefix. True: serve the file."""
        path = urlsplit(self.path).path
        if self.prefix != "/" and path == self.prefix.rstrip("/"):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", self.prefix)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if not path.startswith(self.prefix):
            self.send_error(HTTPStatus.NOT_FOUND, "outside the site's sub-path")
            return False
        return True

    def translate_path(self, path: str) -> str:
        clean = urlsplit(path).path
        return super().translate_path("/" + clean[len(self.prefix) :])

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


class SiteServer(ThreadingHTTPServer):
    """An HTTP server for ``directory`` under ``prefix``, bound to 127.0.0.1."""

    daemon_threads = True

    def __init__(self, directory: Path, prefix: str = "/gongzhu/", port: int = 0, verbose: bool = False):
        self.directory = directory
        self.prefix = normalize_prefix(prefix)
        self.verbose = verbose
        handler_cls = type("Handler", (_SubPathHandler,), {"prefix": self.prefix})
        handler = functools.partial(handler_cls, directory=str(directory))
        super().__init__(("127.0.0.1", port), handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A browser that cancels a download (page closed mid-load) is not an error.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.prefix}"


def serve_in_thread(directory: Path = DIST, prefix: str = "/gongzhu/", port: int = 0) -> SiteServer:
    """Start serving ``directory`` in a daemon thread; call ``.shutdown()`` when done."""
    server = SiteServer(directory, prefix, port)
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    return server


@contextlib.contextmanager
def serving(directory: Path = DIST, prefix: str = "/gongzhu/", port: int = 0) -> Iterator[SiteServer]:
    """:func:`serve_in_thread` for a ``with`` block: the server is stopped and closed after it."""
    server = serve_in_thread(directory, prefix, port)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


# --------------------------------------------------------------------------- cli


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--serve", action="store_true", help="serve dist/ on 127.0.0.1 after building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (0 = any free port)")
    parser.add_argument("--prefix", default="/gongzhu/", help="sub-path the site is served under")
    parser.add_argument("--no-build", action="store_true", help="serve the existing dist/ as it is")
    parser.add_argument(
        "--engine-stdlib",
        action="store_true",
        help=f"probe the engine in Pyodide (Node) and rewrite {ENGINE_STDLIB} first",
    )
    args = parser.parse_args(argv)

    if args.engine_stdlib:
        log(f"{ENGINE_STDLIB}: {len(write_engine_stdlib())} standard library files")

    if not args.no_build:
        try:
            build()
        except Exception as exc:  # any failure: one line, the previous dist/ untouched
            detail = str(exc).strip().splitlines() or [type(exc).__name__]
            more = f" (+{len(detail) - 1} more lines)" if len(detail) > 1 else ""
            log(f"error: the build failed, dist/ was left as it was: {detail[0]}{more}")
            for line in detail[1:]:
                print(f"  {line}", file=sys.stderr)
            return 1
    elif not (DIST / PAGE).is_file():
        log("error: dist/ is not built: run python3 build.py")
        return 1

    if args.serve:
        server = SiteServer(DIST, args.prefix, args.port, verbose=True)
        print(f"Serving {DIST} at {server.url}  (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
