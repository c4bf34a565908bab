"""Content-Security-Policy: the page declares it, runs a hand without a single violation, and an
injected inline script or inline event handler does not run (see docs/security.md)."""

from __future__ import annotations

from playwright.sync_api import Page

import build

from . import game as g
from .conftest import PageGuard

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) =>
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sourceFile || '') + ':' + e.lineNumber));
"""


def test_csp_is_declared_and_holds(desktop_page: Page, site: build.SiteServer, guard: PageGuard) -> None:
    page = desktop_page
    page.add_init_script(RECORD_VIOLATIONS)
    g.open_game(page, site, seed=g.find_seed(lambda s: not g.my_exposable(s)))
    policy = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content") or ""
    directives = {d.split()[0]: d.split()[1:] for d in (p.strip() for p in policy.split(";")) if d}
    assert directives["default-src"] == ["'self'"]
    assert "'unsafe-inline'" not in directives["script-src"]
    assert set(directives["script-src"]) <= {"'self'", "'unsafe-eval'", "'wasm-unsafe-eval'"}
    assert directives["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in directives.get("style-src", [])
    # Before the policy only the charset and the first paint's preload hints (sitebuild/preload.py):
    # same-origin relative links, from which nothing runs.
    before = page.evaluate(
        "(() => { const all = [...document.head.children];"
        " const csp = all.findIndex(e => e.httpEquiv === 'Content-Security-Policy');"
        " return all.slice(0, csp).map(e => [e.tagName, e.getAttribute('rel') || '', e.getAttribute('href') || '']); })()"
    )
    assert before[0][0] == "META" and len(before) > 1
    assert all(tag == "LINK" and rel in ("preload", "modulepreload") for tag, rel, _ in before[1:]), before
    assert all(href.startswith("./") and ".." not in href and "//" not in href for _, _, href in before[1:])
    # no inline script or handler in the page
    inline = page.evaluate(
        "[...document.querySelectorAll('script')].filter(s => !s.src && s.type !== 'mpy' && s.type !== 'py'"
        " && s.textContent.trim()).length"
    )
    assert inline == 0
    handlers = page.evaluate(
        "[...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length"
    )
    assert handlers == 0
    for _ in range(3):
        g.settle(page)
        g.play_first(page)
    g.settle(page)
    assert page.evaluate("window.__csp") == []
    # injected inline code is blocked
    page.evaluate(
        """() => {
          const s = document.createElement('script');
          s.textContent = 'window.__pwned = 1';
          document.body.append(s);
          const b = document.createElement('button');
          b.setAttribute('onclick', 'window.__pwned2 = 1');
          document.body.append(b);
          b.click();
          b.remove();
        }"""
    )
    page.wait_for_function("window.__csp.length >= 2")
    assert page.evaluate("[window.__pwned, window.__pwned2]") == [None, None]
    assert all("script-src" in v for v in page.evaluate("window.__csp"))
    # the browser reports the two refusals on the console: expected here, and only those
    refused = [p for p in guard.problems if "Content Security Policy" in p]
    assert len(refused) == 2, guard.problems
    guard.problems[:] = [p for p in guard.problems if p not in refused]
