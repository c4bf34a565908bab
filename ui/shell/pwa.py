"""Offline play and updates, main-thread side (MicroPython): the Python half of ``web/pwa.js``.

``web/pwa.js`` registers the service worker (``web/sw.js``), shows the first download's bytes and
the "new version is ready" notice; this module gives the notice the page's language and registers
the service worker once the UI has painted (:func:`engine_may_start`, which no longer waits: the
engine boots in parallel with the first visit's precache and hands its Pyodide downloads to the
service worker, so the runtime is still downloaded once). Without service workers it does nothing.
"""

from pyscript import document, window


def _glue():
    return getattr(window, "gongzhuPWA", None)


def translate(_):
    """Put the update notice's wording in the page's language (``_`` is ``i18n._``)."""
    text = document.getElementById("update-text")
    if text is not None:
        text.textContent = _("A new version is ready")
    button = document.getElementById("update-reload")
    if button is not None:
        button.textContent = _("Reload")


def progress():
    """``(received, total)`` bytes of the first download, or None."""
    glue = _glue()
    data = None if glue is None else glue.progress
    if data is None or not hasattr(data, "total"):
        return None
    return int(data.received), int(data.total)


async def engine_may_start():
    """Register the service worker (after the UI's first paint); the engine may start at once."""
    glue = _glue()
    if glue is None:
        return
    try:
        await glue.engineMayStart()
    except Exception as exc:  # (offline support never blocks the game)
        window.console.warn("gongzhu: service worker: " + str(exc))
