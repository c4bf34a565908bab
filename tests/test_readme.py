"""Every code example of README.md runs and says what README says.

Python blocks written as ``>>>`` sessions run as doctests; other Python blocks must run without an
error. Shell blocks run line by line (``gongzhu`` is the installed command: here ``python -m gongzhu``
from this checkout): each must exit 0, print what its trailing comment quotes, and write the match
log it names. The first block's two commands are the build, run from a fresh clone by
``tests/test_fresh_clone.py``, and this very suite.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.MULTILINE | re.DOTALL)
#: The first block: covered by tests/test_fresh_clone.py (the build) and by being this suite.
FIRST_COMMANDS = ("python3 build.py --serve", "bash scripts/test.sh")


def blocks(language: str) -> list[tuple[int, str]]:
    text = README.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, m.start()) + 2, m.group(2))
        for m in FENCE.finditer(text)
        if m.group(1) == language
    ]


def commands() -> list[tuple[int, str]]:
    found = []
    for start, block in blocks("bash"):
        for offset, line in enumerate(block.splitlines()):
            if line.strip():
                found.append((start + offset, line.strip()))
    return found


def test_readme_starts_with_the_build_and_the_tests() -> None:
    firsts = [shlex.split(line, comments=True) for _lineno, line in commands()[:2]]
    assert [" ".join(words) for words in firsts] == list(FIRST_COMMANDS)


@pytest.mark.parametrize(("lineno", "source"), blocks("python"), ids=lambda v: str(v)[:12])
def test_python_example(lineno: int, source: str) -> None:
    if ">>>" in source:
        test = doctest.DocTestParser().get_doctest(source, {}, f"README.md:{lineno}", str(README), lineno)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, f"README.md:{lineno}: doctest failed (see above)"
    else:
        exec(compile(source, f"README.md:{lineno}", "exec"), {})


@pytest.mark.parametrize(("lineno", "line"), commands()[2:], ids=lambda v: str(v)[:40])
def test_command_example(lineno: int, line: str, tmp_path: Path) -> None:
    words = shlex.split(line, comments=True)
    assert words[0] == "gongzhu", f"README.md:{lineno}: examples use the gongzhu command"
    (tmp_path / "tests").symlink_to(ROOT / "tests")  # the example bot's path is relative to a clone
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "gongzhu", *words[1:]], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, f"README.md:{lineno}: {done.stderr}"
    _, _, comment = line.partition("  # ")
    for quoted in re.findall(r'"\w+": -?\w+', comment):  # e.g. "score": -840
        assert quoted in done.stdout, f"README.md:{lineno}: {quoted} not in {done.stdout[:300]}"
    if "--log" in words:
        log = tmp_path / words[words.index("--log") + 1]
        matches = [json.loads(text) for text in log.read_text(encoding="utf-8").splitlines()]
        assert len(matches) == int(words[words.index("--matches") + 1])
        assert all(match["final"]["complete"] for match in matches)


def layout_paths() -> list[str]:
    """Every path README's layout table names in its first column (``a/b.py``, ``c.py``: ``a/c.py``)."""
    text = README.read_text(encoding="utf-8")
    table = text.split("## Layout\n", 1)[1].split("\n## ", 1)[0]
    paths = []
    for row in re.findall(r"^\| (.+?) \| .* \|$", table, flags=re.MULTILINE)[1:]:
        folder = ""
        for name in re.findall(r"`([^`]+)`", row):
            if "/" in name.rstrip("/"):
                folder = name.rsplit("/", 1)[0] + "/"
                paths.append(name)
            else:
                paths.append(folder + name if folder and not name.endswith("/") else name)
    return paths


def test_the_layout_table_names_what_exists_and_every_top_level_entry() -> None:
    paths = layout_paths()
    assert len(paths) > 20
    assert [p for p in paths if not (ROOT / p).exists()] == []
    tracked = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    top = {name.split("/", 1)[0] + ("/" if "/" in name else "") for name in tracked if (ROOT / name).exists()}
    named = {p if p.endswith("/") or "/" not in p else p.split("/", 1)[0] + "/" for p in paths}
    unnamed = sorted(top - named - {"README.md", ".gitignore", ".npmrc"})
    assert unnamed == []


def test_the_readme_is_a_front_door() -> None:
    """At most 10,000 characters; its strength and timing summary holds at most 8 rows, each dated by
    day (the tables themselves are in bench/results/)."""
    text = README.read_text(encoding="utf-8")
    assert len(text) <= 10_000, len(text)
    summary = text.split("## Strength and timing\n", 1)[1].split("\n## ", 1)[0]
    rows = [
        line for line in summary.splitlines() if line.startswith("| ") and not line.startswith("| measure")
    ]
    assert 0 < len(rows) <= 8
    assert all(re.search(r"\| \d{4}-\d{2}-\d{2} \|$", row) for row in rows), rows
    assert not re.search(r"\d{2}:\d{2} UTC|\d{4}-\d{2}-\d{2}T\d{2}", text)
    for linked in re.findall(r"\]\(([^)#]+)\)", text):
        assert (ROOT / linked).exists(), linked
