"""Gettext catalogs of the game: extraction, update, checks and compilation to JSON.

Workflow (English is the source language, written in the code as ``_("English text")``)::

    python -m tools.i18n update     # extract ui/ (+ the rules page labels) into locales/messages.pot,
                                    # merge it into locales/<lang>.po (new entries empty)
    # ... translate the empty msgstr of zh/fr/pt/uk ...
    python -m tools.i18n check      # every entry present, translated and not fuzzy (exit 1 otherwise)
    python -m tools.i18n compile    # what build.py does: dist/locales/<lang>.json

Extraction keywords: ``_(msgid)``, ``N_(msgid)`` (marks without translating) and
``ngettext(singular, plural, n)``. The compiled catalogs are ``{msgid: msgstr}`` and, for plural
entries, ``{singular: [form0, form1, ...]}`` in the order of the language's ``Plural-Forms``
(read by ``ui/i18n.py``). Babel is a build- and test-time dependency only.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "locales"
TEMPLATE = LOCALES / "messages.pot"

#: Site language code -> (gettext ``Language``, ``Plural-Forms``). Same order as ``ui.i18n.LANGUAGES``.
#: French and Brazilian Portuguese use the classic two-form rule (0 and 1 singular), not CLDR's
#: extra "many" form for millions; Ukrainian has three forms (1, 2–4, 5+ with 11–14).
LANGUAGES: dict[str, tuple[str, str]] = {
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
SOURCE_LANGUAGE = "en"

KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "ngettext": (1, 2)}
COMMENT_TAGS = ("TRANSLATORS:",)
PROJECT = "gongzhu"


class CatalogError(RuntimeError):
    """A catalog is incomplete, fuzzy or malformed."""


def source_files(root: Path = ROOT) -> list[Path]:
    """Every file whose strings the player can see: the UI package and the rules page generator."""
    files = [p for p in sorted((root / "ui").rglob("*.py")) if "__pycache__" not in p.parts]
    files.append(root / "tools" / "rules_page.py")
    return [p for p in files if p.is_file()]


def extract(root: Path = ROOT) -> Catalog:
    """The template catalog: every ``_``/``N_``/``ngettext`` string of :func:`source_files`."""
    template = Catalog(project=PROJECT, charset="utf-8", fuzzy=False)
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        for lineno, message, comments, _context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
        ):
            template.add(message, locations=[(rel, lineno)], auto_comments=comments)
    return template


def read_catalog(path: Path) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, abort_invalid=True)


def write_catalog(catalog: Catalog, path: Path) -> None:
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=100,
        omit_header=False,
        ignore_obsolete=True,
        include_previous=False,
        include_lineno=False,
    )
    data = buffer.getvalue()
    if path.is_file() and _without_dates(path.read_bytes()) == _without_dates(data):
        return  # nothing but the creation date would change: keep the file as it is
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _without_dates(po: bytes) -> bytes:
    return b"\n".join(line for line in po.split(b"\n") if not line.startswith(b'"POT-Creation-Date:'))


def po_path(language: str, locales: Path = LOCALES) -> Path:
    return locales / f"{language}.po"


def _new_catalog(language: str) -> Catalog:
    tag, plural_forms = LANGUAGES[language]
    catalog = Catalog(locale=tag, project=PROJECT, charset="utf-8", fuzzy=False)
    _set_plural_forms(catalog, plural_forms)
    return catalog


def _set_plural_forms(catalog: Catalog, plural_forms: str) -> None:
    headers = [(k, v) for k, v in catalog.mime_headers if k.lower() != "plural-forms"]
    catalog.mime_headers = [*headers, ("Plural-Forms", plural_forms)]


def update(root: Path = ROOT, locales: Path = LOCALES) -> Catalog:
    """Extract, write the template and merge it into every language's ``.po`` (new entries empty;
    English entries are filled with their msgid). Returns the template."""
    template = extract(root)
    write_catalog(template, locales / TEMPLATE.name)
    for language in LANGUAGES:
        path = po_path(language, locales)
        catalog = read_catalog(path) if path.is_file() else _new_catalog(language)
        # Babel inserts the template's own Message objects for new entries: give each language a copy.
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True, update_header_comment=False)
        _set_plural_forms(catalog, LANGUAGES[language][1])
        if language == SOURCE_LANGUAGE:
            for message in catalog:
                if message.id and not _translated(message):
                    message.string = message.id
        write_catalog(catalog, path)
    return template


def _translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return bool(strings) and all(isinstance(s, str) and s.strip() for s in strings)


@dataclass(frozen=True)
class Problem:
    language: str
    msgid: str
    what: str  # "missing" | "untranslated" | "fuzzy" | "plural forms" | "header"

    def __str__(self) -> str:
        return f"{self.language}.po: {self.what}: {self.msgid!r}"


def _msgid_key(msgid: str | Sequence[str]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def check(root: Path = ROOT, locales: Path = LOCALES, template: Catalog | None = None) -> list[Problem]:
    """Everything wrong with the catalogs: entries of the source code missing from a ``.po``,
    empty or fuzzy, plural entries with the wrong number of forms, a wrong ``Plural-Forms``."""
    template = template if template is not None else extract(root)
    problems: list[Problem] = []
    for language, (_tag, plural_forms) in LANGUAGES.items():
        path = po_path(language, locales)
        if not path.is_file():
            problems.append(Problem(language, "", "missing catalog"))
            continue
        catalog = read_catalog(path)
        if catalog.plural_forms != plural_forms:
            problems.append(Problem(language, catalog.plural_forms, "header: Plural-Forms"))
        for wanted in template:
            if not wanted.id:
                continue
            message = catalog.get(wanted.id)
            key = _msgid_key(wanted.id)
            if message is None:
                problems.append(Problem(language, key, "missing"))
            elif message.fuzzy:
                problems.append(Problem(language, key, "fuzzy"))
            elif not _translated(message):
                problems.append(Problem(language, key, "untranslated"))
            elif wanted.pluralizable and (
                not isinstance(message.string, (list, tuple)) or len(message.string) != catalog.num_plurals
            ):
                problems.append(Problem(language, key, "plural forms"))
    return problems


def catalog_messages(catalog: Catalog) -> dict[str, str | list[str]]:
    """The JSON the UI reads: ``{msgid: msgstr}`` and ``{singular: [forms...]}``."""
    out: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not _translated(message):
            continue
        if isinstance(message.string, (list, tuple)):
            out[_msgid_key(message.id)] = [str(s) for s in message.string]
        else:
            out[_msgid_key(message.id)] = str(message.string)
    return out


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
    if args.command == "extract":
        template = extract()
        write_catalog(template, TEMPLATE)
        print(f"{TEMPLATE.relative_to(ROOT)}: {len(template)} messages")
    elif args.command == "update":
        template = update()
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
