"""The one way a value enters the page's HTML (pure, unit-tested).

Every value interpolated into markup by ``ui/view/render.py`` and ``ui/view/i18n.py`` goes through
:func:`esc` (text and attribute values alike) or :func:`attrs` (a whole attribute list): nothing
from the view, storage, the URL or a catalog is ever written as markup.
"""

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Iterable


def esc(value: object) -> str:
    """``value`` as HTML text or a double-quoted attribute value: ``& < > " '`` escaped."""
    return (
        str(value)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )


def attrs(pairs: "Iterable[tuple[str, object]]") -> str:
    """`` name="value"`` for each ``(name, value)`` (value escaped); ``True`` gives a bare name,
    ``None`` or ``False`` leaves the attribute out."""
    out = []
    for name, value in pairs:
        if value is None or value is False:
            continue
        if value is True:
            out.append(" " + esc(name))
        else:
            out.append(" " + esc(name) + '="' + esc(value) + '"')
    return "".join(out)
