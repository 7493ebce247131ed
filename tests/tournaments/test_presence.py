"""Presence decides: an entry none of whose players checked in by the deadline is
absent and loses the match by forfeit (with the bot option a bot plays its seats for
the table's sake, and the match is still its forfeit); absent twice, it is withdrawn by
the server with the reason; it is marked by name in the pairings, the standings, the
cross-table, the CSV exports and the audit log; an entry that played no round itself
never takes a place."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.errors import InvalidRequestError
from games.tournaments import selectors
from games.tournaments.models import AuditEntry, Entry, Match, Round
from games.tournaments.services import rounds
from tests.tournaments.helpers import act, end_series, enter_pairs, event

pytestmark = pytest.mark.django_db


def current(t) -> Round:
    return t.round_set.order_by("-number").first()


def check_in_all_but(match: Match, entry: Entry) -> None:
    """Everybody of the match checks in except the people of ``entry``."""
    users = get_user_model().objects.in_bulk(list(rounds._persons(match)))
    for person in sorted(users):
        if person not in entry.people_ids:
            rounds.check_in(match.pk, users[person])


def absent_round(club_cast, **settings):
    """Two pairs, round 1 started; side B's pair never checks in; the deadline passes."""
    t = event(club_cast, **settings)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    round_ = current(t)
    match = round_.matches.get()
    present = match.sides.get(side="A").entry
    absent = match.sides.get(side="B").entry
    check_in_all_but(match, absent)
    assert rounds.checkin_deadline(round_.pk, force=True) == 1
    match.refresh_from_db()
    return t, match, present, absent


def test_an_absent_pair_loses_by_forfeit_although_bots_are_allowed(club_cast):
    # The issue: with bots allowed, a pair that never came got a bot and kept its points.
    t, match, present, absent = absent_round(club_cast, bots_allowed=True)
    assert t.absent_policy == "forfeit"  # the default
    assert (match.status, match.outcome, match.forfeit) == ("finished", "A", True)
    assert match.absent == [absent.pk] and match.series_id is None
    rows = {r.entry.id: r for r in selectors.standings_of(t)}
    assert (rows[present.pk].points, rows[present.pk].place) == (2, 1)
    assert (rows[absent.pk].points, rows[absent.pk].absent, rows[absent.pk].place) == (0, 1,
                                                                                       None)


def test_with_the_bot_option_a_bot_plays_but_the_match_is_the_absent_entrys_forfeit(club_cast):
    t, match, present, absent = absent_round(club_cast, bots_allowed=True,
                                             absent_policy="bot")
    # The table plays on for the present pair's sake: bots in seats 1 and 3 (side B).
    assert match.status == "playing" and match.substitutes == [1, 3]
    roster = {s.position: s for s in match.series.roster.all()}
    assert roster[1].bot_level and roster[3].bot_level
    assert roster[0].user_id == present.player1_id
    # The bots win at the table (side A is the goat) …
    end_series(match.series_id, "A", 12, 2)
    rounds.match_finished(match.series_id)
    match.refresh_from_db()
    # … but the absent pair still loses by forfeit: the result does not count.
    assert (match.status, match.outcome, match.forfeit, match.loss_a, match.loss_b) == (
        "finished", "A", True, 0, 0)
    rows = {r.entry.id: r for r in selectors.standings_of(t)}
    assert rows[absent.pk].points == 0 and rows[absent.pk].place is None
    assert rows[present.pk].points == 2 and rows[present.pk].place == 1


