"""The director's console (games/tournaments/console.py, services/console.py, the views):
who may open it and act from it, what it shows by name, and each one-click action's
effect, its audit line and its refusal of bad input (a refusal changes nothing)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from games.models import ChatMessage, Seat, Series, SeriesSeat, Termination
from games.snapshot import table_snapshot
from games.tournaments.models import AuditEntry, Match, Round
from games.tournaments.services import rounds
from tests.tournaments.helpers import act, check_in_everybody, end_series, enter_pairs, event

pytestmark = pytest.mark.django_db

ROLES = ["stranger", "member", "director", "owner", "moderator"]
DIRECTING = {"director", "owner", "moderator"}


@pytest.fixture
def running(club_cast):
    """A Swiss pairs event of four pairs (two tables), round 1 in check-in."""
    t = event(club_cast)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    return t


def round_of(t) -> Round:
    return t.round_set.get(number=1)


def first_match(t) -> Match:
    return round_of(t).matches.order_by("number").first()


def console_post(client, t, **data):
    return client.post(f"/tournament/{t.pk}/console/act/", {k: str(v) for k, v in data.items()})


def state(t) -> tuple:
    """Everything a console action may change, to compare before and after a refusal."""
    r = round_of(t)
    return (r.ends_at, r.status,
            sorted(Match.objects.filter(round=r).values_list(
                "pk", "status", "outcome", "forfeit", "substitutes", "checked_in")),
            sorted(Seat.objects.filter(table__in=[m.table_id for m in r.matches.all()])
                   .values_list("table_id", "position", "user_id", "bot_level")),
            ChatMessage.objects.count(), AuditEntry.objects.count())


# --- who may open it ------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_console_is_for_the_events_directors_only(client, club_cast, running, role):
    client.force_login(club_cast.who(role))
    before = state(running)
    page = client.get(f"/tournament/{running.pk}/console/")
    fragment = client.get(f"/tournament/{running.pk}/console/live/")
    posted = console_post(client, running, action="extend_round", minutes=10)
    if role in DIRECTING:
        assert page.status_code == fragment.status_code == 200
        assert posted.status_code == 302
        assert round_of(running).ends_at == before[0] + timedelta(minutes=10)
    else:
        assert page.status_code == fragment.status_code == posted.status_code == 404
        assert state(running) == before  # the refused action changed nothing


def test_an_anonymous_visitor_is_sent_to_sign_in_and_changes_nothing(client, running):
    before = state(running)
    assert client.get(f"/tournament/{running.pk}/console/").status_code == 302
    assert console_post(client, running, action="extend_round", minutes=10).status_code == 302
    assert state(running) == before


def test_the_tournament_page_links_directors_to_the_console(client, club_cast, running):
    client.force_login(club_cast.director)
    assert f"/tournament/{running.pk}/console/" in client.get(
        f"/tournament/{running.pk}/").content.decode()
    client.force_login(club_cast.member)
    assert f"/tournament/{running.pk}/console/" not in client.get(
        f"/tournament/{running.pk}/").content.decode()


# --- what it shows ---------------------------------------------------------------------


def seat_rows(html: str, match_id: int) -> dict[int, str]:
    block = html.split(f'data-match="{match_id}"', 1)[1].split("</section>", 1)[0]
    return {int(p): row for p, row in re.findall(
        r'<tr data-position="(\d)"(.*?)</tr>', block, re.S)}


def test_the_console_names_who_checked_in(client, club_cast, running):
    match = first_match(running)
    seats = rounds.people_by_position(match)
    first_person = seats[0][1]
    rounds.check_in(match.pk, next(u for u in club_cast.players if u.pk == first_person))
    client.force_login(club_cast.director)
    html = client.get(f"/tournament/{running.pk}/console/").content.decode()
    rows = seat_rows(html, match.pk)
    for position, (_entry, person) in seats.items():
        name = next(u.username for u in club_cast.players if u.pk == person)
        assert name in rows[position]
        expected = "1" if position == 0 else "0"
        assert f'data-checked-in="{expected}"' in rows[position], position
        assert 'data-connected="0"' in rows[position]  # nobody has the table open
    assert "1 of 4 checked in" in html


# --- bot for a seat --------------------------------------------------------------------


def test_bot_seat_during_check_in_seats_a_bot_and_writes_the_name(club_cast, running):
    match = first_match(running)
    seats = rounds.people_by_position(match)
    # Everybody but seat 3's person checks in: the bot for seat 3 completes the table.
    for position in (0, 1, 2):
        rounds.check_in(match.pk, next(u for u in club_cast.players
                                       if u.pk == seats[position][1]))
    absent = next(u for u in club_cast.players if u.pk == seats[3][1])
    message = act(running, club_cast.director, "bot_seat", match_id=match.pk, position=3)
    assert absent.username in message
    match.refresh_from_db()
    assert match.substitutes == [3]
    seat = Seat.objects.get(table=match.table, position=3)
    assert seat.user_id is None and seat.bot_level == "casual"
    assert match.status == "playing"  # nobody else was missing: the series started
    line = AuditEntry.objects.filter(action="match.substitute_bot").get()
    assert line.actor == club_cast.director
    assert line.details["player"] == absent.username
    assert line.details["entry"] == seats[3][0].name
    assert (line.details["round"], line.details["match"], line.details["position"]) == (
        1, match.number, 3)


def test_bot_seat_during_play_takes_over_the_live_series(club_cast, running):
    check_in_everybody(round_of(running))
    match = first_match(running)
    assert match.status == "playing"
    person = SeriesSeat.objects.get(series_id=match.series_id, position=1).user_id
    act(running, club_cast.director, "bot_seat", match_id=match.pk, position=1)
    seat = SeriesSeat.objects.get(series_id=match.series_id, position=1)
    assert (seat.user_id, seat.away_user_id, seat.bot_level) == (None, person, "casual")
    match.refresh_from_db()
    assert match.substitutes == [1]
    assert AuditEntry.objects.filter(action="match.substitute_bot").count() == 1


@pytest.mark.parametrize("bad", [
    {"position": "7"}, {"position": "x"}, {"position": ""}, {"position": "-1"},
    {"match_id": "abc"}, {"match_id": "999999"}, {"match_id": ""},
])
def test_bot_seat_refuses_bad_input_and_changes_nothing(client, club_cast, running, bad):
    match = first_match(running)
    client.force_login(club_cast.director)
    before = state(running)
    response = console_post(client, running, **{"action": "bot_seat", "match_id": match.pk,
                                                "position": 0, **bad})
    assert response.status_code == 302
    assert state(running) == before
    page = client.get(response.url).content.decode()
    assert 'class="message error"' in page


def test_bot_seat_refuses_a_seat_a_bot_already_plays(club_cast, running):
    match = first_match(running)
    act(running, club_cast.director, "bot_seat", match_id=match.pk, position=2)
    before = state(running)
    with pytest.raises(Exception, match="already plays"):
        act(running, club_cast.director, "bot_seat", match_id=match.pk, position=2)
    assert state(running) == before


def test_bot_seat_refuses_a_match_of_another_event(club_cast, running):
    other = event(club_cast, name="Other Cup")
    enter_pairs(other, club_cast.players[8:12])
    act(other, club_cast.director, "start")
    foreign = other.round_set.get(number=1).matches.first()
    before = state(running)
    with pytest.raises(Exception, match="No such table"):
        act(running, club_cast.director, "bot_seat", match_id=foreign.pk, position=0)
    assert state(running) == before


# --- forfeit --------------------------------------------------------------------------


def test_forfeit_during_check_in_decides_the_match(club_cast, running):
    match = first_match(running)
    names = " & ".join(s.entry.name for s in match.sides.filter(side="A"))
    message = act(running, club_cast.director, "forfeit_match", match_id=match.pk, side="A",
                  reason="never came", confirm="1")
    assert names in message
    match.refresh_from_db()
    assert (match.status, match.outcome, match.forfeit) == ("finished", "B", True)
    line = AuditEntry.objects.get(action="match.forfeit_by_director")
    assert line.reason == "never came" and line.details["forfeits"] == "A"
    assert line.details["side_a"] == names


def test_forfeit_during_play_stops_the_series_through_the_finisher(club_cast, running):
    check_in_everybody(round_of(running))
    match = first_match(running)
    act(running, club_cast.director, "forfeit_match", match_id=match.pk, side="both",
        reason="both pairs cheated", confirm="1")
    match.refresh_from_db()
    series = Series.objects.get(pk=match.series_id)
    assert (match.status, match.outcome, match.forfeit) == ("finished", "none", True)
    assert series.termination == Termination.FORFEIT and series.goat == ""
    assert series.status != Series.Status.PLAYING


@pytest.mark.parametrize("bad", [
    {"side": "C"}, {"side": ""}, {"confirm": ""}, {"reason": ""}, {"reason": "x" * 201},
    {"match_id": "0"},
])
def test_forfeit_refuses_bad_input_and_changes_nothing(client, club_cast, running, bad):
    match = first_match(running)
    client.force_login(club_cast.director)
    before = state(running)
    console_post(client, running, **{"action": "forfeit_match", "match_id": match.pk,
                                     "side": "A", "reason": "late", "confirm": "1", **bad})
    assert state(running) == before


def test_forfeit_refuses_a_finished_match(club_cast, running):
    match = first_match(running)
    act(running, club_cast.director, "forfeit_match", match_id=match.pk, side="A",
        reason="late", confirm="1")
    before = state(running)
    with pytest.raises(Exception, match="not being played"):
        act(running, club_cast.director, "forfeit_match", match_id=match.pk, side="B",
            reason="late", confirm="1")
    assert state(running) == before


# --- extend the round -------------------------------------------------------------------


def test_extend_moves_the_time_limit_and_is_audited(club_cast, running):
    ends = round_of(running).ends_at
    act(running, club_cast.director, "extend_round", minutes=25)
    assert round_of(running).ends_at == ends + timedelta(minutes=25)
    line = AuditEntry.objects.get(action="round.extend")
    assert (line.details["minutes"], line.details["round"]) == (25, 1)


@pytest.mark.parametrize("minutes", ["0", "121", "abc", "", "-5", "2.5"])
def test_extend_refuses_bad_minutes_and_changes_nothing(client, club_cast, running, minutes):
    client.force_login(club_cast.director)
    before = state(running)
    console_post(client, running, action="extend_round", minutes=minutes)
    assert state(running) == before


# --- message a table ---------------------------------------------------------------------


def test_message_puts_a_director_line_in_the_tables_chat(club_cast, running):
    match = first_match(running)
    act(running, club_cast.director, "message_table", match_id=match.pk,
        text="Five minutes left, please finish the game")
    line = ChatMessage.objects.get(table=match.table)
    assert (line.channel, line.user, line.text) == (
        "director", club_cast.director, "Five minutes left, please finish the game")
    audit = AuditEntry.objects.get(action="table.message")
    assert audit.details["text"] == line.text and audit.details["match"] == match.number
    # A seated player reads it in the players' chat, marked as the director's.
    player = next(u for u in club_cast.players
                  if u.pk == rounds.people_by_position(match)[0][1])
    chat = table_snapshot(match.table, player)["chat"]
    assert [(c["channel"], c["text"]) for c in chat] == [("director", line.text)]


@pytest.mark.parametrize("text", ["", "   ", "x" * 301])
def test_message_refuses_an_empty_or_long_line(client, club_cast, running, text):
    client.force_login(club_cast.director)
    before = state(running)
    console_post(client, running, action="message_table", match_id=first_match(running).pk,
                 text=text)
    assert state(running) == before


def test_an_unknown_console_action_is_refused(client, club_cast, running):
    client.force_login(club_cast.director)
    before = state(running)
    console_post(client, running, action="start_round")  # a director tool, not the console's
    assert state(running) == before


def test_a_paired_round_waiting_to_start_shows_its_tables_without_actions(client, club_cast):
    t = event(club_cast, rounds=2)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    round_ = t.round_set.get(number=1)
    check_in_everybody(round_)
    match = round_.matches.get()
    end_series(match.series_id, "B", 4, 12)
    rounds.match_finished(match.series_id)
    assert t.round_set.get(number=2).status == "paired"
    client.force_login(club_cast.director)
    html = client.get(f"/tournament/{t.pk}/console/").content.decode()
    assert 'data-round="2"' in html and 'data-round-status="paired"' in html
    assert "Bot for this seat" not in html and "Forfeit this match" not in html
