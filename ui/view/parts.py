"""The pieces every region and panel of the page is drawn with (a card face, a button, a dialog).
Pure: HTML strings from values."""

from ui.view import texts
from ui.view.html import attrs, esc
from ui.view.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Callable, Sequence  # noqa: F401  (Callable: in type comments)

    from ui.core.state import UIState  # noqa: F401  (in type comments)


def card_html(
    code: str, classes: str = "", more: "Sequence[tuple[str, object]]" = (), extra: str = ""
) -> str:
    """A card face; ``more`` are further ``(attribute, value)`` pairs, ``extra`` HTML built here.
    Without a role in ``more`` it is an image named in words ("queen of spades").

    The face (pips or figure) is the page's symbol for the card (drawn by ``tools/card_faces.py``),
    hidden from screen readers; the large corner index is text. A ``small`` card (a trick in a
    panel) has its face too; a ``mini`` card (exposed and captured cards, a hand in review), too
    small for a face, the index only."""
    suit = code[1:2]
    color = "red" if suit in texts.RED_SUITS else "black"
    pairs = [("class", "card " + color + " suit-" + suit + " " + classes), ("data-card", code)]  # type: list[tuple[str, object]]
    pairs.extend(more)
    if not any(name == "role" for name, _value in more):
        pairs.extend((("role", "img"), ("aria-label", texts.card_name(code))))
    face = ""
    if "mini" not in classes.split():
        face = '<svg class="face" aria-hidden="true" focusable="false"><use href="#c-{}"/></svg>'.format(
            esc(code)
        )
    return (
        '<div{attrs}>{face}<span class="ix" aria-hidden="true"><b>{rank}</b><i>{sym}</i></span>{extra}</div>'
    ).format(
        attrs=attrs(pairs),
        face=face,
        rank=esc(texts.rank_label(code)),
        sym=esc(texts.SUIT_SYMBOLS.get(suit, "?")),
        extra=extra,
    )


def button(
    testid: str,
    action: str,
    label: str,
    primary: bool = False,
    disabled: bool = False,
    pressed: "bool | None" = None,
) -> str:
    pairs = (
        ("type", "button"),
        ("class", "btn primary" if primary else "btn"),
        ("data-testid", testid),
        ("data-action", action),
        ("disabled", bool(disabled)),
        ("aria-pressed", None if pressed is None else ("true" if pressed else "false")),
    )
    return "<button{}>{}</button>".format(attrs(pairs), esc(label))


def panel(testid: str, title: str, body: str, footer: str = "", closable: bool = False) -> str:
    """A dialog over the table: ``title`` and ``body`` (HTML built here), its ``footer``'s buttons,
    and a close button when ``closable``."""
    close = ""
    if closable:
        close = '<button type="button" class="close" data-action="close" aria-label="{0}">×</button>'.format(
            esc(_("Close"))
        )
    return (
        '<div class="scrim"></div><section class="panel" role="dialog" data-testid="{}" aria-label="{}"{}>'
        "{}<h2>{}</h2>{}<footer>{}</footer></section>"
    ).format(
        esc(testid), esc(title), " data-return-focus" if closable else "", close, esc(title), body, footer
    )
