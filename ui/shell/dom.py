"""Writes the table to the page: one redraw per animation frame, only the regions that changed."""

from pyscript import document, window
from pyscript.ffi import create_proxy

_cache = {}
_state = {"pending": False, "source": None}


def _focus_key():
    """What has the keyboard focus, in terms that survive a redraw: ("card", code, index) for a
    hand card, ("testid", id) or ("action", name) for a control, or None."""
    active = document.activeElement
    if active is None or str(active.tagName) == "BODY" or not hasattr(active, "closest"):
        return None
    card = active.closest("#hand [data-card]")
    if card is not None:
        cards = [str(c.dataset.card) for c in document.querySelectorAll("#hand [data-card]")]
        code = str(card.dataset.card)
        return ("card", code, cards.index(code) if code in cards else 0)
    testid = active.getAttribute("data-testid")
    if testid:
        return ("testid", str(testid))
    action = active.getAttribute("data-action")
    if action:
        return ("action", str(action))
    return ("other", "")


def _in_menu():
    """The focus is in the settings sheet, or in a panel opened from it (``data-return-focus``):
    when that closes, the focus goes back to ☰."""
    active = document.activeElement
    return (
        active is not None
        and hasattr(active, "closest")
        and active.closest("[data-return-focus]") is not None
    )


def _refocus(key, back_to_menu=False):
    """After a redraw: give the focus back to the same control (or its neighbour in the hand), move
    it into a dialog that just opened (the settings sheet first: it is on top), or out of one that
    just closed (to ☰ when it was the sheet or a panel opened from it)."""
    active = document.activeElement
    dialog = document.querySelector("#sheet [role=dialog]") or document.querySelector(
        "#overlay [role=dialog]"
    )
    if dialog is not None:
        if not dialog.hasAttribute("data-focused") and (active is None or not dialog.contains(active)):
            dialog.setAttribute("data-focused", "")
            target = None
            if key is not None and key[0] in ("testid", "action"):  # the same control, redrawn (the review)
                target = dialog.querySelector("[data-" + key[0] + '="' + key[1] + '"]:not([disabled])')
            target = target or dialog.querySelector("footer .btn.primary") or dialog.querySelector("button")
            if target is not None:
                target.focus()
        return
    if active is not None and str(active.tagName) != "BODY":
        return  # the focused element survived the redraw
    if back_to_menu:
        menu = document.querySelector("[data-testid=menu]")
        if menu is not None:
            menu.focus()
            return
    if key is None:
        return
    target = None
    if key[0] == "card":
        target = document.querySelector('#hand [data-card="' + key[1] + '"]')
        if target is None:
            cards = document.querySelectorAll("#hand [data-card]")
            if cards.length:
                target = cards.item(min(key[2], cards.length - 1))
    else:
        target = document.querySelector('[data-testid="' + key[1] + '"]')
    if target is None or target.hasAttribute("disabled"):
        target = document.querySelector('#hand [data-card][tabindex="0"]') or document.querySelector(
            "#actions button:not([disabled])"
        )
    if target is not None:
        target.focus()


def _replace(element, html):
    """Set a region's markup.  A dialog redrawn as the same dialog (same ``data-testid``) does not
    play its entrance again (class ``still``): a panel that updates while it is open (the coach's
    verdict arriving, a setting changed in the sheet) does not bounce."""
    old = element.querySelector("[role=dialog][data-testid]")
    kept = old.getAttribute("data-testid") if old else None
    element.innerHTML = html
    if kept is None:
        return
    new = element.querySelector("[role=dialog][data-testid]")
    if new and new.getAttribute("data-testid") == kept:
        new.classList.add("still")


def _frame(_timestamp=None):
    _state["pending"] = False
    source = _state["source"]
    if source is None:
        document.documentElement.removeAttribute("data-busy")
        return
    regions, attrs = source()
    key = _focus_key()
    back_to_menu = _in_menu()
    for element_id in regions:
        html = regions[element_id]
        if _cache.get(element_id) == html:
            continue
        element = document.getElementById(element_id)
        if element is not None:
            _replace(element, html)
            _cache[element_id] = html
    root = document.documentElement
    for name in attrs:
        value = attrs[name]
        if value is None:
            root.removeAttribute(name)
        elif root.getAttribute(name) != str(value):
            root.setAttribute(name, str(value))
    _refocus(key, back_to_menu)


def keep_focus_in(event, selector):
    """Tab and Shift+Tab in a modal dialog (``selector``): from its last control back to its first
    and the other way round, so the keyboard never leaves it while it is open."""
    dialog = document.querySelector(selector)
    if dialog is None:
        return
    items = dialog.querySelectorAll("button:not([disabled]), select, a[href], [tabindex='0']")
    if not items.length:
        return
    first = items.item(0)
    last = items.item(items.length - 1)
    active = document.activeElement
    inside = active is not None and dialog.contains(active)
    if event.shiftKey and (not inside or first.isSameNode(active)):
        event.preventDefault()
        last.focus()
    elif not event.shiftKey and (not inside or last.isSameNode(active)):
        event.preventDefault()
        first.focus()


def announce(text):
    """Say ``text`` to screen readers (a new line in the ``#announce`` live log; the last 6 kept)."""
    log = document.getElementById("announce")
    if log is None or not text:
        return
    line = document.createElement("p")
    line.textContent = text
    log.append(line)
    while log.children.length > 6:
        log.firstElementChild.remove()


def focus_hand_card(code):
    """Move the keyboard focus to the hand card ``code`` (arrow keys)."""
    for element in document.querySelectorAll("#hand [data-card]"):
        if str(element.dataset.card) == code:
            element.focus()


_frame_proxy = create_proxy(_frame)


def connect(source):
    """``source()`` -> ``(regions, html_attributes)``; called once per frame after :func:`schedule`."""
    _state["source"] = source


def schedule():
    """Ask for a redraw on the next animation frame (many calls, one redraw).  Until it is drawn,
    ``<html data-busy>`` says so: a tap's handler has changed the state but the page still shows the
    table from before it, so nothing (a test, an assistive tool) may read it as settled."""
    if _state["pending"]:
        return
    _state["pending"] = True
    document.documentElement.setAttribute("data-busy", "true")
    window.requestAnimationFrame(_frame_proxy)


def drawn():
    """True once the last redraw asked for has been drawn."""
    return not _state["pending"]


def cards_moving():
    """True while a card of the hand or the trick still moves (the deal, a card flying in, the
    sweep): a finite CSS animation of theirs is running (the endless glows do not count)."""
    subtree = window.JSON.parse('{"subtree": true}')  # (the element and what it holds, pseudo-elements too)
    for region in ("hand", "trick"):
        element = document.getElementById(region)
        if element is None:
            continue
        for animation in element.getAnimations(subtree):
            if str(animation.playState) != "running":
                continue
            if float(animation.effect.getComputedTiming().iterations) != float("inf"):
                return True
    return False


def now_ms():
    return window.performance.now()


def mark(name):
    """A ``gongzhu:<name>`` performance mark (the benches and tests time the page by them)."""
    window.performance.mark("gongzhu:" + name)


def measure(name, start):
    """A ``gongzhu:<name>`` performance measure from the latest ``gongzhu:<start>`` mark to now."""
    window.performance.measure("gongzhu:" + name, "gongzhu:" + start)
