"""The whole build: every step into a temporary folder, which replaces ``dist/`` only when all succeeded."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .configs import write_pyscript_configs
from .engine import add_engine_release, engine_files
from .first_tables import write_first_tables
from .npm import ensure_node_modules
from .paths import (
    DIST,
    MAIN_ENTRY,
    MAIN_THREAD_ENGINE,
    PAGE,
    PY_PACKAGES,
    ROOT,
    WEB,
    WORKER_ENTRY,
    BuildError,
    copy_file,
    log,
)
from .preload import write_preloads
from .runtime import copy_runtime
from .service_worker import write_service_worker
from .snapshot import add_engine_snapshot
from .stdlib import ship_engine_stdlib
from .wheels import ship_wheels

#: How the engine ships: ``modules`` (its module files, fetched one by one) or ``wheel`` (its wheel,
#: installed by micropip: one fetch, sitebuild/wheels.py). The first is the default: the wheel form
#: made the first visit at 2 Mbit/s slower (micropip's wheel and the standard library it imports
#: cost 0.29 MB more, its install ~1 s of CPU: bench/results/first-visit.md), so it is built only to
#: be measured again (``--engine-as wheel``, bench/load.py --engine-as).
ENGINE_FORMS: tuple[str, ...] = ("modules", "wheel")


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


def _python_sources(package: str) -> Iterator[Path]:
    base = ROOT / package
    if not base.is_dir():
        return
    for path in sorted(base.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        yield path


def _assemble(dist: Path, engine: str) -> None:
    """Write every file of the site into the empty folder ``dist``; the engine as ``engine``
    (:data:`ENGINE_FORMS`)."""
    # The page and the static web assets (CSS, icons, glue scripts, the service worker's template).
    copy_file(ROOT / PAGE, dist / PAGE)
    for src in sorted(WEB.rglob("*")):
        if src.is_file():
            copy_file(src, dist / src.relative_to(WEB))

    # Python packages, as source.
    shipped_py: dict[str, list[str]] = {}
    for package in PY_PACKAGES:
        rels = []
        for src in _python_sources(package):
            rel = src.relative_to(ROOT).as_posix()
            copy_file(src, dist / rel)
            rels.append(rel)
        shipped_py[package] = rels

    copy_runtime(dist)
    ship_engine_stdlib(dist, wheels=engine == "wheel")  # (instant start: only what the engine imports)

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

    # Main thread (MicroPython): the UI package, minus the two entry scripts, and the engine's
    # vocabulary; the worker (Pyodide): the engine modules its entry imports (not the command line,
    # the tournament...).
    ui_files = [p for p in shipped_py["ui"] if p not in (MAIN_ENTRY, WORKER_ENTRY)]
    worker_files = engine_files() if engine == "modules" else []
    write_pyscript_configs(dist, [*ui_files, *MAIN_THREAD_ENGINE], worker_files)
    if engine == "wheel":
        for rel in shipped_py["gongzhu"]:  # the engine ships as its wheel only (the main thread's files kept)
            if rel not in MAIN_THREAD_ENGINE:
                (dist / rel).unlink()
    wheels = ship_wheels(dist) if engine == "wheel" else None
    release = add_engine_release(dist, worker_files, wheels)
    log(f"engine snapshot: {add_engine_snapshot(dist):,} bytes gzipped")
    log(
        f"first tables: {write_first_tables(dist, release):,} bytes"
    )  # (drawn at a first visit's first paint)

    log(f"preload hints: {write_preloads(dist)}")  # (before the policy: sitebuild/preload.py)

    # --- offline (PWA): last, it lists and hashes every other shipped file.
    version = write_service_worker(dist)
    log(f"service worker: release {version}")


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


def build(dist: Path = DIST, *, install: bool = True, engine: str = ENGINE_FORMS[0]) -> BuildResult:
    """Assemble the site, then replace ``dist`` with it; return what was shipped. ``engine``: how
    the engine ships (:data:`ENGINE_FORMS`).

    Atomic: everything is written into a temporary folder beside ``dist``; ``dist`` is replaced
    only when every step succeeded, and left exactly as it was otherwise (the folder is removed).
    """
    if engine not in ENGINE_FORMS:
        raise BuildError(f"the engine ships as one of {', '.join(ENGINE_FORMS)}, not {engine!r}")
    if install:
        ensure_node_modules()
    dist.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{dist.name}-new-", dir=dist.parent))
    try:
        _assemble(work, engine)
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
