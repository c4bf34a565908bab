#!/usr/bin/env bash
# The whole test suite, from a fresh clone: install what the tests need, lint, type-check, then
# every test (engine, AI, CLI and the Playwright end-to-end tests in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-test-deps.sh
echo "[test] ruff" >&2
python3 -m ruff check .
python3 -m ruff format --check gongzhu ui tests tools build.py sitebuild bench >/dev/null || {
    python3 -m ruff format --diff gongzhu ui tests tools build.py sitebuild bench; exit 1; }
echo "[test] mypy" >&2
python3 -m mypy
echo "[test] pytest" >&2
# Two processes (this machine has two cores); each test file runs whole in one of them, and the
# e2e tests share one build of the site (tests/e2e/conftest.py).
exec python3 -m pytest -q -p no:cacheprovider -n 2 --dist loadfile "$@"
