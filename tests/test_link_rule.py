"""Where a first visit fetches the build's engine snapshot rather than boot (web/link.js
``snapshotPays``, issue 42): where the bytes it adds over a boot's arrive, at the rate the page
measured, before a boot's CPU time is over; never on a link to spare. Run in Node, on the
engine-worker.json figures of a real build's shape."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

LINK = Path(__file__).resolve().parents[1] / "web" / "link.js"

#: The shape of a build's figures (bytes): the snapshot's download (it, Pyodide's wasm, standard
#: library and lock file) and a boot's download (Pyodide's files and the engine's modules).
SNAPSHOT = {"gzipped": 6_119_787, "download": 16_621_530}
BOOT_DOWNLOAD = 10_800_000

RUN = """
require(process.argv[1]);
const [snapshot, boot, cases] = JSON.parse(process.argv[2]);
console.log(JSON.stringify(cases.map((link) => self.gongzhuLink.snapshotPays(link, snapshot, boot))));
"""


def pays(*links: dict[str, object]) -> list[bool]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    args = json.dumps([SNAPSHOT, BOOT_DOWNLOAD, list(links)])
    out = subprocess.run(
        [node, "-e", "globalThis.self = globalThis;" + RUN, str(LINK), args],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    result: list[bool] = json.loads(out.stdout)
    return result


def mbps(rate: float) -> float:
    """Bytes per second of a link of ``rate`` Mbit/s."""
    return rate * 1e6 / 8


def test_the_snapshot_is_fetched_on_a_fast_link_only() -> None:
    loopback, fast, ten, phone = (mbps(r) for r in (1000, 40, 10, 2))
    assert pays({"rate": loopback}, {"rate": fast}, {"rate": ten}, {"rate": phone}) == [
        True,
        True,
        False,
        False,
    ]


def test_without_a_measure_the_browsers_estimate_decides() -> None:
    assert pays({"rate": 0, "downlink": 50}, {"rate": 0, "downlink": 2}, {}) == [True, False, False]


def test_never_on_a_link_to_spare_whatever_was_measured() -> None:
    fast = mbps(1000)
    assert pays(
        {"rate": fast, "saveData": True},
        {"rate": fast, "effectiveType": "2g"},
        {"rate": fast, "effectiveType": "4g", "downlink": 0.5},
    ) == [False, False, False]
