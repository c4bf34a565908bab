"""``--engine-as wheel``: the engine shipped as a wheel and installed in the worker by micropip: the
engine's wheel (the package ``pip install .`` installs, built here with the standard library),
micropip's wheel from PyPI pinned by its SHA-256 (:data:`MICROPIP`), both beside Pyodide's files,
named with their hashes in ``engine-worker.json`` (``wheels``), which the boot checks before it
installs anything (web/engine-boot.mjs). Not the default form: it made the first visit at 2 Mbit/s
slower than the engine's module files (bench/results/first-visit.md)."""

from __future__ import annotations

import base64
import hashlib
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .paths import NODE_MODULES, ROOT, BuildError, log


@dataclass(frozen=True)
class PinnedWheel:
    """A wheel the build downloads from PyPI and ships only with the SHA-256 pinned here."""

    requirement: str  # what pip downloads, e.g. "micropip==0.11.1"
    file_name: str  # the wheel's file name, as PyPI serves it
    sha256: str  # hex digest of the file: any other bytes fail the build


#: micropip, the installer the worker boots with. Not the build in Pyodide's npm package (which has
#: no wheels) nor ``pyodide-lock.json``'s (another build, another hash): PyPI's, which vendors its
#: one dependency (packaging), so nothing else is needed.
MICROPIP = PinnedWheel(
    requirement="micropip==0.11.1",
    file_name="micropip-0.11.1-py3-none-any.whl",
    sha256="768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
)

#: Where downloaded pinned wheels are kept between builds (not in git, like node_modules).
WHEEL_CACHE = ROOT / ".wheels"

#: Where the wheels are shipped: beside Pyodide's files, so that a first visit's engine hands their
#: download to the service worker like Pyodide's (web/engine-worker.js, web/sw.js), and the engine
#: release, which hashes that folder, follows them.
WHEEL_DIR = "runtime/pyodide"

#: The zip entries' date: a wheel's bytes depend on its sources only.
_EPOCH = (1980, 1, 1, 0, 0, 0)


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check_pinned(path: Path, pin: PinnedWheel) -> None:
    """Fail the build unless ``path`` holds exactly the pinned bytes."""
    found = sha256_of(path)
    if found != pin.sha256:
        raise BuildError(
            f"{path.name}: sha256 {found} is not the pinned {pin.sha256} (sitebuild/wheels.py): "
            f"a damaged or replaced download; delete {path} and build again"
        )


