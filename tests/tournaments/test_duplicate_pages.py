"""What a duplicate event shows, and what it must not (R19 across tables).

Two tables play board 1 of round 1 (the same deal at both). While only table 1 has
played it, nobody (not a stranger, not a player of table 2, not even a player of
table 1) sees its seed, its hands or table 1's result on any page, export, API answer
or table socket frame; once table 2 has played it too, the traveller, the replays side
by side, the standings in percent and the exports show it all.

The event runs through the services: the director starts it, everybody checks in, and
each table plays its first game (board 1, dealt from the board's seed) to the end.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from fractions import Fraction

import pytest
from django.test import Client

from accounts import tokens
from games import engine, snapshot
from games import selectors as game_selectors
from games.models import Game, Series
from games.reviews.models import Review
from games.services import publish
from games.tournaments import evening
from games.tournaments.models import Board, Entry, Match, Tournament
from games.tournaments.services import rounds
from tests.games.helpers import play_out_game
from tests.tournaments.helpers import act, enter_pairs, event


@dataclass
class Dup:
    t: Tournament
    board: Board
    games: dict[int, Game]  # table number -> its game of board 1
    pairs: list[Entry]
    cast: object

    def result(self, table: int) -> dict:
        return game_selectors.game_record(self.games[table])["result"]


def _seats(match: Match) -> dict[int, object]:
    """Seat -> person at a pairs match's table (R1: side A in seats 0+2, B in 1+3, a
    pair's player 1 at the lower seat)."""
    sides = {s.side: s.entry for s in match.sides.select_related("entry__player1",
                                                                  "entry__player2")}
    return {0: sides["A"].player1, 2: sides["A"].player2,
            1: sides["B"].player1, 3: sides["B"].player2}


def _play_board_1(match: Match) -> Game:
    """The match's table plays its first game (board 1 of the round) to the end through
    the services; then what the game's end hook does on commit: the tournament stores
    the table's result and reveals the boards played everywhere."""
    game = Game.objects.get(series_id=match.series_id, number=1)
    play_out_game(game, _seats(match))
    rounds.game_finished(match.series_id)
    game.refresh_from_db()
    return game


@pytest.fixture
def dup(club_cast) -> Dup:
    """Four pairs of people, two tables, two boards a round; table 1 has played board 1,
    table 2 is still playing it."""
    t = event(club_cast, fmt="duplicate", rounds=1, boards_per_round=2,
              checkin_seconds=300)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    evening.check_in_people(t)
    matches = list(Match.objects.filter(round__tournament=t).order_by("number"))
    assert [m.status for m in matches] == [Match.Status.PLAYING] * 2
    game1 = _play_board_1(matches[0])
    board = Board.objects.get(tournament=t, number=1)
    assert board.public_at is None and board.plays.count() == 1
    pairs = []
    for m in matches:
        sides = {s.side: s.entry for s in m.sides.select_related("entry__player1",
                                                                  "entry__player2")}
        pairs += [sides["A"], sides["B"]]
    return Dup(t, board, {1: game1, 2: Game.objects.get(series_id=matches[1].series_id,
                                                         number=1)}, pairs, club_cast)


def _finish_board(dup: Dup) -> None:
    """Table 2 plays board 1 too: the board is then public (every table played it)."""
    dup.games[2] = _play_board_1(Match.objects.get(round__tournament=dup.t, number=2))
    dup.board.refresh_from_db()
    assert dup.board.public_at is not None


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _viewers(dup: Dup) -> dict[str, Client]:
    """A stranger, a player of table 2 (still playing the board), a player of table 1
    (who has played it) and the event's director."""
    return {"anonymous": _client(), "table 2": _client(dup.pairs[2].player1),
            "table 1": _client(dup.pairs[0].player1),
            "director": _client(dup.cast.director)}


def _secrets(dup: Dup) -> list[str]:
    """Strings any of which on a page would leak board 1: its seed, and table 1's figures
    as the pages and exports print them."""
    r = dup.result(1)
    return [str(dup.games[1].seed), 'data-score-a=', f"{r['points']['A']}–{r['points']['B']}",
            'class="t-table traveller"',
            # The cross-table appears with the first board that counts in the standings.
            'id="cross-table"', 'id="print-cross"']


def _pages(dup: Dup) -> dict[str, str]:
    t = dup.t.pk
    return {"event": f"/tournament/{t}/", "live": f"/tournament/{t}/live/",
            "traveller": f"/tournament/{t}/board/1/", "print": f"/tournament/{t}/print/"}


def test_r19_a_board_played_at_one_table_only_shows_on_no_page(dup) -> None:
    for who, client in _viewers(dup).items():
        for name, url in _pages(dup).items():
            response = client.get(url)
            assert response.status_code == 200, (who, name)
            html = response.content.decode()
            for secret in _secrets(dup):
                assert secret not in html, (who, name, secret)
        # The board says how far it is, nothing more.
        page = client.get(_pages(dup)["event"]).content.decode()
        assert 'data-board="1" data-public="0"' in page
        assert "being played (1 of 2 tables finished)" in page


