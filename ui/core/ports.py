"""The world as the effect runner (``ui/runner.py``) reaches it: five small ports, and the engine's errors.

Pure Python (MicroPython and CPython). The page passes the browser's ports (``ui/shell/ports.py``);
the tests pass doubles and the real ``gongzhu.service`` as the engine (``tests/support/page.py``).
Each port is any object with the methods below (duck-typed: MicroPython has no ``typing.Protocol``):

- engine: ``async connect()`` (start the worker and wait for its first answer; raises
  :class:`EngineStartError` when it cannot start); ``async call(op, args) -> answer`` (raises
  :class:`EngineError` for a refusal, :class:`EngineDied` when the worker does not answer);
  ``async restart()`` (a new worker).
- storage: the Web Storage API (``getItem``, ``setItem``, ``removeItem``), as ``ui/core/store.py``
  reads and writes it.
- clock: ``now_ms() -> float``; ``today() -> "YYYY-MM-DD"`` (UTC); ``async sleep(seconds)``;
  ``random_seed() -> int`` (a new match's deal).
- screen: ``redraw()`` (one redraw per frame); ``announce(text)`` (screen readers); ``warn(text)``
  (the console); ``mark(name)`` and ``measure(name, start)`` (performance marks); ``async settled()``
  (the last redraw is drawn and no card of the table moves, within a cap); ``play(kind)`` (a sound,
  when the player turned sound on).
- files: ``download(name, text)``; ``async pick() -> str | None``; ``async share(text) -> outcome``
  (``shared``, ``copied`` or anything else: the text is shown).
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any


class EngineError(Exception):
    """The engine answered a request with an error (its text is the reason)."""


class EngineDied(EngineError):
    """The engine worker did not answer (terminated, crashed or hung): it is restarted."""


class EngineStartError(Exception):
    """The engine worker did not start or did not answer its first request (the page cannot start)."""


class Ports:
    """The ports one runner uses (see the module's docstring for each one's methods)."""

    def __init__(self, engine: "Any", storage: "Any", clock: "Any", screen: "Any", files: "Any") -> None:
        self.engine = engine  # the engine worker (or, in the tests, gongzhu.service)
        self.storage = storage  # localStorage, or the stand-in ``store.open_storage`` chose
        self.clock = clock  # time, today's date and random seeds
        self.screen = screen  # drawing, the live log, sounds, the console and performance marks
        self.files = files  # files in and out, and sharing
