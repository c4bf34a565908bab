// The engine's boot: one definition for the engine worker (web/engine-worker.js) and the build's
// Node scripts (sitebuild/node.py: the shipped snapshot, the standard-library probe), so that the
// build's snapshot and the one a worker makes itself hold the same state. `loadPyodide` is the
// caller's (the site's pyodide.mjs, or the npm package's in Node); `options` are its options
// (indexURL, stdLibURL, _makeSnapshot).

// Pyodide with the engine: `files` (a promise of, or a list of, [path, text] pairs) written into its
// file system, `path` first on sys.path ("" for none), `modules` imported: a restored snapshot has
// no files, only what was imported survives. `loaded()` is called once Pyodide itself is.
export async function bootEngine(loadPyodide, options, { files, path, modules, loaded }) {
  const pyodide = await loadPyodide(options);
  if (loaded) loaded();
  for (const [rel, text] of await files) {
    const dir = rel.split("/").slice(0, -1).join("/");
    if (dir) pyodide.FS.mkdirTree(dir);
    pyodide.FS.writeFile(rel, text);
  }
  pyodide.runPython(
    "import sys, importlib\n" +
      (path ? `sys.path.insert(0, ${JSON.stringify(path)})\n` : "") +
      `for _m in ${JSON.stringify(modules)}: importlib.import_module(_m)\n`
  );
  return pyodide;
}

// A memory snapshot of a bootEngine() restored (`snapshot`: its bytes, or a promise of them).
// Same heap, same random state: `random` draws fresh entropy (a seed never comes from here anyway).
export async function restoreEngine(loadPyodide, options, snapshot) {
  const pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot });
  pyodide.runPython("import random; random.seed()");
  return pyodide;
}
