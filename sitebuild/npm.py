"""The browser runtime's npm packages: ``npm ci`` when ``node_modules`` does not hold what
``package-lock.json`` pins."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from .paths import ROOT, BuildError, log


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
