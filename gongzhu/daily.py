"""The daily deal: the same cards for everyone on a given date (UTC), from the date alone.

The match seed of a date is SplitMix64 of the number YYYYMMDD, within ±``MAX_SEED``, so the deal
needs no server and works offline; the opponents (Hard) are seeded from the match seed
(``service.bot_seed``), so they play the same way for everyone: their choices depend only on the
deal and the play.  The daily deal is the first hand of that match.
"""

from __future__ import annotations

from .game import MAX_SEED
from .rng import SplitMix64

#: The opponents' level in the daily deal.
DAILY_LEVEL = "hard"
#: Days in each month of a common year.
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


class InvalidDate(ValueError):
    """Not a calendar date written YYYY-MM-DD (years 2000 to 2999)."""

    def __init__(self, text: object) -> None:
        super().__init__(f"{str(text)[:20]!r} is not a date YYYY-MM-DD")


def check_date(text: object) -> str:
    """``text`` when it is a real calendar date ``YYYY-MM-DD`` from 2000 to 2999, else :class:`InvalidDate`."""
    if not isinstance(text, str) or len(text) != 10 or text[4] != "-" or text[7] != "-":
        raise InvalidDate(text)
    year, month, day = text[:4], text[5:7], text[8:]
    if not (year.isdigit() and month.isdigit() and day.isdigit() and text.isascii()):
        raise InvalidDate(text)
    y, m, d = int(year), int(month), int(day)
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    if not (2000 <= y <= 2999 and 1 <= m <= 12):
        raise InvalidDate(text)
    if not 1 <= d <= _MONTH_DAYS[m - 1] + (1 if m == 2 and leap else 0):
        raise InvalidDate(text)
    return text


def daily_seed(date: str) -> int:
    """The match seed of the daily deal of ``date`` (YYYY-MM-DD): SplitMix64 of YYYYMMDD."""
    return SplitMix64(int(check_date(date).replace("-", ""))).next_u64() & MAX_SEED


__all__ = ["DAILY_LEVEL", "InvalidDate", "check_date", "daily_seed"]
