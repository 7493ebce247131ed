"""The permission matrix over every moderation page, action and admin action, for the
anonymous visitor, a player, the reported player, a moderator (a normal user in the
Moderators group) and a superuser. A refused request changes nothing."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse

from accounts.moderation.models import ModerationLog, Report, Sanction
from accounts.moderation.services import reports
from games.models import ChatMessage, Series
from tests.ratings.factories import finished_series, make_users

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "player", "reported", "moderator", "superuser"]


@pytest.fixture
def world(cast, mona, root, table):
    line = ChatMessage.objects.create(table=table, user=cast.bob, text="rude words")
    report = reports.file_report(cast.alice, cast.bob, "abuse", "rude", source="chat",
                                 message_id=line.pk)
    series = finished_series(make_users("x", 4), ["A", "A", "A"])
    people = {"anonymous": None, "player": cast.charlie, "reported": cast.bob,
              "moderator": mona, "superuser": root}
    return {"report": report, "line": line, "series": series, "people": people,
            "bob": cast.bob}


def as_role(client, world, role):
    if world["people"][role] is not None:
        client.force_login(world["people"][role])
    return client


def pages(world):
    report, bob = world["report"], world["bob"]
    return {
        "queue": reverse("moderation:queue"),
        "report": reverse("moderation:report_detail", args=[report.pk]),
        "player": reverse("moderation:player", args=[bob.username]),
        "log": reverse("moderation:log"),
    }


# Who may open each page: the moderator and the superuser only.
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", ["queue", "report", "player", "log"])
def test_moderation_pages(client, world, role, page):
    response = as_role(client, world, role).get(pages(world)[page])
    expected = {"anonymous": 302, "player": 403, "reported": 403, "moderator": 200,
                "superuser": 200}[role]
    assert response.status_code == expected
    if role == "anonymous":
        assert response["Location"].startswith(reverse("account_login"))
    if expected == 200:
        assert "rude" in response.content.decode() or page in ("log", "queue", "player")


ACTIONS = {
    "close": {"action": "close", "reason": "nothing there"},
    "warn": {"action": "warn", "reason": "keep it friendly"},
    "mute": {"action": "mute", "duration": "2", "reason": "insults"},
    "ban": {"action": "ban", "duration": "24", "reason": "leaving ranked"},
    "suspend": {"action": "suspend", "duration": "72", "reason": "threats"},
    "rename": {"action": "rename", "reason": "offensive name"},
    "hide": {"action": "hide", "reason": "rude line"},
    "void": {"action": "void", "reason": "collusion"},
    "mark": {"action": "mark_boosting", "since": str(date.today() - timedelta(days=30)),
             "until": str(date.today() + timedelta(days=2)), "reason": "boosting a friend"},
}


def changed(world) -> bool:
    return (Sanction.objects.exists() or ModerationLog.objects.exists()
            or Report.objects.exclude(status="open").exists()
            or ChatMessage.objects.filter(hidden=True).exists()
            or Series.objects.filter(status="voided").exists())


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", list(ACTIONS))
def test_actions_on_a_report(client, world, role, name, monkeypatch):
    from games.ratings import tasks

    monkeypatch.setattr(tasks.rollback_series_task, "delay", lambda pk: None)
    data = dict(ACTIONS[name])
    if name == "void":
        data["series"] = world["series"].pk
    url = reverse("moderation:act", args=[world["report"].pk])
    response = as_role(client, world, role).post(url, data)
    if role in ("anonymous", "player", "reported"):
        assert response.status_code in (302, 403)
        if role != "anonymous":
            assert response.status_code == 403
        assert not changed(world), "a refused action changes nothing"
        return
    assert response.status_code == 302
    assert changed(world), f"{role} could {name}"
    assert ModerationLog.objects.filter(actor=world["people"][role]).exists()


@pytest.mark.parametrize("role", ROLES)
def test_void_page_action(client, world, role, monkeypatch):
    from games.ratings import tasks

    monkeypatch.setattr(tasks.rollback_series_task, "delay", lambda pk: None)
    url = reverse("moderation:void", args=[world["series"].pk])
    response = as_role(client, world, role).post(url, {"reason": "collusion"})
    world["series"].refresh_from_db()
    voided = world["series"].status == "voided"
    assert voided == (role in ("moderator", "superuser"))
    assert response.status_code in ((302,) if role in ("anonymous", "moderator", "superuser")
                                    else (403,))


@pytest.mark.parametrize("role", ROLES)
def test_act_on_a_player_page(client, world, role):
    url = reverse("moderation:act_on_player", args=[world["bob"].username])
    response = as_role(client, world, role).post(url, ACTIONS["warn"])
    warned = Sanction.objects.filter(user=world["bob"], kind="warn").exists()
    assert warned == (role in ("moderator", "superuser"))
    assert response.status_code == (403 if role in ("player", "reported") else 302)


def test_a_moderator_cannot_sanction_an_administrator_through_the_page(client, world):
    client.force_login(world["people"]["moderator"])
    url = reverse("moderation:act_on_player", args=["root"])
    client.post(url, ACTIONS["suspend"])
    assert not Sanction.objects.exists()


ADMIN = ["moderation_moderationlog", "moderation_report", "moderation_sanction"]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("model", ADMIN)
def test_admin_pages(client, world, role, model):
    response = as_role(client, world, role).get(reverse(f"admin:{model}_changelist"))
    # The stock admin is for staff; moderators work on the moderation page.
    assert response.status_code == (200 if role == "superuser" else 302)


@pytest.mark.parametrize("role", ROLES)
def test_admin_actions(client, world, role):
    client = as_role(client, world, role)
    client.post(reverse("admin:moderation_report_changelist"),
                {"action": "close_reports", "_selected_action": [world["report"].pk]})
    world["report"].refresh_from_db()
    assert (world["report"].status == "closed") == (role == "superuser")
    entry = ModerationLog.objects.first()
    response = client.post(reverse("admin:moderation_moderationlog_changelist"),
                           {"action": "delete_selected", "_selected_action": [entry.pk]}
                           if entry else {})
    assert response.status_code in (200, 302)
    assert ModerationLog.objects.count() == (1 if role == "superuser" else 0)
    if entry is not None:
        change = client.get(reverse("admin:moderation_moderationlog_change", args=[entry.pk]))
        assert change.status_code in (200, 302, 403)
        if change.status_code == 200:
            assert b'name="_save"' not in change.content, "viewable, never editable"
        delete = client.post(reverse("admin:moderation_moderationlog_delete", args=[entry.pk]),
                             {"post": "yes"})
        assert delete.status_code in (302, 403)
        assert ModerationLog.objects.filter(pk=entry.pk).exists()


@pytest.mark.parametrize("role", ["player", "reported"])
def test_players_pages_are_theirs(client, world, role):
    client = as_role(client, world, role)
    for name in ("my_reports", "blocks", "standing"):
        assert client.get(reverse(f"moderation:{name}")).status_code == 200
    assert client.get(reverse("moderation:report") + "?user=alice").status_code == 200


@pytest.mark.parametrize("name", ["my_reports", "blocks", "standing", "report"])
def test_players_pages_need_an_account(client, world, name):
    response = client.get(reverse(f"moderation:{name}"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
