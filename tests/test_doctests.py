"""The ``>>>`` examples in the engine's docstrings are run, so the documented figures stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import gongzhu

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(gongzhu.__path__, "gongzhu.")
    if info.name != "gongzhu.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (see above)"
