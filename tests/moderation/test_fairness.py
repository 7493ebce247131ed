"""Moderation that is fair to the player and complete for the moderator.

The cast: alice, bob, carol, dan (seated), charlie (a stranger); mona and otto are
moderators (the Moderators group, not staff); root is an administrator.

- Appeals: the moderator who imposed a sanction never decides its appeal (service and
  a crafted POST alike); the decision carries a reason the player reads; a reporter
  learns that a report led to action, and nothing of the sanction.
- Voids from the player's page, a game's replay and the admin; the log names whom.
- Durations always explicit; heavy sanctions confirmed by a second moderator.
- Lines the chat filter blocked appear in "Chat around it", marked never shown.
- Site moderators disqualify an entry from a club event, in both logs.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.urls import reverse

from accounts.moderation import selectors
from accounts.moderation.models import BlockedChat, ModerationLog, Report, Sanction
from accounts.moderation.services import entries, reports, sanctions, voids
from accounts.social.models import Notification
from games.errors import InvalidRequestError, PermissionDeniedError, ServiceError
from games.models import ChatMessage, Series
from games.services import chat
from games.tournaments.models import AuditEntry, Entry, Membership
from games.tournaments.services import clubs, events
from tests.moderation.conftest import make_user, moderators_group
from tests.ratings.factories import finished_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def otto(db):
    """A second moderator."""
    user = make_user("otto")
    user.groups.add(moderators_group())
    return type(user).objects.get(pk=user.pk)


@pytest.fixture
def appealed(cast, mona):
    """Mona suspended bob for 3 days; bob appealed."""
    ban = sanctions.suspend(mona, cast.bob, 3, "Threats in chat")
    appeal = reports.appeal(cast.bob, ban.pk, "It was my brother on my account, sorry.")
    return ban, appeal


# --- 1. appeals ----------------------------------------------------------------------------

def test_the_imposing_moderator_cannot_decide_the_appeal_in_the_service(appealed, mona):
    ban, appeal = appealed
    for grant in (True, False):
        with pytest.raises(PermissionDeniedError, match="another moderator decides"):
            reports.decide_appeal(mona, appeal.pk, grant, "I stand by it")
    with pytest.raises(PermissionDeniedError, match="another moderator decides"):
        sanctions.lift(mona, ban.pk, "Changed my mind")  # lifting answers the appeal too
    with pytest.raises(InvalidRequestError, match="decided on its own"):
        reports.close_report(mona, appeal.pk, "nothing")
    appeal.refresh_from_db()
    ban.refresh_from_db()
    assert appeal.status == Report.Status.OPEN and ban.lifted_at is None
    assert not ModerationLog.objects.filter(action__in=["appeal_decided", "lift"]).exists()


@pytest.mark.parametrize("data", [
    {"action": "refuse", "reason": "Stands"}, {"action": "grant", "reason": "Fine"},
    {"action": "close", "reason": "Nothing"}, {"action": "warn", "reason": "Again"},
    {"action": "lift", "sanction": "SANCTION", "reason": "Mine to lift"},
])
def test_a_crafted_post_by_the_imposing_moderator_changes_nothing(client, appealed, mona,
                                                                  data):
    ban, appeal = appealed
    data = {k: (str(ban.pk) if v == "SANCTION" else v) for k, v in data.items()}
    client.force_login(mona)
    page = client.get(reverse("moderation:report_detail", args=[appeal.pk])).content.decode()
    assert 'id="appeal-not-yours"' in page and 'id="appeal-decide"' not in page
    response = client.post(reverse("moderation:act", args=[appeal.pk]), data, follow=True)
    assert response.status_code == 200
    appeal.refresh_from_db()
    ban.refresh_from_db()
    assert appeal.status == Report.Status.OPEN and ban.lifted_at is None
    assert Sanction.objects.count() == 1


def test_another_moderator_refuses_with_a_reason_the_player_reads(
        client, cast, appealed, otto, django_capture_on_commit_callbacks):
    ban, appeal = appealed
    client.force_login(otto)
    page = client.get(reverse("moderation:report_detail", args=[appeal.pk])).content.decode()
    assert 'id="appeal-decide"' in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("moderation:act", args=[appeal.pk]),
                    {"action": "refuse", "reason": "The threats came from your session."})
    appeal.refresh_from_db()
    assert appeal.status == Report.Status.CLOSED and appeal.resolved_by == otto
    assert appeal.decision == "The threats came from your session."
    entry = ModerationLog.objects.get(action="appeal_decided")
    assert entry.actor == otto and entry.subject == cast.bob and entry.after["granted"] is False
    client.force_login(cast.bob)
    standing = client.get(reverse("moderation:standing")).content.decode()
    assert "Refused" in standing and "The threats came from your session." in standing
    note = Notification.objects.get(user=cast.bob, kind="appeal")
    assert "The threats came from your session." in note.params["reason"]


def test_a_granted_appeal_lifts_the_sanction(cast, appealed, otto):
    ban, appeal = appealed
    reports.decide_appeal(otto, appeal.pk, True, "Fair enough: the brother is banned instead.")
    ban.refresh_from_db()
    appeal.refresh_from_db()
    assert ban.lifted_at is not None and ban.lifted_by == otto
    assert appeal.status == Report.Status.ACTED
    assert selectors.suspension_of(cast.bob) is None


def test_an_administrator_decides_when_no_other_moderator_exists(client, appealed, mona, root):
    _ban, appeal = appealed
    client.force_login(root)
    page = client.get(reverse("moderation:report_detail", args=[appeal.pk])).content.decode()
    assert "it is for an administrator" in page
    reports.decide_appeal(root, appeal.pk, False, "Confirmed by an administrator.")
    appeal.refresh_from_db()
    assert appeal.status == Report.Status.CLOSED


def test_the_reporter_is_told_of_action_without_its_details(
        cast, mona, django_capture_on_commit_callbacks):
    acted = reports.file_report(cast.alice, cast.bob, "abuse", "He insulted my partner")
    closed = reports.file_report(cast.carol, cast.dan, "abuse")
    with django_capture_on_commit_callbacks(execute=True):
        sanctions.mute_chat(mona, cast.bob, 5, "Secret reason xyzzy", report_ids=[acted.pk])
        reports.close_report(mona, closed.pk, "nothing there")
    notes = list(Notification.objects.filter(kind="report_acted"))
    assert [n.user for n in notes] == [cast.alice]
    assert not Notification.objects.filter(user=cast.carol).exists()  # closed: not told
    from accounts.social.notify import text_of

    text = text_of(notes[0])
    assert "bob" in text and "xyzzy" not in text and "mute" not in text.lower()


# --- 2. voids ----------------------------------------------------------------------------

@pytest.fixture
def rated(cast):
    from games.ratings import tasks

    series = finished_series(cast.seated, ["A", "A", "B", "A"])
    return series, tasks


def test_a_void_from_the_players_page_names_whom_it_touched(client, cast, mona, rated,
                                                            monkeypatch):
    series, tasks = rated
    monkeypatch.setattr(tasks.rollback_series_task, "delay", lambda pk: None)
    client.force_login(mona)
    url = reverse("moderation:player", args=["bob"])
    page = client.get(url).content.decode()
    assert f'<option value="{series.pk}">' in page
    client.post(url + "act/", {"action": "void", "series": series.pk,
                               "reason": "Collusion with dan"})
    series.refresh_from_db()
    assert series.status == Series.Status.VOIDED
    entry = ModerationLog.objects.get(action="void_series")
    assert entry.subject == cast.bob
    assert entry.after["players"] == ["alice", "bob", "carol", "dan"]
    log = client.get(reverse("moderation:log")).content.decode()
    for name in ("alice", "bob", "carol", "dan"):
        assert f'/moderation/player/{name}/">{name}</a>' in log


def test_a_void_from_a_games_replay(client, cast, mona, monkeypatch):
    from games.ratings import tasks
    from games.services import series as series_service
    from games.services import tables
    from tests.games.helpers import current_game, play_out_game, users_by_position

    monkeypatch.setattr(tasks.rollback_series_task, "delay", lambda pk: None)
    table = tables.create_table(cast.alice, tables.TableSettings(name="Replayed"))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, cast.alice)
    game = current_game(series)
    play_out_game(game, users_by_position(series))
    # Setup shortcut: the replay page only reads; this series stands for a finished rated one.
    Series.objects.filter(pk=series.pk).update(status=Series.Status.FINISHED, ranked=True)
    url = reverse("games:replay", args=[game.pk])
    client.force_login(cast.alice)
    assert 'id="void-series"' not in client.get(url).content.decode()
    client.force_login(mona)
    assert 'id="void-series"' in client.get(url).content.decode()
    response = client.post(reverse("moderation:void", args=[series.pk]),
                           {"reason": "Boosting ring", "next": url})
    assert response["Location"] == url
    series.refresh_from_db()
    assert series.status == Series.Status.VOIDED
    assert ModerationLog.objects.get().after["players"] == ["alice", "bob", "carol", "dan"]
    assert 'id="void-series"' not in client.get(url).content.decode()


def test_a_void_from_the_admin_asks_why(client, cast, root, rated, monkeypatch):
    series, tasks = rated
    monkeypatch.setattr(tasks.rollback_series_task, "delay", lambda pk: None)
    client.force_login(root)
    url = reverse("admin:games_series_changelist")
    page = client.post(url, {"action": "void_series", "_selected_action": [series.pk]})
    assert page.status_code == 200 and 'name="reason"' in page.content.decode()
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED  # nothing yet
    client.post(url, {"action": "void_series", "_selected_action": [series.pk], "apply": "1",
                      "reason": ""})
    series.refresh_from_db()
    assert series.status == Series.Status.FINISHED  # no reason, no void
    client.post(url, {"action": "void_series", "_selected_action": [series.pk], "apply": "1",
                      "reason": "Voided from the admin"})
    series.refresh_from_db()
    assert series.status == Series.Status.VOIDED
    assert ModerationLog.objects.get().reason == "Voided from the admin"


# --- 3. sanctions that cannot slip ----------------------------------------------------------

@pytest.mark.parametrize("days", [None, "", 0, "0", "forever", "-1"])
def test_a_suspension_needs_an_explicit_duration(cast, mona, days):
    with pytest.raises(InvalidRequestError, match="Choose how long"):
        sanctions.suspend(mona, cast.bob, days, "Threats")
    assert not Sanction.objects.exists()


def test_the_form_offers_a_select_of_durations_and_an_empty_one_changes_nothing(client, cast,
                                                                                 mona):
    client.force_login(mona)
    url = reverse("moderation:player", args=["bob"])
    page = client.get(url).content.decode()
    assert '<select id="mod-duration" name="duration">' in page
    assert '<option value="permanent">' in page and "empty: for good" not in page
    client.post(url + "act/", {"action": "suspend", "duration": "", "reason": "Threats"})
    assert not Sanction.objects.exists()
    for action, duration in [("ban", "3"), ("suspend", "12"), ("mute", "permanent"),
                             ("ban", "permanent"), ("suspend", "99999999999")]:
        client.post(url + "act/", {"action": action, "duration": duration, "reason": "Threats"})
        assert not Sanction.objects.exists(), (action, duration)  # never another duration
    client.post(url + "act/", {"action": "suspend", "duration": "72", "reason": "Threats"})
    made = Sanction.objects.get()
    assert abs(made.ends_at - made.starts_at - timedelta(days=3)) < timedelta(seconds=5)


def test_a_permanent_suspension_asks_for_confirmation_and_a_second_moderator(client, cast,
                                                                             mona, otto):
    from django.utils import timezone

    with pytest.raises(InvalidRequestError, match="I confirm"):
        sanctions.suspend(mona, cast.bob, "permanent", "Ban evasion")
    assert not Sanction.objects.exists()
    ban = sanctions.suspend(mona, cast.bob, "permanent", "Ban evasion", confirm=True)
    assert ban.ends_at is None and ban.unconfirmed and ban.in_force()
    assert selectors.suspension_of(cast.bob) == ban  # it holds meanwhile
    client.force_login(otto)
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert f'data-sanction="{ban.pk}"' in queue and "overdue: for an administrator" not in queue
    with pytest.raises(PermissionDeniedError, match="second moderator"):
        sanctions.confirm(mona, ban.pk, "Yes, mine")
    Sanction.objects.filter(pk=ban.pk).update(starts_at=timezone.now() - timedelta(days=2))
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert "overdue: for an administrator" in queue
    sanctions.confirm(otto, ban.pk, "Seen the chat: right call")
    ban.refresh_from_db()
    assert not ban.unconfirmed and ban.confirmed_by == otto
    assert f'data-sanction="{ban.pk}"' not in client.get(
        reverse("moderation:queue")).content.decode()
    assert ModerationLog.objects.filter(action="confirm", actor=otto).exists()


def test_any_sanction_of_a_club_owner_needs_confirmation(cast, mona):
    club = clubs.create_club(cast.alice, clubs.ClubSettings(name="Alice Club", slug="alice-club",
                                                           description=""))
    assert Membership.objects.get(club=club, user=cast.alice).role == "owner"
    with pytest.raises(InvalidRequestError, match="club owner"):
        sanctions.suspend(mona, cast.alice, 3, "testing moderator powers")
    with pytest.raises(InvalidRequestError, match="club owner"):
        sanctions.warn(mona, cast.alice, "testing moderator powers")
    assert not Sanction.objects.exists()
    warned = sanctions.warn(mona, cast.alice, "Spam in the club", confirm=True)
    assert warned.unconfirmed
    assert not sanctions.warn(mona, cast.bob, "Ordinary").needs_confirmation


# --- 4. moderators see what happened --------------------------------------------------------

@override_settings(KOZEL_MODERATION={"CHAT_FILTER": {"en": {"block": ["trumpet"]}},
                                     "CHAT_LINKS": "block"})
def test_blocked_lines_appear_in_the_chat_around_a_report(client, cast, mona, table):
    chat.post_message(table.pk, cast.alice, "hello all")
    with pytest.raises(InvalidRequestError):
        chat.post_message(table.pk, cast.bob, "you trumpet")
    assert not ChatMessage.objects.filter(text="you trumpet").exists()  # never shown
    assert BlockedChat.objects.get().text == "you trumpet"
    line = chat.post_message(table.pk, cast.bob, "whatever")
    report = reports.file_report(cast.alice, None, "abuse", message_id=line["id"])
    texts = [(c["text"], c.get("blocked", False)) for c in report.context["chat"]]
    assert texts == [("hello all", False), ("you trumpet", True), ("whatever", False)]
    client.force_login(mona)
    page = client.get(reverse("moderation:report_detail", args=[report.pk])).content.decode()
    assert "you trumpet" in page and "blocked by the chat filter: never shown" in page


@pytest.fixture
def cup(cast):
    owner = make_user("olga")
    club = clubs.create_club(owner, clubs.ClubSettings(name="Friday Goats", slug="goats",
                                                       description=""))
    for user in cast.seated:
        Membership.objects.create(club=club, user=user)
    t = events.create_tournament(club.pk, owner, events.EventSettings(
        name="Friday Cup", format="rotation", rounds=3, checkin_seconds=60, round_seconds=1800,
        break_seconds=0))
    entry = events.register(t.pk, cast.bob)
    return t, Entry.objects.get(pk=entry.pk)


def test_a_site_moderator_disqualifies_an_entry_in_both_logs(client, cast, mona, cup):
    t, entry = cup
    client.force_login(mona)
    url = reverse("moderation:player", args=["bob"])
    page = client.get(url).content.decode()
    assert f'<option value="{entry.pk}">' in page
    client.post(url + "act/", {"action": "disqualify", "entry": entry.pk,
                               "reason": "Engine use in round 1"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DISQUALIFIED
    audit = AuditEntry.objects.get(action="entry.disqualify")
    assert audit.actor == mona and audit.tournament == t
    logged = ModerationLog.objects.get(action="disqualify")
    assert logged.subject == cast.bob and logged.reason == "Engine use in round 1"
    with pytest.raises(InvalidRequestError, match="Already"):
        entries.disqualify_entry(mona, entry.pk, "again")
    with pytest.raises(PermissionDeniedError):
        entries.disqualify_entry(cast.alice, entry.pk, "a player cannot")


def test_voids_and_disqualifications_refuse_bad_ids(mona):
    for bad in ("x", "99999999999999999999", -1, True, None):
        with pytest.raises(ServiceError):
            voids.void_series(mona, bad, "why not")
        with pytest.raises(ServiceError):
            entries.disqualify_entry(mona, bad, "why not")


def test_after_a_suspension_the_table_and_the_lobby_show_a_bot_in_the_seat(client, cast, mona,
                                                                         playing_table):
    from games import snapshot
    from games.models import BOT_NAMES

    sanctions.suspend(mona, cast.bob, 3, "Threats in chat")
    table_seat = playing_table.seats.get(position=1)
    assert table_seat.user_id is None and table_seat.bot_level  # what the lobby lists
    seat = next(s for s in snapshot.table_snapshot(playing_table, cast.alice)["seats"]
                if s["position"] == 1)
    assert seat["name"] == BOT_NAMES[1] and "bob" not in seat["name"]
    assert snapshot.table_snapshot(playing_table, cast.bob)["you"]["can_reclaim"] is False
    client.force_login(cast.alice)
    lobby = client.get(reverse("games:lobby")).content.decode()
    seats = lobby[lobby.index(f'data-table-id="{playing_table.pk}"'):]
    seats = seats[:seats.index("</tr>")]
    assert "bob" not in seats and BOT_NAMES[1] in seats
