"""The engine snapshot's digest (web/engine-boot.mjs, issue 41): the worker stores a snapshot with
the SHA-256 ``snapshotDigest`` computes and restores it only when ``checkSnapshot`` finds the same
digest in its bytes. Run in Node (the Web Crypto API the worker uses is Node's too); the browser's
side, a stored snapshot with flipped bytes booting normally, is tests/e2e/test_snapshot.py's."""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

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


def in_node(script: str, cases: list[Any]) -> Any:
    """``script`` (an ES module importing web/engine-boot.mjs from ``argv[1]``) run in Node on ``cases``
    (``argv[2]``, as JSON); what it prints, read as JSON."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run(
        [node, "--input-type=module", "-e", script, BOOT.as_uri(), json.dumps(cases)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)


def run(cases: list[tuple[bytes, str | None]]) -> list[list[str]]:
    found: list[list[str]] = in_node(RUN, [[list(data), expected] for data, expected in cases])
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


#: Reads [[kind, bytes as a list, headers or the shipped figures], ...] from argv (kind "stored": a
#: cached snapshot with its headers; "shipped": the build's gzipped one with engine-worker.json's
#: {bytes, sha256}); prints, for each, what the worker's read gives: "ok" or its error's message.
READ = """
const boot = await import(process.argv[1]);
const out = [];
for (const [kind, list, extra] of JSON.parse(process.argv[2])) {
  const response = new Response(new Uint8Array(list), kind === 'stored' ? { headers: extra } : {});
  try {
    const bytes = kind === 'stored'
      ? await boot.readStoredSnapshot(response)
      : await boot.readShippedSnapshot(response, extra);
    out.push(bytes.length === Number(kind === 'stored' ? extra['X-Snapshot-Bytes'] : extra.bytes) ? 'ok' : 'short');
  } catch (error) { out.push(error.message); }
}
console.log(JSON.stringify(out));
"""


def read(cases: list[tuple[str, bytes, dict[str, object]]]) -> list[str]:
    found: list[str] = in_node(READ, [[kind, list(data), extra] for kind, data, extra in cases])
    return found


def test_each_fault_of_a_stored_or_shipped_snapshot_is_read_as_unreadable_with_its_reason() -> None:
    """What web/engine-worker.js reads before any restore, on each fault the browser tests leave to
    this test: a stored snapshot cut short or stored without its digest, the build's snapshot cut
    short (no longer gzip) or of other bytes. (tests/e2e/test_snapshot.py plays a stored snapshot
    with flipped bytes and the build's replaced by other bytes to a normal boot in the browser.)"""
    rng = random.Random(42)
    data = bytes(rng.randrange(256) for _ in range(4096))
    digest = hashlib.sha256(data).hexdigest()
    headers = {"X-Snapshot-Bytes": str(len(data)), "X-Snapshot-SHA256": digest}
    flipped = bytes(b ^ 0xFF if i % 64 == 5 else b for i, b in enumerate(data))
    zipped = gzip.compress(data)
    shipped = {"bytes": len(data), "sha256": digest}
    cases: list[tuple[str, bytes, dict[str, object]]] = [
        ("stored", data, headers),
        ("stored", data[: len(data) // 2], headers),  # truncated
        ("stored", flipped, headers),
        ("stored", data, {"X-Snapshot-Bytes": str(len(data))}),  # undigested
        ("shipped", zipped, shipped),
        ("shipped", zipped[: len(zipped) // 2], shipped),  # truncated: no longer whole gzip
        ("shipped", gzip.compress(bytes(len(data))), shipped),  # replaced: other bytes, the same length
        ("shipped", gzip.compress(data + b"!"), shipped),  # one byte more
    ]
    found = read(cases)
    assert found[0] == found[4] == "ok"
    assert found[1] == f"snapshot unreadable: {len(data) // 2} bytes, not {len(data)}"
    assert found[2].startswith("snapshot unreadable: SHA-256 ") and found[2].endswith(
        f"not the {digest} stored"
    )
    assert found[3] == "snapshot unreadable: no digest stored"
    assert found[5].startswith("snapshot unreadable: ") and "bytes, not" not in found[5], found[5]
    assert (
        found[6]
        == f"snapshot unreadable: SHA-256 {hashlib.sha256(bytes(len(data))).hexdigest()}, not the {digest} stored"
    )
    assert found[7] == f"snapshot unreadable: {len(data) + 1} bytes, not {len(data)}"
