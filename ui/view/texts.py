"""Every sentence the table shows, built from engine codes (reasons, breakdowns, hints).

Pure Python (MicroPython and CPython): no ``pyscript`` import, so pytest checks it. All
visible text goes through ``_()`` with the English wording of docs/ui.md as msgid.
"""

from gongzhu.vocab import GOAT, LEVELS, PIG, TRANSFORMER
from ui.core import later
from ui.view.i18n import _

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from collections.abc import Callable  # noqa: F401  (in type comments)
    from typing import Any

    from gongzhu.table_view import Exposure
    from ui.core.state import View
    from ui.core.words import Message
    from ui.view import lessons_html
else:  # (the lessons' words: imported when first needed, ui/core/later.py)
    (lessons_html,) = later.modules("view.lessons_html")

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = ("H", "D")


def rank_label(code: str) -> str:
    rank = code[0]
    return "10" if rank == "T" else rank


def card_label(code: str) -> str:
    """``QS`` -> ``Q♠``, ``TC`` -> ``10♣`` (language-neutral)."""
    return rank_label(code) + SUIT_SYMBOLS.get(code[1], "?")


def rank_name(code: str) -> str:
    """The rank in words, as said before the suit ("queen")."""
    rank = code[0]
    if rank == "A":
        return _("ace")
    if rank == "K":
        return _("king")
    if rank == "Q":
        return _("queen")
    if rank == "J":
        return _("jack")
    if rank == "T":
        return _("ten")
    if rank == "9":
        return _("nine")
    if rank == "8":
        return _("eight")
    if rank == "7":
        return _("seven")
    if rank == "6":
        return _("six")
    if rank == "5":
        return _("five")
    if rank == "4":
        return _("four")
    if rank == "3":
        return _("three")
    return _("two")


def card_name(code: str) -> str:
    """The card in words for screen readers: ``QS`` -> "queen of spades" (each suit its own msgid,
    so a language can put the rank where it belongs)."""
    rank = rank_name(code)
    suit = code[1]
    if suit == "S":
        return _("{rank} of spades").format(rank=rank)
    if suit == "H":
        return _("{rank} of hearts").format(rank=rank)
    if suit == "D":
        return _("{rank} of diamonds").format(rank=rank)
    return _("{rank} of clubs").format(rank=rank)


def hand_card_name(
    code: str, exposed: bool = False, exposable: bool = False, unplayable: bool = False
) -> str:
    """A card of the player's hand, with its state ("queen of spades, exposed")."""
    name = card_name(code)
    if exposed:
        name = _("{card}, exposed").format(card=name)
    if exposable:
        name = _("{card}, exposable").format(card=name)
    if unplayable:
        name = _("{card}, cannot be played now").format(card=name)
    return name


def played_text(seat: int, code: str) -> str:
    """Live announcement of a card played on the table."""
    if seat == 0:
        return _("You played {card}").format(card=card_name(code))
    return _("{name} played {card}").format(name=seat_name(seat), card=card_name(code))


def trick_won_text(seat: int) -> str:
    if seat == 0:
        return _("You won the trick")
    return _("{name} won the trick").format(name=seat_name(seat))


def hand_over_text(view: "View") -> str:
    """Live announcement when a hand ends: the player's hand score and total."""
    last = view.get("last_hand") or {}
    scores = [b["score"] for b in last.get("breakdowns") or []] or view["hand_scores"]
    return _("Hand over. Your score: {score}; your total: {total}").format(
        score=signed(scores[0]), total=signed(view["totals"][0])
    )


def cards_label(codes: "list[str]") -> str:
    return " ".join(card_label(c) for c in codes)


def seat_name(seat: int) -> str:
    if seat == 0:
        return _("You")
    if seat == 1:
        return _("Ming")
    if seat == 2:
        return _("Hua")
    return _("Jun")


def level_name(level: str) -> str:
    if level == "easy":
        return _("Easy")
    if level == "hard":
        return _("Hard")
    return _("Normal")


def level_names() -> "list[tuple[str, str]]":
    """``(level, its name)`` for the difficulty menu, easiest first."""
    return [(level, level_name(level)) for level in LEVELS]


