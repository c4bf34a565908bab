"""What the page says, as the core hands it to the view: codes, never sentences. Pure Python.

A message is ``(key, fields)``: ``key`` a message id of the catalogs (marked by :func:`said`, so the
extraction finds it) worded with ``fields`` (a field that is itself a message is worded first), or
``@<name>`` for a text the view composes from engine facts (``ui/view/texts.py`` ``COMPOSED``: a
refusal, a hint, a card played, a trick of the review...). ``ui/view/texts.py``
``words`` turns one into the player's language when it is drawn or read out; a message kept in the
state is therefore redrawn in a language chosen later.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Sequence
    from typing import Any

    #: A message: (a message id or "@<composed text>", its fields).
    Message = tuple[str, dict[str, Any]]


def said(msgid: str, **fields: "Any") -> "Message":
    """The catalogs' message ``msgid``, worded with ``fields`` (``{name}`` in it)."""
    return (msgid, fields)


def composed(name: str, **fields: "Any") -> "Message":
    """A text the view composes from engine facts: ``texts.COMPOSED[name](**fields)``."""
    return ("@" + name, fields)


def joined(*parts: "Message | None") -> "Message":
    """Messages said as one, `` · `` between them (empty ones left out)."""
    return ("@join", {"parts": [p for p in parts if p is not None]})


def lined(parts: "Sequence[Message | str]", sep: str = "\n") -> "Message":
    """Messages said one after the other, ``sep`` between them; a part may be a text that needs no
    words (a line of emoji)."""
    return ("@lines", {"parts": list(parts), "sep": sep})
