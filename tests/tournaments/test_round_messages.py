"""Messages that reach people: every round's start (by the director, by the worker's task
after the break, by the beat at a scheduled start) by notification and opted-in e-mail
with absolute links, the table and the check-in deadline; the partner invitation by
notification and e-mail with the accept link; subjects led by the site's name; one site
address, required in production."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from accounts.social import invites, notify
from accounts.social.models import Notification
from games.services import tables as table_service
from games.tournaments import tasks
from games.tournaments.models import Match, Round, Tournament
from games.tournaments.services import events, rounds
from kozel_site import checks
from kozel_site.site_url import absolute_url, email_subject
from tests.tournaments.helpers import act, event, play_round

pytestmark = pytest.mark.django_db

SITE = "https://kozel.example"
LINK = re.compile(r"\S*/(?:tournament|table|notifications)/\S*")


def _links(text: str) -> list[str]:
    return LINK.findall(text)


def _pairs_with_mail(t, players):
    entries = []
    for first, second in zip(players[::2], players[1::2], strict=True):
        entry = events.register(t.pk, first, second.username, email_opt_in=True)
        events.confirm_partner(t.pk, second, entry.pk)
        entries.append(entry)
    return entries


def _assert_round_mails(t: Tournament, number: int, players) -> None:
    round_ = t.round_set.get(number=number)
    deadline = round_.checkin_deadline.strftime("%Y-%m-%d %H:%M:%S UTC")
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in players)
    tables = {m.table_id for m in Match.objects.filter(round=round_)}
    for message in mail.outbox:
        assert message.subject.startswith("Kozel: "), message.subject
        assert f"Round {number} of {t.name} has started" in message.subject
        assert deadline in message.body
        links = _links(message.body)
        assert f"{SITE}/tournament/{t.pk}/" in links
        assert any(link in {f"{SITE}/table/{table}/" for table in tables} for link in links)
        assert all(link.startswith(SITE + "/") for link in links), links
    notes = Notification.objects.filter(kind=Notification.Kind.ROUND,
                                        params__round=number)
    assert sorted(n.user_id for n in notes) == sorted(p.pk for p in players)
    assert all(round_.checkin_deadline.strftime("%H:%M:%S UTC") in notify.text_of(n)
               for n in notes)


@override_settings(KOZEL_SITE_URL=SITE)
def test_a_director_started_round_mails_absolute_links_and_the_deadline(
        club_cast, django_capture_on_commit_callbacks):
    t = event(club_cast, name="Friday Cup")
    players = club_cast.players[:4]
    _pairs_with_mail(t, players)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        act(t, club_cast.director, "start")
    _assert_round_mails(t, 1, players)


@override_settings(KOZEL_SITE_URL=SITE)
def test_a_round_the_worker_starts_after_the_break_is_mailed_too(
        club_cast, django_capture_on_commit_callbacks):
    t = event(club_cast, rounds=2)
    players = club_cast.players[:4]
    _pairs_with_mail(t, players)
    act(t, club_cast.director, "start")
    play_round(t.round_set.get(number=1), goat="B")
    assert t.round_set.get(number=2).status == Round.Status.PAIRED
    mail.outbox.clear()
    Notification.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        tasks.start_round_task(t.pk, 2)  # what the worker runs after the break
    assert t.round_set.get(number=2).status == Round.Status.CHECKIN
    _assert_round_mails(t, 2, players)


@override_settings(KOZEL_SITE_URL=SITE)
def test_a_scheduled_start_by_the_beat_is_mailed_too(club_cast,
                                                     django_capture_on_commit_callbacks):
    t = event(club_cast)
    players = club_cast.players[:4]
    _pairs_with_mail(t, players)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert rounds.tick()["started"] == 1
    _assert_round_mails(t, 1, players)


@override_settings(KOZEL_SITE_URL=SITE)
def test_the_invited_partner_is_notified_and_mailed_an_accept_link(
        club_cast, django_capture_on_commit_callbacks):
    t = event(club_cast)
    first, mate = club_cast.players[:2]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        events.register(t.pk, first, mate.username)
    (note,) = Notification.objects.filter(user=mate, kind=Notification.Kind.PARTNER)
    assert notify.text_of(note) == (
        "p00 entered Friday Cup with you as partner: confirm to play.")
    (message,) = mail.outbox  # a request only the partner can answer: always mailed
    assert message.to == [mate.email]
    assert message.subject.startswith("Kozel: ")
    assert f"{SITE}/tournament/{t.pk}/#registration" in _links(message.body)
    assert all(link.startswith(SITE + "/") for link in _links(message.body))


@override_settings(KOZEL_SITE_URL=SITE)
def test_no_subject_starts_with_user_text_and_unsubscribe_links_are_absolute(
        club_cast, django_capture_on_commit_callbacks):
    owner, guest = club_cast.players[:2]
    from accounts.social import services

    services.update_settings(guest, {"email_invite": True})
    table = table_service.create_table(owner, table_service.TableSettings(
        name="Free beer here", visibility="private"))
    table_service.take_seat(table.pk, owner, 0)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        invites.invite(owner, guest.username, table.pk)
    (message,) = mail.outbox
    assert message.subject.startswith("Kozel: ") and "Free beer here" in message.subject
    unsubscribe = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith(f"{SITE}/notifications/unsubscribe/")
    assert all(link.startswith(SITE + "/") for link in _links(message.body))


def test_one_subject_rule_and_one_address():
    assert email_subject("Friday Cup:\nround 1") == "Kozel: Friday Cup: round 1"
    with override_settings(KOZEL_SITE_URL=SITE):
        assert absolute_url("/tournament/1/") == f"{SITE}/tournament/1/"
    with override_settings(KOZEL_SITE_URL=""):
        assert re.match(r"^https?://[^/]+/tournament/1/$", absolute_url("/tournament/1/"))


def test_production_requires_the_site_address():
    assert [e.id for e in checks.site_url_errors("", required=True)] == ["kozel.E020"]
    assert checks.site_url_errors("", required=False) == []
    assert [e.id for e in checks.site_url_errors("kozel.example", required=True)] == [
        "kozel.E021"]
    assert [e.id for e in checks.site_url_errors(f"{SITE}/x", required=True)] == [
        "kozel.E021"]
    assert checks.site_url_errors(SITE, required=True) == []


@pytest.mark.slow
@override_settings(KOZEL_SITE_URL=SITE)
def test_a_round_started_on_the_real_worker_is_mailed_with_absolute_links(
        club_cast, celery_worker):
    """After round 1 the real worker starts round 2 (``start_round_task`` after a zero
    break); its e-mails land in this process's outbox, the worker being a thread here."""
    from tests.waiting import wait_for

    t = event(club_cast, rounds=2)
    players = club_cast.players[:4]
    _pairs_with_mail(t, players)
    act(t, club_cast.director, "start")
    mail.outbox.clear()
    play_round(t.round_set.get(number=1), goat="B")

    def round_two_mailed():
        return len([m for m in mail.outbox if "Round 2 of" in m.subject]) == len(players)

    wait_for(round_two_mailed, 30, "round 2's e-mails from the worker", interval=0.2)
    mail.outbox[:] = [m for m in mail.outbox if "Round 2 of" in m.subject]
    _assert_round_mails(t, 2, players)
