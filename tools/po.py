"""A small reader for gettext ``.po`` files (standard library only), for the build.

The build compiles ``locales/*.po`` to JSON with this module, so ``python3 build.py`` needs nothing
beyond the standard library and npm. Babel stays the translators' tool (extraction and merge,
``tools/i18n_extract.py``); ``tests/test_i18n.py`` checks both read the catalogs the same way.

Handles what GNU gettext and Babel write: ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr`` and
``msgstr[N]``, strings continued over several lines, C escapes, ``#,`` flags (``fuzzy``), and skips
translator and reference comments, previous strings (``#|``) and obsolete entries (``#~``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


class PoError(ValueError):
    """A ``.po`` file that does not parse; the message names the file and the line."""


@dataclass
class PoEntry:
    """One message of a catalog."""

    msgid: str  # the source text; "" for the header entry
    msgid_plural: str | None = None  # the plural source text, None for a singular entry
    msgctxt: str | None = None  # the disambiguating context, None when there is none
    msgstr: list[str] = field(default_factory=list)  # one translation, or one per plural form
    flags: set[str] = field(default_factory=set)  # from "#," lines: "fuzzy", "python-brace-format", ...
    line: int = 0  # line number of the entry's msgid (for error messages)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        """Every form present and not blank."""
        return bool(self.msgstr) and all(s.strip() for s in self.msgstr)


@dataclass
class PoFile:
    """A parsed catalog: its header fields and its messages (header entry excluded), in file order."""

    path: Path  # where it was read from
    headers: dict[str, str]  # "Plural-Forms" -> "nplurals=2; plural=(n != 1);", ...
    entries: list[PoEntry]  # every message except the header, obsolete ones left out

    @property
    def num_plurals(self) -> int:
        return int(self._plural_params().get("nplurals", "2"))

    @property
    def plural_expr(self) -> str:
        return self._plural_params().get("plural", "(n != 1)")

    @property
    def plural_forms(self) -> str:
        """``Plural-Forms`` normalised as ``nplurals=N; plural=EXPR;``."""
        return f"nplurals={self.num_plurals}; plural={self.plural_expr};"

    def _plural_params(self) -> dict[str, str]:
        params: dict[str, str] = {}
        for part in self.headers.get("Plural-Forms", "").split(";"):
            name, sep, value = part.partition("=")
            if sep:
                params[name.strip()] = value.strip()
        return params


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_ESCAPE = re.compile(r"\\(.)")
_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")
_CONTINUATION = re.compile(r'^(".*")\s*$')


def _unquote(token: str, where: str) -> str:
    if len(token) < 2 or not (token.startswith('"') and token.endswith('"')):
        raise PoError(f"{where}: expected a quoted string, got {token!r}")

    def replace(match: re.Match[str]) -> str:
        char = match.group(1)
        if char not in _ESCAPES:
            raise PoError(f"{where}: unknown escape \\{char}")
        return _ESCAPES[char]

    return _ESCAPE.sub(replace, token[1:-1])


class _Builder:
    """Collects the lines of one entry at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: list[PoEntry] = []
        self.header: PoEntry | None = None
        self.current: PoEntry | None = None
        self.flags: set[str] = set()
        self.target: tuple[str, int] | None = None  # which string continuation lines extend
        self.seen_msgstr = False

    def flush(self) -> None:
        entry = self.current
        if entry is not None:
            if not self.seen_msgstr:
                raise PoError(f"{self.path}:{entry.line}: msgid without msgstr")
            if entry.msgid == "" and entry.msgctxt is None:
                self.header = entry
            else:
                self.entries.append(entry)
        self.current = None
        self.target = None
        self.seen_msgstr = False

    def keyword(self, name: str, index: str | None, text: str, lineno: int) -> None:
        where = f"{self.path}:{lineno}"
        current = self.current
        if name == "msgid" and current is not None and not self.seen_msgstr and self.target != ("msgctxt", 0):
            raise PoError(f"{self.path}:{current.line}: msgid without msgstr")
        if name in ("msgctxt", "msgid") and (self.seen_msgstr or (name == "msgctxt" and self.current)):
            self.flush()
        if self.current is None:
            self.current = PoEntry(msgid="", flags=self.flags, line=lineno)
            self.flags = set()
        entry = self.current
        if name == "msgctxt":
            entry.msgctxt = text
            self.target = ("msgctxt", 0)
        elif name == "msgid":
            entry.msgid, entry.line = text, lineno
            self.target = ("msgid", 0)
        elif name == "msgid_plural":
            entry.msgid_plural = text
            self.target = ("msgid_plural", 0)
        else:
            position = int(index) if index is not None else 0
            if position != len(entry.msgstr):
                raise PoError(f"{where}: msgstr[{position}] out of order")
            if (index is None) != (entry.msgid_plural is None):
                raise PoError(f"{where}: {'plural' if index else 'singular'} msgstr does not match the msgid")
            entry.msgstr.append(text)
            self.seen_msgstr = True
            self.target = ("msgstr", position)

    def continuation(self, text: str, lineno: int) -> None:
        if self.current is None or self.target is None:
            raise PoError(f"{self.path}:{lineno}: string outside an entry")
        name, position = self.target
        entry = self.current
        if name == "msgctxt":
            entry.msgctxt = (entry.msgctxt or "") + text
        elif name == "msgid":
            entry.msgid += text
        elif name == "msgid_plural":
            entry.msgid_plural = (entry.msgid_plural or "") + text
        else:
            entry.msgstr[position] += text


def parse_po(text: str, path: Path = Path("<string>")) -> PoFile:
    """Parse the text of a ``.po`` file (:class:`PoError` on anything malformed)."""
    builder = _Builder(path)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        where = f"{path}:{lineno}"
        if not line:
            continue
        if line.startswith("#~"):  # obsolete entry: not part of the catalog
            continue
        if line.startswith("#,"):
            if builder.seen_msgstr:
                builder.flush()
            builder.flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if line.startswith("#"):
            if builder.seen_msgstr:
                builder.flush()
            continue
        keyword = _KEYWORD.match(line)
        if keyword:
            name, index, token = keyword.groups()
            builder.keyword(name.split("[")[0], index, _unquote(token, where), lineno)
            continue
        continuation = _CONTINUATION.match(line)
        if continuation:
            builder.continuation(_unquote(continuation.group(1), where), lineno)
            continue
        raise PoError(f"{where}: cannot parse {raw!r}")
    builder.flush()
    headers: dict[str, str] = {}
    if builder.header is not None and builder.header.msgstr:
        for header_line in builder.header.msgstr[0].split("\n"):
            name, sep, value = header_line.partition(":")
            if sep:
                headers[name.strip()] = value.strip()
    return PoFile(path=path, headers=headers, entries=builder.entries)


def read_po(path: Path) -> PoFile:
    """Read and parse one ``.po`` file (UTF-8)."""
    return parse_po(path.read_text(encoding="utf-8"), path)
