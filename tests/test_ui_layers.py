"""The UI's folders keep the layers their names promise: ``ui/core`` (the state, its transitions and
the effects) imports neither ``ui/view`` nor ``ui/features`` when it runs, nor names them through
``later.modules``; ``ui/features`` (the features' state and transitions) imports neither the view nor
the shell nor the runner: what they say travels as message codes (``ui/core/words.py``) the view
words; and neither imports the browser (the view does only to load a catalog, ``ui/view/i18n.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = sorted((ROOT / "ui" / "core").glob("*.py"))
FEATURES = sorted((ROOT / "ui" / "features").glob("*.py"))


def _runtime_imports(path: Path) -> list[str]:
    """The modules ``path`` imports when it runs (``if TYPE_CHECKING:`` blocks left out), and the
    ``ui.<name>`` modules it names through ``later.modules``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if (
                isinstance(node, ast.If)
                and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"
            ):
                visit(node.orelse)
                continue
            for sub in ast.walk(node):
                if isinstance(sub, ast.Import):
                    found.extend(alias.name for alias in sub.names)
                elif isinstance(sub, ast.ImportFrom) and sub.module:
                    found.extend(sub.module + "." + alias.name for alias in sub.names)
                elif (
                    isinstance(sub, ast.Call)
                    and isinstance(sub.func, ast.Attribute)
                    and sub.func.attr == "modules"
                ):
                    found.extend("ui." + a.value for a in sub.args if isinstance(a, ast.Constant))

    visit(tree.body)
    return found


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_the_core_imports_neither_the_view_nor_the_features(path: Path) -> None:
    upward = [
        m for m in _runtime_imports(path) if m.startswith(("ui.view", "ui.features", "ui.shell", "ui.runner"))
    ]
    assert upward == [], f"{path.name} imports {upward}"


@pytest.mark.parametrize("path", FEATURES, ids=lambda p: p.name)
def test_the_features_import_neither_the_view_nor_the_shell_nor_the_runner(path: Path) -> None:
    upward = [m for m in _runtime_imports(path) if m.startswith(("ui.view", "ui.shell", "ui.runner"))]
    assert upward == [], f"{path.name} imports {upward}"


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from ui.core import later\nfrom ui.view import texts\n"
        "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from ui.features import record\n"
        "else:\n    review = later.modules('features.review')\n",
        encoding="utf-8",
    )
    assert _runtime_imports(module) == ["ui.core.later", "ui.view.texts", "ui.features.review"]


def _state_branches(path: Path) -> list[int]:
    """The lines of ``path`` whose ``if``, ``while`` or conditional expression reads the page's UI
    state (the module's ``s``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.If, ast.IfExp, ast.While)) and any(
            isinstance(sub, ast.Name) and sub.id == "s" for sub in ast.walk(node.test)
        ):
            lines.append(node.lineno)
    return lines


@pytest.mark.parametrize(
    "path", [*sorted((ROOT / "ui" / "shell").glob("*.py")), ROOT / "ui" / "main.py"], ids=lambda p: p.name
)
def test_the_shell_holds_no_decision_on_the_ui_state(path: Path) -> None:
    """What an event does given the state is a transition's (``ui/actions.py``: ``on_key``'s plan;
    the loading bar's ticker: ``ui/features/boot.py`` ``loading``)."""
    assert _state_branches(path) == [], path.name


def test_the_branch_check_sees_a_branch_on_the_state(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("if key == 'Escape' and s.screen.panel:\n    pass\nx = 1 if plan.prevent else 2\n")
    assert _state_branches(module) == [1]


@pytest.mark.parametrize("part", ["core", "features"])
def test_nothing_below_the_shell_imports_the_browser(part: str) -> None:
    for path in sorted((ROOT / "ui" / part).glob("*.py")):
        names = _runtime_imports(path)
        assert not [n for n in names if n.startswith("pyscript")], path.name
