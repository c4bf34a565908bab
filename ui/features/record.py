"""The player's record: statistics counted from the engine's facts, kept in localStorage.

Pure Python (MicroPython and CPython; no ``pyscript``). What is counted comes from seat 0's table
view as the engine sent it: the hand score (``last_hand``), the hand's moments (``moments``,
``gongzhu/moments.py``) and the match result; nothing here decides a rule.

Counting once: every hand is counted under the key ``<match>/<hand number>`` and every match
under ``<match>/end``, ``<match>`` being the page's token of the match (``UIState.table.match_token``: new
for every match started, kept in its save, so the same seed played again counts again; the
engine's ``match_id``, from the seed alone, only names a match saved before tokens); the record keeps the last :data:`KEPT_KEYS` keys it counted, and the
shell reads the record from storage, counts and writes it back at once (:func:`count_in`), so a
reload, a rotation or a second tab never counts a hand twice and never loses one.

The record is never trusted: over :data:`MAX_RECORD_CHARS`, not JSON, of the wrong shape or from a
newer version, it is set aside (:data:`CORRUPT_KEY`) and counting starts again, with a notice.
Storage that refuses writes (full, disabled) leaves the game playing; the record then lives in
memory only.

Rule sets: the tallies above count matches played under the standard rules (the headline); a
match under house rules (the view's ``house_rules``) is counted only in ``rule_sets``, one tally per
rule set named by :func:`rule_set_key`. A record from before rule sets holds standard-rules play.

Versions: schema 1 (statistics only) is migrated to 2 (the daily deal's results added), 2 to 3 (the
tallies per house-rule set added, none yet).
"""

import json

from gongzhu.vocab import DEFAULT_LEVEL, HAND_ENDS, LEVELS, RULE_VALUES, is_date
from ui.core import store

TYPE_CHECKING = False
if TYPE_CHECKING:  # (mypy only: MicroPython has no ``typing``)
    from typing import Any

    from gongzhu.moments import SeatMoments
    from ui.core.state import View

SCHEMA = 3
RECORD_KEY = "gongzhu.record.v1"
CORRUPT_KEY = "gongzhu.record.corrupt"
#: The longest record read (a real one holds ~3,000 characters).
MAX_RECORD_CHARS = 65536
#: How many counted keys the record remembers (a match has a few dozen hands at most).
KEPT_KEYS = 200
#: The longest key (a 16-digit match id, "/", a hand number or "end"; a daily key is a date).
MAX_KEY = 40
#: The biggest number a record may hold.
MAX_NUMBER = 10**12
#: The tallies kept: all matches together, then one per difficulty.
SCOPES = ("all",) + LEVELS

#: Counters of a tally that only grow (non-negative integers).
COUNTERS = (
    "matches_played",
    "matches_won",
    "hands_played",
    "streak",
    "best_streak",
    "pigs_taken",
    "goats_won",
    "transformer_alone",
    "all_hearts",
    "all_16",
    "exposures",
    "exposed_hands",
    "hearts_blocked",
)
#: Sums that may be negative (points).
SUMS = ("points", "exposure_effect")
#: Extremes: an integer, or None before the first hand.
EXTREMES = ("best_hand", "worst_hand")
#: Moment code (``gongzhu.moments.MOMENT_CODES``) -> the counter it adds to.
MOMENT_COUNTERS = (
    ("pig_taken", "pigs_taken"),
    ("goat_won", "goats_won"),
    ("transformer_alone", "transformer_alone"),
    ("all_hearts", "all_hearts"),
    ("all_16", "all_16"),
    ("hearts_blocked", "hearts_blocked"),
)


class RecordError(ValueError):
    """A stored record or an imported file that cannot be used; ``reason``: ``unreadable``, ``newer``."""

    def __init__(self, message: str, reason: str = "unreadable") -> None:
        super().__init__(message)
        self.reason = reason


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_NUMBER <= value <= MAX_NUMBER