def test_one_partner_missing_is_not_absent_a_bot_fills_and_the_result_counts(club_cast):
    t = event(club_cast, bots_allowed=True)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    round_ = current(t)
    match = round_.matches.get()
    side_b = match.sides.get(side="B").entry
    users = get_user_model().objects.in_bulk(list(rounds._persons(match)))
    for person in sorted(users):
        if person != side_b.player2_id:
            rounds.check_in(match.pk, users[person])
    rounds.checkin_deadline(round_.pk, force=True)
    match.refresh_from_db()
    assert match.absent == [] and match.substitutes == [3] and match.status == "playing"
    end_series(match.series_id, "A", 12, 2)
    rounds.match_finished(match.series_id)
    match.refresh_from_db()
    assert (match.outcome, match.forfeit) == ("B", False)  # as played


def test_absent_twice_is_withdrawn_by_the_server_with_the_reason(club_cast):
    t = event(club_cast, rounds=3)
    entries = enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    absent = None
    for number in (1, 2):
        round_ = current(t)
        assert round_.number == number
        for match in round_.matches.filter(status="checkin"):
            sides = list(match.sides.all())
            if absent is None:
                absent = sides[1].entry
            if absent.pk in {s.entry_id for s in sides}:
                check_in_all_but(match, absent)
            else:
                check_in_all_but(match, Entry(tournament=t, name="nobody"))
        rounds.checkin_deadline(round_.pk, force=True)
        for match in round_.matches.filter(status="playing"):
            end_series(match.series_id, "B", 2, 12)
            rounds.match_finished(match.series_id)
        absent.refresh_from_db()
        if number == 1:
            assert absent.status == "active"
            assert rounds.start_next_round(t.pk, 2)
    assert (absent.status, absent.status_reason) == ("withdrawn", "absent")
    withdrawal = AuditEntry.objects.get(tournament=t, action="entry.withdraw")
    assert withdrawal.actor is None and withdrawal.reason == "absent in 2 rounds"
    assert withdrawal.details["entry"] == absent.name
    # Not paired again; listed, absent twice, never placed.
    assert absent.pk not in set(current(t).matches.values_list("sides__entry", flat=True))
    rows = {r.entry.id: r for r in selectors.standings_of(t)}
    assert (rows[absent.pk].absent, rows[absent.pk].present, rows[absent.pk].place) == (
        2, False, None)
    assert sorted(r.place for r in rows.values() if r.place) == [1, 2, 3]
    assert len(entries) == 4


def test_the_withdrawal_limit_is_per_event_and_zero_never_withdraws(club_cast):
    t, match, present, absent = absent_round(club_cast, absent_withdraw_after=1)
    absent.refresh_from_db()
    assert absent.status == "withdrawn"
    t, match, present, absent = absent_round(club_cast, absent_withdraw_after=0,
                                             name="Second Cup")
    absent.refresh_from_db()
    assert absent.status == "active"


def test_bad_presence_settings_are_refused(club_cast):
    for bad, message in (({"absent_policy": "bot"}, "only when the event allows bots"),
                         ({"absent_policy": "maybe"}, "forfeits or gets a bot"),
                         ({"absent_withdraw_after": 31}, "absent rounds"),
                         ({"absent_withdraw_after": -1}, "absent rounds"),
                         ({"break_seconds": 3601}, "pause between rounds"),
                         ({"seed_by_rating": True, "format": "rotation"}, "Swiss")):
        with pytest.raises(InvalidRequestError, match=message):
            event(club_cast, **bad)
    assert not club_cast.club.tournaments.exists()


