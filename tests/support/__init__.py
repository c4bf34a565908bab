"""What the tests share that imports no browser: the page's runner with doubles of its ports
(:mod:`tests.support.page`), CPython replays of the page's games (:mod:`tests.support.replay`) and the
benchmarks' modules (:mod:`tests.support.bench`). A unit test imports from here, never from
``tests/e2e/`` (whose modules need Playwright); tests/test_layers.py holds every unit test file to it."""
