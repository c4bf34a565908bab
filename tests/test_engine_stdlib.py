"""Instant start: the site ships Pyodide's standard library zip trimmed to what the engine worker
imports (build.py, ``tools/engine-stdlib.txt``). The engine, its AIs and every op of the service run on
the trimmed zip (Pyodide in Node, booted, snapshotted and restored as web/engine-worker.js does),
the list is what the engine really loads, and the build refuses an engine import the list lacks."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import build

FULL = build.NODE_MODULES / "pyodide" / build.STDLIB_ZIP


def test_the_worker_imports_the_engine_the_service_needs_and_no_command_line_tool() -> None:
    modules = build.engine_modules()
    assert {"gongzhu.service", "gongzhu.ai.hard", "gongzhu.coach", "gongzhu.daily", "gongzhu.review"} <= set(
        modules
    )
    assert not {"gongzhu.tournament", "gongzhu.cli", "gongzhu.simulate", "gongzhu.agent"} & set(modules)


def test_every_engine_op_runs_on_the_trimmed_zip_and_the_list_is_what_the_engine_loads(
    tmp_path: Path,
) -> None:
    listed = build.read_engine_stdlib()
    trimmed = tmp_path / build.STDLIB_ZIP
    build.trim_stdlib(FULL, trimmed, listed)
    with zipfile.ZipFile(trimmed) as z:
        assert {n for n in z.namelist() if not n.endswith("/")} == set(listed)
    assert trimmed.stat().st_size < FULL.stat().st_size / 2
    # Every op of the service, on a restored snapshot, with only the listed files: nothing missing.
    assert set(build.probe_engine_stdlib(trimmed)) <= set(listed)
    # ... and the list is not stale: with the whole library, the engine loads exactly these.
    assert build.probe_engine_stdlib(FULL) == listed


def test_the_build_refuses_an_engine_import_the_list_lacks() -> None:
    listed = [name for name in build.read_engine_stdlib() if name != "hashlib.py"]
    with pytest.raises(build.BuildError, match=r"gongzhu\.\S+ imports hashlib.*--engine-stdlib"):
        build.check_engine_stdlib(build.engine_modules(), listed, FULL)
    build.check_engine_stdlib(build.engine_modules(), build.read_engine_stdlib(), FULL)


def test_a_listed_file_missing_from_the_zip_fails_the_build(tmp_path: Path) -> None:
    with pytest.raises(build.BuildError, match=r"nonexistent\.py"):
        build.trim_stdlib(FULL, tmp_path / "out.zip", ["json/__init__.py", "nonexistent.py"])


def test_the_engine_installed_from_its_wheel_loads_its_list_and_what_micropip_adds(
    tmp_path: Path,
) -> None:
    """The engine as its wheel (installed by micropip at boot, sitebuild/wheels.py): the engine's list
    and micropip's (``tools/micropip-stdlib.txt``), which the shipped zip holds, are what this boot
    really loads. (That this boot runs on the trimmed zip is played in the browser:
    tests/e2e/test_loading_failures.py ``test_the_engine_installed_from_its_wheel_plays``.)"""
    from sitebuild.snapshot import on_disk
    from sitebuild.stdlib import MICROPIP_STDLIB
    from sitebuild.wheels import ship_wheels

    try:
        wheels = on_disk(tmp_path, ship_wheels(tmp_path))
    except build.BuildError as exc:  # pragma: no cover - only without PyPI and without the cache
        pytest.skip(f"micropip's wheel cannot be had here: {exc}")
    micropip = build.read_engine_stdlib(name=MICROPIP_STDLIB)
    listed = build.read_engine_stdlib() + micropip
    assert not set(micropip) & set(build.read_engine_stdlib())
    assert build.probe_engine_stdlib(FULL, wheels) == sorted(listed)
