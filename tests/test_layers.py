"""The tests in layers: every unit test file loads where Playwright is not installed, and the
benchmarks and the tools import nothing from the tests (what they share with the e2e tests lives in
tools/browser.py and tools/replay.py)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Imports every module named on the command line with Playwright made unimportable.
BLOCKED_IMPORT = """
import importlib, sys
class NoPlaywright:
    def find_spec(self, name, path=None, target=None):
        if name == "playwright" or name.startswith("playwright."):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by tests/test_layers.py)")
        return None
sys.meta_path.insert(0, NoPlaywright())
for name in sys.argv[1:]:
    importlib.import_module(name)
"""


def _unit_modules() -> list[str]:
    here = Path(__file__).parent
    names = [f"tests.{p.stem}" for p in sorted(here.glob("test_*.py"))]
    names += [f"tests.support.{p.stem}" for p in sorted((here / "support").glob("*.py"))]
    return names


def test_every_unit_test_file_loads_without_playwright() -> None:
    modules = _unit_modules()
    assert "tests.test_layers" in modules and "tests.support.replay" in modules
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_IMPORT, *modules], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_the_benchmarks_and_the_tools_import_nothing_from_the_tests() -> None:
    files = sorted((ROOT / "bench").rglob("*.py")) + sorted((ROOT / "tools").rglob("*.py"))
    assert len(files) > 10
    found = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        for name in _imported(path)
        if name == "tests" or name.startswith("tests.")
    }
    assert not found, found


def test_a_block_of_playwright_is_noticed() -> None:
    """The first check can fail: a module that imports Playwright does not load under it."""
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_IMPORT, "tests.e2e.conftest"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode != 0 and "blocked by tests/test_layers.py" in done.stderr