def expose_effect(effect: "str | None") -> str:
    """An exposure's effect code (the view's ``exposable_effects``), as docs/ui.md shows it next to the
    "exposable" mark."""
    if effect == "pig_x2":
        return _("Pig ×2")
    if effect == "goat_x2":
        return _("Goat ×2")
    if effect == "transformer_x4":
        return _("Transformer ×4")
    if effect == "hearts_x2":
        return _("Hearts ×2")
    return ""


def multiplier_text(effect: str) -> str:
    """An exposure effect code as the hand summary lists it among the multipliers."""
    if effect == "hearts_x2":
        return _("hearts ×2")
    if effect == "pig_x2":
        return _("pig ×2")
    if effect == "goat_x2":
        return _("goat ×2")
    if effect == "transformer_x4":
        return _("transformer ×4")
    if effect == "transformer_bonus_x2":
        return _("transformer ×2")
    return effect


def must_follow(suit: str) -> str:
    if suit == "S":
        return _("You must follow spades")
    if suit == "H":
        return _("You must follow hearts")
    if suit == "D":
        return _("You must follow diamonds")
    return _("You must follow clubs")


def refusal_text(refusal: "dict[str, Any] | None") -> str:
    """Why a tapped card cannot be played, from the engine's reason code."""
    if not refusal:
        return ""
    reason = refusal.get("reason")
    card = refusal.get("card") or ""
    if reason == "must_follow_suit":
        return must_follow(refusal.get("suit") or "")
    if reason == "exposed_first_trick":
        return _("{card} is exposed: it may not be played in the first trick of its suit").format(
            card=card_label(card) if card else ""
        )
    if reason == "not_your_turn":
        return _("Wait for your turn")
    if reason == "wrong_phase":
        return _("Only the cards marked exposable can be chosen now")
    if reason == "not_exposable":
        return _("Only the cards marked exposable can be chosen now")
    return _("This card cannot be played now")


def hint_reason(code: str) -> str:
    """Short explanation of a hint reason code (each sentence is its own msgid)."""
    if code == "only_card":
        return _("it is your only legal card")
    if code == "runs_all_hearts":
        return _("you are on course to take all the hearts")
    if code == "dumps_pig":
        return _("it gets rid of the pig")
    if code == "wins_goat":
        return _("it wins the goat")
    if code == "takes_transformer":
        return _("it takes the transformer")
    if code == "dumps_transformer":
        return _("it gives the transformer away")
    if code == "blocks_all_hearts":
        return _("it stops an all-hearts run")
    if code == "sheds_high_heart":
        return _("it sheds a big heart")
    if code == "sheds_high_spade":
        return _("it sheds a high spade while the pig is out")
    if code == "keeps_pig_guarded":
        return _("it keeps your pig guarded")
    if code == "flushes_pig":
        return _("a low spade forces the pig out")
    if code == "voids_suit":
        return _("it empties a suit so you can discard later")
    if code == "ducks":
        return _("it stays under the winning card")
    if code == "takes_safe_trick":
        return _("it takes a trick with no points")
    if code == "safe_low_card":
        return _("a low lead is unlikely to win")
    if code == "discards":
        return _("you cannot follow, so you discard")
    return _("it has the best expected score")


def hint_text(hint: "dict[str, Any] | None") -> str:
    """The message for a hint answer from the engine."""
    if not hint:
        return ""
    if "cards" in hint:
        if hint["cards"]:
            return _("Hint: expose {cards}").format(cards=cards_label(hint["cards"]))
        return _("Hint: expose nothing this hand")
    if "card" in hint:
        return _("Hint: play {card} — {why}").format(
            card=card_label(hint["card"]), why=hint_reason(hint.get("reason", ""))
        )
    return _("Nothing to decide right now")


def signal_text(code: str) -> str:
    """The signal shown when the pig, the goat or the transformer falls on the table."""
    if code == PIG:
        return _("The pig!")
    if code == GOAT:
        return _("The goat!")
    if code == TRANSFORMER:
        return _("The transformer!")
    return ""


def signed(value: int) -> str:
    """``-160`` -> ``−160``, ``50`` -> ``+50``, ``0`` -> ``0`` (true minus sign)."""
    if value > 0:
        return "+" + str(value)
    if value < 0:
        return "−" + str(-value)
    return "0"


