"""Gettext catalogs of the game: extraction, update, checks and compilation to JSON.

Workflow (English is the source language, written in the code as ``_("English text")``)::

    python -m tools.i18n update     # extract ui/ (+ the rules page labels) into locales/messages.pot,
                                    # merge it into locales/<lang>.po (new entries empty)
    # ... translate the empty msgstr of zh/fr/pt/uk ...
    python -m tools.i18n check      # every entry present, translated and not fuzzy (exit 1 otherwise)
    python -m tools.i18n compile    # what build.py does: dist/locales/<lang>.json

Extraction keywords: ``_(msgid)``, ``N_(msgid)`` and ``said(msgid, ...)`` (mark without translating),
``ngettext(singular, plural, n)`` and, where one English word needs two translations,
``pgettext(context, msgid)`` / ``npgettext(context, singular, plural, n)``. The compiled catalogs are
``{msgid: msgstr}`` and, for plural entries, ``{singular: [form0, form1, ...]}`` in the order of the
language's ``Plural-Forms``; an entry with a context is keyed ``context + "\x04" + msgid`` (read by
``ui/view/i18n.py``).

Checking and compiling (what ``build.py`` runs) need the standard library only: the catalogs are read
by :mod:`tools.po` and the source's messages found with :mod:`ast`. Extraction and update write
``.po`` files with Babel (:mod:`tools.i18n_extract`), a translators' and tests' tool.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ui.view.i18n import LANGUAGES as GAME_LANGUAGES

from .po import PoEntry, PoError, PoFile, read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "locales"
TEMPLATE = LOCALES / "messages.pot"

#: Site language code -> (gettext ``Language``, ``Plural-Forms``).
#: French and Brazilian Portuguese use the classic two-form rule (0 and 1 singular), not CLDR's
#: extra "many" form for millions; Ukrainian has three forms (1, 2–4, 5+ with 11–14).
_GETTEXT: dict[str, tuple[str, str]] = {
    "en": ("en", "nplurals=2; plural=(n != 1);"),
    "zh": ("zh_Hans", "nplurals=1; plural=0;"),
    "fr": ("fr", "nplurals=2; plural=(n > 1);"),
    "pt": ("pt_BR", "nplurals=2; plural=(n > 1);"),
    "uk": (
        "uk",
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
        "n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    ),
}
#: The same for each of the game's languages (``ui.view.i18n.LANGUAGES``, in its order: a language
#: added there and not in :data:`_GETTEXT` fails the import).
LANGUAGES: dict[str, tuple[str, str]] = {code: _GETTEXT[code] for code in GAME_LANGUAGES}
SOURCE_LANGUAGE = "en"

#: Babel's keyword specs: argument positions of the msgid (and plural), ``(n, "c")`` the context's.
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "_": None,
    "N_": None,
    "said": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
#: Arguments before the msgid of each keyword (the context of ``pgettext``/``npgettext``).
_CONTEXT_ARGS = {"pgettext": 1, "npgettext": 1}
#: Separates a context from its msgid in a compiled key (``ui.view.i18n.CONTEXT_SEPARATOR``).
CONTEXT_SEPARATOR = "\x04"
COMMENT_TAGS = ("TRANSLATORS:",)
PROJECT = "gongzhu"


class CatalogError(RuntimeError):
    """A catalog is incomplete, fuzzy or malformed."""


def source_files(root: Path = ROOT) -> list[Path]:
    """Every file whose strings the player can see: the UI package, the rules page generator and the
    loading screen's failure notice."""
    files = [p for p in sorted((root / "ui").rglob("*.py")) if "__pycache__" not in p.parts]
    files.append(root / "tools" / "rules_page.py")
    files.append(root / "tools" / "loading_notice.py")
    return [p for p in files if p.is_file()]


#: Source messages: key (:func:`message_key`) -> True for a plural (``ngettext``) entry.
SourceMessages = dict[str, bool]


def message_key(msgid: str, context: str | None = None) -> str:
    """How a message is keyed in the compiled catalogs: its msgid, after ``context + "\x04"``
    when it has a context."""
    return msgid if context is None else context + CONTEXT_SEPARATOR + msgid


def _call_name(node: ast.Call) -> str | None:
    """``_`` for ``_(...)`` and for ``i18n._(...)`` alike (Babel matches the name either way)."""
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def source_messages(root: Path = ROOT) -> SourceMessages:
    """Every literal ``_``/``N_``/``ngettext`` msgid of :func:`source_files` (non-literal calls are
    not messages: ``tests/test_i18n.py`` forbids them in the UI)."""
    found: SourceMessages = {}
    for path in source_files(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call) or (name := _call_name(node)) not in KEYWORDS:
                continue
            skip = _CONTEXT_ARGS.get(name, 0)
            if len(node.args) <= skip:
                continue
            msgid = _literal(node.args[skip])
            context = _literal(node.args[0]) if skip else None
            if msgid and (context is not None or not skip):
                key = message_key(msgid, context)
                plural = name in ("ngettext", "npgettext")
                found[key] = found.get(key, False) or plural
    return found


def read_catalog(path: Path) -> PoFile:
    """One ``.po`` file, parsed (:class:`CatalogError` when it is malformed)."""
    try:
        return read_po(path)
    except PoError as exc:
        raise CatalogError(str(exc)) from exc


def po_path(language: str, locales: Path = LOCALES) -> Path:
    return locales / f"{language}.po"


