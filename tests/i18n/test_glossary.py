"""One glossary for translators and code: locale/glossary.toml.

Whenever an English message uses one of the game's terms (goat, eggs, molodka, trump,
trick, lead, beat, discard, stock, loss points, series), its translation uses that
language's word for it; and the cards are lettered and named from the same file.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from kozel_site import glossary
from tests.i18n.catalogs import DOMAINS, LANGUAGES, entries, msgid_text, msgstr_texts

TERMS = ["goat", "eggs", "molodka", "trump", "trick", "lead", "beat", "discard", "stock",
         "loss_points", "series"]


def test_every_language_has_every_term_and_all_card_words():
    assert set(glossary.data()) == {"en", *LANGUAGES}
    for code, words in glossary.data().items():
        assert set(words["terms"]) == set(TERMS), code
        cards = words["cards"]
        assert set(cards["ranks"]) == set(glossary.RANKS), code
        assert set(cards["suits"]) == set(cards["suits_in_name"]) == set(glossary.SUITS), code
        assert set(cards["letters"]) == set("JQKA"), code
        assert "{rank}" in cards["name"] and "{suit}" in cards["name"], code
        if code != "en":
            assert all(words["terms"][t]["forms"] for t in TERMS), code


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_use_the_glossary_words(language):
    english = glossary.terms("en")
    forms = {t: [f.casefold() for f in glossary.terms(language)[t]["forms"]] for t in TERMS}
    wrong = []
    for domain in DOMAINS:
        for message in entries(language, domain):
            source = msgid_text(message)
            for term in TERMS:
                if not re.search(english[term]["match"], source, flags=re.IGNORECASE):
                    continue
                for text in msgstr_texts(message):
                    if not any(form in text.casefold() for form in forms[term]):
                        wrong.append((term, source, text))
    assert not wrong, "\n".join(f"{t}: {s!r} -> {x!r}" for t, s, x in wrong[:25])


@pytest.mark.parametrize(("language", "code", "label", "symbol"), [
    ("en", "TH", "10 of hearts", "10♥"),
    ("en", "QS", "Queen of spades", "Q♠"),
    ("ru", "TH", "Десятка червей", "10♥"),
    ("ru", "QS", "Дама пик", "Д♠"),
    ("ru", "JD", "Валет бубен", "В♦"),
    ("ru", "KC", "Король треф", "К♣"),
    ("ru", "AH", "Туз червей", "Т♥"),
    ("ru", "6C", "Шестёрка треф", "6♣"),
])
def test_cards_named_and_lettered_per_language(language, code, label, symbol):
    words = glossary.cards(language)
    assert words.label(code) == label and words.symbol(code) == symbol
    # The 10 reads "10" in every language (UX: never "T").
    assert all(glossary.cards(lang).rank_label("TD") == "10" for lang in glossary.data())


def test_card_template_and_the_javascript_catalog_share_the_glossary(db):
    from django.template.loader import render_to_string

    with translation.override("ru"):
        html = render_to_string("cards/card.html", {"code": "QH", "trump": True})
    assert 'aria-label="Дама червей (козырь)"' in html and ">Д</text>" in html
    catalog = Client().get("/jsi18n/?l=ru").json()
    assert catalog["cards"] == glossary.for_js("ru")
    assert catalog["cards"]["letters"] == {"J": "В", "Q": "Д", "K": "К", "A": "Т"}
    assert catalog["plural"].startswith("(n%10==1")
