"""The daily deal: the same cards for everyone on a given date (UTC), from the date alone.

The match seed of a date is SplitMix64 of the number YYYYMMDD, within ±``MAX_SEED``, so the deal
needs no server and works offline; the opponents (:data:`~gongzhu.vocab.DAILY_LEVEL`, Hard) are seeded from the match seed
(``service.bot_seed``), so they play the same way for everyone: their choices depend only on the
deal and the play.  The daily deal is the first hand of that match.
"""

from __future__ import annotations

from .rng import SplitMix64
from .vocab import DAILY_LEVEL, MAX_SEED, is_date


class InvalidDate(ValueError):
    """Not a calendar date written YYYY-MM-DD (years 2000 to 2999)."""

    def __init__(self, text: object) -> None:
        super().__init__(f"{str(text)[:20]!r} is not a date YYYY-MM-DD")


def check_date(text: object) -> str:
    """``text`` when it is a real calendar date ``YYYY-MM-DD`` from 2000 to 2999, else
    :class:`InvalidDate` (:func:`gongzhu.vocab.is_date`: the page checks a ``?daily=`` link with it
    too)."""
    if not isinstance(text, str) or not is_date(text):
        raise InvalidDate(text)
    return text


def daily_seed(date: str) -> int:
    """The match seed of the daily deal of ``date`` (YYYY-MM-DD): SplitMix64 of YYYYMMDD."""
    return SplitMix64(int(check_date(date).replace("-", ""))).next_u64() & MAX_SEED


__all__ = ["DAILY_LEVEL", "InvalidDate", "check_date", "daily_seed"]
