// The engine's boot: one definition for the engine worker (web/engine-worker.js) and the build's
// Node scripts (sitebuild/node.py: the shipped snapshot, the standard-library probe), so that the
// build's snapshot and the one a worker makes itself hold the same state. `loadPyodide` is the
// caller's (the site's pyodide.mjs, or the npm package's in Node); `options` are its options
// (indexURL, stdLibURL, _makeSnapshot).

// A wheel's bytes, refused unless their SHA-256 is the one the build pinned (`wheel`: {name, sha256,
// bytes: the bytes or a promise of them}).
export async function pinnedBytes(wheel) {
  const bytes = new Uint8Array(await wheel.bytes);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  if (hex !== wheel.sha256) {
    throw new Error(`${wheel.name}: sha256 ${hex} is not the one the build pinned (${wheel.sha256}): a damaged or replaced file`);
  }
  return bytes;
}

// Pyodide with the engine: `files` (a promise of, or a list of, [path, text] pairs) written into its
// file system, `path` first on sys.path ("" for none); `wheels` ({micropip, packages}, each wheel as
// pinnedBytes() takes it, or null): micropip's wheel unpacked into site-packages, then the packages'
// wheels installed by micropip from Pyodide's file system; `modules` imported: a restored snapshot
// has no files, only what was imported survives. `loaded()` is called once Pyodide itself is.
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
  const [installer, ...wheels] = await Promise.all([micropip, ...packages].map(pinnedBytes));
  const site = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(installer, "wheel", { extractDir: site });
  pyodide.FS.mkdirTree(WHEEL_DIR);
  const before = new Set(Object.keys(pyodide.loadedPackages));
  const urls = packages.map((wheel, i) => {
    pyodide.FS.writeFile(`${WHEEL_DIR}/${wheel.name}`, wheels[i]);
    return `emfs:${WHEEL_DIR}/${wheel.name}`;
  });
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
