"""Writes the table to the page: one redraw per animation frame, only the regions that changed."""

from pyscript import document, window
from pyscript.ffi import create_proxy

_cache = {}
_state = {"pending": False, "source": None, "attrs": None}


def _frame(_timestamp=None):
    _state["pending"] = False
    source = _state["source"]
    if source is None:
        return
    regions, attrs = source()
    for element_id in regions:
        html = regions[element_id]
        if _cache.get(element_id) == html:
            continue
        element = document.getElementById(element_id)
        if element is not None:
            element.innerHTML = html
            _cache[element_id] = html
    root = document.documentElement
    for name in attrs:
        value = attrs[name]
        if value is None:
            root.removeAttribute(name)
        elif root.getAttribute(name) != str(value):
            root.setAttribute(name, str(value))


_frame_proxy = create_proxy(_frame)


def connect(source):
    """``source()`` -> ``(regions, html_attributes)``; called once per frame after :func:`schedule`."""
    _state["source"] = source


def schedule():
    """Ask for a redraw on the next animation frame (many calls, one redraw)."""
    if _state["pending"]:
        return
    _state["pending"] = True
    window.requestAnimationFrame(_frame_proxy)


def now_ms():
    return window.performance.now()