class Tally:
    """The statistics of one scope (all matches, or one difficulty)."""

    def __init__(self) -> None:
        self.matches_played = 0  # type: int  # matches finished
        self.matches_won = 0  # type: int  # matches won (the player ranked first)
        self.hands_played = 0  # type: int  # hands finished
        self.points = 0  # type: int  # the sum of the player's hand scores
        self.best_hand = None  # type: int | None  # the best hand score, None before the first hand
        self.worst_hand = None  # type: int | None  # the worst hand score
        self.streak = 0  # type: int  # matches won in a row, up to the last one
        self.best_streak = 0  # type: int  # the longest such run
        self.pigs_taken = 0  # type: int  # hands in which the player took the pig
        self.goats_won = 0  # type: int  # hands in which the player won the goat
        self.transformer_alone = 0  # type: int  # hands in which the player took the transformer alone
        self.all_hearts = 0  # type: int  # hands in which the player collected all the hearts
        self.all_16 = 0  # type: int  # hands in which the player took all 16 point cards
        self.exposures = 0  # type: int  # cards the player exposed
        self.exposed_hands = 0  # type: int  # hands in which the player exposed a card
        self.exposure_effect = 0  # type: int  # what the player's exposures changed in its hand scores, summed
        self.hearts_blocked = 0  # type: int  # hands in which the player ended an all-hearts run

    def to_data(self) -> "dict[str, Any]":
        return {name: getattr(self, name) for name in COUNTERS + SUMS + EXTREMES}

    @staticmethod
    def from_data(data: object) -> "Tally":
        """A tally from stored data; :class:`RecordError` unless every field is a bounded integer."""
        if not isinstance(data, dict):
            raise RecordError("a tally is not an object")
        tally = Tally()
        for name in COUNTERS:
            value = data.get(name, 0)
            if not _is_int(value) or value < 0:
                raise RecordError("bad counter " + name)
            setattr(tally, name, value)
        for name in SUMS:
            value = data.get(name, 0)
            if not _is_int(value):
                raise RecordError("bad sum " + name)
            setattr(tally, name, value)
        for name in EXTREMES:
            value = data.get(name)
            if value is not None and not _is_int(value):
                raise RecordError("bad extreme " + name)
            setattr(tally, name, value)
        if tally.matches_won > tally.matches_played or tally.streak > tally.best_streak:
            raise RecordError("inconsistent tally")
        return tally

    def add_hand(self, score: int, moments: "SeatMoments") -> None:
        self.hands_played += 1
        self.points += score
        self.best_hand = score if self.best_hand is None else max(self.best_hand, score)
        self.worst_hand = score if self.worst_hand is None else min(self.worst_hand, score)
        codes = moments.get("codes") or []
        for code, counter in MOMENT_COUNTERS:
            if code in codes:
                setattr(self, counter, getattr(self, counter) + 1)
        exposed = moments.get("exposed") or 0
        if exposed:
            self.exposures += exposed
            self.exposed_hands += 1
            self.exposure_effect += moments.get("exposure_effect") or 0

    def add_match(self, won: bool) -> None:
        self.matches_played += 1
        if won:
            self.matches_won += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0


class Record:
    """Everything counted, as stored."""

    def __init__(self) -> None:
        self.tallies = {scope: Tally() for scope in SCOPES}  # type: dict[str, Tally]  # per scope
        self.counted = []  # type: list[str]  # the last keys counted (hands, matches, daily deals), oldest first
        self.daily = {}  # type: dict[str, dict[str, Any]]  # the daily deal's result per date (YYYY-MM-DD)
        self.rule_sets = {}  # type: dict[str, Tally]  # per house-rule set (rule_set_key), all levels

    def to_data(self) -> "dict[str, Any]":
        return {
            "schema": SCHEMA,
            "tallies": {scope: self.tallies[scope].to_data() for scope in SCOPES},
            "counted": list(self.counted),
            "daily": dict(self.daily),
            "rule_sets": {key: tally.to_data() for key, tally in self.rule_sets.items()},
        }

    def mark(self, key: str) -> None:
        self.counted.append(key)
        if len(self.counted) > KEPT_KEYS:
            self.counted = self.counted[-KEPT_KEYS:]


