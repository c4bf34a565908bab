// The engine's boot: one definition for the engine worker (web/engine-worker.js) and the build's
// Node scripts (sitebuild/node.py: the shipped snapshot, the standard-library probe), so that the
// build's snapshot and the one a worker makes itself hold the same state; and the reading of a
// snapshot before it is restored (its faults told apart in Node: tests/test_snapshot_digest.py). `loadPyodide` is the
// caller's (the site's pyodide.mjs, or the npm package's in Node); `options` are its options
// (indexURL, stdLibURL, _makeSnapshot).

// Pyodide with the engine: `files` (a promise of, or a list of, [path, text] pairs) written into its
// file system, `path` first on sys.path ("" for none); `wheels` (or a promise of) {micropip,
// packages}, each wheel as {name, sha256, bytes: its bytes or a promise of them}, or null: every
// wheel refused unless its SHA-256 is the one given (the build's pin), then micropip's wheel
// unpacked into site-packages and the packages' wheels installed by micropip from Pyodide's file
// system; `modules` imported: a restored snapshot has no files, only what was imported survives.
// `loaded()` is called once Pyodide itself is.
export async function bootEngine(loadPyodide, options, { files, path, modules, loaded, wheels }) {
  const pyodide = await loadPyodide(options);
  if (loaded) loaded();
  for (const [rel, text] of await files) {
    const dir = rel.split("/").slice(0, -1).join("/");
    if (dir) pyodide.FS.mkdirTree(dir);
    pyodide.FS.writeFile(rel, text);
  }
  if (wheels) await installWheels(pyodide, await wheels);
  pyodide.runPython(
    "import sys, importlib\n" +
      (path ? `sys.path.insert(0, ${JSON.stringify(path)})\n` : "") +
      `for _m in ${JSON.stringify(modules)}: importlib.import_module(_m)\n`
  );
  return pyodide;
}

const WHEEL_DIR = "/tmp/wheels";

async function installWheels(pyodide, { micropip, packages }) {
  // Each wheel written into Pyodide's file system and checked there (Python's hashlib: the Web
  // Crypto API exists only in a secure context, and a site served over plain HTTP must boot too).
  const wheels = [micropip, ...packages];
  const bytes = await Promise.all(wheels.map((wheel) => wheel.bytes));
  pyodide.FS.mkdirTree(WHEEL_DIR);
  const paths = wheels.map((wheel, i) => {
    const path = `${WHEEL_DIR}/${wheel.name}`;
    pyodide.FS.writeFile(path, new Uint8Array(bytes[i]));
    const found = pyodide.runPython(`import hashlib; hashlib.sha256(open(${JSON.stringify(path)}, "rb").read()).hexdigest()`);
    if (found !== wheel.sha256) {
      throw new Error(`${wheel.name}: sha256 ${found} is not the one the build pinned (${wheel.sha256}): a damaged or replaced file`);
    }
    return path;
  });
  const site = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(pyodide.FS.readFile(paths[0]), "wheel", { extractDir: site });
  const before = new Set(Object.keys(pyodide.loadedPackages));
  const urls = paths.slice(1).map((path) => `emfs:${path}`);
  // micropip is forgotten once it has installed them: its modules hold JavaScript objects, which a
  // memory snapshot cannot hold (and the engine never needs it again).
  await pyodide.runPythonAsync(
    "async def _install(urls):\n" +
      "    import gc, importlib, sys, micropip\n" +
      "    await micropip.install(urls, deps=False)\n" +
      "    for name in [m for m in sys.modules if m == 'micropip' or m.startswith('micropip.')]:\n" +
      "        del sys.modules[name]\n" +
      "    del micropip\n" +
      "    gc.collect()\n" +
      "    importlib.invalidate_caches()\n" +
      `await _install(${JSON.stringify(urls)})\n` +
      "del _install\n"
  );
  // micropip lists what it installed in pyodide.loadedPackages, whose state a snapshot checks to be
  // as Pyodide left it: unlisted.
  for (const name of Object.keys(pyodide.loadedPackages)) {
    if (!before.has(name)) delete pyodide.loadedPackages[name];
  }
}

// A memory snapshot of a bootEngine() restored (`snapshot`: its bytes, or a promise of them).
// Same heap, same random state: `random` draws fresh entropy (a seed never comes from here anyway).
export async function restoreEngine(loadPyodide, options, snapshot) {
  const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
  pyodide.runPython("import random; random.seed()");
  return pyodide;
}

// A stored snapshot's digest: the SHA-256 of its bytes in hex (the Web Crypto API: a worker of a
// secure context has it, and Cache Storage, where snapshots are kept, exists only there too; Node
// has it as well). Computed when the snapshot is stored, checked by checkSnapshot() before any restore.
export async function snapshotDigest(bytes) {
  if (!globalThis.crypto || !globalThis.crypto.subtle) throw new Error("Web Crypto unavailable");
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// `bytes` when their SHA-256 is `expected` (the digest stored with them); else an Error saying why
// ("no digest stored", or the digest found): bytes changed since they were stored (a disk fault, a
// tampered cache) are never restored.
export async function checkSnapshot(bytes, expected) {
  if (!expected) throw new Error("no digest stored");
  const found = await snapshotDigest(bytes);
  if (found !== expected) throw new Error(`SHA-256 ${found}, not the ${expected} stored`);
  return bytes;
}

// What a snapshot's faults found before Pyodide sees it say (the visit boots normally, giving the
// reason after it), and the headers a stored snapshot carries (web/engine-worker.js storeSnapshot):
// its length, and its SHA-256 computed by snapshotDigest() as it was stored.
export const UNREADABLE = "snapshot unreadable";
export const LENGTH_HEADER = "X-Snapshot-Bytes";
export const DIGEST_HEADER = "X-Snapshot-SHA256";

// A snapshot's bytes, refused unless there are exactly `expected` of them (a truncated copy).
async function readBytes(response, expected) {
  let bytes;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new Error(`${UNREADABLE}: ${error}`);
  }
  if (bytes.length !== expected) throw new Error(`${UNREADABLE}: ${bytes.length} bytes, not ${expected}`);
  return bytes;
}

async function checkRead(bytes, expected) {
  try {
    return await checkSnapshot(bytes, expected);
  } catch (error) {
    throw new Error(`${UNREADABLE}: ${error.message}`);
  }
}

// A stored snapshot's bytes (a Response of them with its two headers): its length is its header's,
// and its bytes must have the SHA-256 its other header holds. Bytes changed on the device since
// they were stored (a disk fault, a tampered cache) or stored without a digest are unreadable.
// `lap(step)` is told when the bytes are read and when they are checked.
export async function readStoredSnapshot(hit, lap = () => {}) {
  const bytes = await readBytes(hit, Number(hit.headers.get(LENGTH_HEADER)));
  lap("snapshot-read");
  await checkRead(bytes, hit.headers.get(DIGEST_HEADER));
  lap("snapshot-checked");
  return bytes;
}

// The build's snapshot (a Response of its gzipped bytes; `shipped`: engine-worker.json's
// {bytes, sha256}), unzipped as it is read: unreadable unless it unzips to `shipped.bytes` bytes
// with the build's SHA-256.
export async function readShippedSnapshot(response, shipped, lap = () => {}) {
  if (!response.body) throw new Error(`${UNREADABLE}: no body`);
  const unzipped = response.body.pipeThrough(new DecompressionStream("gzip"));
  const bytes = await readBytes(new Response(unzipped), Number(shipped.bytes));
  lap("snapshot-read");
  await checkRead(bytes, shipped.sha256);
  lap("snapshot-checked");
  return bytes;
}
