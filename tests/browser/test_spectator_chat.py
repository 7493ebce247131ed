"""In the browser. The spectators' chat: a spectator chats; a seated player does
not see the line until they tick "Show spectators' chat", then sees it (and the next
one live); the players' chat reaches the spectator as before. A voided series reads
void on the live table."""

from __future__ import annotations

import json
import re

import pytest
from allauth.account.models import EmailAddress
from playwright.sync_api import expect

from games.services import series as series_service
from games.services import tables
from tests.browser import table_helpers as th
from tests.waiting import wait_for

pytestmark = pytest.mark.browser


def _user(model, name):
    user = model.objects.create_user(name, f"{name}@example.com", "x" * 20)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _watched_table(players) -> int:
    """A table of four players with its series started (run off Playwright's loop, where
    the services' broadcasts can be sent)."""
    table = tables.create_table(players[0], tables.TableSettings(name="Watched"))
    for position, user in enumerate(players):
        tables.take_seat(table.pk, user, position)
    series_service.start_series(table.pk, players[0])
    return table.pk


def test_a_player_sees_the_spectators_chat_only_after_turning_it_on(
        live_site, new_context, django_user_model, off_loop, js_errors):
    players = [_user(django_user_model, n) for n in ["alice", "bob", "carol", "dan"]]
    charlie = _user(django_user_model, "charlie")
    table_id = off_loop(_watched_table, players)

    bob = new_context(user=players[1]).new_page()
    bob.goto(f"/table/{table_id}/")
    th.wait_ready(bob)
    spectator = new_context(user=charlie).new_page()
    spectator.goto(f"/table/{table_id}/")
    th.wait_ready(spectator)

    # The spectator has the spectators' chat and no toggle; the player has the toggle, off.
    expect(spectator.locator("#kz-spec-chat")).to_be_visible()
    expect(spectator.locator("#kz-show-spectators")).to_be_hidden()
    expect(bob.locator("#kz-spec-chat")).to_be_hidden()
    expect(bob.get_by_label("Show spectators' chat")).not_to_be_checked()

    spectator.locator("#kz-chat-input").fill("go bob go")
    spectator.locator("#kz-chat-input").press("Enter")
    expect(spectator.locator("#kz-spec-chat-list")).to_contain_text("go bob go")
    bob.locator("#kz-chat-input").fill("thanks")
    bob.locator("#kz-chat-input").press("Enter")
    # The players' line reaches the spectator, in the players' chat.
    expect(spectator.locator("#kz-chat-list")).to_contain_text("thanks")
    expect(bob.locator("#kz-chat-list")).to_contain_text("thanks")
    # bob's own line came after the spectator's: had it been sent to him, it was here.
    expect(bob.locator(".kz-chat")).not_to_contain_text("go bob go")

    bob.get_by_label("Show spectators' chat").check()
    expect(bob.locator("#kz-spec-chat")).to_be_visible()
    expect(bob.locator("#kz-spec-chat-list")).to_contain_text("go bob go")
    expect(bob.locator("#kz-chat-list")).not_to_contain_text("go bob go")
    spectator.locator("#kz-chat-input").fill("and again")
    spectator.locator("#kz-chat-input").press("Enter")
    expect(bob.locator("#kz-spec-chat-list")).to_contain_text("and again")
    th.screenshot(bob, "table-1280-spectators-chat")

    # Remembered: bob's next visit shows it at once; turning it off empties it.
    bob.reload()
    th.wait_ready(bob)
    expect(bob.get_by_label("Show spectators' chat")).to_be_checked()
    expect(bob.locator("#kz-spec-chat-list")).to_contain_text("and again")
    bob.get_by_label("Show spectators' chat").uncheck()
    expect(bob.locator("#kz-spec-chat")).to_be_hidden()
    expect(bob.locator("#kz-spec-chat-list li")).to_have_count(0)
    assert js_errors == []


def test_a_snapshot_sent_before_the_click_does_not_undo_the_toggle(
        live_site, new_context, django_user_model, off_loop, js_errors):
    """The toggle shows what the player clicked until the server's snapshot says it has
    it: a snapshot the server sent before the click (the greeting of a socket just
    opened) that arrives after it must not tick the box again. Playwright stands between
    the page and the server, holds the server's frames back after the click and hands
    the page the greeting once more."""
    players = [_user(django_user_model, n) for n in ["alice", "bob", "carol", "dan"]]
    table_id = off_loop(_watched_table, players)
    bob = new_context(user=players[1]).new_page()
    greetings: list[str] = []
    held: list[str] = []
    holding = {"on": False}
    sockets = []

    def stand_between(ws) -> None:
        server = ws.connect_to_server()
        sockets.append(ws)

        def from_server(message) -> None:
            if not greetings and json.loads(message).get("type") == "snapshot":
                greetings.append(message)
            if holding["on"]:
                held.append(message)
            else:
                ws.send(message)

        server.on_message(from_server)

    bob.route_web_socket(re.compile(r"/ws/table/"), stand_between)
    bob.goto(f"/table/{table_id}/")
    th.wait_ready(bob)
    toggle = bob.get_by_label("Show spectators' chat")
    expect(toggle).not_to_be_checked()
    # Each evaluate lets Playwright hand this thread the frames it stood between.
    wait_for(lambda: bob.evaluate("() => true") and greetings, 10, "the socket's greeting")

    holding["on"] = True
    toggle.check()
    bob.evaluate("() => { window.kozelTable.state.snap.replaced = false; }")
    sockets[0].send(greetings[0])
    bob.wait_for_function("() => window.kozelTable.state.snap.replaced === undefined")
    expect(toggle).to_be_checked()

    holding["on"] = False
    for message in held:
        sockets[0].send(message)
    expect(bob.locator("#kz-spec-chat")).to_be_visible()
    expect(toggle).to_be_checked()
    bob.reload()
    th.wait_ready(bob)
    expect(toggle).to_be_checked()
    assert js_errors == []


def test_a_voided_series_reads_void_on_the_live_table(live_site, new_context, django_user_model,
                                                     off_loop, js_errors):
    """The table page after the table's script has rendered the snapshot itself: the
    games list marks each game void and the status line says the series was voided."""
    from accounts.moderation.services import voids
    from tests.games.helpers import current_game, play_out_game, users_by_position
    from tests.moderation.conftest import moderators_group

    players = [_user(django_user_model, n) for n in ["alice", "bob", "carol", "dan"]]
    mona = _user(django_user_model, "mona")

    def played_and_voided() -> int:
        table = tables.create_table(players[0], tables.TableSettings(name="Voided"))
        for position, user in enumerate(players):
            tables.take_seat(table.pk, user, position)
        series = series_service.start_series(table.pk, players[0])
        play_out_game(current_game(series), users_by_position(series))
        mona.groups.add(moderators_group())
        moderator = type(mona).objects.get(pk=mona.pk)
        voids.void_series(moderator, series.pk, "Collusion")
        return table.pk

    table_id = off_loop(played_and_voided)
    page = new_context(user=players[1]).new_page()
    page.goto(f"/table/{table_id}/")
    th.wait_ready(page)
    expect(page.locator("#kz-games tr.game-void .badge-void")).to_have_text("Void")
    expect(page.locator("#kz-status")).to_have_text(
        "A moderator voided this series: it does not count.")
    expect(page.locator("#kz-series-void")).to_be_visible()
    assert js_errors == []
