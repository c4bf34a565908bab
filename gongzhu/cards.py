"""Card codes and their fast bit-mask form.

A card is written as rank + suit (``QS``, ``TC``, ``AH``).  Internally a card is an index
``suit * 13 + rank`` (rank 0 = two … 12 = ace) and a set of cards is an ``int`` bit mask, so the
rules and the AI's simulations work on integers while everything public speaks card codes.
"""

from __future__ import annotations

from collections.abc import Iterable

# The ranks, the suits and the named cards are the vocabulary's (the page reads them there too);
# re-exported here, the engine's card module.
from .vocab import ACE_OF_HEARTS as ACE_OF_HEARTS
from .vocab import GOAT as GOAT
from .vocab import PIG as PIG
from .vocab import RANKS as RANKS
from .vocab import SUITS as SUITS
from .vocab import TRANSFORMER as TRANSFORMER

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3

DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
INDEX: dict[str, int] = {code: i for i, code in enumerate(DECK)}
FULL_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))

EXPOSABLE: tuple[str, ...] = (ACE_OF_HEARTS, PIG, GOAT, TRANSFORMER)
PIG_BIT = 1 << INDEX[PIG]
GOAT_BIT = 1 << INDEX[GOAT]
TRANSFORMER_BIT = 1 << INDEX[TRANSFORMER]
ACE_OF_HEARTS_BIT = 1 << INDEX[ACE_OF_HEARTS]
EXPOSABLE_MASK = PIG_BIT | GOAT_BIT | TRANSFORMER_BIT | ACE_OF_HEARTS_BIT
HEARTS_MASK = SUIT_MASKS[HEARTS]
POINT_MASK = HEARTS_MASK | PIG_BIT | GOAT_BIT | TRANSFORMER_BIT


class CardError(ValueError):
    """A card code that does not name a card, or a card listed twice."""

    def __init__(self, code: str, problem: str) -> None:
        super().__init__(f"{problem}: {code!r}")
        self.code = code
        self.problem = problem


def suit_of(index: int) -> int:
    return index // 13


def rank_of(index: int) -> int:
    return index % 13


def parse_card(code: str) -> int:
    """Index of a card code; raises :class:`CardError` for anything else."""
    index = INDEX.get(code.strip().upper())
    if index is None:
        raise CardError(code, "unknown card")
    return index


def parse_cards(codes: Iterable[str]) -> list[int]:
    """Indices of distinct card codes, in the given order."""
    seen: set[int] = set()
    out: list[int] = []
    for code in codes:
        index = parse_card(code)
        if index in seen:
            raise CardError(code, "duplicate card")
        seen.add(index)
        out.append(index)
    return out


def parse_card_list(text: str) -> list[str]:
    """``"QS, ah,5H"`` → ``["QS", "AH", "5H"]`` (validated, no duplicates)."""
    parts = [p for p in (s.strip() for s in text.split(",")) if p]
    return [DECK[i] for i in parse_cards(parts)]


def to_mask(codes: Iterable[str]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << INDEX[code]
    return mask


def indices(mask: int) -> list[int]:
    """Set bits of a mask, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def to_codes(mask: int) -> list[str]:
    """Card codes of a mask in display order: by suit (S, H, D, C), then rank high to low."""
    out: list[str] = []
    for s in range(4):
        bits = (mask >> (13 * s)) & 0x1FFF
        for r in range(12, -1, -1):
            if bits >> r & 1:
                out.append(DECK[13 * s + r])
    return out


def sort_cards(codes: Iterable[str]) -> list[str]:
    """Cards sorted by suit then rank, high first (the order of a sorted hand)."""
    return to_codes(to_mask(codes))
