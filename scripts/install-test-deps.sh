#!/usr/bin/env bash
# Install what the tests need on a fresh Debian machine of this project's kind (run as
# root). Idempotent: safe to run again; each step is skipped when already done.
#   - Debian's Chromium at /usr/bin/chromium (Playwright drives it; never `playwright install`)
#   - a Chinese font (Debian's fonts-noto-cjk): without one Chromium draws every Chinese character
#     as a box, in the Chinese screenshots (tools/screenshots.py refuses to take them) and in the
#     e2e tests' Chinese pages (players' systems have their own: the page ships none)
#   - the Python package with its test extras (pytest, hypothesis, playwright, ruff, mypy, ...) and its
#     cluster extra (Dask distributed: the tournament's cluster tests)
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

if ! dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "ok installed" \
    && [ -z "$(fc-list :lang=zh family 2>/dev/null)" ]; then
    echo "[deps] installing Debian fonts-noto-cjk (a Chinese font)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq fonts-noto-cjk >/dev/null
else
    echo "[deps] a Chinese font present" >&2
fi

echo "[deps] pip install -e '.[test,cluster]'" >&2
python3 -m pip install -q -e '.[test,cluster]'

# npm ci unless node_modules holds what package-lock.json pins (build.py's own check, by content).
python3 -c 'import build; build.ensure_node_modules()'
echo "[deps] node_modules holds what package-lock.json pins" >&2
