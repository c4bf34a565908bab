"""Test support that imports no browser: the page's runner with doubles of its ports, engine helpers."""
