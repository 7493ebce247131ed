"""The players' side of moderation on real pages: the notice on every page, the
suspended account's one page, the appeal, reports from a profile and a chat line, blocks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.moderation.models import Block, Report
from accounts.moderation.services import sanctions
from games.models import ChatMessage

pytestmark = pytest.mark.django_db


def test_a_sanctioned_player_is_told_what_why_and_until_when_on_every_page(client, cast, mona,
                                                                            table):
    sanctions.mute_chat(mona, cast.bob, 5, "Insults at Friday game")
    client.force_login(cast.bob)
    for url in ["/", reverse("leaderboard"), reverse("games:table", args=[table.pk])]:
        page = client.get(url).content.decode()
        assert 'id="sanction-notices"' in page and "Insults at Friday game" in page, url
        assert "Muted in chat" in page and "until" in page
        assert reverse("moderation:standing") in page
    client.force_login(cast.alice)
    assert 'id="sanction-notices"' not in client.get("/").content.decode()


def test_a_suspended_account_sees_only_its_notice_and_can_appeal(client, cast, mona):
    ban = sanctions.suspend(mona, cast.bob, 2, "Threats in chat")
    client.force_login(cast.bob)
    for url in ["/", reverse("leaderboard"), reverse("moderation:my_reports"), "/tables/"]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"] == reverse(
            "moderation:standing"), url
    page = client.get(reverse("moderation:standing")).content.decode()
    assert "Threats in chat" in page and "Account suspended" in page
    response = client.post(reverse("moderation:appeal"),
                           {"sanction": ban.pk, "text": "It was my brother on my account."})
    assert response.status_code == 302
    appeal = Report.objects.get(category="appeal")
    assert appeal.sanction == ban and appeal.reporter == cast.bob
    assert "Your appeal is with the moderators" in client.get(
        reverse("moderation:standing")).content.decode()


def test_report_from_a_profile_and_from_a_chat_line(client, cast, table):
    client.force_login(cast.alice)
    profile = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert "source=profile" in profile
    response = client.post(reverse("moderation:report"),
                           {"user": "bob", "category": "name", "source": "profile"})
    assert response.status_code == 302
    line = ChatMessage.objects.create(table=table, user=cast.carol, text="rude")
    response = client.post(reverse("moderation:report"),
                           {"message": line.pk, "table": table.pk, "category": "abuse",
                            "source": "chat", "block": "1"},
                           HTTP_ACCEPT="application/json")
    assert response.status_code == 200 and response.json()["ok"] is True
    assert Report.objects.get(chat_message=line).reported == cast.carol
    assert Block.objects.filter(blocker=cast.alice, blocked=cast.carol).exists()
    bad = client.post(reverse("moderation:report"), {"user": "alice", "category": "abuse"},
                      HTTP_ACCEPT="application/json")
    assert bad.status_code == 400 and "yourself" in bad.json()["message"]
    assert Report.objects.count() == 2


def test_blocks_page(client, cast):
    client.force_login(cast.alice)
    client.post(reverse("moderation:blocks"), {"action": "block", "user": "bob"})
    assert "bob" in client.get(reverse("moderation:blocks")).content.decode()
    client.post(reverse("moderation:blocks"), {"action": "block", "user": "nobody-x"})
    client.post(reverse("moderation:blocks"), {"action": "sideways", "user": "carol"})
    assert list(Block.objects.values_list("blocked__username", flat=True)) == ["bob"]
    client.post(reverse("moderation:blocks"), {"action": "unblock", "user": "bob"})
    assert not Block.objects.exists()


def test_blocks_keep_people_from_partnering_and_private_tables(cast):
    from accounts.moderation.services import blocks
    from games.errors import PermissionDeniedError
    from games.queue import services as queue
    from games.services import tables

    blocks.block(cast.alice, cast.bob)
    with pytest.raises(PermissionDeniedError):
        queue.invite_partner(cast.bob, "alice")
    with pytest.raises(PermissionDeniedError):
        queue.invite_partner(cast.alice, "bob")
    private = tables.create_table(cast.alice, tables.TableSettings(name="Ours",
                                                                   visibility="private"))
    with pytest.raises(PermissionDeniedError):
        tables.take_seat(private.pk, cast.bob, 1)
    tables.take_seat(private.pk, cast.carol, 1)


def test_table_chat_mute_endpoint(client, cast, table):
    client.force_login(cast.alice)
    url = reverse("moderation:table_mute", args=[table.pk])
    assert client.get(url).json() == {"ok": True, "muted": False}
    assert client.post(url, {"muted": "1"}).json() == {"ok": True, "muted": True}
    assert client.get(url).json()["muted"] is True
    assert client.post(reverse("moderation:table_mute", args=[10**6]),
                       {"muted": "1"}).status_code == 400
