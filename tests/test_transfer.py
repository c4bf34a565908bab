"""Export and import of the player's data (ui/features/transfer.py)."""

from __future__ import annotations

import json

import pytest

from tests.broken_saves import FakeStorage
from tests.support.replay import op, save_text
from ui.core import store
from ui.features import record, transfer
from ui.view import texts


def exported() -> tuple[FakeStorage, str]:
    storage = FakeStorage()
    rec = record.Record()
    rec.tallies["all"].hands_played = 7
    rec.rule_sets["match_end=-500"] = record.Tally()
    rec.rule_sets["match_end=-500"].hands_played = 2
    rec.daily["2026-11-29"] = {"score": -20, "place": 2, "codes": []}
    record.save(storage, rec)
    storage.setItem(store.SAVE_KEY, save_text(op("new_match", seed=5)))
    return storage, transfer.export_text(storage)


def test_an_export_imports_back_whole() -> None:
    storage, text = exported()
    rec, save, fields = transfer.parse(text)
    assert rec.to_data() == record.load(storage)[0].to_data()
    assert rec.rule_sets["match_end=-500"].hands_played == 2  # the house-rule sets travel too
    assert save == storage.getItem(store.SAVE_KEY)
    assert fields is not None and fields["view"]["hand_number"] == 1


def test_an_export_without_a_match() -> None:
    storage = FakeStorage()
    rec, save, fields = transfer.parse(transfer.export_text(storage))
    assert (rec.tallies["all"].hands_played, save, fields) == (0, None, None)


def _with(**changes: object) -> str:
    data = json.loads(exported()[1])
    data.update(changes)
    return json.dumps(data)