def migrate(data: "dict[str, Any]") -> "dict[str, Any]":
    """An older record in the current shape (1 -> 2: no daily results yet; 2 -> 3: no house-rule
    sets yet, everything counted so far was standard rules); :class:`RecordError` when the schema is
    unknown or newer."""
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise RecordError("unknown record schema")
    if schema > SCHEMA:
        raise RecordError("a record from a newer version", "newer")
    if schema == 1:
        data = dict(data)
        data["schema"] = 2
        data["daily"] = {}
    if data["schema"] == 2:
        data = dict(data)
        data["schema"] = 3
        data["rule_sets"] = {}
    return data


def from_data(data: object) -> Record:
    """A record from parsed JSON, strictly checked; :class:`RecordError` when it cannot be used."""
    if not isinstance(data, dict):
        raise RecordError("not a record of this game")
    data = migrate(data)
    tallies = data.get("tallies")
    counted = data.get("counted")
    daily = data.get("daily")
    rule_sets = data.get("rule_sets")
    if (
        not isinstance(tallies, dict)
        or not isinstance(counted, list)
        or not isinstance(daily, dict)
        or not isinstance(rule_sets, dict)
    ):
        raise RecordError("not a record of this game")
    record = Record()
    for scope in SCOPES:
        record.tallies[scope] = Tally.from_data(tallies.get(scope, {}))
    if len(counted) > KEPT_KEYS:
        raise RecordError("too many keys")
    for key in counted:
        if not isinstance(key, str) or not key or len(key) > MAX_KEY:
            raise RecordError("bad key")
    record.counted = list(counted)
    record.daily = check_daily(daily)
    for key in rule_sets:
        if not isinstance(key, str) or key != rule_set_key(_parse_rule_set(key)):
            raise RecordError("bad rule set")
        record.rule_sets[key] = Tally.from_data(rule_sets[key])
    return record


def rule_set_key(changed: "dict[str, Any] | None") -> str:
    """The name of a rule set in the record: its non-default rules as ``key=value`` joined by ``,``
    in the order of ``gongzhu.vocab.RULE_VALUES`` (``""`` for the standard rules), e.g. ``match_end=-500``."""
    rules = changed if isinstance(changed, dict) else {}
    return ",".join(
        key + "=" + str(rules[key])
        for key, values in RULE_VALUES
        if rules.get(key) is not None and rules[key] != values[0]
    )


def _parse_rule_set(key: str) -> "dict[str, str]":
    """The rules a stored rule-set key names; :class:`RecordError` unless every rule and value is a
    known house rule (the key written back must then be the same text: no default, no repeat)."""
    if not key or len(key) > 200:
        raise RecordError("bad rule set")
    allowed = {name: list(values[1:]) for name, values in RULE_VALUES}
    out = {}
    for piece in key.split(","):
        name, sep, value = piece.partition("=")
        if not sep or name not in allowed or value not in allowed[name] or name in out:
            raise RecordError("bad rule set")
        out[name] = value
    return out


def rule_set(key: str) -> "dict[str, str]":
    """The rules a stored rule-set key names (a key the record holds was checked when read)."""
    return _parse_rule_set(key)


def check_daily(daily: "dict[str, Any]") -> "dict[str, dict[str, Any]]":
    """The daily results, checked: date -> ``{score, place, codes}`` (``ui/features/daily.py`` writes them)."""
    if len(daily) > 5000:
        raise RecordError("too many daily results")
    out = {}
    for date in daily:
        entry = daily[date]
        if not is_date(date) or not isinstance(entry, dict):
            raise RecordError("bad daily result")
        codes = entry.get("codes")
        if (
            not _is_int(entry.get("score"))
            or entry.get("place") not in (1, 2, 3, 4)
            or not isinstance(codes, list)
        ):
            raise RecordError("bad daily result")
        for code in codes:
            if not isinstance(code, str) or len(code) > MAX_KEY:
                raise RecordError("bad daily result")
        out[date] = {"score": entry["score"], "place": entry["place"], "codes": list(codes)}
    return out


