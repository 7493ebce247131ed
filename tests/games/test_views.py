"""Lobby, table, seat endpoints, invite links, quick play and replay pages."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from django.urls import reverse

from games.models import Game, Seat, Series, Table
from games.services import series as series_service
from games.services import tables
from tests.games.helpers import current_game, play_out_game, users_by_position


def snapshot_of(response):
    start = response.content.index(b'id="initial-snapshot"')
    body = response.content[response.content.index(b">", start) + 1:]
    return json.loads(body[:body.index(b"</script>")])


def test_lobby_lists_public_tables_only(client, cast, table):
    tables.create_table(cast.bob, tables.TableSettings(name="Hidden den", visibility="private"))
    response = client.get("/tables/")
    assert response.status_code == 200
    assert b"Friday game" in response.content and b"Hidden den" not in response.content
    fragment = client.get("/tables/", HTTP_HX_REQUEST="true")
    assert b"<html" not in fragment.content and b"Friday game" in fragment.content


def test_home_shows_open_tables(client, table):
    response = client.get("/")
    assert response.status_code == 200 and b"Friday game" in response.content


def test_create_table_form(client, cast):
    client.force_login(cast.alice)
    response = client.post("/tables/new/", {"name": "Evening", "visibility": "public",
                                            "turn_seconds": "30", "series_target": "6"})
    table = Table.objects.get(name="Evening")
    assert response.status_code == 302 and response.url == f"/table/{table.pk}/"
    assert (table.turn_seconds, table.series_target, table.kind) == (30, 6, "casual")


def test_create_table_form_errors_change_nothing(client, cast):
    client.force_login(cast.alice)
    response = client.post("/tables/new/", {"name": "", "visibility": "public",
                                            "turn_seconds": "20", "series_target": "7"})
    assert response.status_code == 200
    assert b"field-error" in response.content
    assert Table.objects.count() == 0


def test_create_table_form_links_ranked_play_instead_of_coming_soon(client, cast):
    client.force_login(cast.alice)
    html = client.get("/tables/new/").content.decode()
    assert f'<a href="{reverse("queue:ranked")}">play ranked</a>' in html
    assert "coming soon" not in html.lower()


def test_create_table_needs_sign_in(client):
    assert client.get("/tables/new/").status_code == 302


def test_table_page_embeds_the_viewers_snapshot(client, cast, full_table):
    series_service.start_series(full_table.pk, cast.alice)
    client.force_login(cast.bob)
    snap = snapshot_of(client.get(f"/table/{full_table.pk}/"))
    assert snap["you"]["position"] == 1 and len(snap["game"]["view"]["hand"]) == 4
    client.logout()
    snap = snapshot_of(client.get(f"/table/{full_table.pk}/"))
    assert snap["you"]["position"] is None and snap["game"]["view"]["hand"] == []


def test_signed_out_spectator_gets_a_sign_in_link_instead_of_a_chat_input(client, cast, table):
    html = client.get(f"/table/{table.pk}/").content.decode()
    chat = html.split('aria-label="Table chat"')[1].split("</section>")[0]
    link = f"/accounts/login/?next=/table/{table.pk}/"
    assert f'<a href="{link}">Sign in to chat</a>' in chat
    assert "<input" not in chat and "<button" not in chat
    # The link brings the visitor back to the table, where the chat input now is.
    response = client.post(link, {"login": "charlie", "password": "pw-12345!"})
    assert response.status_code == 302 and response["Location"] == f"/table/{table.pk}/"
    chat = client.get(f"/table/{table.pk}/").content.decode().split(
        'aria-label="Table chat"')[1].split("</section>")[0]
    assert 'id="kz-chat-input"' in chat and "Sign in to chat" not in chat


def test_private_table_needs_the_invite_link(client, cast):
    table = tables.create_table(cast.alice, tables.TableSettings(name="secret",
                                                                  visibility="private"))
    client.force_login(cast.charlie)
    refused = client.get(f"/table/{table.pk}/")
    # A page that says why and what to do, never a bare or a debug "not found".
    assert refused.status_code == 403
    assert "ask a player for an invite link" in refused.content.decode()
    assert "secret" not in refused.content.decode()  # nothing of the table itself
    invalid = client.get("/t/not-a-token/")
    assert invalid.status_code == 404
    assert "This invite link is not valid" in invalid.content.decode()
    response = client.get(f"/t/{table.invite_token}/")
    assert response.status_code == 302
    assert client.get(f"/table/{table.pk}/").status_code == 200


def test_seat_endpoints(client, cast, table):
    client.force_login(cast.alice)
    assert client.post(f"/table/{table.pk}/sit/", {"position": "0"}).status_code == 302
    for position in (1, 2, 3):
        client.post(f"/table/{table.pk}/bot/", {"position": str(position), "level": "random"})
    assert [s.occupant_label for s in Seat.objects.filter(table=table)][0] == "alice"
    client.post(f"/table/{table.pk}/start/")
    assert Series.objects.filter(table=table).count() == 1


def test_seat_endpoint_refusals_show_a_message(client, cast, full_table):
    client.force_login(cast.charlie)
    response = client.post(f"/table/{full_table.pk}/sit/", {"position": "1"}, follow=True)
    assert b"That seat is taken." in response.content
    response = client.post(f"/table/{full_table.pk}/sit/", {"position": "9"}, follow=True)
    assert b"not valid" in response.content
    response = client.post(f"/table/{full_table.pk}/start/", follow=True)
    assert b"Only the table" in response.content
    assert Series.objects.count() == 0
    assert client.get(f"/table/{full_table.pk}/sit/").status_code == 405


def test_quick_play_starts_a_game_against_bots(client, cast):
    client.force_login(cast.alice)
    response = client.post("/play/bots/", {"level": "random"})
    table = Table.objects.get()
    assert response.url == f"/table/{table.pk}/"
    assert table.status == "playing" and table.visibility == "private"
    levels = [s.bot_level for s in Seat.objects.filter(table=table)]
    assert levels == ["", "random", "random", "random"]


def test_quick_play_refuses_an_unknown_level(client, cast):
    client.force_login(cast.alice)
    client.post("/play/bots/", {"level": "godlike"})
    assert Table.objects.count() == 0


def test_replay_opens_only_after_the_game(client, cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    assert client.get(f"/game/{game.pk}/replay/").status_code == 404
    play_out_game(game, users_by_position(series))
    response = client.get(f"/game/{game.pk}/replay/")
    assert response.status_code == 200
    assert b"replay-frames" in response.content and str(game.seed).encode() in response.content
    # "View from" names every seat of the series' roster.
    page = response.content.decode()
    for position, user in enumerate(cast.seated):
        assert f'<option value="{position}">Seat {position + 1}: {user.username}' in page


@pytest.mark.parametrize("url", ["/table/999999/", "/game/999999/replay/"])
def test_unknown_ids_are_404(client, db, url):
    assert client.get(url).status_code == 404


def test_game_model_str(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    assert str(Game.objects.get()) == f"Game 1 of series {series.pk}"


@override_settings(DEBUG=True)
def test_a_private_table_without_its_link_is_explained_even_with_debug_on(client, cast):
    """With DEBUG on, Django answers a bare Http404 with its technical page listing every
    URL pattern: a private table must answer with the site's own page instead."""
    table = tables.create_table(cast.alice, tables.TableSettings(name="p", visibility="private"))
    for path in (f"/table/{table.pk}/", "/t/not-a-token/"):
        html = client.get(path).content.decode()
        assert "URLconf" not in html and "Using the URLconf" not in html
        assert 'class="private-table"' in html


def test_the_create_page_seats_its_creator(client, cast):
    client.force_login(cast.alice)
    response = client.post("/tables/new/", {"name": "Mine", "visibility": "public",
                                            "series_target": "12", "turn_seconds": "",
                                            "sit": "on"})
    table = Table.objects.get(name="Mine")
    assert response.status_code == 302
    assert [s.user_id for s in Seat.objects.filter(table=table).order_by("position")] == \
        [cast.alice.pk, None, None, None]


def test_every_table_page_has_a_share_link(client, cast):
    public = tables.create_table(cast.alice, tables.TableSettings(name="open"))
    private = tables.create_table(cast.alice, tables.TableSettings(name="own",
                                                                    visibility="private"))
    client.force_login(cast.bob)  # anyone at a public table may pass its address on
    assert f'value="http://testserver/table/{public.pk}/"' in \
        client.get(f"/table/{public.pk}/").content.decode()
    client.force_login(cast.alice)  # a private table's owner hands out the invite link
    assert f'value="http://testserver/t/{private.invite_token}/"' in \
        client.get(f"/table/{private.pk}/").content.decode()
