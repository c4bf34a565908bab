"""The runtime files copied from ``node_modules`` into the site: PyScript, MicroPython, Pyodide."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from .paths import NODE_MODULES, BuildError, copy_file

#: Runtime files copied from ``node_modules``: (package dir, glob patterns, dist dir).
#: Only what the page actually loads is shipped (checked by the e2e tests, which fail on
#: any 404 or outside request). PyScript's chunk file names carry a content hash, hence
#: the patterns; each pattern must match exactly one file so that an upgrade that renames
#: or splits chunks fails the build instead of shipping a broken site.
PYSCRIPT_PATTERNS: tuple[str, ...] = (
    "core.js",
    "core.css",
    "core-*.js",
    "error-*.js",
)

#: Where PyScript's files ship in the site (its entry, core and chunks: the page's first modules).
PYSCRIPT_SHIPPED = "runtime/pyscript"

RUNTIME_FILES: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("@pyscript/core/dist", PYSCRIPT_PATTERNS, PYSCRIPT_SHIPPED),
    (
        "@micropython/micropython-webassembly-pyscript",
        ("micropython.mjs", "micropython.wasm"),
        "runtime/micropython",
    ),
    (
        "pyodide",
        (
            "pyodide.mjs",
            "pyodide.asm.mjs",
            "pyodide.asm.wasm",
            "python_stdlib.zip",
            "pyodide-lock.json",
        ),
        "runtime/pyodide",
    ),
)


def _match_one(directory: Path, pattern: str) -> Path:
    matches = sorted(p for p in directory.iterdir() if p.is_file() and fnmatch.fnmatch(p.name, pattern))
    if len(matches) != 1:
        names = ", ".join(p.name for p in matches) or "nothing"
        raise BuildError(f"{directory}/{pattern} must match exactly one file, matched {names}")
    return matches[0]


#: PyScript's TOML parser, loaded to read pyscript.toml: two chunks match ``toml-*.js`` (the other
#: serves the unused editor plugins), so the one to ship is the one PyScript's core chunk imports.
TOML_CHUNK = re.compile(r"\./(toml-[\w-]+\.js)")


def copy_runtime(dist: Path) -> None:
    for package_dir, patterns, dest_dir in RUNTIME_FILES:
        src_dir = NODE_MODULES / package_dir
        if not src_dir.is_dir():
            raise BuildError(f"{src_dir} is missing; run npm ci")
        for pattern in patterns:
            src = _match_one(src_dir, pattern)
            copy_file(src, dist / dest_dir / src.name)
    pyscript_dir = NODE_MODULES / RUNTIME_FILES[0][0]
    core = _match_one(pyscript_dir, "core-*.js")
    chunks = sorted(set(TOML_CHUNK.findall(core.read_text(encoding="utf-8"))))
    if len(chunks) != 1:
        raise BuildError(f"{core.name} must import exactly one toml-*.js chunk, imports {chunks or 'none'}")
    copy_file(pyscript_dir / chunks[0], dist / PYSCRIPT_SHIPPED / chunks[0])
