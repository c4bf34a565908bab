"""The guided lessons: seven tables, each teaching one rule by making the player do it.

Each lesson is data: a chosen deal (the cards each seat holds, the tricks already played and the cards
already on the table when the player joins), its opponents' seed, whether cards are exposed, the
earlier hands' scores (the match lesson), how many tricks until it is judged, and the card it asks
the player to play at each of its steps. :func:`lesson_table` builds its match through the public
:func:`~gongzhu.game.match_from_deal` (the deal checked) and plays the tricks before the player's
moment by the rules (:func:`~gongzhu.game.apply_legal`); the opponents then play as in any match.
:func:`verdict` judges the state from the engine's own facts (who won the trick, who took the pig,
the goat, the hearts, the transformer; the match result), with codes, never prose: the page words
them (``ui/view/lessons_html.py``). ``tests/test_lessons.py`` plays every legal choice of the
player through each lesson: the moment always arrives within the lesson's tricks, and only the
lesson's way passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import DECK, HEARTS_MASK, INDEX, POINT_MASK, to_codes, to_mask
from .game import State, apply_legal, legal_plays, match_from_deal
from .house_rules import Rules
from .rules import trick_winner
from .state_check import check_reached
from .vocab import GOAT, HAND_ENDS, LESSONS, PIG, TRANSFORMER

#: The opponents' level in every lesson.
LESSON_LEVEL = "easy"


class InvalidLesson(ValueError):
    """A lesson number that is not one of the lessons (1 to ``len(LESSONS)``)."""


@dataclass(frozen=True)
class Lesson:
    """One lesson's table and steps (see the module's docstring)."""

    key: str  # its name in :data:`gongzhu.vocab.LESSONS` (the page's words are keyed by it)
    seed: int  # the opponents' and the hints' seed
    exposing: bool  # the hand starts with the expose phase
    leader: int  # the seat that leads the hand's first trick
    held: tuple[
        str, str, str, str
    ]  # per seat, cards held besides those played below (the rest of the deck fills up)
    tricks: tuple[
        str, ...
    ] = ()  # tricks played before the lesson, four cards each in play order from its leader
    current: str = ""  # the cards already on the table in the trick the player joins, in play order
    history: tuple[tuple[int, int, int, int], ...] = ()  # the earlier hands' scores (the match lesson)
    until: int = 1  # the number of tricks played when the lesson is judged (13: once the hand is over)
    guides: tuple[tuple[int, str], ...] = ()  # (tricks played, the card the lesson asks the player for then)
    expose: tuple[str, ...] = ()  # the cards the lesson asks the player to expose

    def deal(self) -> list[list[str]]:
        """Each seat's 13 cards: what it holds, what it played before, the rest of the deck dealt
        round the seats that still need cards, in deck order."""
        hands: list[list[str]] = [h.split() for h in self.held]
        leader = self.leader
        for trick in self.tricks:
            cards = trick.split()
            plays = [((leader + i) % 4, INDEX[c]) for i, c in enumerate(cards)]
            for seat, card in zip((p[0] for p in plays), cards, strict=True):
                hands[seat].append(card)
            leader = trick_winner(plays)
        for i, card in enumerate(self.current.split()):
            hands[(leader + i) % 4].append(card)
        used = {c for h in hands for c in h}
        seat = 0
        for card in (c for c in DECK if c not in used):
            if all(len(h) >= 13 for h in hands):
                break  # (too many cards held: check_deal says so)
            while len(hands[seat]) >= 13:
                seat = (seat + 1) % 4
            hands[seat].append(card)
            seat = (seat + 1) % 4
        return hands


#: The seven lessons, in order (their keys: :data:`gongzhu.vocab.LESSONS`).
LESSON_LIST: tuple[Lesson, ...] = (
    # 1. Tricks: diamonds are led; the player must follow, and the king, the highest, wins.
    Lesson(
        key="tricks",
        seed=4301,
        exposing=False,
        leader=1,
        held=("KD 3D AS 8S 6S 4S KC 9C 4C 7H 5H 3H 2H", "", "", ""),
        current="9D 5D QD",
        guides=((0, "KD"),),
    ),
    # 2. The pig: Q♠ falls under the king; a low spade leaves it to the king's player.
    Lesson(
        key="pig",
        seed=4302,
        exposing=False,
        leader=1,
        held=("AS 5S KD 9D 7D 4D QC 8C 3C 2C 9H 6H 2H", "", "", ""),
        current="7S KS QS",
        guides=((0, "5S"),),
    ),
    # 3. The goat: J♦ is on the table; the queen wins it.
    Lesson(
        key="goat",
        seed=4303,
        exposing=False,
        leader=1,
        held=("QD 8D 2D KS 9S 5S 3S AC 7C 6C 4C 8H 4H", "", "", ""),
        current="6D JD TD",
        guides=((0, "QD"),),
    ),
    # 4. Hearts: the player has taken every heart so far; the king wins the next ones, the five the last.
    Lesson(
        key="hearts",
        seed=4304,
        exposing=False,
        leader=0,
        held=("KH 5H", "JS", "TD", "JC"),
        tricks=(
            "AH TH 8H 7H",
            "QH 6H 3H JH",
            "AS 2S 3S 4S",
            "KS 5S 6S 7S",
            "AD 3D 4D 5D",
            "KD 6D 7D 8D",
            "KC 2C 3C 4C",
            "QC 5C 6C 7C",
            "2D QD JD 9D",
            "AC TC 9C 8C",
            "QS TS 9S 8S",
        ),
        current="4H 2H 9H",
        until=13,
        guides=((11, "KH"), (12, "5H")),
    ),
    # 5. The transformer: 10♣ is on the table with no other point card; the jack takes it alone.
    Lesson(
        key="transformer",
        seed=4305,
        exposing=False,
        leader=1,
        held=("JC 3C AD QD 9D 6D 5D 3D KS 8S 7S 4S 2S", "", "", ""),
        current="5C TC 8C",
        guides=((0, "JC"),),
    ),
    # 6. Exposing: the player holds the four exposable cards and ten diamonds; the others one diamond
    # each. Exposed, J♦ may not open diamonds: the ace first, then the goat, which nobody can beat.
    Lesson(
        key="exposing",
        seed=4306,
        exposing=True,
        leader=0,
        held=("AD JD 9D 8D 7D 6D 5D 4D 3D 2D AH QS TC", "KD", "QD", "TD"),
        until=2,
        guides=((0, "AD"), (1, "JD")),
        expose=(GOAT,),
    ),
    # 7. The match: the player across is at −920; letting the king take the pig ends the match with
    # the player on top (+120). Taking it, nobody reaches −1000 and the match goes on.
    Lesson(
        key="match",
        seed=4307,
        exposing=False,
        leader=0,
        held=("AS 4S", "2D", "2H", "2C"),
        tricks=(
            "JS 2S 5S 6S",
            "TS 7S 8S 9S",
            "AD 3D 4D 5D",
            "KD 6D 7D 8D",
            "AC 3C 4C 5C",
            "KC 6C 7C 8C",
            "3H 4H 5H AH",
            "QD 9D TD JD",
            "9C JC QC TC",
            "KH QH JH TH",
            "9H 8H 7H 6H",
        ),
        current="3S KS QS",
        history=((-20, 60, -300, 110), (140, -210, -620, -50)),
        until=13,
        guides=((11, "4S"), (12, "AS")),
    ),
)


def lesson_of(number: object) -> Lesson:
    """Lesson ``number`` (1 to 7), else :class:`InvalidLesson`."""
    if type(number) is not int or not 1 <= number <= len(LESSON_LIST):
        raise InvalidLesson(f"lesson {str(number)[:12]!r} is not a number from 1 to {len(LESSON_LIST)}")
    return LESSON_LIST[number - 1]


def _dealt(lesson: Lesson) -> State:
    """The lesson's match as dealt, before any card is played."""
    rules = Rules(exposing="on" if lesson.exposing else "off")
    return match_from_deal(lesson.seed, lesson.deal(), rules, lesson.leader, lesson.history)


