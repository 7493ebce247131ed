"""Messages of a whole club evening: every e-mail's links are absolute (an outbox walk
over the partner invitation, the reminder, rounds started by the director and by the
server, an announcement); the reminder goes out once; an announcement reaches the
club's members by notification, and by e-mail only those who opted in."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from accounts.social import notify
from accounts.social import services as social
from accounts.social.models import Notification
from games.errors import InvalidRequestError, NotFoundError, PermissionDeniedError
from games.tournaments import tasks
from games.tournaments.models import Announcement, Membership, Round, Tournament
from games.tournaments.services import announcements, events, reminders
from tests.tournaments.helpers import act, event, play_round

pytestmark = pytest.mark.django_db

SITE = "https://kozel.example"
# A site path as it appears in a text: it must follow the site's address.
SITE_PATH = re.compile(r"/(?:tournament|table|club|notifications|invite|accounts|t)/")
RELATIVE_HREF = re.compile(r"""href=["']?/(?!/)""")


def relative_links(text: str) -> list[str]:
    """Every site path in ``text`` not preceded by the site's address, and every
    relative href (what a mail reader cannot open)."""
    bad = [text[max(0, m.start() - 30):m.end() + 10] for m in SITE_PATH.finditer(text)
           if not text[:m.start()].endswith(SITE)
           and not re.search(re.escape(SITE) + r"/\S*$", text[:m.start()])]
    return bad + RELATIVE_HREF.findall(text)


def walk_outbox() -> list[str]:
    """Every relative link in every message of the outbox: bodies, HTML alternatives,
    headers."""
    bad = []
    for message in mail.outbox:
        parts = [message.body, *(str(v) for v in message.extra_headers.values()),
                 *(content for content, _type in getattr(message, "alternatives", []))]
        for part in parts:
            bad += [f"{message.subject}: {link}" for link in relative_links(part)]
        assert message.subject.startswith("Kozel: "), message.subject
    return bad


def test_the_walk_finds_a_relative_link():
    """The walker itself: a path without the host and a relative href are caught, an
    absolute link is not."""
    assert relative_links(f"see {SITE}/tournament/3/ now") == []
    assert relative_links(f"{SITE}/notifications/unsubscribe/abc/") == []
    assert relative_links("see /tournament/3/ now")
    assert relative_links('<a href="/club/x/">x</a>')
    assert relative_links("http://127.0.0.1:8000/tournament/3/")  # another host


def _opt_in_pairs(t, players):
    for first, second in zip(players[::2], players[1::2], strict=True):
        entry = events.register(t.pk, first, second.username, email_opt_in=True)
        events.confirm_partner(t.pk, second, entry.pk)


@override_settings(KOZEL_SITE_URL=SITE)
def test_every_message_of_a_whole_evening_links_absolutely(
        club_cast, django_capture_on_commit_callbacks):
    players = club_cast.players[:4]
    for person in players + [club_cast.member]:
        social.update_settings(person, {"email_announcement": True})
    starts = timezone.now() + timedelta(minutes=20)
    with django_capture_on_commit_callbacks(execute=True):
        t = event(club_cast, rounds=2, starts_at=starts)
        _opt_in_pairs(t, players)                       # partner invitations
        assert reminders.send_due() == 1                # the reminder
        announcements.announce(club_cast.director, "Bring snacks.\nDoors at 18:30.",
                               club_id=club_cast.club.pk)
        announcements.announce(club_cast.director, "Round 1 in 20 minutes.",
                               tournament_id=t.pk)
        act(t, club_cast.director, "start")             # round 1 by the director
        play_round(t.round_set.get(number=1), goat="B")
        tasks.start_round_task(t.pk, 2)                 # round 2 by the server
    assert t.round_set.get(number=2).status == Round.Status.CHECKIN
    subjects = [m.subject for m in mail.outbox]
    # Every kind of message is in the walk, so the walk is not vacuous.
    assert any("with you as partner" in s for s in subjects)
    assert any("starts soon" in s for s in subjects)
    assert any("announcement from Friday Goats" in s for s in subjects)
    assert any("Round 1 of" in s for s in subjects) and any("Round 2 of" in s
                                                             for s in subjects)
    assert walk_outbox() == []
    round_two = [m for m in mail.outbox if "Round 2 of" in m.subject]
    deadline = t.round_set.get(number=2).checkin_deadline.strftime("%Y-%m-%d %H:%M:%S UTC")
    assert sorted(m.to[0] for m in round_two) == sorted(p.email for p in players)
    assert all(deadline in m.body and f"{SITE}/table/" in m.body for m in round_two)


@pytest.mark.slow
@override_settings(KOZEL_SITE_URL=SITE)
def test_rounds_the_real_worker_starts_are_walked_too(club_cast, celery_worker):
    """Round 2 and 3 are started by the real worker after a zero break; every message
    they send links absolutely."""
    from tests.waiting import wait_for

    t = event(club_cast, rounds=3)
    players = club_cast.players[:4]
    _opt_in_pairs(t, players)
    act(t, club_cast.director, "start")
    mail.outbox.clear()
    for number in (1, 2):
        wait_for(lambda n=number: t.round_set.filter(number=n,
                                                    status=Round.Status.CHECKIN).exists(),
                 30, f"round {number} in check-in", interval=0.2)
        play_round(t.round_set.get(number=number), goat="B")

    def round_three_mailed():
        return len([m for m in mail.outbox if "Round 3 of" in m.subject]) == len(players)

    wait_for(round_three_mailed, 30, "round 3's e-mails from the worker", interval=0.2)
    assert len([m for m in mail.outbox if "Round 2 of" in m.subject]) == len(players)
    assert walk_outbox() == []


# --- the reminder -------------------------------------------------------------------------


