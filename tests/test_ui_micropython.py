"""Every module of ``ui/`` compiles under the MicroPython that runs it in the page.

CPython accepts syntax MicroPython does not (``[*a, *b]``, for one), and mypy and the unit tests run
on CPython: a module that only MicroPython refuses would pass them all and leave the page on "the
game did not load". The compiler here is the shipped runtime's own (the npm package's
``micropython.mjs``, run in Node). ``ui/main.py`` is PyScript's entry, run with top-level await: it
is compiled as the body of an ``async def``, as PyScript runs it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import build

MICROPYTHON = build.NODE_MODULES / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
#: The PyScript entry: top-level await.
ENTRY = "ui/main.py"
#: Modules that never run under MicroPython: the engine worker's entry runs in Pyodide.
NOT_MICROPYTHON = {"ui/engine_worker.py"}

COMPILE_JS = """
const [mjs] = process.argv.slice(1);
const { loadMicroPython } = await import(mjs);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const payload = Buffer.concat(chunks).toString("utf8");
const mp = await loadMicroPython({ stdout: () => {}, stderr: () => {} });
const refused = {};
for (const [name, source] of Object.entries(JSON.parse(payload))) {
  mp.globals.set("source", source);
  mp.globals.set("name", name);
  try { mp.runPython("compile(source, name, 'exec')"); }
  catch (e) { refused[name] = String(e.message || e).trim().split("\\n").pop(); }
}
process.stdout.write(JSON.stringify(refused));
"""


def refused(sources: dict[str, str]) -> dict[str, str]:
    """``{name: MicroPython's SyntaxError}`` for each source MicroPython's compiler refuses."""
    build.ensure_node_modules()
    node = shutil.which("node")
    assert node, "Node.js is needed (it runs the build's snapshot maker too)"
    done = subprocess.run(
        [node, "--input-type=module", "-e", COMPILE_JS, MICROPYTHON.as_uri()],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result: dict[str, str] = json.loads(done.stdout)
    return result


def as_run(path: Path) -> str:
    source = path.read_text(encoding="utf-8")
    if path.relative_to(build.ROOT).as_posix() != ENTRY:
        return source
    return "async def _entry():\n" + "".join("    " + line for line in source.splitlines(keepends=True))


def test_every_ui_module_compiles_under_micropython() -> None:
    modules = {
        path.relative_to(build.ROOT).as_posix(): as_run(path)
        for path in sorted((build.ROOT / "ui").rglob("*.py"))
        if path.relative_to(build.ROOT).as_posix() not in NOT_MICROPYTHON
    }
    assert len(modules) > 20
    assert refused(modules) == {}


def test_the_check_catches_what_only_cpython_accepts() -> None:
    compile("x = [*a, *b]", "<cpython>", "exec")  # CPython takes it ...
    assert (
        "*x must be assignment target" in refused({"star.py": "x = [*a, *b]"})["star.py"]
    )  # ... MicroPython not
    assert refused({"fine.py": "x = a + b"}) == {}