def _pyodide_python() -> str:
    """The Python version of the Pyodide that ships (``3.14``): the wheel pip must pick for it."""
    import json

    lock = json.loads((NODE_MODULES / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    return ".".join(str(lock["info"]["python"]).split(".")[:2])


def fetch_pinned(pin: PinnedWheel, cache: Path | None = None) -> Path:
    """The pinned wheel from ``cache`` (:data:`WHEEL_CACHE`), downloaded from PyPI with pip first
    when it is not there; checked against its pin either way (:func:`check_pinned`)."""
    cache = cache or WHEEL_CACHE
    path = cache / pin.file_name
    if not path.is_file():
        cache.mkdir(parents=True, exist_ok=True)
        log(f"pip download {pin.requirement}")
        with tempfile.TemporaryDirectory(dir=cache) as tmp:
            command = [sys.executable, "-m", "pip", "download", pin.requirement, "--no-deps"]
            command += ["--only-binary=:all:", "--python-version", _pyodide_python(), "--dest", tmp, "-q"]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            got = Path(tmp) / pin.file_name
            if done.returncode != 0 or not got.is_file():
                detail = done.stderr.strip().splitlines()[-1:] or [f"no {pin.file_name}"]
                raise BuildError(f"pip download {pin.requirement} failed: {detail[0]}")
            check_pinned(got, pin)
            got.replace(path)
    check_pinned(path, pin)
    return path


def _project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as fh:
        project: dict[str, Any] = tomllib.load(fh)["project"]
    return project


def _package_sources(root: Path = ROOT) -> list[Path]:
    """The files of the packages ``pyproject.toml`` includes (``gongzhu`` and every subpackage):
    their ``.py`` files, as setuptools' package discovery ships them."""
    with (root / "pyproject.toml").open("rb") as fh:
        include: list[str] = tomllib.load(fh)["tool"]["setuptools"]["packages"]["find"]["include"]
    tops = sorted({name.split(".")[0] for name in include})
    found: list[Path] = []
    for top in tops:
        found += [p for p in sorted((root / top).rglob("*.py")) if "__pycache__" not in p.parts]
    return found


def _metadata(project: dict[str, Any]) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
    ]
    if "license" in project:
        lines.append(f"License: {project['license']['text']}")
    lines.append(f"Requires-Python: {project['requires-python']}")
    for extra, requirements in sorted(project.get("optional-dependencies", {}).items()):
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {r}; extra == "{extra}"' for r in requirements]
    return "\n".join(lines) + "\n"


def engine_wheel_name(project: dict[str, Any] | None = None) -> str:
    project = project or _project()
    return f"{project['name']}-{project['version']}-py3-none-any.whl"


def build_engine_wheel(dest_dir: Path, root: Path = ROOT) -> Path:
    """Write the engine's wheel (``<name>-<version>-py3-none-any.whl``: what ``pip install .``
    installs: the packages ``pyproject.toml`` includes, its metadata and console scripts) into
    ``dest_dir``; its path. Built with the standard library (``pip wheel`` would download setuptools
    on every build), byte for byte the same from the same sources."""
    project = _project()
    name = f"{project['name']}-{project['version']}"
    info = f"{name}.dist-info"
    entries: list[tuple[str, bytes]] = [
        (p.relative_to(root).as_posix(), p.read_bytes()) for p in _package_sources(root)
    ]
    entries.append((f"{info}/METADATA", _metadata(project).encode()))
    wheel = "Wheel-Version: 1.0\nGenerator: gongzhu-build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries.append((f"{info}/WHEEL", wheel.encode()))
    scripts = project.get("scripts", {})
    if scripts:
        text = "[console_scripts]\n" + "".join(f"{k} = {v}\n" for k, v in sorted(scripts.items()))
        entries.append((f"{info}/entry_points.txt", text.encode()))
    tops = sorted({path.split("/")[0] for path, _ in entries if not path.startswith(info)})
    entries.append((f"{info}/top_level.txt", "".join(f"{t}\n" for t in tops).encode()))
    record = []
    for path, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    entries.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))

    dest_dir.mkdir(parents=True, exist_ok=True)
    target = dest_dir / engine_wheel_name(project)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for path, data in entries:
            member = zipfile.ZipInfo(path, date_time=_EPOCH)
            member.external_attr = 0o644 << 16
            member.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(member, data, compresslevel=9)
    return target


def wheel_entry(dist: Path, path: Path) -> dict[str, Any]:
    """``engine-worker.json``'s entry for a shipped wheel: its URL, file name and SHA-256."""
    return {"url": f"./{path.relative_to(dist).as_posix()}", "name": path.name, "sha256": sha256_of(path)}


def ship_wheels(dist: Path, cache: Path | None = None) -> dict[str, Any]:
    """Put micropip's wheel (pinned) and the engine's into ``dist``; their ``wheels`` entry for
    ``engine-worker.json``: ``{"micropip": entry, "packages": [entry]}`` (:func:`wheel_entry`)."""
    from .paths import copy_file

    target = dist / WHEEL_DIR
    micropip = target / MICROPIP.file_name
    copy_file(fetch_pinned(MICROPIP, cache), micropip)
    check_pinned(micropip, MICROPIP)
    engine = build_engine_wheel(target)
    return {"micropip": wheel_entry(dist, micropip), "packages": [wheel_entry(dist, engine)]}
