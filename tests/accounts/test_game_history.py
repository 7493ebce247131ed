"""``/@/<username>/games``: every series a player took part in, filtered, each game with
its replay and its JSON record(game history)."""

from __future__ import annotations

import json

import pytest

from games import engine
from games.models import Table
from games.services import series as series_service
from games.services import tables
from tests.games.conftest import make_user
from tests.games.helpers import current_game, play_out_game, users_by_position

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    return {n: make_user(n) for n in ("alice", "bob", "carol", "dan", "erin")}


def played_series(owner, seated, *, private=False):
    """A table with ``seated`` at 0–3 (None: a bot) and its first game played out."""
    table = tables.create_table(owner, tables.TableSettings(
        name="t", visibility=Table.Visibility.PRIVATE if private else Table.Visibility.PUBLIC))
    for position, user in enumerate(seated):
        if user is None:
            tables.add_bot(table.pk, owner, position, "random")
        else:
            tables.take_seat(table.pk, user, position)
    series = series_service.start_series(table.pk, owner)
    play_out_game(current_game(series), users_by_position(series))
    return series


def listed(client, path) -> set[int]:
    page = client.get(path).content.decode()
    return {int(chunk.split('"')[0]) for chunk in page.split('data-series="')[1:]}


def test_history_lists_every_series_with_partner_and_opponent_filters(client, people):
    a, b, c, d, e = (people[n] for n in ("alice", "bob", "carol", "dan", "erin"))
    with_carol = played_series(a, [a, b, c, d])  # alice+carol vs bob+dan (R1)
    with_erin = played_series(a, [a, b, e, d])
    without = played_series(b, [b, c, d, e])
    assert listed(client, "/@/alice/games") == {with_carol.pk, with_erin.pk}
    assert listed(client, "/@/alice/games?partner=carol") == {with_carol.pk}
    assert listed(client, "/@/alice/games?partner=bob") == set()  # bob is an opponent
    assert listed(client, "/@/alice/games?against=bob") == {with_carol.pk, with_erin.pk}
    assert listed(client, "/@/alice/games?against=erin") == set()  # erin was a partner
    assert listed(client, "/@/erin/games?against=alice") == set()
    assert listed(client, "/@/erin/games?partner=alice") == {with_erin.pk}
    assert listed(client, "/@/erin/games?kind=casual") == {with_erin.pk, without.pk}
    assert listed(client, "/@/erin/games?kind=ranked") == set()


def test_bad_filters_are_refused_plainly(client, people):
    response = client.get("/@/alice/games?kind=blitz&partner=nobody")
    assert response.status_code == 400
    page = response.content.decode()
    assert "Unknown kind" in page and "No player named" in page
    assert client.get("/@/nobody/games").status_code == 404


def test_private_series_are_listed_only_to_the_player(client, people):
    a, b, c, d = (people[n] for n in ("alice", "bob", "carol", "dan"))
    secret = played_series(a, [a, None, None, None], private=True)
    assert secret.pk not in listed(client, "/@/alice/games")
    client.force_login(b)
    assert secret.pk not in listed(client, "/@/alice/games")
    client.force_login(a)
    assert secret.pk in listed(client, "/@/alice/games")


def test_a_finished_games_record_downloads_as_json_in_the_engine_format(client, people):
    a, b, c, d = (people[n] for n in ("alice", "bob", "carol", "dan"))
    series = played_series(a, [a, b, c, d])
    game = series.games.get(number=1)
    response = client.get(f"/game/{game.pk}/record.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)["record"]
    # The record replays the game: same seed, the stored moves, the same end (R5).
    state = engine.new_game(record["seed"], game.dealer, game.first_leader)
    assert record["seed"] == game.seed
    for move in game.moves.order_by("seq"):
        state = engine.apply(state, move.seat, engine.action_from_dict(
            {"kind": move.kind, "cards": move.cards}))
    assert engine.game_record(state) == record
    live = current_game(series)  # the next game, still being played: no record (R19)
    if live.pk != game.pk:
        assert client.get(f"/game/{live.pk}/record.json").status_code == 404


def test_the_profile_links_the_history(client, people):
    assert 'href="/@/alice/games"' in client.get("/@/alice").content.decode()
