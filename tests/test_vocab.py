"""The game's vocabulary (``gongzhu/vocab.py``): one module that the engine and the page both import.

The page's main thread runs MicroPython with this one file of the engine beside ``ui/``
(``build.MAIN_THREAD_ENGINE``): it must import there alone, without ``gongzhu/__init__.py``, and
hold there the values it holds in CPython. Its date check is the engine's and the page's: it takes
exactly the calendar dates of the daily deal's years.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date, timedelta

from hypothesis import example, given
from hypothesis import strategies as st

import build
from gongzhu import vocab
from gongzhu.daily import InvalidDate, check_date
from tests.test_ui_micropython import MICROPYTHON

#: Imports the vocabulary as the page's main thread has it (``gongzhu/vocab.py`` and no
#: ``gongzhu/__init__.py``) and prints its public names' values, the modules the import loaded and
#: its date check's answers for the texts given.
IMPORT_JS = """
const [mjs] = process.argv.slice(1);
const { loadMicroPython } = await import(mjs);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { source, texts } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
let out = "";
const mp = await loadMicroPython({ stdout: (t) => { out += t + "\\n"; }, stderr: (t) => { out += t + "\\n"; } });
const dir = (mp.FS.cwd() === "/" ? "" : mp.FS.cwd()) + "/gongzhu";
mp.FS.mkdir(dir);
mp.FS.writeFile(dir + "/vocab.py", source);
mp.globals.set("texts_json", JSON.stringify(texts));
mp.runPython(`
import json, sys
before = set(sys.modules)
from gongzhu import vocab
loaded = sorted(set(sys.modules) - before)
names = sorted(n for n in dir(vocab) if n[0].isupper())
values = dict((n, getattr(vocab, n)) for n in names)
dates = [vocab.is_date(t) for t in json.loads(texts_json)]
print(json.dumps({"loaded": loaded, "values": values, "dates": dates}))
`);
process.stdout.write(out.trim().split("\\n").pop());
"""

#: Strings shaped like dates, most of them near a real one: digits, a sign, a space or a non-ASCII
#: digit in any place, and the calendar's edges (the 29th of February, the 31st, years 1999/3000).
date_like = st.builds(
    lambda y, m, d, sep: f"{y}{sep}{m}{sep}{d}",
    st.sampled_from(
        ["1999", "2000", "2024", "2026", "2100", "2400", "2999", "3000", "0000", "２０２６", "+202"]
    ),
    st.sampled_from(["00", "01", "02", "04", "12", "13", "1", "+1", "٠٢"]),
    st.sampled_from(["00", "01", "28", "29", "30", "31", "32", "1", " 1"]),
    st.sampled_from(["-", "-", "-", "/", "."]),
)

EDGES = ["2000-02-29", "2100-02-29", "2026-02-29", "2026-04-31", "2999-12-31", "3000-01-01", "1999-12-31",
         "２０２６-12-01", "2026-1-01", "20261201", "2026-12-0<", "2026-12-01x", "", "2026/12/01"]  # fmt: skip


def public_values() -> dict[str, object]:
    """The vocabulary's public names and their values, as JSON has them."""
    values = {name: getattr(vocab, name) for name in dir(vocab) if name[0].isupper()}
    loaded: dict[str, object] = json.loads(json.dumps(values))
    return loaded


def test_the_page_imports_the_vocabulary_alone_in_micropython() -> None:
    build.ensure_node_modules()
    node = shutil.which("node")
    assert node, "Node.js is needed (it runs the build's snapshot maker too)"
    source = (build.ROOT / build.MAIN_THREAD_ENGINE[0]).read_text(encoding="utf-8")
    done = subprocess.run(
        [node, "--input-type=module", "-e", IMPORT_JS, MICROPYTHON.as_uri()],
        input=json.dumps({"source": source, "texts": EDGES}),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer["loaded"] == ["gongzhu", "gongzhu.vocab"]  # nothing else of the engine, no stdlib
    assert answer["values"] == public_values()
    assert answer["dates"] == [vocab.is_date(text) for text in EDGES]


def test_the_vocabulary_names_what_the_engine_plays_with() -> None:
    from gongzhu.cards import DECK, EXPOSABLE
    from gongzhu.house_rules import CHOICES, DEFAULT_RULES, Rules

    assert len(DECK) == len(set(DECK)) == 52 and set(vocab.SIGNAL_CARDS) < set(EXPOSABLE)
    assert dict(vocab.RULE_VALUES) == CHOICES
    assert Rules() == DEFAULT_RULES and DEFAULT_RULES.elimination == vocab.ELIMINATION
    assert (vocab.EXPOSE, vocab.PLAY, vocab.HAND_OVER, vocab.MATCH_OVER) == vocab.PHASES
    assert vocab.DEFAULT_LEVEL in vocab.LEVELS and vocab.DAILY_LEVEL in vocab.LEVELS
    assert 0 < vocab.NEW_SEED_BOUND <= vocab.MAX_SEED == 2**53 - 1


def iso_date(text: str) -> bool:
    """Python's own reading: an ASCII ``YYYY-MM-DD`` that is a real date of the daily deal's years."""
    if len(text) != 10 or not text.isascii() or text[4] != "-" or text[7] != "-":
        return False
    try:
        day = date.fromisoformat(text)
    except ValueError:
        return False
    return vocab.FIRST_YEAR <= day.year <= vocab.LAST_YEAR and day.isoformat() == text


@given(st.one_of(date_like, st.text(max_size=12)))
@example("2000-02-29")
@example("2100-02-29")
@example("2026-02-29")
@example("2026-04-31")
@example("2999-12-31")
@example("1999-12-31")
@example("2026-02-30")
def test_the_date_check_takes_exactly_the_calendar_dates(text: str) -> None:
    assert vocab.is_date(text) == iso_date(text), text
    try:
        taken = check_date(text) == text
    except InvalidDate:
        taken = False
    assert taken == vocab.is_date(text)


def test_every_day_of_the_daily_deals_years_is_a_date() -> None:
    day = date(vocab.FIRST_YEAR, 1, 1)
    while day.year <= vocab.LAST_YEAR:
        assert vocab.is_date(day.isoformat()), day
        day += timedelta(days=97)
    assert not vocab.is_date(20261201) and not vocab.is_date(None)