@dataclass(frozen=True)
class Problem:
    language: str
    msgid: str
    what: str  # "missing" | "untranslated" | "fuzzy" | "plural forms" | "header"

    def __str__(self) -> str:
        return f"{self.language}.po: {self.what}: {self.msgid!r}"


def check(
    root: Path = ROOT, locales: Path = LOCALES, template: SourceMessages | None = None
) -> list[Problem]:
    """Everything wrong with the catalogs: entries of the source code missing from a ``.po``,
    empty or fuzzy, plural entries with the wrong number of forms, a wrong ``Plural-Forms``."""
    template = template if template is not None else source_messages(root)
    problems: list[Problem] = []
    for language, (_tag, plural_forms) in LANGUAGES.items():
        path = po_path(language, locales)
        if not path.is_file():
            problems.append(Problem(language, "", "missing catalog"))
            continue
        catalog = read_catalog(path)
        if catalog.plural_forms != plural_forms:
            problems.append(Problem(language, catalog.plural_forms, "header: Plural-Forms"))
        entries = {message_key(entry.msgid, entry.msgctxt): entry for entry in catalog.entries}
        for msgid, plural in template.items():
            entry = entries.get(msgid)
            if entry is None:
                problems.append(Problem(language, msgid, "missing"))
            elif entry.fuzzy:
                problems.append(Problem(language, msgid, "fuzzy"))
            elif not entry.translated:
                problems.append(Problem(language, msgid, "untranslated"))
            elif plural and (entry.msgid_plural is None or len(entry.msgstr) != catalog.num_plurals):
                problems.append(Problem(language, msgid, "plural forms"))
    return problems


def catalog_messages(catalog: PoFile) -> dict[str, str | list[str]]:
    """The JSON the UI reads: ``{msgid: msgstr}`` and ``{singular: [forms...]}``, keyed
    ``context + "\x04" + msgid`` for an entry with a context; fuzzy and untranslated entries are
    left out (the UI shows them in English)."""
    out: dict[str, str | list[str]] = {}
    for entry in catalog.entries:
        if entry.fuzzy or not entry.translated:
            continue
        key = message_key(entry.msgid, entry.msgctxt)
        if key in out:
            raise CatalogError(f"{catalog.path}:{entry.line}: {entry.msgid!r} twice in one context")
        out[key] = _compiled(entry)
    return out


def _compiled(entry: PoEntry) -> str | list[str]:
    return list(entry.msgstr) if entry.msgid_plural is not None else entry.msgstr[0]


def load_messages(language: str, locales: Path = LOCALES) -> dict[str, str | list[str]]:
    """One language's compiled messages, straight from its ``.po``."""
    return catalog_messages(read_catalog(po_path(language, locales)))


def compile_catalogs(
    dist: Path,
    root: Path = ROOT,
    locales: Path = LOCALES,
    languages: Iterable[str] = LANGUAGES,
    strict: bool | None = None,
) -> dict[str, int]:
    """Check the catalogs against the source, then write ``dist/locales/<lang>.json``.

    Strict (the default under CI, where ``CI`` is set, or with ``GONGZHU_I18N_STRICT=1``): raises
    :class:`CatalogError` on any missing, untranslated or fuzzy entry, so a release never ships a
    half-translated game. Otherwise (a developer's build while new strings await translation) the
    problems are printed and those strings show in English. Returns the number of messages per language.
    """
    if strict is None:
        strict = bool(os.environ.get("CI") or os.environ.get("GONGZHU_I18N_STRICT"))
    problems = check(root, locales)
    if problems and not strict:
        print(
            f"[i18n] warning: {len(problems)} catalog problem(s), shown in English for now "
            f"(CI fails on them): " + "; ".join(str(p) for p in problems[:10]),
            file=sys.stderr,
        )
    elif problems:
        shown = "\n  ".join(str(p) for p in problems[:30])
        more = f"\n  ... and {len(problems) - 30} more" if len(problems) > 30 else ""
        raise CatalogError(
            f"{len(problems)} catalog problem(s); run `python -m tools.i18n update`, "
            f"translate, then `python -m tools.i18n check`:\n  {shown}{more}"
        )
    out_dir = dist / "locales"
    out_dir.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    for language in languages:
        messages = load_messages(language, locales)
        text = json.dumps(messages, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        (out_dir / f"{language}.json").write_text(text + "\n", encoding="utf-8")
        counts[language] = len(messages)
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Gettext catalogs of the game")
    parser.add_argument("command", choices=("extract", "update", "check", "compile"))
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="compile: the site folder")
    args = parser.parse_args(argv)
    if args.command in ("extract", "update"):
        from . import i18n_extract  # Babel: the translators' tool, not needed to build

        if args.command == "extract":
            template = i18n_extract.extract()
            i18n_extract.write_catalog(template, TEMPLATE)
            print(f"{TEMPLATE.relative_to(ROOT)}: {len(template)} messages")
        else:
            template = i18n_extract.update()
            print(f"{len(template)} messages merged into {', '.join(LANGUAGES)}")
    elif args.command == "check":
        problems = check()
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problem(s)")
        return 1 if problems else 0
    else:
        try:
            counts = compile_catalogs(args.dist, strict=True)
        except CatalogError as exc:
            print(exc, file=sys.stderr)
            return 1
        print(", ".join(f"{lang}: {n}" for lang, n in counts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
