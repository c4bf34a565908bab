"""A newcomer's first minutes, from a fresh checkout on a fresh virtual environment:

* ``python3 build.py --serve`` (README's first command) provisions the npm runtime itself, builds
  with the standard library alone (no Babel, none of the test extras) and serves the game;
* ``pip install`` of the wheel installs the whole engine and AI and a ``gongzhu`` command that plays
  ``simulate --players hard,normal,easy,random`` and ``score``.

The checkout holds exactly the files a clone of this work tree would (``git ls-files``: tracked and
new, not ignored), with their current content. Slow-ish (npm ci from npm's cache, a wheel build):
marked ``slow``, which the whole suite (scripts/test.sh) still runs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    target = tmp_path_factory.mktemp("clone") / "gongzhu"
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file() and not src.is_symlink():  # node_modules is a symlink in some work trees
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target / rel)
    assert not (target / "node_modules").exists() and not (target / "dist").exists()
    return target


def _fresh_venv(path: Path, with_pip: bool) -> Path:
    """A virtual environment without the system's packages; its python."""
    venv.EnvBuilder(with_pip=with_pip, clear=True).create(path)
    return path / "bin" / "python"


def _clean_env() -> dict[str, str]:
    return {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "VIRTUAL_ENV", "CI", "GONGZHU_I18N_STRICT")
    }


@pytest.fixture
def served(checkout: Path, tmp_path: Path) -> Iterator[str]:
    """``python3 build.py --serve`` in the checkout, run by a fresh venv's python; the site's URL."""
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    python = _fresh_venv(tmp_path / "venv", with_pip=False)
    no_babel = subprocess.run([python, "-c", "import babel"], capture_output=True, env=_clean_env())
    assert no_babel.returncode != 0, "the fresh venv must not have Babel"
    server = subprocess.Popen(
        [python, "build.py", "--serve", "--port", "0"],
        cwd=checkout, env=_clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        for line in server.stdout:  # npm's output, then "Serving <dist> at <url>  (Ctrl-C to stop)"
            if line.startswith("Serving"):
                break
        else:
            pytest.fail(f"build.py --serve did not serve: {server.communicate()[1]}")
        yield line.split(" at ", 1)[1].split()[0]
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_first_command_builds_and_serves_from_a_fresh_clone(served: str, checkout: Path) -> None:
    assert (checkout / "node_modules" / ".package-lock.json").is_file()  # npm ci ran
    with urllib.request.urlopen(served) as page:
        assert b'src="./ui/main.py"' in page.read()
    with urllib.request.urlopen(served + "pyscript.toml") as config:
        assert b"[files]" in config.read()
    for language in ("en", "zh", "fr", "pt", "uk"):
        with urllib.request.urlopen(f"{served}locales/{language}.json") as catalog:
            messages = json.loads(catalog.read())
        assert len(messages) > 100 and all(messages.values())


def test_the_wheel_installs_the_engine_the_ai_and_the_gongzhu_command(checkout: Path, tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", wheels, checkout],
        capture_output=True, text=True, env=_clean_env(),
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = wheels.glob("gongzhu-*.whl")
    python = _fresh_venv(tmp_path / "venv", with_pip=True)
    installed = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-index", "--no-deps", wheel],
        capture_output=True,
        text=True,
    )
    assert installed.returncode == 0, installed.stderr
    gongzhu = python.parent / "gongzhu"
    run = tmp_path / "elsewhere"  # not the checkout: only the installed package can answer
    run.mkdir()
    env = _clean_env()

    where = subprocess.run([python, "-c", "import gongzhu.ai; print(gongzhu.ai.__file__)"], cwd=run, env=env,
                           capture_output=True, text=True, check=True)  # fmt: skip
    assert str(tmp_path / "venv") in where.stdout

    simulated = subprocess.run(
        [gongzhu, "simulate", "--players", "hard,normal,easy,random", "--max-hands", "1"],
        cwd=run, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert simulated.returncode == 0, simulated.stderr
    match = json.loads(simulated.stdout.splitlines()[0])
    assert match["players"] == ["hard", "normal", "easy", "random"]
    assert len(match["hands"]) == 1 and match["final"]["complete"] is False

    scored = subprocess.run(
        [gongzhu, "score", "--captured", "TC,QS,7H", "--exposed", "TC,QS"], cwd=run, env=env,
        capture_output=True, text=True,
    )  # fmt: skip
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["score"] == -840