def test_r19_the_finished_tables_replay_record_and_reviews_stay_closed(dup) -> None:
    game = dup.games[1]
    for who, client in _viewers(dup).items():
        for url in (f"/game/{game.pk}/replay/", f"/game/{game.pk}/record.json",
                    f"/game/{game.pk}/review/0/"):
            response = client.get(url)
            assert response.status_code in (403, 404), (who, url, response.status_code)
            assert str(game.seed) not in response.content.decode(), (who, url)
        compare = client.get(f"/tournament/{dup.t.pk}/board/1/compare/?tables=1,2")
        assert compare.status_code == 404, who
    # Not even a player of table 1, with a token that opens the table's games, reads it
    # through the API.
    token = tokens.create_token(dup.pairs[0].player1, "tests")[1]
    api = Client().get(f"/api/games/{game.pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert api.status_code == 404 and str(game.seed) not in api.content.decode()


def test_r19_the_finished_tables_game_over_frame_carries_no_record(dup) -> None:
    game = dup.games[1]
    assert game.played_out
    facts = snapshot.table_facts(game.series.table)
    assert facts.game is not None and facts.game.pk == game.pk
    for position in (0, 1, 2, 3, None):
        view = facts.view_for(position)
        assert view["game_over"] and view["record"] is None, position
        assert str(game.seed) not in json.dumps(view)


def test_r19_the_frames_published_at_the_game_end_carry_no_record(dup) -> None:
    """What every seat's group and the spectators' group receive when the board's last
    move is played at table 1 (publish.game_changed, sent on commit)."""
    game = Game.objects.select_related("series").get(pk=dup.games[1].pk)
    state = engine.GameState.from_dict(game.state)
    messages = publish.game_changed(game, state, whole_history=True)()
    events = [m for _group, m in messages if m["type"] == "table.event"]
    assert len(events) == 5 and all(e["view"]["game_over"] for e in events)
    for event_ in events:
        assert event_["view"]["record"] is None
        assert str(game.seed) not in json.dumps(event_)


def test_r19_exports_and_the_api_leave_out_a_board_not_played_everywhere(dup) -> None:
    t = dup.t.pk
    client = _client(dup.pairs[2].player1)
    results = list(csv.reader(io.StringIO(client.get(
        f"/tournament/{t}/results.csv").content.decode())))
    assert len(results) == 1  # the header alone
    standings = list(csv.reader(io.StringIO(client.get(
        f"/tournament/{t}/standings.csv").content.decode())))
    assert not any(h.startswith("board_") for h in standings[0])
    assert {row[standings[0].index("boards")] for row in standings[1:]} == {"0"}
    boards = client.get(f"/api/tournaments/{t}/boards").json()["boards"]
    assert [(b["number"], b["public"], b["finished"], b["tables"], b["results"])
            for b in boards] == [(1, False, 1, 2, []), (2, False, 0, 2, [])]
    table = client.get(f"/api/tournaments/{t}/standings").json()["duplicate"]
    assert table["boards"] == [] and all(r["by_board"] == {} and r["boards"] == 0
                                         for r in table["rows"])
    pairings = client.get(f"/api/tournaments/{t}/pairings").json()
    assert all((m["outcome"], m["loss_a"], m["loss_b"]) == ("", 0, 0)
               for r in pairings["rounds"] for m in r["matches"])
    for body in (client.get(f"/api/tournaments/{t}/boards").content,
                 client.get(f"/api/tournaments/{t}/standings").content):
        assert str(dup.games[1].seed) not in body.decode()


def _matchpoints(dup: Dup) -> dict[int, int]:
    """Each pair's matchpoints on board 1, worked out from the rules by hand: in each
    direction two results; the better (fewer loss points, then more card points) takes
    2, equal 1 each."""
    out = {}
    for side, own_pair in (("A", 0), ("B", 1)):
        keys = {}
        for table in (1, 2):
            r = dup.result(table)
            keys[table] = (r["loss_points"][side], -r["points"][side])
        for table, other in ((1, 2), (2, 1)):
            pair = dup.pairs[own_pair + 2 * (table - 1)].pk
            out[pair] = 2 if keys[table] < keys[other] else 1 if keys[table] == keys[other] else 0
    return out


def test_once_every_table_played_the_board_its_traveller_scores_and_replays_show(dup) -> None:
    _finish_board(dup)
    expected = _matchpoints(dup)
    stranger = _client(dup.cast.stranger)
    page = stranger.get(f"/tournament/{dup.t.pk}/board/1/").content.decode()
    assert 'data-public="1"' in page
    for table in (1, 2):
        r = dup.result(table)
        a, b = dup.pairs[2 * (table - 1)], dup.pairs[2 * (table - 1) + 1]
        assert (f'data-table="{table}" data-score-a="{expected[a.pk]}" '
                f'data-score-b="{expected[b.pk]}"') in page
        assert f"{r['points']['A']}–{r['points']['B']}" in page
        assert f"/game/{dup.games[table].pk}/replay/" in page
        # The replay and the record are open to everyone now, the seed with them (R19).
        replay = stranger.get(f"/game/{dup.games[table].pk}/replay/")
        assert replay.status_code == 200 and str(dup.games[table].seed) in replay.content.decode()
        assert stranger.get(f"/api/games/{dup.games[table].pk}").status_code == 200
    compare = stranger.get(f"/tournament/{dup.t.pk}/board/1/compare/?tables=1,2")
    assert compare.status_code == 200
    html = compare.content.decode()
    assert 'id="t1-game-record"' in html and 'id="t2-replay-frames"' in html
    # Standings in percent: one board, top 2 (two tables): score / 2.
    rows = stranger.get(f"/api/tournaments/{dup.t.pk}/standings").json()["duplicate"]["rows"]
    got = {r["entry"]: (r["score"], r["top"], r["percent"]) for r in rows}
    assert got == {pk: (s, 2, float(Fraction(100 * s, 2))) for pk, s in expected.items()}
    results = list(csv.reader(io.StringIO(stranger.get(
        f"/tournament/{dup.t.pk}/results.csv").content.decode())))
    assert len(results) == 3
    sheet = stranger.get(f"/tournament/{dup.t.pk}/print/").content.decode()
    assert 'id="print-cross"' in sheet
    event = stranger.get(f"/tournament/{dup.t.pk}/").content.decode()
    assert 'id="cross-table"' in event and 'data-board="1" data-public="1"' in event


def test_a_duplicate_tables_link_is_for_its_own_players_and_the_directors(dup) -> None:
    table1 = Match.objects.get(round__tournament=dup.t, number=1).table
    link = f"/t/{table1.invite_token}/"

    def page(user=None) -> str:
        return _client(user).get(f"/tournament/{dup.t.pk}/").content.decode()

    assert link not in page(dup.pairs[2].player1) and link not in page()
    assert link in page(dup.pairs[0].player1) and link in page(dup.cast.director)


@pytest.mark.parametrize("query", ["tables=1", "tables=1,1", "tables=1,9", "tables=x,2"])
def test_the_side_by_side_view_refuses_what_is_not_two_tables_of_the_board(dup, query) -> None:
    _finish_board(dup)
    response = _client().get(f"/tournament/{dup.t.pk}/board/1/compare/?{query}")
    assert response.status_code == 400


def test_a_board_that_does_not_exist_or_an_event_that_is_not_duplicate_is_not_found(
        dup, club_cast) -> None:
    assert _client().get(f"/tournament/{dup.t.pk}/board/9/").status_code == 404
    other = Tournament.objects.create(club=club_cast.club, name="Swiss", kind="pairs",
                                      format="swiss", created_by=club_cast.director)
    assert _client().get(f"/tournament/{other.pk}/board/1/").status_code == 404
    assert _client().get(f"/api/tournaments/{other.pk}/boards").status_code == 404
    assert Series.objects.exists()


def test_the_duplicate_api_answers_match_their_schema(dup) -> None:
    from tests.api.test_schema import _check

    schema = Client().get("/api/openapi.json").json()
    for finished in (False, True):
        if finished:
            _finish_board(dup)
        for name in ("boards", "standings", "pairings"):
            assert _check(schema, f"/api/tournaments/{{tournament_id}}/{name}",
                          f"/api/tournaments/{dup.t.pk}/{name}") == 200


def test_the_traveller_links_to_a_tables_review_once_one_is_made(dup) -> None:
    """A finished review (a row as the reviews worker leaves it: reviewing needs the strong
    bot, tested in tests/games/test_reviews.py) is linked from the traveller and readable
    by anyone once the board is public; before, not even its row's existence shows."""
    review = Review.objects.create(game=dup.games[1], seat=0, status=Review.Status.DONE,
                                   decisions=[], summary={"decisions": 0})
    page = f"/tournament/{dup.t.pk}/board/1/"
    assert 'data-review="1"' not in _client().get(page).content.decode()
    assert _client().get(f"/game/{review.game_id}/review/0/").status_code == 404
    _finish_board(dup)
    html = _client().get(page).content.decode()
    assert 'data-review="1"' in html and 'data-review="2"' not in html
    assert f"/game/{review.game_id}/replay/#kz-review" in html
    assert _client().get(f"/game/{review.game_id}/review/0/").status_code == 200