def test_absence_is_marked_by_name_in_the_audit_log_csv_and_page(client, club_cast):
    t, match, present, absent = absent_round(club_cast, bots_allowed=True,
                                             absent_policy="bot")
    names = sorted(get_user_model().objects.get(pk=p).username for p in absent.people_ids)
    log = AuditEntry.objects.get(tournament=t, action="match.substitute_bots")
    # The issue: "positions=[0, 1, 2, 3]" and no names.
    assert log.details["absent"] == [absent.name]
    assert sorted(log.details["bot_for"]) == names
    assert log.details["scored"] == "forfeit"
    end_series(match.series_id, "B", 2, 12)
    rounds.match_finished(match.series_id)
    results = list(csv.DictReader(io.StringIO(client.get(
        reverse("tournaments:results_csv", args=[t.pk])).content.decode())))
    assert results[0]["absent"] == absent.name
    assert sorted(results[0]["bot_played_for"].split(" + ")) == names
    assert (results[0]["outcome"], results[0]["forfeit"]) == ("A", "1")
    table = {row["entry"]: row for row in csv.DictReader(io.StringIO(client.get(
        reverse("tournaments:standings_csv", args=[t.pk])).content.decode()))}
    assert (table[absent.name]["absent_rounds"], table[absent.name]["played_itself"],
            table[absent.name]["place"]) == ("1", "0", "")
    assert (table[present.name]["place"], table[present.name]["played_itself"]) == ("1", "1")
    page = client.get(reverse("tournaments:tournament", args=[t.pk])).content.decode()
    assert f'data-absent="{absent.pk}"' in page
    assert "absent 1 round" in page and "never played · no place" in page
    assert f"a bot played for {', '.join(sorted(names))}" in page or \
        f"a bot played for {', '.join(names[::-1])}" in page
    cross = selectors.cross_table(t, selectors.standings_of(t))
    cells = {row.entry.id: c for row, c in cross.rows}
    assert cells[absent.pk][0].startswith("X") and cells[present.pk][0].startswith("+")


def test_a_forfeit_at_the_deadline_names_who_was_missing(club_cast):
    t, match, present, absent = absent_round(club_cast)
    log = AuditEntry.objects.get(tournament=t, action="match.forfeit")
    assert log.details["absent"] == [absent.name]
    assert sorted(log.details["missing"]) == sorted(
        get_user_model().objects.get(pk=p).username for p in absent.people_ids)


def test_the_event_page_states_the_presence_rules(client, club_cast):
    t = event(club_cast, bots_allowed=True, absent_policy="bot", absent_withdraw_after=3,
              break_seconds=300)
    page = client.get(reverse("tournaments:tournament", args=[t.pk])).content.decode()
    assert "a bot plays their seats for the table's sake" in page
    assert "An entry absent 3 rounds is withdrawn." in page
    assert "An entry that played no round itself takes no place." in page
    assert "Break between rounds: 5 min." in page


def test_an_entry_that_played_no_round_itself_takes_no_place_whatever_its_points():
    from games.tournaments import standings

    entries = [standings.EntryInfo(i, f"e{i}") for i in (1, 2, 3, 4, 5)]
    results = [
        # Round 1: entry 1 has the bye (2 points), 2 beats 3, 4 beats 5.
        standings.MatchResult(1, (1,), (), "bye"),
        standings.MatchResult(1, (2,), (3,), "A", 4, 12),
        standings.MatchResult(1, (4,), (5,), "A", 2, 12),
        # Round 2: entry 1 never came (a forfeit loss to 2); 4 beats 3; 5 has the bye.
        standings.MatchResult(2, (2,), (1,), "A", forfeit=True, absent=(1,)),
        standings.MatchResult(2, (4,), (3,), "A", 6, 12),
        standings.MatchResult(2, (5,), (), "bye"),
    ]
    rows = {r.entry.id: r for r in standings.compute(entries, results, 2, seed=1)}
    # By hand: 2 and 4 have 4 points, 1 and 5 have 2 (byes), 3 has 0.
    assert {e: rows[e].points for e in rows} == {1: 2, 2: 4, 3: 0, 4: 4, 5: 2}
    assert rows[1].present is False and rows[1].absent == 1 and rows[1].place is None
    assert rows[1].by_round == {1: "B", 2: "X"}
    assert rows[5].present is True  # it played round 1 itself
    # Ranked among the points, yet the places 1–4 go to the four entries that played.
    assert rows[1].rank in (3, 4)
    assert sorted(rows[e].place for e in (2, 3, 4, 5)) == [1, 2, 3, 4]
