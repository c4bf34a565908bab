"""The engine snapshot's digest (web/engine-boot.mjs, issue 41): the worker stores a snapshot with
the SHA-256 ``snapshotDigest`` computes and restores it only when ``checkSnapshot`` finds the same
digest in its bytes. Run in Node (the Web Crypto API the worker uses is Node's too); the browser's
side, a stored snapshot with flipped bytes booting normally, is tests/e2e/test_snapshot.py's."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

BOOT = Path(__file__).resolve().parents[1] / "web" / "engine-boot.mjs"

#: Reads cases [[bytes as a list, expected digest or null], ...] from argv; prints, for each, the
#: digest snapshotDigest() computes and checkSnapshot()'s outcome ("ok" or its error's message).
RUN = """
const { snapshotDigest, checkSnapshot } = await import(process.argv[1]);
const out = [];
for (const [list, expected] of JSON.parse(process.argv[2])) {
  const bytes = new Uint8Array(list);
  const digest = await snapshotDigest(bytes);
  let outcome;
  try { outcome = (await checkSnapshot(bytes, expected)) === bytes ? 'ok' : 'other bytes'; }
  catch (error) { outcome = error.message; }
  out.push([digest, outcome]);
}
console.log(JSON.stringify(out));
"""


def run(cases: list[tuple[bytes, str | None]]) -> list[list[str]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    args = json.dumps([[list(data), expected] for data, expected in cases])
    done = subprocess.run(
        [node, "--input-type=module", "-e", RUN, BOOT.as_uri(), args],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    found: list[list[str]] = json.loads(done.stdout)
    return found


def test_a_snapshot_is_restored_only_with_the_digest_stored_with_it() -> None:
    rng = random.Random(41)
    data = bytes(rng.randrange(256) for _ in range(4096))
    digest = hashlib.sha256(data).hexdigest()
    flipped = bytearray(data)
    for i in rng.sample(range(len(data)), 64):  # 64 scattered bytes flipped
        flipped[i] ^= 0xFF
    one_bit = bytearray(data)
    one_bit[-1] ^= 1
    cases: list[tuple[bytes, str | None]] = [
        (data, digest),
        (bytes(flipped), digest),
        (bytes(one_bit), digest),
        (data, None),  # (stored before digests)
        (data, ""),
        (b"", hashlib.sha256(b"").hexdigest()),
    ]
    found = run(cases)
    assert [d for d, _outcome in found] == [hashlib.sha256(c).hexdigest() for c, _e in cases]
    assert found[0][1] == "ok"
    for damaged in (found[1], found[2]):
        assert damaged[1] == f"SHA-256 {damaged[0]}, not the {digest} stored"
    assert found[3][1] == found[4][1] == "no digest stored"
    assert found[5][1] == "ok"
