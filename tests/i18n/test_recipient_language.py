"""Mail and notices speak their recipient's language: the profile's
preferred_language, else the site's default; never the language of the person who
caused them (here an English-speaking director, inviter or moderator) nor the worker's."""

from __future__ import annotations

from django.core import mail
from django.utils import translation

from accounts.moderation.models import Sanction
from accounts.moderation.services import sanctions
from accounts.services import update_profile
from accounts.social import invites, notify, services
from accounts.social.models import Notification
from tests.moderation.conftest import mona  # noqa: F401 - fixture
from tests.tournaments.conftest import club_cast  # noqa: F401 - fixture
from tests.tournaments.helpers import act, enter_players, event


def test_round_start_email_in_each_players_language(club_cast,  # noqa: F811
                                                    django_capture_on_commit_callbacks):
    t = event(club_cast, fmt="rotation", rounds=1)
    russian, english = club_cast.players[:2]
    update_profile(russian, preferred_language="ru")
    enter_players(t, [russian, english], email_opt_in=True)
    enter_players(t, club_cast.players[2:4])
    mail.outbox.clear()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        act(t, club_cast.director, "start")
    sent = {message.to[0]: message for message in mail.outbox}
    assert set(sent) == {russian.email, english.email}
    ru, en = sent[russian.email], sent[english.email]
    assert ru.subject == "Kozel: Начался тур 1 турнира Friday Cup"
    assert ru.body.startswith("Здравствуйте, p00!") and "Удачи!" in ru.body
    assert "Ваш стол:" in ru.body
    assert f"/tournament/{t.pk}/" in ru.body
    assert en.subject == "Kozel: Round 1 of Friday Cup has started"
    assert en.body.startswith("Hello p01,") and f"/tournament/{t.pk}/" in en.body


def test_invitation_email_in_each_recipients_language_with_its_unsubscribe_link(
        cast, django_capture_on_commit_callbacks):
    update_profile(cast.bob, preferred_language="ru")
    for person in (cast.bob, cast.dan):
        services.update_settings(person, {"email_invite": True})
    mail.outbox.clear()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        invites.invite(cast.carol, "bob")
        invites.invite(cast.carol, "dan")
    sent = {message.to[0]: message for message in mail.outbox}
    ru, en = sent[cast.bob.email], sent[cast.dan.email]
    assert ru.subject.startswith("Kozel: carol приглашает вас за свой стол")
    assert ru.body.startswith("Здравствуйте, bob!") and "отпишитесь здесь" in ru.body
    assert en.subject.startswith("Kozel: carol invites you to their table")
    assert en.body.startswith("Hello dan,") and "unsubscribe here" in en.body
    for message in (ru, en):
        link = next(line for line in message.body.splitlines() if "/unsubscribe/" in line)
        assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"


def test_a_moderators_message_is_stored_as_its_kind_and_read_in_the_readers_language(
        cast, mona, django_capture_on_commit_callbacks):  # noqa: F811
    update_profile(cast.bob, preferred_language="ru")
    services.update_settings(cast.bob, {"email_moderator": True})
    mail.outbox.clear()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        sanctions.warn(mona, cast.bob, "Mind your language")
    note = Notification.objects.get(user=cast.bob, kind=Notification.Kind.MODERATOR)
    assert note.params == {"sanction": Sanction.Kind.WARN, "reason": "Mind your language"}
    with translation.override("ru"):
        assert notify.text_of(note) == ("Сообщение модератора: Предупреждение: "
                                        "Mind your language")
    with translation.override("en"):
        assert notify.text_of(note) == "A moderator's message: Warning: Mind your language"
    (message,) = mail.outbox
    assert message.subject == "Kozel: Сообщение модератора: Предупреждение: Mind your language"
    assert "/notifications/unsubscribe/" in message.body


def test_an_older_moderators_message_keeps_its_stored_text(cast):
    note = Notification.objects.create(user=cast.bob, kind=Notification.Kind.MODERATOR,
                                       params={"text": "Warning: be kind"})
    with translation.override("en"):
        assert notify.text_of(note) == "A moderator's message: Warning: be kind"


def test_the_suspension_notice_speaks_the_suspended_players_language(cast, mona):  # noqa: F811
    update_profile(cast.bob, preferred_language="ru")
    with translation.override("en"):
        sanction = sanctions.suspend(mona, cast.bob, 3, "Abuse at the table")
        text = sanctions.suspension_text(sanction)
    assert text.startswith("Ваш аккаунт заблокирован до ") and " UTC: " in text
    assert text.endswith("Abuse at the table")
    update_profile(cast.bob, preferred_language="en")
    assert sanctions.suspension_text(sanction).startswith("Your account is suspended until ")
