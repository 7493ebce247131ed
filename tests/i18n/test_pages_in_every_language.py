"""Every page renders in every language with no English left.

Each page is rendered in English and in the language under test; any text a person sees
(text between tags, aria-label, title, placeholder, alt) that comes out the same in both
is untranslated, unless it is a name (players, tables), a number, or a word the language
shares with English on purpose (listed below, per language).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.test import Client

from accounts.countries import localized_choices
from games.services import series as series_service
from tests.games.helpers import current_game, play_out_game, users_by_position
from tests.i18n.catalogs import LANGUAGES

WORD = re.compile(r"[^\W\d_]{3,}")
NAMES = {"alice", "bob", "carol", "dan", "charlie", "Friday", "game", "Anya", "Boris", "Vera",
         "Gleb"}
# Language names in the footer are each in their own language, on every page.
AUTONYMS = {word for _code, name in settings.LANGUAGES for word in WORD.findall(name)}
# Words a language writes as English does: the game's name where it is kept as a name,
# "molodka" (a Russian word everywhere), and loanwords.
SAME_AS_ENGLISH = {
    "ru": set(),
    "mk": set(),
    "eu": {"Molodka", "molodka"},
    # Indonesian "Main" is "Play": it meets the English "Main" (the menu's label).
    "id": {"Kozel", "Molodka", "molodka", "Email", "email", "Bot", "bot", "Rating", "Menu",
           "Trik", "Main"},
    "et": {"Kozel", "Molodka", "molodka", "Trump", "trump"},
    "sq": {"Kozel", "Molodka", "molodka", "Email", "email", "Bot", "bot"},
}
SAME_AS_ENGLISH = {k: v | {"JavaScript", "UTC"} for k, v in SAME_AS_ENGLISH.items()}


class _Text(HTMLParser):
    VISIBLE = {"aria-label", "title", "placeholder", "alt"}

    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):  # noqa: ANN001
        if tag in {"script", "style"}:
            self.skip += 1
        for name, value in attrs:
            if name in self.VISIBLE and value:
                self.chunks.append(value)
            button = dict(attrs).get("type") in {"submit", "button"}
            if tag == "input" and name == "value" and button:
                self.chunks.append(value or "")

    def handle_endtag(self, tag):  # noqa: ANN001
        if tag in {"script", "style"}:
            self.skip -= 1

    def handle_data(self, data):  # noqa: ANN001
        if not self.skip and data.strip():
            self.chunks.append(data)


def visible_text(html: str) -> set[str]:
    parser = _Text()
    parser.feed(html)
    return {" ".join(c.split()) for c in parser.chunks if c.strip()}


# Countries are named from CLDR per language; many are written the same everywhere.
COUNTRIES = {word for _code, name in localized_choices("en") for word in WORD.findall(name)}


def untranslated(english: set[str], other: set[str], language: str) -> list[str]:
    allowed = NAMES | AUTONYMS | COUNTRIES | SAME_AS_ENGLISH[language]
    return sorted(t for t in english & other
                  if "@" not in t and any(w not in allowed for w in WORD.findall(t)))


@pytest.fixture
def site(cast, full_table):
    """A played game (replay), a live table, a profile with a record."""
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    play_out_game(game, users_by_position(series))
    return {"table": full_table, "game": game}


def pages(site) -> list[tuple[str, object]]:  # (url, who is signed in)
    table, game = site["table"], site["game"]
    return [
        ("/", None), ("/tables/", None), ("/rules/", None), ("/leaderboard/", None),
        ("/@/alice", None), (f"/table/{table.pk}/", None), (f"/game/{game.pk}/replay/", None),
        ("/accounts/login/", None), ("/accounts/signup/", None),
        ("/accounts/password/reset/", None), ("/accounts/password/reset/done/", None),
        ("/", "alice"), (f"/table/{table.pk}/", "alice"), ("/tables/new/", "alice"),
        ("/play/ranked/", "alice"), ("/account/settings/", "alice"),
        ("/account/delete/", "alice"), ("/accounts/email/", "alice"),
        ("/accounts/password/change/", "alice"), ("/accounts/logout/", "alice"),
        ("/@/alice", "alice"), ("/leaderboard/", "alice"),
        ("/learn/", None), ("/learn/card-order/", None), ("/learn/eggs-and-series/", None),
    ]


def render(url: str, user, language: str) -> str:  # noqa: ANN001
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    if user is not None:
        client.force_login(user)
        session = client.session
        session["kozel_language"] = language
        session.save()
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_in_every_language(site, cast, language):
    problems = []
    for url, who in pages(site):
        user = getattr(cast, who) if who else None
        english = visible_text(render(url, user, "en"))
        other = render(url, user, language)
        assert f'<html lang="{language}"' in other, url
        left = untranslated(english, visible_text(other), language)
        if left:
            problems.append(f"{url} ({who or 'visitor'}): {left}")
    assert not problems, "\n".join(problems)