def lesson_table(number: object) -> State:
    """Lesson ``number``'s table: its deal, the tricks before the player's moment and the cards on
    the table played by the rules (each by the seat whose turn it is)."""
    lesson = lesson_of(number)
    state = _dealt(lesson)
    cards = " ".join(lesson.tricks) + " " + lesson.current
    for card in cards.split():
        state = apply_legal(state, {"type": "play", "seat": state["turn"], "card": card})
    return state


def resumed(number: object, state: object) -> State:
    """A lesson's saved table, checked: legal play from the lesson's deal reaches it exactly
    (:func:`~gongzhu.state_check.check_reached`, ``InvalidState`` otherwise)."""
    return check_reached(_dealt(lesson_of(number)), state)


def _passed(lesson: Lesson, state: State) -> bool:
    """The lesson's moment went the lesson's way (from the state's own facts)."""
    mine = to_mask(state["captured"][0])
    key = lesson.key
    if key == "tricks":
        return bool(state["tricks"][len(lesson.tricks)]["winner"] == 0)
    if key == "pig":
        return PIG not in state["captured"][0]
    if key == "goat":
        return GOAT in state["captured"][0]
    if key == "hearts":
        return mine & HEARTS_MASK == HEARTS_MASK
    if key == "transformer":
        return to_codes(mine & POINT_MASK) == [TRANSFORMER]
    if key == "exposing":
        return GOAT in state["exposed"][0] and GOAT in state["captured"][0]
    result = state.get("result")
    return bool(result and result["winner"] == 0)


def verdict(number: object, state: State) -> dict[str, Any]:
    """Where lesson ``number`` stands on ``state``: ``{due, done, outcome, step, guide, expose}``.
    ``due``: its moment is over (the tricks it is judged after, or the hand's end); then ``done``
    says whether it went the lesson's way and ``outcome`` names what happened (``<key>_done`` or
    ``<key>_retry``). Before that, ``step`` names the step the player is at (``<key>_<n>``, or
    ``<key>_expose``) with the card it asks for (``guide``) or the cards to expose (``expose``)
    when the player is to act; else ``step`` is None."""
    lesson = lesson_of(number)
    played = len(state["tricks"])
    due = state["phase"] in HAND_ENDS or played >= lesson.until
    answer: dict[str, Any] = {
        "due": due,
        "done": False,
        "outcome": None,
        "step": None,
        "guide": None,
        "expose": None,
    }
    if due:
        answer["done"] = _passed(lesson, state)
        answer["outcome"] = lesson.key + ("_done" if answer["done"] else "_retry")
        return answer
    if state["phase"] == "expose" and state["expose_choices"][0] is None:
        answer.update(step=lesson.key + "_expose", expose=list(lesson.expose))
        return answer
    for n, (tricks, card) in enumerate(lesson.guides):
        if tricks == played and state["turn"] == 0:
            answer["step"] = lesson.key + "_" + str(n)
            answer["guide"] = card if card in legal_plays(state, 0) else None
    return answer


__all__ = [
    "LESSONS",
    "LESSON_LEVEL",
    "LESSON_LIST",
    "InvalidLesson",
    "Lesson",
    "lesson_of",
    "lesson_table",
    "resumed",
    "verdict",
]
