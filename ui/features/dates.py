"""The UI's one date check: a calendar date written ``YYYY-MM-DD`` (pure).

The engine's is ``gongzhu.daily.check_date`` (the page cannot import ``gongzhu``):
``tests/test_shared_facts.py`` holds the two to the same dates. A ``?daily=`` link
(``ui/features/daily.py``) and the record's daily results (``ui/features/record.py``) are read with it.
"""

_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_date(text: object) -> bool:
    """True when ``text`` is a real calendar date ``YYYY-MM-DD`` from 2000 to 2999."""
    if not isinstance(text, str) or len(text) != 10 or text[4] != "-" or text[7] != "-":
        return False
    digits = text[:4] + text[5:7] + text[8:]
    if not all("0" <= c <= "9" for c in digits):
        return False
    y, m, d = int(text[:4]), int(text[5:7]), int(text[8:])
    if not (2000 <= y <= 2999 and 1 <= m <= 12):
        return False
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    return 1 <= d <= _MONTH_DAYS[m - 1] + (1 if m == 2 and leap else 0)
