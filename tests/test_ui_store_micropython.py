"""The page's save loader (``ui.core.store.load``) run under the MicroPython that runs it in the page
(the shipped runtime's ``micropython.mjs``, in Node: no browser), for every broken save of
tests/broken_saves.py and for a good and an older save: the same answer as in CPython (the save used
or set aside, and why). This replaces loading each broken save into Chromium: the e2e test keeps one
save of each kind (tests/e2e/test_hostile_saves.py), what only the page shows (its notice, its
storage, a new match)."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import build
from sitebuild.paths import MAIN_THREAD_ENGINE
from tests.broken_saves import broken_saves, good_save, older_save, packed
from tests.test_ui_micropython import MICROPYTHON
from ui.core import store

#: Loads every module the main thread ships (ui/ and the engine's vocabulary) into MicroPython's file system, then runs LOAD_SAVES on the cases.
RUN_JS = """
const [mjs] = process.argv.slice(1);
const { loadMicroPython } = await import(mjs);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { modules, cases, program } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const said = [];
const mp = await loadMicroPython({ stdout: (line) => said.push(line), stderr: (line) => said.push(line) });
for (const [path, source] of Object.entries(modules)) {
  mp.FS.mkdirTree("/lib/" + path.split("/").slice(0, -1).join("/"));
  mp.FS.writeFile("/lib/" + path, source);
}
mp.globals.set("cases_json", JSON.stringify(cases.map(([name]) => [name, ""])));
mp.globals.set("texts", cases.map(([, text]) => text));  // each read as it is (a 4.5 MB save too)
try { mp.runPython(program); } catch (e) { said.push(String(e.message || e)); }
process.stdout.write(said.join("\\n"));
"""

#: What the page does with a stored save, run in either Python: ``[name, fields, problem, set aside]``.
LOAD_SAVES = """
import json
from ui.core import store

class Storage:
    def __init__(self):
        self.data = {}
    def getItem(self, key):
        return self.data.get(key)
    def setItem(self, key, value):
        self.data[key] = str(value)
    def removeItem(self, key):
        if key in self.data:
            del self.data[key]

answers = []
for index, (name, text) in enumerate(json.loads(cases_json)):
    text = texts[index] if texts else text
    storage = Storage()
    storage.setItem(store.SAVE_KEY, text)
    fields, problem = store.load(storage)
    kept = storage.getItem(store.CORRUPT_KEY) == text and storage.getItem(store.SAVE_KEY) is None
    answers.append([name, fields, problem, kept])
print("ANSWERS " + json.dumps(answers))
"""


def _cases() -> list[tuple[str, str]]:
    p = packed(11)
    cases = [(name, text) for name, text, _problem in broken_saves(p)]
    return [*cases, ("good", json.dumps(good_save(p))), ("older", older_save(p))]


def _in_cpython(cases: list[tuple[str, str]]) -> list[Any]:
    scope: dict[str, Any] = {"cases_json": json.dumps(cases), "texts": None}
    printed: list[str] = []
    scope["print"] = printed.append
    exec(LOAD_SAVES, scope)
    answers: list[Any] = json.loads(printed[-1].removeprefix("ANSWERS "))
    return answers


def _in_micropython(cases: list[tuple[str, str]]) -> list[Any]:
    build.ensure_node_modules()
    node = shutil.which("node")
    assert node, "Node.js is needed (it runs the build's snapshot maker too)"
    shipped = sorted((build.ROOT / "ui").rglob("*.py")) + [build.ROOT / p for p in MAIN_THREAD_ENGINE]
    modules = {path.relative_to(build.ROOT).as_posix(): path.read_text(encoding="utf-8") for path in shipped}
    payload = {"modules": modules, "cases": cases, "program": LOAD_SAVES}
    done = subprocess.run(
        [node, "--input-type=module", "-e", RUN_JS, MICROPYTHON.as_uri()],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("ANSWERS ")]
    assert lines, done.stdout[-3000:] + done.stderr[-3000:]
    answers: list[Any] = json.loads(lines[-1].removeprefix("ANSWERS "))
    return answers


def test_every_save_loads_in_micropython_as_in_cpython() -> None:
    cases = _cases()
    expected = {name: problem for name, _text, problem in broken_saves(packed(11))}
    cpython = _in_cpython(cases)
    assert _in_micropython(cases) == cpython
    for name, fields, problem, kept in cpython:
        if name in ("good", "older") or expected[name] == "engine":  # drawable: the engine's to refuse
            assert fields is not None and problem is None and not kept, name
        else:
            assert fields is None and problem == expected[name] and kept, name
    fields = {name: fields for name, fields, _problem, _kept in cpython}
    assert fields["older"]["hand_level"] == "hard"
    assert fields["good"] == store.decode(dict(cases)["good"])
