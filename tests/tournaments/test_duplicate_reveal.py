"""R19 across tables (issue 41): a duplicate board's seed, hands and results stay hidden
until every table of its round has played it, then everything is shown.

Four pairs of people, one round of one board, two tables. Table 1 plays the board to its
end (its match is over) while table 2 has not: every frame a table-1 player's socket
receives is recorded and none carries the board's seed or its record (every hand, the
discards); the replay page, the record download and the API refuse it; the standings
do not move and the API's pairings do not show table 1's result. Then table 2 plays the
board: it is public, the same socket is sent a snapshot whose record is the board's,
and the pages open.
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from accounts import tokens
from games import policy
from games.models import Game, SeriesSeat
from games.tournaments import duplicate_reads
from games.tournaments.models import Board, BoardPlay, Match
from tests.games.helpers import play_out_game
from tests.games.ws import connect
from tests.tournaments.helpers import act, check_in_everybody, enter_pairs, event

pytestmark = pytest.mark.django_db(transaction=True)


def _records(obj):
    """Every non-empty ``record`` anywhere in a frame."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key == "record" and value:
                yield value
            else:
                yield from _records(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _records(value)


def _people(match: Match) -> dict[int, object]:
    return {s.position: s.user for s in SeriesSeat.objects.filter(
        series_id=match.series_id).select_related("user")}


@database_sync_to_async
def _start(club_cast):
    t = event(club_cast, fmt="duplicate", rounds=1, boards_per_round=1)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    check_in_everybody(t.round_set.get())
    one, two = Match.objects.filter(round__tournament=t).order_by("number")
    return t, one, two


@database_sync_to_async
def _play_board_one(match: Match) -> Game:
    game = Game.objects.get(series_id=match.series_id, number=1)
    play_out_game(game, _people(match))
    game.refresh_from_db()
    return game


@database_sync_to_async
def _pages(game: Game, user) -> tuple[int, int, int]:
    """The replay page, the record download (a session) and the API (a token)."""
    client = Client()
    client.force_login(user)
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {tokens.create_token(user, 'test')[1]}"}
    return (client.get(f"/game/{game.pk}/replay/").status_code,
            client.get(f"/game/{game.pk}/record.json").status_code,
            Client().get(f"/api/games/{game.pk}", **bearer).status_code)


@database_sync_to_async
def _api_event(t, user) -> tuple[list, list]:
    """The API's pairings (each match's outcome and loss points) and standings."""
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {tokens.create_token(user, 'test')[1]}"}
    pairings = Client().get(f"/api/tournaments/{t.pk}/pairings", **bearer).json()
    standings = Client().get(f"/api/tournaments/{t.pk}/standings", **bearer).json()
    return ([(m["outcome"], m["loss_a"], m["loss_b"]) for m in pairings["rounds"][0]["matches"]],
            [(r["points"], r["played"]) for r in standings["rows"]])


@database_sync_to_async
def _board_and_standings(t):
    board = Board.objects.get(tournament=t, number=1)
    return board, duplicate_reads.standings(t).rows, BoardPlay.objects.filter(board=board).count()


async def test_r19_a_board_stays_secret_until_every_table_has_played_it(club_cast):
    t, one, two = await _start(club_cast)
    people_one = await database_sync_to_async(_people)(one)
    player = people_one[0]
    socket = await connect(one.table_id, player)
    await socket.receive_type("snapshot")

    first = await _play_board_one(one)
    assert first.status == Game.Status.FINISHED
    board, rows, plays = await _board_and_standings(t)
    # The frames of the game's end: its last event, then the refreshed snapshot (a
    # communicator's receive that times out stops its application: no drain here).
    while not (frame := await socket.receive_type("event"))["view"]["game_over"]:
        pass
    await socket.receive_type("snapshot")
    # Nothing of board 1 beyond R19's live view: no seed, no record (hands, discards).
    for frame in socket.frames:
        assert str(board.seed) not in json.dumps(frame), frame["type"]
        assert not list(_records(frame)), frame["type"]
    assert board.public_at is None and plays == 1
    assert not await database_sync_to_async(policy.record_is_public)(first.pk)
    assert all(r.boards == 0 for r in rows), "a secret board moves no standing"
    assert await _pages(first, player) == (404, 404, 404)
    one_now = await database_sync_to_async(Match.objects.get)(pk=one.pk)
    assert one_now.status == Match.Status.FINISHED and one_now.outcome
    results, lines = await _api_event(t, people_one[1])
    assert results == [("", 0, 0), ("", 0, 0)] and set(lines) == {(0, 0)}
    # A fresh handshake is held back the same way (the snapshot's own view).
    late = await connect(one.table_id, people_one[1])
    snapshot = await late.receive_type("snapshot")
    assert not list(_records(snapshot)) and str(board.seed) not in json.dumps(snapshot)
    await late.close()

    second = await _play_board_one(two)
    board, rows, plays = await _board_and_standings(t)
    assert board.public_at is not None and plays == 2
    assert (second.seed, first.seed) == (board.seed, board.seed)

    while not (found := list(_records(await socket.receive_type("snapshot")))):
        pass
    record = found[0]
    assert record["seed"] == board.seed and len(record["hands"]) == 4
    # Every frame before the reveal kept the board secret.
    for frame in socket.frames[:-1]:
        assert str(board.seed) not in json.dumps(frame) and not list(_records(frame))
    assert await database_sync_to_async(policy.record_is_public)(first.pk)
    assert all(r.boards == 1 for r in rows)
    assert await _pages(first, player) == (200, 200, 200)
    results, lines = await _api_event(t, people_one[1])
    assert all(outcome for outcome, _a, _b in results) and {p for _s, p in lines} == {1}
    await socket.close()
