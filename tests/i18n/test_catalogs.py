"""Every .po file is complete: all the code's messages, each translated, none
fuzzy (``msgfmt --statistics``), plural forms right per language, and the committed .mo
files compiled from the .po files as they are."""

from __future__ import annotations

import gettext
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo

from tests.i18n.catalogs import (
    DOMAINS,
    LANGUAGES,
    MSGFMT,
    XGETTEXT,
    catalog,
    code_messages,
    entries,
    msgstr_texts,
    po_path,
)

# The gettext Plural-Forms of each language (Russian has three forms: 1 карта, 2 карты,
# 5 карт; Indonesian none).
PLURAL_FORMS = {
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
    "eu": "nplurals=2; plural=(n != 1);",
    "mk": "nplurals=2; plural=(n % 10 == 1 && n % 100 != 11 ? 0 : 1);",
    "id": "nplurals=1; plural=0;",
    "et": "nplurals=2; plural=(n != 1);",
    "sq": "nplurals=2; plural=(n != 1);",
}
CASES = [(lang, dom) for lang in LANGUAGES for dom in DOMAINS]
ids = [f"{lang}-{dom}" for lang, dom in CASES]


def test_every_language_has_its_plural_rule():
    assert set(PLURAL_FORMS) == set(LANGUAGES)


@pytest.mark.skipif(MSGFMT is None, reason="msgfmt (gettext) is not installed")
@pytest.mark.parametrize(("language", "domain"), CASES, ids=ids)
def test_msgfmt_statistics_say_all_translated(language, domain):
    result = subprocess.run([MSGFMT, "--check", "--statistics", "-o", "/dev/null",
                             str(po_path(language, domain))],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    stats = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"\d+ translated messages?\.", stats), stats  # no fuzzy, none untranslated
    assert int(stats.split()[0]) == len(entries(language, domain))


@pytest.mark.parametrize(("language", "domain"), CASES, ids=ids)
def test_every_message_translated_and_none_fuzzy(language, domain):
    cat = catalog(language, domain)
    assert not cat.fuzzy, "the header is marked fuzzy"
    bad = [m.id for m in cat if m.id and (m.fuzzy or not all(msgstr_texts(m)))]
    assert not bad, bad[:10]


@pytest.mark.parametrize(("language", "domain"), CASES, ids=ids)
def test_plural_forms_header_and_entries(language, domain):
    cat = catalog(language, domain)
    header = dict(line.split(": ", 1) for line in
                  cat.mime_headers and [f"{k}: {v}" for k, v in cat.mime_headers] if ": " in line)
    assert header["Plural-Forms"] == PLURAL_FORMS[language]
    nplurals = int(PLURAL_FORMS[language].split(";")[0].split("=")[1])
    for message in cat:
        if message.id and isinstance(message.id, tuple):
            assert len(msgstr_texts(message)) == nplurals, message.id


@pytest.mark.parametrize(("language", "domain"), CASES, ids=ids)
def test_placeholders_kept(language, domain):
    """A translation keeps every %(name)s of its message (and adds none)."""
    placeholder = re.compile(r"%\(\w+\)[sd]|\{\}")
    for message in entries(language, domain):
        wanted = sorted(set(placeholder.findall(" ".join(
            message.id if isinstance(message.id, tuple) else [message.id]))))
        for text in msgstr_texts(message):
            got = sorted(set(placeholder.findall(text)))
            # ngettext's singular may leave out %(n)s ("одна карта"), never add one.
            assert set(got) <= set(wanted) and (set(wanted) - set(got) <= {"%(n)s", "%(limit)d"}), (
                message.id, text)


@pytest.mark.parametrize(("language", "domain"), CASES, ids=ids)
def test_committed_mo_is_compiled_from_the_po(language, domain, tmp_path: Path):
    """The .mo files are committed (a machine without gettext still serves them): they
    must say exactly what the .po files say."""
    committed = po_path(language, domain).with_suffix(".mo")
    assert committed.exists(), f"run: python manage.py compilemessages ({committed})"
    fresh = tmp_path / "fresh.mo"
    with fresh.open("wb") as handle:
        write_mo(handle, catalog(language, domain))
    with committed.open("rb") as a, fresh.open("rb") as b:
        old, new = gettext.GNUTranslations(a)._catalog, gettext.GNUTranslations(b)._catalog
    old.pop("", None), new.pop("", None)  # the headers' dates may differ
    assert old == new, "run: python manage.py compilemessages"


@pytest.mark.skipif(XGETTEXT is None, reason="xgettext (gettext) is not installed")
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_of_the_code_is_in_every_catalog(domain, tmp_path: Path):
    """A string marked in a template, in Python or in the JavaScript that makemessages
    has not brought into the catalogs yet is a string nobody translated."""
    wanted = code_messages(domain, tmp_path)
    assert wanted, "found no messages at all"
    for language in LANGUAGES:
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
                for m in entries(language, domain)}
        missing = sorted(wanted - have, key=str)
        assert not missing, (f"{language}/{domain}: run makemessages and translate", missing[:15])


@pytest.mark.parametrize(("language", "domain"), CASES, ids=ids)
def test_markup_kept(language, domain):
    """A translation keeps its message's emphasis, links and abbreviations: the <em>
    around a game word (*molodka*) or the <abbr> that explains a short column header is
    part of what the reader gets, in every language."""
    tag = re.compile(r"<(em|strong|abbr|a|code|kbd)\b")
    for message in entries(language, domain):
        source = message.id[0] if isinstance(message.id, tuple) else message.id
        wanted = sorted(tag.findall(source))
        for text in msgstr_texts(message):
            assert sorted(tag.findall(text)) == wanted, (source, text)


@pytest.mark.parametrize("domain", DOMAINS)
def test_basque_names_take_no_hedged_suffix(domain):
    """Basque joins a case ending to a name ("Mikelen", "Anek"), and the ending depends on
    the name's last sound, which a translation cannot know: "%(name)s-(r)en" shows the
    hedge to every reader. The name stands uninflected instead, next to a noun that takes
    the ending ("%(name)s jokalariaren mahaia")."""
    hedge = re.compile(r"\(\w{1,2}\)(?:en|ek|ekin|engana|k|tik|ri|i|ra)\b|\)s-?\(\w{1,2}\)")
    for message in entries("eu", domain):
        for text in msgstr_texts(message):
            assert not hedge.search(text), text
