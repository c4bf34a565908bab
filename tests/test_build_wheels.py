"""The engine shipped as a wheel (sitebuild/wheels.py): the engine's wheel is what ``pip install .``
installs, the same bytes from the same sources; micropip's wheel ships only with the SHA-256 the
build pins, and the boot (web/engine-boot.mjs) refuses a wheel whose bytes are not the ones
``engine-worker.json`` names."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import build
import sitebuild.wheels
from sitebuild.node import BOOT_ENGINE_JS, run_engine_js
from sitebuild.snapshot import on_disk
from sitebuild.wheels import (
    MICROPIP,
    PinnedWheel,
    build_engine_wheel,
    check_pinned,
    fetch_pinned,
    ship_wheels,
)


def test_the_engine_wheel_is_the_package_pip_installs_the_same_bytes_each_time(tmp_path: Path) -> None:
    first = build_engine_wheel(tmp_path / "a")
    second = build_engine_wheel(tmp_path / "b")
    assert first.name == "gongzhu-0.1.0-py3-none-any.whl"
    assert first.read_bytes() == second.read_bytes()

    with zipfile.ZipFile(first) as wheel:
        names = set(wheel.namelist())
        record = list(csv.reader(io.StringIO(wheel.read("gongzhu-0.1.0.dist-info/RECORD").decode())))
        for path, digest, size in record:
            if path.endswith("RECORD"):
                continue
            data = wheel.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, size) == (f"sha256={expected}", str(len(data))), path
    sources = {
        p.relative_to(build.ROOT).as_posix()
        for p in (build.ROOT / "gongzhu").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert {n for n in names if not n.startswith("gongzhu-0.1.0.dist-info/")} == sources
    assert "gongzhu/ai/hard.py" in names and "gongzhu/tournament.py" in names

    # pip itself installs it (offline), with the console script pyproject.toml declares.
    target = tmp_path / "installed"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            "--target",
            str(target),
            str(first),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (target / "gongzhu" / "service.py").read_bytes() == (
        build.ROOT / "gongzhu" / "service.py"
    ).read_bytes()
    assert (target / "bin" / "gongzhu").is_file()
    ran = subprocess.run(
        [sys.executable, "-c", "import gongzhu.service as s; print(s.__file__)"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
    )
    assert ran.stdout.strip() == str(target / "gongzhu" / "service.py")


def _fake_pin(tmp_path: Path, data: bytes) -> PinnedWheel:
    return PinnedWheel("x==1", "x-1-py3-none-any.whl", hashlib.sha256(data).hexdigest())


def test_a_pinned_wheel_with_other_bytes_fails_the_build(tmp_path: Path) -> None:
    pin = _fake_pin(tmp_path, b"the pinned bytes")
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / pin.file_name).write_bytes(b"the pinned bytes")
    assert fetch_pinned(pin, cache) == cache / pin.file_name
    (cache / pin.file_name).write_bytes(b"the pinned bytez")
    with pytest.raises(
        build.BuildError, match=r"x-1-py3-none-any\.whl: sha256 [0-9a-f]{64} is not the pinned"
    ):
        fetch_pinned(pin, cache)


def _micropip(tmp_path: Path) -> Path:
    """micropip's pinned wheel (downloaded once with pip into the build's cache if it is not there)."""
    try:
        return fetch_pinned(MICROPIP)
    except build.BuildError as exc:  # pragma: no cover - only without PyPI and without the cache
        pytest.skip(f"micropip's wheel cannot be had here: {exc}")


def test_a_build_with_a_tampered_micropip_fails_and_leaves_dist_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = _micropip(tmp_path)
    cache = tmp_path / "cache"
    cache.mkdir()
    data = good.read_bytes()
    (cache / MICROPIP.file_name).write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    monkeypatch.setattr(sitebuild.wheels, "WHEEL_CACHE", cache)
    dist = tmp_path / "site" / "dist"
    dist.mkdir(parents=True)
    (dist / "index.html").write_text("earlier release\n", encoding="utf-8")
    with pytest.raises(
        build.BuildError, match=rf"{MICROPIP.file_name}: sha256 [0-9a-f]{{64}} is not the pinned"
    ):
        build.build(dist, install=False, engine="wheel")
    assert [p.name for p in dist.iterdir()] == ["index.html"]
    assert sorted(p.name for p in dist.parent.iterdir()) == ["dist"]
    check_pinned(good, MICROPIP)  # the good one stays as it was


#: The boot in Node (web/engine-boot.mjs, as the worker runs it): prints the engine's location.
BOOT_PRINTS_JS = (
    BOOT_ENGINE_JS
    + r"""
console.log(first.runPython("import gongzhu.service; gongzhu.service.__file__"));
"""
)


def test_the_boot_installs_the_wheels_and_refuses_one_whose_bytes_are_not_pinned(tmp_path: Path) -> None:
    _micropip(tmp_path)
    if shutil.which("node") is None or not (build.NODE_MODULES / "pyodide").is_dir():
        pytest.skip("Node and node_modules/pyodide are needed")
    wheels = on_disk(tmp_path, ship_wheels(tmp_path))
    assert wheels is not None
    stdlib = build.NODE_MODULES / "pyodide" / build.STDLIB_ZIP
    out = run_engine_js(BOOT_PRINTS_JS, stdlib, "boot", wheels)
    assert out.strip().splitlines()[-1] == "/lib/python3.14/site-packages/gongzhu/service.py"

    engine = Path(wheels["packages"][0]["path"])
    data = engine.read_bytes()
    engine.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(build.BuildError) as refused:
        run_engine_js(BOOT_PRINTS_JS, stdlib, "boot", wheels)
    message = str(refused.value)
    assert f"{engine.name}: sha256 {hashlib.sha256(engine.read_bytes()).hexdigest()}" in message
    assert f"is not the one the build pinned ({wheels['packages'][0]['sha256']})" in message
    assert json.dumps(wheels)  # (plain data: what engine-worker.json holds)