def decode(text: str) -> Record:
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError("record too big")
    try:
        data = json.loads(text)
    except Exception:
        raise RecordError("not JSON") from None
    return from_data(data)


def encode(record: Record) -> str:
    return json.dumps(record.to_data())


# --------------------------------------------------------------------------- counting


def _match_name(view: "View", token: str) -> str:
    """The match's name in the keys: the page's token of the match (a new one for every match it
    starts, so a replayed seed counts again), or the engine's ``match_id`` for a match saved before
    tokens."""
    return token or str(view.get("match_id"))


def hand_key(view: "View", token: str = "") -> str:
    return _match_name(view, token) + "/" + str(view["last_hand"]["number"])


def match_key(view: "View", token: str = "") -> str:
    return _match_name(view, token) + "/end"


def count(record: Record, view: "View", level: str, token: str = "") -> bool:
    """Count the finished hand (and the finished match) of ``view`` once; True when anything was new.
    ``level`` is the difficulty the hand was played at, ``token`` the match's (``UIState.table.match_token``)."""
    if view.get("phase") not in HAND_ENDS or not view.get("last_hand"):
        return False
    moments = view.get("moments")
    if not isinstance(moments, list) or len(moments) != 4 or not view.get("match_id"):
        return False
    rules_key = rule_set_key(view.get("house_rules"))
    if rules_key:  # (house rules: their own tally, never the standard-rules figures)
        tallies = [record.rule_sets.setdefault(rules_key, Tally())]
    else:
        tallies = [record.tallies[scope] for scope in ("all", level if level in LEVELS else DEFAULT_LEVEL)]
    changed = False
    key = hand_key(view, token)
    if key not in record.counted:
        score = view["last_hand"]["scores"][0]
        for tally in tallies:
            tally.add_hand(score, moments[0])
        record.mark(key)
        changed = True
    result = view.get("result")
    key = match_key(view, token)
    if view["phase"] == "match_over" and result and key not in record.counted:
        for tally in tallies:
            tally.add_match(result.get("winner") == 0)
        record.mark(key)
        changed = True
    return changed


# --------------------------------------------------------------------------- storage


def load(storage: "Any") -> "tuple[Record, str | None]":
    """``(record, problem)``: the stored record, or a new one when there is none or it is broken
    (``problem``: ``unreadable`` or ``newer``; the broken one is set aside under :data:`CORRUPT_KEY`,
    or, when storage refuses the copy, left where it is and ``problem`` ends in ``_kept``)."""
    raw = store.get_text(storage, RECORD_KEY)
    if raw is None:
        return Record(), None
    try:
        return decode(raw), None
    except RecordError as exc:
        if store.set_text(storage, CORRUPT_KEY, raw):
            try:  # noqa: SIM105  (MicroPython has no contextlib)
                storage.removeItem(RECORD_KEY)
            except Exception:
                pass
            return Record(), exc.reason
        return Record(), exc.reason + "_kept"


def save(storage: "Any", record: Record) -> bool:
    return store.set_text(storage, RECORD_KEY, encode(record))


def count_in(storage: "Any", view: "View", level: str, token: str = "") -> "tuple[Record, str | None]":
    """Read the record from storage, count ``view``'s finished hand and match, write it back when
    it changed (never over a broken record that could not be set aside): ``(record, problem)``."""
    record, problem = load(storage)
    if count(record, view, level, token) and not (problem and problem.endswith("_kept")):
        save(storage, record)
    return record, problem


def reset(storage: "Any") -> Record:
    """Statistics from zero (the daily results and the keys counted stay, so nothing counts twice)."""
    record, problem = load(storage)
    record.tallies = {scope: Tally() for scope in SCOPES}
    record.rule_sets = {}
    if not (problem and problem.endswith("_kept")):
        save(storage, record)
    return record
