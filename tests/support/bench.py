"""The benchmarks' modules for the tests: ``bench/`` is no package, so its scripts are loaded from
their files."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent.parent / "bench"


def bench_module(name: str) -> ModuleType:
    """The module of ``bench/<name>.py``, known by its name as when a benchmark script imports it (so
    that a script importing another, as ``able`` imports ``panel``, finds the one loaded here)."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
