"""The shell: the thin adapters to the browser (pyscript's JS proxies) that run the core's effects:
the page's events and effects (``app``), the DOM, the engine worker's link, offline play."""