def _reminders(user) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=Notification.Kind.REMINDER))


@override_settings(KOZEL_SITE_URL=SITE)
def test_the_reminder_goes_out_once_30_minutes_before(club_cast,
                                                      django_capture_on_commit_callbacks):
    now = timezone.now()
    t = event(club_cast, starts_at=now + timedelta(minutes=45))
    mailed, quiet = club_cast.players[0], club_cast.players[1]
    events.register(t.pk, mailed, club_cast.players[2].username, email_opt_in=True)
    events.register(t.pk, quiet, club_cast.players[3].username)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders.send_due(now) == 0                             # 45 min: too early
        assert reminders.send_due(now + timedelta(minutes=16)) == 1     # 29 min before
        assert reminders.send_due(now + timedelta(minutes=17)) == 0     # once
        assert tasks.events_beat_task()["reminders"] == 0               # the beat: once
        assert reminders.remind(t.pk, now + timedelta(minutes=20)) is False
    assert len(_reminders(mailed)) == 1 and len(_reminders(quiet)) == 1
    assert len(_reminders(club_cast.players[2])) == 1  # a pending partner is told too
    assert _reminders(club_cast.member) == []          # not entered: not reminded
    # E-mail is the entry's choice (like the round's e-mails): both of its people only.
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [mailed.email, club_cast.players[2].email])
    message = mail.outbox[0]
    assert message.subject == "Kozel: Friday Cup starts soon"
    assert f"{SITE}/tournament/{t.pk}/" in message.body
    assert (now + timedelta(minutes=45)).strftime("%Y-%m-%d %H:%M") in message.body


def test_no_reminder_for_an_event_without_a_start_or_already_started(club_cast):
    now = timezone.now()
    event(club_cast)                                             # no start time
    started = event(club_cast, name="Started", starts_at=now + timedelta(minutes=10))
    Tournament.objects.filter(pk=started.pk).update(status=Tournament.Status.RUNNING)
    assert reminders.send_due(now) == 0


# --- announcements ----------------------------------------------------------------------


@override_settings(KOZEL_SITE_URL=SITE)
def test_an_announcement_reaches_members_by_notification_and_opted_in_email_only(
        club_cast, django_capture_on_commit_callbacks):
    club = club_cast.club
    opted, other = club_cast.member, club_cast.players[0]
    social.update_settings(opted, {"email_announcement": True})
    social.update_settings(club_cast.stranger, {"email_announcement": True})
    requested = club_cast.players[1]
    Membership.objects.filter(club=club, user=requested).update(
        status=Membership.Status.REQUESTED)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        sent = announcements.announce(club_cast.director, "Free <b>beer</b> on Friday!",
                                      club_id=club.pk)
    active = set(Membership.objects.filter(club=club, status=Membership.Status.ACTIVE)
                 .exclude(user=club_cast.director).values_list("user_id", flat=True))
    notes = Notification.objects.filter(kind=Notification.Kind.ANNOUNCEMENT)
    assert set(notes.values_list("user_id", flat=True)) == active
    assert sent.recipients == len(active) == 13  # olga, mila, the 12 players but p01
    assert other.pk in active and requested.pk not in active
    assert notify.text_of(notes.get(user=other)) == (
        "Announcement from Friday Goats: Free <b>beer</b> on Friday!")
    (message,) = mail.outbox
    assert message.to == [opted.email]
    assert message.subject == "Kozel: An announcement from Friday Goats"
    assert "Free <b>beer</b> on Friday!" in message.body
    assert f"{SITE}/club/friday-goats/" in message.body
    assert message.extra_headers["List-Unsubscribe"].startswith(
        f"<{SITE}/notifications/unsubscribe/")


def test_an_event_announcement_reaches_its_players_only(club_cast,
                                                        django_capture_on_commit_callbacks):
    t = event(club_cast)
    first, mate = club_cast.players[:2]
    events.register(t.pk, first, mate.username)
    with django_capture_on_commit_callbacks(execute=True):
        announcements.announce(club_cast.director, "Table 3 is by the window.",
                               tournament_id=t.pk)
    notes = Notification.objects.filter(kind=Notification.Kind.ANNOUNCEMENT)
    assert sorted(notes.values_list("user_id", flat=True)) == sorted([first.pk, mate.pk])
    assert notify.text_of(notes.first()) == (
        "Announcement for Friday Cup (Friday Goats): Table 3 is by the window.")


def test_only_directors_announce_and_bad_text_changes_nothing(club_cast):
    club = club_cast.club
    t = event(club_cast)
    for who in (club_cast.member, club_cast.stranger):
        with pytest.raises(PermissionDeniedError):
            announcements.announce(who, "Hello", club_id=club.pk)
        with pytest.raises(PermissionDeniedError):
            announcements.announce(who, "Hello", tournament_id=t.pk)
    for text in ("", "   ", "x" * 1001, "evil\u202eflip"):
        with pytest.raises(InvalidRequestError):
            announcements.announce(club_cast.director, text, club_id=club.pk)
    for bad_id in ("1", None, True, 10**9):
        with pytest.raises(NotFoundError):
            announcements.announce(club_cast.director, "Hello", club_id=bad_id)
    assert Announcement.objects.count() == 0
    assert Notification.objects.filter(kind=Notification.Kind.ANNOUNCEMENT).count() == 0


def test_a_club_announces_at_most_ten_times_a_day(club_cast):
    for i in range(announcements.DAILY_LIMIT):
        announcements.announce(club_cast.owner, f"News {i}", club_id=club_cast.club.pk)
    with pytest.raises(InvalidRequestError):
        announcements.announce(club_cast.owner, "One more", club_id=club_cast.club.pk)
    assert Announcement.objects.count() == announcements.DAILY_LIMIT
