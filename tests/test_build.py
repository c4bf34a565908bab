"""build.py: an atomic build (a failure leaves the previous dist/ as it was and says so in one line),
the page's configurations copied from their readable sources, node_modules checked by content."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import tomllib
import zipfile
from pathlib import Path

import pytest

import build
import sitebuild.configs
from sitebuild import preload
from tools import card_faces


def _listing(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


@pytest.fixture
def previous_dist(tmp_path: Path) -> Path:
    """A dist/ from an earlier build (a stand-in: two files)."""
    dist = tmp_path / "site" / "dist"
    (dist / "ui").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>earlier release</title>\n", encoding="utf-8")
    (dist / "ui" / "old.py").write_text("OLD = True\n", encoding="utf-8")
    return dist


@pytest.fixture
def broken_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """pyscript.toml with a syntax error (a step near the end of the build fails)."""
    bad = tmp_path / "pyscript.toml"
    bad.write_text(
        (build.ROOT / build.MAIN_CONFIG).read_text(encoding="utf-8") + "\nplugins = [\n", encoding="utf-8"
    )
    monkeypatch.setattr(sitebuild.configs, "MAIN_CONFIG", str(bad))  # ROOT / <absolute path> is that path
    return bad


def test_a_failed_build_leaves_the_previous_dist_untouched(previous_dist: Path, broken_config: Path) -> None:
    before = _listing(previous_dist)
    with pytest.raises(build.BuildError, match=r"pyscript\.toml"):
        build.build(previous_dist, install=False)
    assert _listing(previous_dist) == before
    assert sorted(p.name for p in previous_dist.parent.iterdir()) == ["dist"]  # no half-built folder left


def test_a_failed_build_exits_non_zero_with_one_clear_line(
    previous_dist: Path,
    broken_config: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(build, "DIST", previous_dist)
    monkeypatch.setattr(build, "ensure_node_modules", lambda force=False: None)
    before = _listing(previous_dist)
    assert build.main([]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    errors = [line for line in lines if "error" in line]
    assert len(errors) == 1, lines
    assert errors[0].startswith("[build] error: the build failed, dist/ was left as it was: ")
    assert "pyscript.toml" in errors[0]
    assert _listing(previous_dist) == before


def test_serving_an_unbuilt_dist_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(build, "DIST", tmp_path / "dist")
    assert build.main(["--no-build", "--serve"]) == 1


def test_a_build_replaces_dist_with_the_page_and_its_configurations(previous_dist: Path) -> None:
    result = build.build(previous_dist, install=False)
    assert "ui/old.py" not in result.files  # replaced, not merged
    assert sorted(p.name for p in previous_dist.parent.iterdir()) == ["dist"]
    # index.html as it is, but for the card faces' sprite in place of its marker (tools/card_faces.py)
    # and the first paint's preload hints in place of theirs (sitebuild/preload.py).
    page = (build.ROOT / "index.html").read_text(encoding="utf-8")
    before, after = page.split(card_faces.PAGE_MARKER)
    preloads = preload.preload_list(previous_dist)
    hints = "\n  ".join(preload.hint_tag(kind, path) for kind, path in preloads)
    shipped_page = (previous_dist / "index.html").read_text(encoding="utf-8")
    expected = before + card_faces.sprite().rstrip("\n") + after
    assert shipped_page == expected.replace(preload.PRELOAD_MARKER, hints)
    # The hints precede the policy (Chromium's preload scanner stops at it), and list what the first
    # paint fetches: the page's scripts and stylesheets, the image they name, PyScript's modules,
    # MicroPython and its wasm, the two configurations, the UI's entry and the file pyscript.toml lists.
    assert shipped_page.index('<link rel="preload"') < shipped_page.index("Content-Security-Policy")
    assert shipped_page.count('<link rel="modulepreload"') + shipped_page.count('<link rel="preload"') == len(
        preloads
    )
    listed = {path: kind for kind, path in preloads}
    assert listed["boot.js"] == listed["pwa.js"] == "script" and listed["game.css"] == "style"
    assert listed["card-back.svg"] == "image"  # (game.css draws the opponents' hands with it)
    assert listed["runtime/pyscript/core.js"] == listed["runtime/micropython/micropython.mjs"] == "module"
    assert listed["runtime/micropython/micropython.wasm"] == listed["ui/main.py"] == "fetch"
    assert listed["pyscript.toml"] == listed["engine-worker.json"] == "fetch"
    assert "first-tables.json" not in listed  # fetched by web/engine.js on a first visit only

    # pyscript.toml: the readable source as it is, then the [files] table of the UI modules.
    source = (build.ROOT / "pyscript.toml").read_text(encoding="utf-8")
    shipped = (previous_dist / "pyscript.toml").read_text(encoding="utf-8")
    assert shipped.startswith(source.rstrip("\n") + "\n")
    main = tomllib.loads(shipped)
    # One file, the main thread's modules as ui/main.py unpacks them: every module of ui/ and its parts
    # (core/, features/, view/, shell/: their __init__.py too) but the two entries, each as it is in the
    # repository, and of the engine only its vocabulary (without gongzhu/__init__.py: importing it
    # loads nothing else). They ship in it only: the worker's vocabulary and entry stay files.
    assert main["files"] == {f"./{build.UI_MODULES}": f"./{build.UI_MODULES}"}
    ui = sorted(p.relative_to(build.ROOT).as_posix() for p in (build.ROOT / "ui").rglob("*.py"))
    assert {"ui/core/__init__.py", "ui/shell/app.py"} <= set(ui)
    assert build.MAIN_THREAD_ENGINE == ("gongzhu/vocab.py",)
    modules = json.loads((previous_dist / build.UI_MODULES).read_text(encoding="utf-8"))
    assert sorted(modules) == sorted(
        [p for p in ui if p not in (build.MAIN_ENTRY, build.WORKER_ENTRY)] + ["gongzhu/vocab.py"]
    )
    assert all(text == (build.ROOT / path).read_text(encoding="utf-8") for path, text in modules.items())
    shipped_ui = sorted(p.relative_to(previous_dist).as_posix() for p in (previous_dist / "ui").rglob("*"))
    assert shipped_ui == sorted([build.MAIN_ENTRY, build.WORKER_ENTRY])
    assert (previous_dist / "gongzhu/vocab.py").is_file()
    assert (previous_dist / main["interpreter"]).is_file()
    assert {f"./{path}" for path in listed} >= set(main["files"])

    # The engine worker's configuration: its shipped interpreter, the page's plugins, the engine modules
    # its entry imports (not the command line nor the tournament: never imported in the browser).
    engine = json.loads((previous_dist / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
    assert engine["interpreter"] == build.WORKER_INTERPRETER
    assert (previous_dist / engine["interpreter"]).is_file()
    assert engine["plugins"] == main["plugins"]
    imported = {f"./{name.replace('.', '/')}" for name in build.engine_modules()}
    assert {f.removesuffix(".py").removesuffix("/__init__") for f in engine["files"]} == imported
    assert "./gongzhu/ai/hard.py" in engine["files"] and "./gongzhu/tournament.py" not in engine["files"]
    assert "gongzhu/ai/hard.py" in result.files
    assert "wheels" not in engine and not [f for f in result.files if f.endswith(".whl")]
    # The build's memory snapshot of the booted engine (what a first visit restores), gzipped and
    # named by its engine release; engine-worker.json gives its length unzipped.
    shipped = engine["snapshot"]
    assert shipped["url"] == f"./runtime/pyodide/engine-snapshot-{engine['release']}.gz"
    raw = gzip.decompress((previous_dist / shipped["url"]).read_bytes())
    assert len(raw) == shipped["bytes"] > 1_000_000
    assert raw[:4] == b"\0snp"  # Pyodide's snapshot header

    # The loading watchdog carries the notice in every language.
    boot = (previous_dist / "boot.js").read_text(encoding="utf-8")
    assert "Réessayer" in boot and "Спробувати ще раз" in boot and 'const TEXTS = {"en": {}}' not in boot


def _fake_npm_project(root: Path, version: str) -> None:
    lock = {
        "packages": {"": {"name": "x"}, "node_modules/pyodide": {"version": version, "integrity": "sha-1"}}
    }
    (root / "node_modules" / "pyodide").mkdir(parents=True)
    (root / "node_modules" / "pyodide" / "package.json").write_text("{}", encoding="utf-8")
    (root / "package.json").write_text(json.dumps({"dependencies": {"pyodide": version}}), encoding="utf-8")
    (root / "package-lock.json").write_text(json.dumps(lock), encoding="utf-8")
    installed = {"packages": {k: v for k, v in lock["packages"].items() if k}}
    (root / "node_modules" / ".package-lock.json").write_text(json.dumps(installed), encoding="utf-8")


def test_node_modules_is_checked_by_content_not_by_date(tmp_path: Path) -> None:
    _fake_npm_project(tmp_path, "0.29.0")
    lock = tmp_path / "package-lock.json"
    os.utime(lock, (lock.stat().st_atime, lock.stat().st_mtime + 3600))  # a fresh clone's newer file
    assert build.node_modules_stale(tmp_path) is None
    lock.write_text(lock.read_text().replace("0.29.0", "0.30.0"), encoding="utf-8")
    assert build.node_modules_stale(tmp_path) == "node_modules differs from package-lock.json"
    shutil.rmtree(tmp_path / "node_modules" / "pyodide")
    assert build.node_modules_stale(tmp_path) == "missing pyodide"


def test_the_engine_as_its_wheel_ships_the_wheels_named_with_their_hashes(tmp_path: Path) -> None:
    """``--engine-as wheel``: the engine's wheel and micropip's, each named in engine-worker.json with
    its SHA-256; no engine source file besides; the standard library with what micropip imports."""
    try:
        result = build.build(tmp_path / "dist", install=False, engine="wheel")
    except build.BuildError as exc:  # pragma: no cover - only without PyPI and without the cache
        pytest.skip(f"micropip's wheel cannot be had here: {exc}")
    engine = json.loads((result.dist / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
    assert engine["files"] == {}
    assert [f for f in result.files if f.startswith("gongzhu/")] == []
    # (the main thread's vocabulary is in its modules' file)
    assert "gongzhu/vocab.py" in json.loads((result.dist / build.UI_MODULES).read_text(encoding="utf-8"))
    wheels = [engine["wheels"]["micropip"], *engine["wheels"]["packages"]]
    assert [w["name"] for w in wheels] == [
        "micropip-0.11.1-py3-none-any.whl",
        "gongzhu-0.1.0-py3-none-any.whl",
    ]
    for wheel in wheels:
        shipped = result.dist / wheel["url"]
        assert hashlib.sha256(shipped.read_bytes()).hexdigest() == wheel["sha256"]
    assert engine["modules"] == build.engine_modules()
    assert engine["snapshot"]["url"] == f"./runtime/pyodide/engine-snapshot-{engine['release']}.gz"
    with zipfile.ZipFile(result.dist / "runtime/pyodide" / build.STDLIB_ZIP) as stdlib:
        assert "tarfile.py" in stdlib.namelist()  # micropip's, not the engine's


def _engine_site(dist: Path) -> list[str]:
    """A stand-in site: the files an engine release depends on, and one UI file."""
    files = {
        "gongzhu/__init__.py": "X = 1\n",
        "gongzhu/rules.py": "RULES = 1\n",
        build.WORKER_ENTRY: "from gongzhu import X\n",
        "engine-worker.js": "// worker\n",
        "runtime/pyodide/pyodide.asm.wasm": "wasm",
        "runtime/pyodide/python_stdlib.zip": "zip",
        "runtime/pyodide/pyodide-lock.json": "{}",
        "ui/shell/app.py": "APP = 1\n",
        build.WORKER_CONFIG_SHIPPED: json.dumps(
            {"interpreter": "./runtime/pyodide/pyodide.mjs", "files": {}}
        ),
    }
    for name, text in files.items():
        (dist / name).parent.mkdir(parents=True, exist_ok=True)
        (dist / name).write_text(text, encoding="utf-8")
    return ["gongzhu/__init__.py", "gongzhu/rules.py"]


def test_the_engine_release_follows_what_a_snapshot_of_the_engine_depends_on(tmp_path: Path) -> None:
    engine_files = _engine_site(tmp_path)
    first = build.add_engine_release(tmp_path, engine_files)
    config = json.loads((tmp_path / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
    assert config["release"] == first and config["entry"] == f"./{build.WORKER_ENTRY}"
    assert config["interpreter"] == "./runtime/pyodide/pyodide.mjs"  # the rest is kept
    # What a boot fetches, for the loading screen: Pyodide's wasm, stdlib and lock, the engine, the entry.
    assert config["download"] == len("wasm") + len("zip") + len("{}") + len("X = 1\nRULES = 1\n") + len(
        "from gongzhu import X\n"
    )

    (tmp_path / "ui" / "app.py").write_text("APP = 2\n", encoding="utf-8")
    assert build.add_engine_release(tmp_path, engine_files) == first  # a UI change keeps the snapshot
    # The shipped snapshot is made for a release, not part of it; a new release names none yet.
    (tmp_path / "runtime/pyodide/engine-snapshot-0123.gz").write_bytes(b"snapshot")
    config["snapshot"] = {"url": "./runtime/pyodide/engine-snapshot-0123.gz", "bytes": 8}
    (tmp_path / build.WORKER_CONFIG_SHIPPED).write_text(json.dumps(config), encoding="utf-8")
    assert build.add_engine_release(tmp_path, engine_files) == first
    assert "snapshot" not in json.loads((tmp_path / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
    releases = {first}
    for name in (
        "gongzhu/rules.py",
        build.WORKER_ENTRY,
        "engine-worker.js",
        "runtime/pyodide/pyodide.asm.wasm",
    ):
        (tmp_path / name).write_text((tmp_path / name).read_text(encoding="utf-8") + "\n", encoding="utf-8")
        release = build.add_engine_release(tmp_path, engine_files)
        assert release not in releases, name
        releases.add(release)
    # The engine as wheels, beside Pyodide's files: a new wheel is a new release, and a boot fetches it.
    wheels = {
        "micropip": {"url": "./runtime/pyodide/micropip.whl", "name": "micropip.whl", "sha256": "0"},
        "packages": [{"url": "./runtime/pyodide/engine.whl", "name": "engine.whl", "sha256": "1"}],
    }
    (tmp_path / "runtime/pyodide/micropip.whl").write_bytes(b"micropip")
    (tmp_path / "runtime/pyodide/engine.whl").write_bytes(b"engine")
    with_wheels = build.add_engine_release(tmp_path, [], wheels)
    config = json.loads((tmp_path / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
    assert config["wheels"] == wheels
    assert config["download"] == len("wasm\n") + len("zip") + len("{}") + len("micropip") + len(
        "engine"
    ) + len("from gongzhu import X\n\n")
    (tmp_path / "runtime/pyodide/engine.whl").write_bytes(b"engine B")
    assert build.add_engine_release(tmp_path, [], wheels) not in {*releases, with_wheels}


def test_a_page_whose_first_paint_needs_an_unshipped_file_fails_the_build(tmp_path: Path) -> None:
    """The preload hints name only files the build shipped, in place of the page's one marker."""
    dist = tmp_path / "dist"
    (dist / "runtime" / "micropython").mkdir(parents=True)
    (dist / "runtime" / "micropython" / "micropython.mjs").write_text("", encoding="utf-8")
    (dist / "runtime" / "micropython" / "micropython.wasm").write_text("", encoding="utf-8")
    (dist / "pyscript.toml").write_text(
        'interpreter = "./runtime/micropython/micropython.mjs"\n', encoding="utf-8"
    )
    page = f'<head>{preload.PRELOAD_MARKER}<script src="./boot.js"></script></head>'
    (dist / "index.html").write_text(page, encoding="utf-8")
    with pytest.raises(build.BuildError, match=r"did not ship: \['boot.js'\]"):
        preload.write_preloads(dist)
    (dist / "boot.js").write_text("", encoding="utf-8")
    assert preload.write_preloads(dist) == 3  # the script, MicroPython and its wasm
    shipped = (dist / "index.html").read_text(encoding="utf-8")
    assert preload.PRELOAD_MARKER not in shipped
    assert '<link rel="preload" href="./boot.js" as="script">' in shipped
    with pytest.raises(build.BuildError, match="exactly one"):
        preload.write_preloads(dist)  # the marker is gone: hints are written once