def breakdown_rows(breakdown: "dict[str, Any]") -> "list[tuple[str, str]]":
    """The summary lines of one player's hand score: list of (label, text)."""
    b = breakdown
    rows = []
    if b["all_hearts"]:
        rows.append((_("Hearts (all 13)"), signed(b["hearts"])))
    else:
        rows.append((_("Hearts"), signed(b["hearts"])))
    rows.append((_("Pig"), signed(b["pig"])))
    rows.append((_("Goat"), signed(b["goat"])))
    if b["transformer"] == "alone":
        rows.append((_("Transformer"), signed(b["transformer_bonus"])))
    elif b["transformer"] == "multiplier":
        rows.append((_("Transformer"), "×" + str(b["transformer_multiplier"])))
    else:
        rows.append((_("Transformer"), "—"))
    mults = [multiplier_text(effect) for effect in b.get("exposure_effects") or []]
    rows.append((_("Exposure multipliers"), ", ".join(mults) if mults else "—"))
    if b["all_16"]:
        bonus = _("all 16 point cards")
    elif b["all_hearts"]:
        bonus = _("all hearts")
    else:
        bonus = "—"
    rows.append((_("Bonus"), bonus))
    rows.append((_("Hand score"), signed(b["score"])))
    return rows


def result_title(result: "dict[str, Any] | None") -> str:
    if result and result.get("winner") == 0:
        return _("Victory!")
    return _("Defeat")


def ranking_rows(result: "dict[str, Any]") -> "list[tuple[int, int, str, int, bool]]":
    """(place, seat, name, total, eliminated) for the match result, best first."""
    rows = []
    totals = result["totals"]
    eliminated = result.get("eliminated") or []
    for place, seat in enumerate(result["ranking"]):
        rows.append((place + 1, seat, seat_name(seat), totals[seat], seat in eliminated))
    return rows


def exposed_notice(exposures: "list[Exposure]") -> str:
    """Message after the simultaneous reveal of the exposed cards (the view's ``exposures``:
    ``{seat, card, effect}`` in seat order)."""
    parts = []
    for seat in range(4):
        cards = [e["card"] for e in exposures if e["seat"] == seat]
        if cards:
            parts.append(seat_name(seat) + " " + cards_label(cards))
    if not parts:
        return _("Nobody exposed a card")
    return _("Exposed: {list}").format(list=", ".join(parts))


def standing_notice(view: "View") -> str:
    """The notice that stays up through a resumed hand: no card to expose, or who exposed what."""
    if view["phase"] == "expose":
        return "" if view["exposable"] else _("No card to expose this hand")
    return exposed_notice(view["exposures"])


def _joined(parts: "list[Message]") -> str:
    return " · ".join(text for text in (words(p) for p in parts) if text)


def _lines(parts: "list[Message | str]", sep: str) -> str:
    return sep.join(words(p) for p in parts)


def review_trick_text(n: int, plays: "list[dict[str, Any]]", winner: int) -> str:
    """What screen readers hear of trick ``n`` of the hand review: its cards in play order
    (``{seat, card}`` each) and its winner."""
    said = ", ".join(played_text(p["seat"], p["card"]) for p in plays)
    return _("Trick {n}: {plays}; won by {winner}").format(n=n, plays=said, winner=seat_name(winner))


#: The texts the view composes from engine facts, by the name ``ui.core.words.composed`` gives them.
COMPOSED = {
    "join": _joined,
    "lines": _lines,
    "review_trick": review_trick_text,
    "played": played_text,
    "signal": signal_text,
    "trick_won": trick_won_text,
    "hand_over": hand_over_text,
    "result": result_title,
    "exposed": exposed_notice,
    "standing": standing_notice,
    "refusal": refusal_text,
    "hint": hint_text,
    "lesson": lambda **fields: lessons_html.words(**fields),
}  # type: dict[str, Callable[..., str]]


def words(message: "Message | str | None") -> str:
    """A message (``ui/core/words.py``) in the player's language ("" for none), the messages among its
    fields worded first; a text that needs no words (a line of emoji) as it is."""
    if message is None:
        return ""
    if isinstance(message, str):
        return message
    key, fields = message
    if key.startswith("@"):
        return str(COMPOSED[key[1:]](**fields))
    text = _(key)
    if not fields:
        return text
    return text.format(**{name: words(v) if isinstance(v, tuple) else v for name, v in fields.items()})
