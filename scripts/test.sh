#!/usr/bin/env bash
# The whole test suite, from a fresh clone: install what the tests need, lint, type-check, then
# every test (engine, AI, CLI and the Playwright end-to-end tests in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-test-deps.sh
# The site the e2e tests serve is built on the second core while the lint and the type check run
# (into .test-site/, ignored by git and remade each run).
rm -rf .test-site
python3 -c 'import sys; from pathlib import Path; import build; build.build(Path(sys.argv[1]))' \
    .test-site/dist >.test-site.log 2>&1 &
build_pid=$!
echo "[test] ruff" >&2
python3 -m ruff check .
python3 -m ruff format --check gongzhu ui tests tools build.py sitebuild bench >/dev/null || {
    python3 -m ruff format --diff gongzhu ui tests tools build.py sitebuild bench; exit 1; }
echo "[test] mypy" >&2
python3 -m mypy
echo "[test] build" >&2
wait "$build_pid" || { cat .test-site.log >&2; exit 1; }
echo "[test] pytest" >&2
# Two processes (this machine has two cores); each test file runs whole in one of them, in the
# order tests/e2e/conftest.py gives them (longest first), and the e2e tests serve the site built above.
export GONGZHU_E2E_SITE="$PWD/.test-site/dist"
exec python3 -m pytest -q -p no:cacheprovider -n 2 --dist loadfile --no-loadscope-reorder "$@"
