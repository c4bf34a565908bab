"""The service worker's precache list and release version, written into ``dist/sw.js``."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from .engine import is_snapshot
from .paths import WEB, BuildError, content_hash

#: The service worker; build.py rewrites its ``const BUILD = ...;`` line.
SERVICE_WORKER = "sw.js"

#: Shipped but never precached (the service worker itself is fetched by the browser).
NOT_PRECACHED: tuple[str, ...] = (SERVICE_WORKER,)

_SW_BUILD_LINE = re.compile(r"^const BUILD = .*;.*$", re.MULTILINE)


def write_service_worker(dist: Path) -> str:
    """Write the precache list and the release version into ``dist/sw.js``; return the version.

    Every shipped file (path relative to the site, size, content hash) is listed, and the
    version hashes them all (``lean``: the files not downloaded where the link is one to spare,
    web/link.js: the build's engine snapshot): any change to any file changes the service worker's bytes, so the
    browser installs it as an update, which fills a new cache and deletes the old one. Run it
    last, once everything else is in ``dist`` (tests rerun it on a modified copy of a build).
    """
    template = (WEB / SERVICE_WORKER).read_text(encoding="utf-8")
    if len(_SW_BUILD_LINE.findall(template)) != 1:
        raise BuildError(f"web/{SERVICE_WORKER} needs exactly one 'const BUILD = ...;' line")
    entries: list[tuple[str, int, str]] = []
    for path in sorted(dist.rglob("*")):
        rel = path.relative_to(dist).as_posix()
        if path.is_file() and rel not in NOT_PRECACHED:
            entries.append((rel, path.stat().st_size, content_hash(path)))
    digest = hashlib.sha256(json.dumps(entries).encode("utf-8")).hexdigest()[:16]
    lean = [rel for rel, _size, _hash in entries if is_snapshot(Path(rel))]
    data = json.dumps({"version": digest, "files": entries, "lean": lean}, separators=(",", ":"))
    line = f"const BUILD = {data}; // written by build.py"
    (dist / SERVICE_WORKER).write_text(_SW_BUILD_LINE.sub(lambda _m: line, template), encoding="utf-8")
    return digest
