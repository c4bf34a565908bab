"""Every example written in a docstring of the engine and AI package holds (``>>>`` sessions)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import gongzhu

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(gongzhu.__path__, "gongzhu.") if not m.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_the_modules_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_examples_are_found() -> None:
    """The modules known to carry examples are among those read (a walk that finds none tests nothing)."""
    assert {"gongzhu.stats", "gongzhu.ai.habits", "gongzhu.ai.opponents", "gongzhu.ai.inhand"} <= set(MODULES)
    found = sum(doctest.testmod(importlib.import_module(n)).attempted > 0 for n in MODULES)
    assert found >= 4
