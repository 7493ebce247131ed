"""The refusal page of someone playing at another table (templates/games/
_playing_elsewhere.html): the same two ways out wherever they asked to play, and the
"Leave it" form sends their very request again with ``leave_current``."""

from __future__ import annotations

import re

import pytest

from accounts.social import invites
from games.models import Conduct, Seat, SeriesSeat, Table
from games.queue import casual
from games.queue.models import QueueEntry
from games.services import clock


@pytest.fixture
def stale(cast) -> Table:
    """Bob's quick match with Carol and two bots; a bot keeps Bob's seat warm."""
    table = casual.create_casual_table([cast.bob, None, cast.carol, None], None, 12, "beginner")
    clock.hand_seats_to_bots(cast.bob.pk, Conduct.Reason.DISCONNECT)
    return table


def hidden_fields(html: str) -> dict[str, str]:
    section = html[html.index('playing-elsewhere"'):]
    section = section[:section.index("</section>")]
    found = re.findall(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)"', section)
    assert len(found) == len(dict(found)), "each field once (the form's own CSRF token)"
    return dict(found)


def ways_out(response, table: Table) -> dict[str, str]:
    """Both ways out are offered; returns the fields the "Leave it" form posts."""
    assert response.status_code == 409
    html = response.content.decode()
    assert "You are playing at table Quick match" in html
    assert f'href="/table/{table.pk}/"' in html and "Return to your game" in html
    assert "Leave it (a bot plays on)" in html
    fields = hidden_fields(html)
    assert fields["leave_current"] == str(table.pk)
    return fields


def test_sitting_elsewhere_asks_then_the_leave_form_sits(client, cast, stale, table):
    client.force_login(cast.bob)
    fields = ways_out(client.post(f"/table/{table.pk}/sit/", {"position": "1"}), stale)
    assert set(fields) == {"csrfmiddlewaretoken", "position", "leave_current"}
    assert not Seat.objects.filter(table=table, user=cast.bob).exists()
    response = client.post(f"/table/{table.pk}/sit/", fields)
    assert response.status_code == 302
    assert Seat.objects.get(table=table, position=1).user_id == cast.bob.pk
    assert SeriesSeat.objects.get(series__table=stale, position=0).gave_up


def test_the_casual_queue_asks_and_carries_the_preferences_over(client, cast, stale):
    client.force_login(cast.bob)
    asked = {"turn_seconds": "60", "target": "6", "allow_bots": "on", "bot_wait": "15"}
    fields = ways_out(client.post("/play/casual/join/", asked), stale)
    assert {k: fields[k] for k in asked} == asked
    assert client.post("/play/casual/join/", fields).status_code == 302
    entry = QueueEntry.objects.get(user=cast.bob)
    assert (entry.status, entry.turn_seconds, entry.target, entry.bot_wait_seconds) \
        == ("waiting", 60, 6, 15)


def test_a_script_asking_for_json_gets_the_table_to_return_to(client, cast, stale):
    client.force_login(cast.bob)
    response = client.post("/play/casual/join/", {}, HTTP_ACCEPT="application/json")
    assert response.status_code == 409
    assert response.json()["error"] == "playing_elsewhere"
    assert response.json()["table_url"] == f"/table/{stale.pk}/"


def test_accepting_an_invitation_asks_then_the_leave_form_accepts(client, cast, stale):
    sent = invites.invite(cast.alice, "bob")
    client.force_login(cast.bob)
    url = f"/invites/{sent.pk}/accept/"
    fields = ways_out(client.post(url), stale)
    response = client.post(url, fields)
    assert response.status_code == 302 and response.url == f"/table/{sent.table_id}/"
    assert Seat.objects.get(table_id=sent.table_id, position=2).user_id == cast.bob.pk


def test_play_now_asks_with_the_same_include(client, cast, stale):
    client.force_login(cast.bob)
    fields = ways_out(client.post("/play/bots/", {"level": "strong"}), stale)
    assert fields["level"] == "strong"
    response = client.post("/play/bots/", fields)
    assert response.status_code == 302 and response.url != f"/table/{stale.pk}/"
    new = Table.objects.get(pk=int(response.url.strip("/").split("/")[-1]))
    assert new.status == "playing" and Seat.objects.get(table=new, position=0).user == cast.bob
    assert Seat.objects.get(table=new, position=1).bot_level == "strong"
