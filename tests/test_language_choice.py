"""The player's language has one rule: ``?lang=``, then the choice saved from a menu, then the
browser's preferences, then English. Python runs it in the UI (``ui.view.i18n.choose_language``); before
any Python runs, the loading screen and the rules page run ``web/language.js`` (Node here), which
must choose the same language in every case, and no page keeps a copy of its own."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tools import rules_page
from ui.view import i18n

ROOT = Path(__file__).resolve().parents[1]
LANGUAGE_JS = ROOT / "web" / "language.js"

#: Runs web/language.js as a page would, once per case: {search, saved, storage, languages}.
RUN_CASES = r"""
const vm = require("node:vm");
const fs = require("node:fs");
const [source, casesJson] = process.argv.slice(1);
const code = fs.readFileSync(source, "utf-8");
const out = [];
for (const c of JSON.parse(casesJson)) {
  const store = c.storage ? { [c.storage]: c.saved } : {};
  const context = {
    URLSearchParams,
    location: { search: c.search },
    navigator: { languages: c.preferences },
    localStorage: c.disabled
      ? { getItem() { throw new Error("SecurityError"); } }
      : { getItem: (key) => (key in store ? store[key] : null) },
  };
  context.window = context;
  vm.runInNewContext(code, context);
  out.push(context.window.gongzhuLanguage(c.languages));
}
const page = { URLSearchParams, location: { search: "" }, navigator: {}, localStorage: null };
page.window = page;
vm.runInNewContext(code, page);
console.log(JSON.stringify({ choices: out, key: page.window.gongzhuLanguage.KEY, htmlLang: page.window.gongzhuLanguage.HTML_LANG }));
"""


def run_language_js(cases: list[dict[str, object]]) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    answer = subprocess.run(
        [node, "-e", RUN_CASES, str(LANGUAGE_JS), json.dumps(cases)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(answer.stdout)
    return result


def test_the_pages_choose_the_language_the_ui_chooses() -> None:
    forced_values = ["", "fr", "uk", "FR", "xx", "zh-Hans"]
    saved_values = ["", "pt", "zh", "de"]
    preference_lists = [[], ["pt-BR", "en"], ["de-DE", "fr-CA"], ["EN-us"], ["ru", "uk-UA", "zh"], ["de"]]
    preference_lists += [
        ["fr-FR"],
        ["zh-CN"],
        ["uk-UA"],
    ]  # the browser locales tests/e2e once loaded one by one
    cases: list[dict[str, object]] = []
    expected = []
    for forced, saved, preferences in itertools.product(forced_values, saved_values, preference_lists):
        search = f"?seed=3&lang={forced}" if forced else "?seed=3"
        cases.append(
            {
                "search": search,
                "saved": saved,
                "storage": i18n.STORAGE_KEY,
                "preferences": preferences,
                "languages": list(i18n.LANGUAGES),
            }
        )
        expected.append(i18n.choose_language(preferences, forced, saved))
    # Storage disabled (reading it throws): as if nothing were saved.
    cases.append(
        {"search": "", "saved": "", "disabled": True, "preferences": ["fr"], "languages": ["en", "fr"]}
    )
    expected.append(i18n.choose_language(["fr"], "", ""))
    assert run_language_js(cases)["choices"] == expected


def test_the_pages_store_and_tag_the_language_as_the_ui_does() -> None:
    shared = run_language_js([])
    assert shared["key"] == i18n.STORAGE_KEY
    assert shared["htmlLang"] == i18n.HTML_LANG


def test_no_page_keeps_a_copy_of_the_rule() -> None:
    boot = (ROOT / "web" / "boot.js").read_text(encoding="utf-8")
    page = rules_page.render_page(["<article></article>"], "Rules")
    for copy in (boot, page):
        assert "navigator.languages" not in copy and i18n.STORAGE_KEY not in copy
    assert f'<script src="./{rules_page.LANGUAGE_SCRIPT}"></script>' in page
    index = (ROOT / "index.html").read_text(encoding="utf-8")
    assert index.index('src="./language.js"') < index.index('src="./boot.js"')
