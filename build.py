#!/usr/bin/env python3
"""Assemble the static site in ``dist/`` and optionally serve it.

Usage::

    python3 build.py                    # npm ci if needed, then build dist/
    python3 build.py --serve [--port N] [--prefix /gongzhu/]
    python3 build.py --engine-stdlib    # probe the engine in Pyodide (Node), rewrite tools/*-stdlib.txt
    python3 build.py --engine-as wheel  # the engine as its wheel, installed by micropip (to compare)

The build needs the standard library and npm, nothing else (``--engine-as wheel`` needs pip too:
micropip's wheel, pinned by hash, is downloaded from PyPI once into ``.wheels/``). It is atomic: the
site is assembled in a temporary folder beside ``dist/``, which replaces ``dist/`` only when every
step succeeded; a failed build prints one line, exits non-zero and leaves the previous ``dist/`` as
it was.

This file is the command; the steps are the ``sitebuild`` package, one job per module:

==================  ==============================================================================
``paths``           where the build reads and writes; ``BuildError``
``npm``             ``npm ci`` when ``node_modules`` does not hold what ``package-lock.json`` pins
``runtime``         PyScript, MicroPython and Pyodide copied from ``node_modules`` (nothing from a CDN)
``configs``         ``pyscript.toml`` and ``engine-worker.json`` as shipped, with their ``[files]``
``engine``          the modules the engine worker imports; the engine release
``wheels``          (``--engine-as wheel``) the engine's wheel and micropip's, pinned by hash
``node``            the engine booted in Node by ``web/engine-boot.mjs``, the worker's own boot script
``stdlib``          Pyodide's standard library trimmed to what the engine imports
``snapshot``        the build's memory snapshot of the booted engine
``service_worker``  the precache list and release version in ``sw.js``
``site``            every step, then ``dist/`` replaced (:func:`build`)
``serve``           ``dist/`` served on 127.0.0.1 under a sub-path (:class:`SiteServer`)
==================  ==============================================================================

The names below are re-exported for the tests, the benchmarks and the tools (``import build``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from sitebuild.configs import write_pyscript_configs
from sitebuild.engine import add_engine_release, engine_files, engine_modules
from sitebuild.npm import ensure_node_modules, node_modules_stale
from sitebuild.paths import (
    DIST,
    MAIN_CONFIG,
    MAIN_ENTRY,
    MAIN_THREAD_ENGINE,
    NODE_MODULES,
    PAGE,
    ROOT,
    UI_MODULES,
    WORKER_CONFIG_SHIPPED,
    WORKER_ENTRY,
    WORKER_INTERPRETER,
    BuildError,
    log,
)
from sitebuild.runtime import RUNTIME_FILES
from sitebuild.serve import SiteServer, serve_in_thread, serving
from sitebuild.service_worker import write_service_worker
from sitebuild.site import ENGINE_FORMS, BuildResult, build
from sitebuild.snapshot import add_engine_snapshot
from sitebuild.stdlib import (
    ENGINE_STDLIB,
    STDLIB_ZIP,
    check_engine_stdlib,
    probe_engine_stdlib,
    read_engine_stdlib,
    trim_stdlib,
    write_engine_stdlib,
)

__all__ = [
    "DIST",
    "ENGINE_FORMS",
    "ENGINE_STDLIB",
    "MAIN_CONFIG",
    "MAIN_ENTRY",
    "MAIN_THREAD_ENGINE",
    "NODE_MODULES",
    "PAGE",
    "ROOT",
    "RUNTIME_FILES",
    "STDLIB_ZIP",
    "UI_MODULES",
    "WORKER_CONFIG_SHIPPED",
    "WORKER_ENTRY",
    "WORKER_INTERPRETER",
    "BuildError",
    "BuildResult",
    "SiteServer",
    "add_engine_release",
    "add_engine_snapshot",
    "build",
    "check_engine_stdlib",
    "engine_files",
    "engine_modules",
    "ensure_node_modules",
    "main",
    "node_modules_stale",
    "probe_engine_stdlib",
    "read_engine_stdlib",
    "serve_in_thread",
    "serving",
    "trim_stdlib",
    "write_engine_stdlib",
    "write_pyscript_configs",
    "write_service_worker",
]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--serve", action="store_true", help="serve dist/ on 127.0.0.1 after building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (0 = any free port)")
    parser.add_argument("--prefix", default="/gongzhu/", help="sub-path the site is served under")
    parser.add_argument("--no-build", action="store_true", help="serve the existing dist/ as it is")
    parser.add_argument(
        "--engine-as",
        choices=ENGINE_FORMS,
        default=ENGINE_FORMS[0],
        help="ship the engine as its module files (default) or as its wheel, installed by micropip",
    )
    parser.add_argument(
        "--engine-stdlib",
        action="store_true",
        help=f"probe the engine in Pyodide (Node) and rewrite {ENGINE_STDLIB} first",
    )
    args = parser.parse_args(argv)

    if args.engine_stdlib:
        log(f"{ENGINE_STDLIB}: {len(write_engine_stdlib())} standard library files")

    if not args.no_build:
        try:
            ensure_node_modules()
            build(DIST, install=False, engine=args.engine_as)
        except Exception as exc:  # any failure: one line, the previous dist/ untouched
            detail = str(exc).strip().splitlines() or [type(exc).__name__]
            more = f" (+{len(detail) - 1} more lines)" if len(detail) > 1 else ""
            log(f"error: the build failed, dist/ was left as it was: {detail[0]}{more}")
            for line in detail[1:]:
                print(f"  {line}", file=sys.stderr)
            return 1
    elif not (DIST / PAGE).is_file():
        log("error: dist/ is not built: run python3 build.py")
        return 1

    if args.serve:
        server = SiteServer(DIST, args.prefix, args.port, verbose=True)
        print(f"Serving {DIST} at {server.url}  (Ctrl-C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
