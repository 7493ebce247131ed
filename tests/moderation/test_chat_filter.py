"""The chat filter: words and links, blocked or flagged, in every language the site
speaks, through disguises; the chat service refuses a blocked line and files a flagged
one for review."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core import checks
from django.test import override_settings

from accounts.moderation import chatfilter
from accounts.moderation.models import Report
from games.errors import InvalidRequestError
from games.models import ChatMessage
from games.services import chat

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", [
    "fuck you", "FUCK", "f.u.c.k off", "fuuuuck", "n1gg3r", "what the fucking hell",
    "иди на хуй", "ХУЙ", "xуй", "пиздец", "сука", "kill yourself",
    "putakumea", "пичка", "bangsat", "ngentot", "persse", "qifsha", "kurvë",
])
def test_blocked_words_in_every_language_through_disguises(text):
    assert chatfilter.check(text).blocked, text


@pytest.mark.parametrize("text", ["you idiot!", "noob", "дурак", "ты тупой", "cheater",
                                  "ergel", "будала", "goblok", "loll", "budalla"])
def test_flagged_words(text):
    verdict = chatfilter.check(text)
    assert verdict.flagged and not verdict.blocked, text


@pytest.mark.parametrize("text", [
    "good game", "well played, partner", "hello", "спасибо за игру", "скучно", "I'll beat it",
    "classic", "assume the trump", "Scunthorpe", "ok 6 of hearts", "потребовать",
])
def test_ordinary_lines_pass(text):
    assert chatfilter.check(text).action == "", text


@pytest.mark.parametrize("text", ["see http://spam.example", "www.cheap-chips.example",
                                  "join my-casino.com now", "t.me/cheats"])
def test_links_are_blocked_by_default(text):
    verdict = chatfilter.check(text)
    assert verdict.blocked and verdict.is_link


def test_every_language_of_the_site_has_lists():
    assert {code for code, _ in settings.LANGUAGES} <= set(
        __import__("accounts.moderation.conf", fromlist=["x"]).DEFAULTS["CHAT_FILTER"])
    with override_settings(LANGUAGES=[("en", "English"), ("de", "Deutsch")]):
        ids = [e.id for e in checks.run_checks()]
    assert "moderation.E001" in ids


def test_the_chat_service_refuses_blocked_and_reports_flagged(cast, table):
    with pytest.raises(InvalidRequestError, match="does not allow"):
        chat.post_message(table.pk, cast.bob, "fuck this")
    with pytest.raises(InvalidRequestError, match="Links are not allowed"):
        chat.post_message(table.pk, cast.bob, "www.spam.example")
    assert not ChatMessage.objects.exists()
    line = chat.post_message(table.pk, cast.bob, "you are an idiot")
    report = Report.objects.get()
    assert report.category == "filter" and report.reporter is None
    assert report.chat_message_id == line["id"] and report.reported == cast.bob
    assert "en:idiot" in report.context["filter"]
    chat.post_message(table.pk, cast.alice, "good game")
    assert Report.objects.count() == 1


@override_settings(KOZEL_MODERATION={"CHAT_FILTER": {"en": {"block": ["trumpet"]},
                                                     "ru": {"flag": ["труба"]}},
                                     "CHAT_LINKS": "allow"})
def test_the_lists_are_configurable():
    assert chatfilter.check("a trumpet").blocked
    assert chatfilter.check("труба").flagged
    assert chatfilter.check("fuck").action == ""
    assert chatfilter.check("www.example.com").action == ""
