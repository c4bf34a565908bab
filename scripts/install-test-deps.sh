#!/usr/bin/env bash
# Install what the tests need on a fresh Debian machine of this project's kind (run as
# root). Idempotent: safe to run again; each step is skipped when already done.
#   - Debian's Chromium at /usr/bin/chromium (Playwright drives it; never `playwright install`)
#   - the Python package with its test extras (pytest, hypothesis, playwright, ruff, mypy, ...)
#   - the pinned browser runtime (Pyodide, PyScript, MicroPython) from package-lock.json
set -euo pipefail

cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    echo "[deps] installing Debian chromium" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
else
    echo "[deps] chromium present: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)" >&2
fi

echo "[deps] pip install -e '.[test]'" >&2
python3 -m pip install -q -e '.[test]'

# npm writes node_modules/.package-lock.json on install: newer than the lock file means
# node_modules is what package-lock.json pins.
if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ] \
        && [ node_modules/.package-lock.json -nt package.json ]; then
    echo "[deps] node_modules is up to date with package-lock.json" >&2
else
    echo "[deps] npm ci" >&2
    npm ci --ignore-scripts --no-audit --no-fund
fi
