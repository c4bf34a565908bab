"""The game's vocabulary: the names and values the engine and the page both speak, defined once.

The engine reads them here (:mod:`gongzhu.cards`, :mod:`gongzhu.game`, :mod:`gongzhu.house_rules`,
:mod:`gongzhu.daily`, :mod:`gongzhu.service`) and so does the UI on the browser's main thread, in
MicroPython: the build ships this one file of the engine there beside ``ui/``
(``sitebuild.paths.MAIN_THREAD_ENGINE``). There ``gongzhu`` is a folder without ``__init__.py``, so
``from gongzhu import vocab`` loads this module alone, never the engine.

Hence the rules of this module: plain data (and one pure date check), no import, nothing MicroPython
lacks (no ``typing``; no dict order relied on: ordered facts are tuples).
"""

#: A hand's phases, in their order; a view's ``phase`` is one of them.
PHASES = ("expose", "play", "hand_over", "match_over")
EXPOSE, PLAY, HAND_OVER, MATCH_OVER = PHASES
#: The phases of a finished hand (its scores and its review are shown).
HAND_ENDS = (HAND_OVER, MATCH_OVER)

#: A card is written rank + suit (``QS``, ``TC``, ``AH``): the ranks low to high, the suits in
#: display order.
RANKS = "23456789TJQKA"
SUITS = "SHDC"

#: The cards with a name of their own: the pig, the goat, the transformer and the ace of hearts.
PIG, GOAT, TRANSFORMER, ACE_OF_HEARTS = "QS", "JD", "TC", "AH"
#: The cards the page signals when they are played (a toast and a sound).
SIGNAL_CARDS = (PIG, GOAT, TRANSFORMER)

#: The total that ends a match under the standard rules (the score chart draws its line).
ELIMINATION = -1000

#: The house rules (docs/rules.md, "House rules"): rule -> its values, the default first.
RULE_VALUES = (
    ("match_end", (str(ELIMINATION), "-500", "hands:4", "hands:8")),
    ("exposing", ("on", "off")),
    ("first_lead", ("2S", "2C")),
    ("all_hearts", ("standard", "flip")),
)

#: The opponents' levels, easiest first, the default one and the daily deal's.
LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"
DAILY_LEVEL = "hard"

#: The guided lessons, in order (``gongzhu/lessons.py``; the page words them by these keys).
LESSONS = ("tricks", "pig", "goat", "hearts", "transformer", "exposing", "match")

#: The match seeds the engine takes: the integers from −MAX_SEED to MAX_SEED (the largest integer a
#: JavaScript number holds exactly, so a seed crosses the page's JSON unchanged).
MAX_SEED = 2**53 - 1
#: A new match's random seed is drawn from 0 to NEW_SEED_BOUND − 1 (a 31-bit bound: the page's
#: ``Math.random() * NEW_SEED_BOUND`` is a whole number exactly).
NEW_SEED_BOUND = 2**31 - 1

#: How many of a match's last hands stay reviewable (the engine checks them, the page keeps them).
KEEP_HANDS = 6
#: The coach flags a play that gives away at least this many expected points of the hand score.
COSTLY_POINTS = 25

#: The years a daily deal's date may name.
FIRST_YEAR, LAST_YEAR = 2000, 2999
#: Days in each month of a common year.
MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def is_date(text: object) -> bool:
    """True when ``text`` is a real calendar date written ``YYYY-MM-DD`` (ASCII digits) from
    :data:`FIRST_YEAR` to :data:`LAST_YEAR`: the one date check of the engine and the page."""
    if not isinstance(text, str) or len(text) != 10 or text[4] != "-" or text[7] != "-":
        return False
    digits = text[:4] + text[5:7] + text[8:]
    if not all("0" <= c <= "9" for c in digits):
        return False
    y, m, d = int(text[:4]), int(text[5:7]), int(text[8:])
    if not (FIRST_YEAR <= y <= LAST_YEAR and 1 <= m <= 12):
        return False
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    return 1 <= d <= MONTH_DAYS[m - 1] + (1 if m == 2 and leap else 0)
