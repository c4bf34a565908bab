"""Extraction and update of the gettext catalogs with Babel: the translators' tool.

``python -m tools.i18n update`` runs :func:`update`: extract ``ui/`` (and the rules page labels) into
``locales/messages.pot`` and merge it into every ``locales/<lang>.po``. Babel is a development and
test dependency (``pip install -e '.[test]'``); building the site does not need it
(:mod:`tools.i18n` checks and compiles the catalogs with the standard library).
"""

from __future__ import annotations

import copy
import io
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from .i18n import (
    COMMENT_TAGS,
    KEYWORDS,
    LANGUAGES,
    LOCALES,
    PROJECT,
    ROOT,
    SOURCE_LANGUAGE,
    TEMPLATE,
    po_path,
    source_files,
)


def extract(root: Path = ROOT) -> Catalog:
    """The template catalog: every ``_``/``N_``/``ngettext`` string of :func:`source_files`."""
    template = Catalog(project=PROJECT, charset="utf-8", fuzzy=False)
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        for lineno, message, comments, context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True
        ):
            template.add(message, locations=[(rel, lineno)], auto_comments=comments, context=context)
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