BAD = [
    ("empty", "", "empty"),
    ("blank", " \n", "empty"),
    ("not json", "{oops", "not_ours"),
    ("another app", json.dumps({"format": "other", "version": 1}), "not_ours"),
    ("a list", "[1, 2]", "not_ours"),
    ("future", _with(version=2), "newer"),
    ("record from the future", _with(record={"schema": 9}), "newer"),
    ("no version", _with(version="1"), "damaged"),
    ("bad record", _with(record={"schema": 2, "tallies": {"all": {"hands_played": -3}}, "counted": [], "daily": {}}), "damaged"),
    ("bad rule set", _with(record={"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": {"match_end=-1": {}}}), "damaged"),
    ("bad rule-set tally", _with(record={"schema": 3, "tallies": {}, "counted": [], "daily": {}, "rule_sets": {"match_end=-500": {"matches_won": 3}}}), "damaged"),
    ("bad save", _with(save='{"schema": 1, "state": "x", "view": {"phase": "<script>"}}'), "damaged"),
    ("save not text", _with(save=5), "damaged"),
    ("too big", " " * (transfer.MAX_FILE_CHARS + 1), "too_big"),
    ("unreadable", None, "too_big"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "reason"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_file_is_refused_with_its_reason(name: str, text: str | None, reason: str) -> None:
    with pytest.raises(transfer.TransferError) as caught:
        transfer.parse(text)
    assert caught.value.reason == reason
    assert "Your data is unchanged" in texts.words(transfer.refusal_note(reason))


def test_an_empty_file_has_its_own_reason() -> None:
    text = texts.words(transfer.refusal_note("empty"))
    assert "it is empty" in text and text != texts.words(transfer.refusal_note("damaged"))


def test_an_export_carries_its_date_and_an_older_file_has_none() -> None:
    storage, _text = exported()
    text = transfer.export_text(storage, "2026-11-30")
    transfer.parse(text)
    assert transfer.file_date(text) == "2026-11-30"
    assert transfer.file_date(transfer.export_text(storage)) is None  # (a file from before dates)
    for bad in ("2026-02-30", "<b>", 5):
        with pytest.raises(transfer.TransferError) as caught:
            transfer.file_date(_with(date=bad))
        assert caught.value.reason == "damaged"


def test_an_offer_says_what_it_replaces_on_each_side() -> None:
    _storage, text = exported()
    mine = record.Record()
    mine.tallies["all"].matches_played, mine.tallies["all"].hands_played = 2, 31
    rec, save, fields = transfer.parse(text)
    offer = transfer.ImportOffer(rec, save, fields, "2026-11-30", mine)
    said = [texts.words(line) for line in offer.lines()]
    assert said[0] == "Your statistics: matches played 2, hands played 31."
    assert said[1] == "The file's statistics: matches played 0, hands played 9."  # 7 standard, 2 quick-match
    assert said[2] == "The file's daily deal results: 1."  # (they replace the player's)
    assert said[3] == "The file's match, saved on 2026-11-30, replaces your current match."
    assert said[-1].startswith("Replace your data")
    assert "date is not in the file" in texts.words(
        transfer.ImportOffer(rec, save, fields, None, mine).lines()[3]
    )
    assert "your current match stays" in texts.words(
        transfer.ImportOffer(rec, None, None, None, mine).lines()[3]
    )
    assert texts.words(transfer.ImportOffer(record.Record(), None, None, None, mine).lines()[2]) == (
        "The file's daily deal results: 0."
    )


def _daily_file(results: dict[str, int], date: str | None) -> str:
    """An export file of ``date`` (None: a file from before dates) whose record holds a daily
    result (first place, ``score``) for each date of ``results``."""
    storage = FakeStorage()
    rec = record.Record()
    for day, score in results.items():
        rec.daily[day] = {"score": score, "place": 1, "codes": []}
    record.save(storage, rec)
    return transfer.export_text(storage, date or "")


#: (name, daily results' dates, the file's date, today, the refusal or None when taken).
DAILY_DATES = [
    ("after the export date", ["2026-12-05"], "2026-12-03", "2026-12-03", "daily_after_export"),
    ("far after the export date", ["2999-12-31"], "2026-12-03", "2026-12-03", "daily_after_export"),
    ("one of several after it", ["2026-11-01", "2026-12-04", "2026-12-02"], "2026-12-03", "2026-12-09", "daily_after_export"),
    ("a forged export date after today", ["2026-12-05"], "2026-12-05", "2026-12-03", "daily_after_today"),
    ("an older file, after today", ["2026-12-04"], None, "2026-12-03", "daily_after_today"),
    ("the export day itself", ["2026-12-03", "2026-11-30"], "2026-12-03", "2026-12-03", None),
    ("an older file, up to today", ["2026-12-03"], None, "2026-12-03", None),
    ("exported earlier, read later", ["2026-11-20"], "2026-11-21", "2026-12-03", None),
    ("no daily result", [], "2026-12-03", "2026-12-03", None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "days", "date", "today", "reason"), DAILY_DATES, ids=[d[0] for d in DAILY_DATES]
)
def test_daily_results_dated_after_the_export_or_today_are_refused(
    name: str, days: list[str], date: str | None, today: str, reason: str | None
) -> None:
    text = _daily_file(dict.fromkeys(days, 200), date)
    if reason is None:
        rec, _save, _fields = transfer.parse(text, today)
        assert sorted(rec.daily) == sorted(days)
        return
    with pytest.raises(transfer.TransferError) as caught:
        transfer.parse(text, today)
    assert caught.value.reason == reason
    said = texts.words(transfer.refusal_note(reason))
    assert "daily deal results dated after" in said and "Your data is unchanged" in said
    if reason == "daily_after_today":
        transfer.parse(text)  # (without today, only the file's own date is checked)


class RefusesTheSave(FakeStorage):
    """Storage with room for the record but not for the match."""

    def setItem(self, key: str, value: str) -> None:
        if key == store.SAVE_KEY:
            raise OSError("QuotaExceededError")
        super().setItem(key, value)


def test_an_import_storage_refuses_half_of_leaves_the_record_as_it_was() -> None:
    _storage, text = exported()
    rec, save, fields = transfer.parse(text)
    storage = RefusesTheSave()
    mine = record.Record()
    mine.tallies["all"].hands_played = 1
    record.save(storage, mine)
    before = storage.getItem(record.RECORD_KEY)
    offer = transfer.ImportOffer(rec, save, fields, None, mine)
    assert transfer.write(storage, offer) is False
    assert storage.getItem(record.RECORD_KEY) == before and storage.getItem(store.SAVE_KEY) is None
    empty = RefusesTheSave()
    assert transfer.write(empty, offer) is False and empty.getItem(record.RECORD_KEY) is None
    fine = FakeStorage()
    assert transfer.write(fine, offer) is True
    assert record.load(fine)[0].to_data() == rec.to_data() and fine.getItem(store.SAVE_KEY) == save
