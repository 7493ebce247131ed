"""Running tournaments through the services: round start (tables made and everybody
seated through the table services), check-in, forfeits and bot substitutes, the round
time limit through the finisher, results from series_finished, late join, withdrawal,
director tools with the audit log, rated events through the ratings service, emails."""

from __future__ import annotations

import pytest
from django.core import mail

from games.errors import (
    InvalidRequestError,
    PermissionDeniedError,
    ServiceError,
    TableStateError,
)
from games.models import Seat, Series, Table, Termination
from games.ratings import services as rating_services
from games.ratings.models import RatedSeries, RatingChange
from games.tournaments import selectors
from games.tournaments.models import AuditEntry, Entry, Match, Round
from games.tournaments.services import events, rounds
from tests.tournaments.helpers import (
    act,
    check_in_everybody,
    correct,
    end_series,
    enter_pairs,
    enter_players,
    event,
    play_round,
)

pytestmark = pytest.mark.django_db


def current(t) -> Round:
    return t.round_set.order_by("-number").first()


def test_round_start_creates_tables_and_seats_everybody_partners_opposite(club_cast):
    t = event(club_cast)
    entries = enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    round_ = current(t)
    assert round_.status == "checkin" and round_.matches.count() == 2
    for match in round_.matches.all():
        table = match.table
        assert match.status == "checkin" and table.status == Table.Status.OPEN
        assert table.visibility == "private" and table.series_target == 12
        seats = {s.position: s.user_id for s in Seat.objects.filter(table=table)}
        a = match.sides.get(side="A").entry
        b = match.sides.get(side="B").entry
        # R1: partners opposite, each pair one side.
        assert (seats[0], seats[2]) == (a.player1_id, a.player2_id)
        assert (seats[1], seats[3]) == (b.player1_id, b.player2_id)
        assert not Series.objects.filter(table=table).exists()  # waits for check-in
    assert {e.pk for e in entries} == set(
        Entry.objects.filter(match_sides__match__round=round_).values_list("pk", flat=True))


def test_series_starts_when_the_last_person_checks_in(club_cast):
    t = event(club_cast)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    match = current(t).matches.get()
    people = sorted(rounds._persons(match))
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.in_bulk(people)
    for person in people[:-1]:
        assert rounds.check_in(match.pk, users[person]) == match.table_id
    match.refresh_from_db()
    assert match.status == "checkin" and match.series_id is None
    with pytest.raises(PermissionDeniedError, match="do not play"):
        rounds.check_in(match.pk, club_cast.member)
    rounds.check_in(match.pk, users[people[-1]])
    match.refresh_from_db()
    assert match.status == "playing" and match.series.status == "playing"
    assert [s.user_id for s in match.series.roster.order_by("position")] == [
        Seat.objects.get(table=match.table, position=p).user_id for p in range(4)]
    assert current(t).status == "playing"


def test_a_no_show_loses_the_match_by_forfeit_at_the_check_in_deadline(club_cast):
    t = event(club_cast)
    a, b = enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    round_ = current(t)
    match = round_.matches.get()
    side_a = match.sides.get(side="A").entry
    rounds.check_in(match.pk, side_a.player1)
    rounds.check_in(match.pk, side_a.player2)
    other = match.sides.get(side="B").entry
    rounds.check_in(match.pk, other.player1)  # the fourth never comes
    assert rounds.checkin_deadline(round_.pk) == 0  # not due yet: nothing happens
    assert rounds.checkin_deadline(round_.pk, force=True) == 1
    match.refresh_from_db()
    assert (match.status, match.outcome, match.forfeit) == ("finished", "A", True)
    assert AuditEntry.objects.filter(tournament=t, action="match.forfeit").exists()
    rows = selectors.standings_of(t)
    assert rows[0].entry.id == side_a.pk and rows[0].points == 2 and rows[0].wins == 0


def test_a_no_show_gets_a_bot_substitute_when_the_event_allows_bots(club_cast):
    t = event(club_cast, bots_allowed=True)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    round_ = current(t)
    match = round_.matches.get()
    absent = match.sides.get(side="B").entry.player2
    for person in rounds._persons(match) - {absent.pk}:
        from django.contrib.auth import get_user_model

        rounds.check_in(match.pk, get_user_model().objects.get(pk=person))
    rounds.checkin_deadline(round_.pk, force=True)
    match.refresh_from_db()
    assert match.status == "playing" and match.substitutes == [3]
    roster = {s.position: s for s in match.series.roster.all()}
    assert roster[3].bot_level == "casual" and roster[3].user_id is None
    assert roster[1].user_id == match.sides.get(side="B").entry.player1_id


@pytest.mark.parametrize(("loss_a", "loss_b", "outcome"), [(4, 2, "B"), (2, 8, "A"), (6, 6, "tie")])
def test_round_time_ends_running_series_through_the_finisher_by_fewer_loss_points(
        club_cast, loss_a, loss_b, outcome):
    t = event(club_cast)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    round_ = current(t)
    check_in_everybody(round_)
    match = round_.matches.get()
    Series.objects.filter(pk=match.series_id).update(loss_points_a=loss_a, loss_points_b=loss_b)
    assert rounds.round_time(round_.pk) == 0  # not due
    assert rounds.round_time(round_.pk, force=True) == 1
    match.refresh_from_db()
    series = Series.objects.get(pk=match.series_id)
    assert series.termination == Termination.ROUND_TIME and series.status == "finished"
    assert series.games.filter(status="playing").count() == 0
    assert (match.outcome, match.termination, match.loss_a, match.loss_b) == (
        outcome, "round_time", loss_a, loss_b)
    assert series.goat == {"A": "B", "B": "A", "tie": ""}[outcome]
    assert current(t).number == 2  # round 1 over: round 2 paired


def test_results_come_from_the_series_and_the_next_round_is_paired_then_started(club_cast):
    t = event(club_cast, rounds=2)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    r1 = current(t)
    play_round(r1, goat="B", loss=(2, 12))
    r1.refresh_from_db()
    assert r1.status == "finished"
    r2 = current(t)
    assert r2.number == 2 and r2.status == "paired"
    # No rematch: round 2 pairs the round-1 winners together.
    winners = set(Match.objects.filter(round=r1).values_list("sides__entry", flat=True)
                  .filter(sides__side="A"))
    for m in r2.matches.all():
        ids = set(m.sides.values_list("entry_id", flat=True))
        assert ids <= winners or not ids & winners
    assert rounds.start_next_round(t.pk, 2)
    play_round(current(t), goat="A", loss=(12, 0))
    t.refresh_from_db()
    assert t.status == "finished"
    assert AuditEntry.objects.filter(tournament=t, action="tournament.finish").exists()


def test_an_odd_swiss_field_gets_a_bye_scored_as_a_win(club_cast):
    t = event(club_cast)
    entries = enter_pairs(t, club_cast.players[:6])
    act(t, club_cast.director, "start")
    bye = current(t).matches.get(outcome="bye")
    assert bye.status == "finished"
    row = next(r for r in selectors.standings_of(t) if r.entry.id == bye.sides.get().entry_id)
    assert row.points == 2 and row.entry.id in {e.pk for e in entries}


def test_late_join_is_open_until_half_the_rounds_have_started(club_cast):
    t = event(club_cast, rounds=4)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    late = enter_pairs(t, club_cast.players[4:6])[0]
    assert late.first_round == 2
    play_round(current(t))
    assert late.pk in set(current(t).matches.values_list("sides__entry", flat=True))
    rounds.start_next_round(t.pk, 2)
    with pytest.raises(TableStateError, match="half the rounds"):
        events.register(t.pk, club_cast.players[6], club_cast.players[7].username)


def test_a_withdrawn_entry_is_not_paired_and_its_results_stand(club_cast):
    t = event(club_cast, rounds=3)
    a, b, c, d = enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    play_round(current(t), goat="B")
    winner = current(t).tournament.round_set.get(number=1).matches.first().sides.get(
        side="A").entry
    rounds.withdraw(t.pk, winner.player1)
    winner.refresh_from_db()
    assert winner.status == "withdrawn"
    r2 = current(t)
    assert winner.pk not in set(r2.matches.values_list("sides__entry", flat=True))
    assert next(r for r in selectors.standings_of(t) if r.entry.id == winner.pk).points == 2


def test_director_re_pairs_only_before_the_start_and_every_tool_is_audited(club_cast):
    t = event(club_cast, rounds=3)
    a, b, c, d = enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    with pytest.raises(TableStateError, match="re-pair"):
        act(t, club_cast.director, "repair")
    play_round(current(t), goat="B")
    act(t, club_cast.director, "pause")
    r2 = current(t)
    assert not rounds.start_next_round(t.pk, 2)  # paused: not by itself
    pairs_before = sorted(tuple(sorted(m.sides.values_list("entry_id", flat=True)))
                          for m in r2.matches.all())
    act(t, club_cast.director, "repair")
    pairs_again = sorted(tuple(sorted(m.sides.values_list("entry_id", flat=True)))
                         for m in current(t).matches.all())
    assert pairs_again == pairs_before  # deterministic given the seed
    first, second = pairs_before[0]
    act(t, club_cast.director, "forbid_pair", first=first, second=second)
    forbidden = {first, second}
    assert all(set(m.sides.values_list("entry_id", flat=True)) != forbidden
               for m in current(t).matches.all())
    with pytest.raises(InvalidRequestError, match="forbidden"):
        act(t, club_cast.director, "manual_pair", first=first, second=second)
    act(t, club_cast.director, "start_round")
    assert current(t).status == "checkin"
    match = Match.objects.filter(round__tournament=t, round__number=1).first()
    with pytest.raises(InvalidRequestError, match="reason"):
        correct(t, club_cast.director, match_id=match.pk, outcome="tie", loss_a=6,
                loss_b=6, reason="")
    correct(t, club_cast.director, match_id=match.pk, outcome="tie", loss_a=6,
            loss_b=6, reason="score sheet")
    match.refresh_from_db()
    assert match.outcome == "tie" and match.corrected
    actions = list(AuditEntry.objects.filter(tournament=t, actor=club_cast.director)
                   .values_list("action", flat=True))
    for expected in ["tournament.start", "tournament.pause", "round.pair", "pairing.forbid",
                     "result.correct"]:
        assert expected in actions
    correction = AuditEntry.objects.get(tournament=t, action="result.correct")
    assert correction.reason == "score sheet" and correction.details["before"]["outcome"] == "A"


def test_the_audit_log_is_append_only(club_cast):
    t = event(club_cast)
    entry = AuditEntry.objects.filter(tournament=t).first()
    entry.reason = "rewritten"
    with pytest.raises(ValueError, match="append-only"):
        entry.save()
    with pytest.raises(ValueError, match="append-only"):
        entry.delete()


def test_disqualify_and_substitute(club_cast):
    t = event(club_cast)
    a, b, c, d = enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    new = club_cast.players[8]
    old_name = a.player2.username
    match = Match.objects.get(round__tournament=t, sides__entry=a)
    act(t, club_cast.director, "substitute", entry_id=a.pk, old=a.player2.username,
        new=new.username, reason="ill")
    a.refresh_from_db()
    assert a.player2 == new
    # The entry says who plays now, and for whom (names built by hand).
    assert a.name == f"{a.player1.username} & {new.username} (for {old_name})"
    assert Seat.objects.get(table=match.table, user=new).position in (0, 1, 2, 3)
    # The absentee comes back: the plain name again.
    act(t, club_cast.director, "substitute", entry_id=a.pk, old=new.username,
        new=old_name, reason="better")
    a.refresh_from_db()
    assert a.name == f"{a.player1.username} & {old_name}"
    act(t, club_cast.director, "disqualify", entry_id=b.pk, reason="cheating")
    rows = selectors.standings_of(t)
    assert rows[-1].entry.id == b.pk and rows[-1].place is None


def test_bad_director_input_is_refused_and_changes_nothing(club_cast):
    t = event(club_cast)
    for action, data, message in [
        ("explode", {}, "Unknown"), ("correct", {"match_id": "x", "reason": "r"}, "number"),
        ("correct", {"match_id": "1", "reason": "r"}, "No such match"),
        ("disqualify", {"entry_id": "999999", "reason": "x"}, "No such entry"),
        ("add_bot", {"level": "grandmaster"}, "not allow bots"),
    ]:
        with pytest.raises(ServiceError, match=message):
            act(t, club_cast.director, action, **data)
    assert AuditEntry.objects.filter(tournament=t).count() == 1  # only the creation


def test_bad_tournament_settings_are_refused(club_cast):
    for change, message in [({"rated": True, "turn_seconds": None}, "15 or 30"),
                            ({"rated": True, "turn_seconds": 15, "bots_allowed": True}, "no bots"),
                            ({"target": 18}, "6 or 12"), ({"rounds": 0}, "1 to 30"),
                            ({"games_limit": 0}, "fixed number of games"),
                            ({"games_limit": True}, "fixed number of games"),
                            ({"checkin_seconds": 1}, "check-in"), ({"format": "knockout"},
                                                                   "Swiss")]:
        with pytest.raises(InvalidRequestError, match=message):
            event(club_cast, **change)


def test_rated_tournament_moves_ratings_through_the_ratings_service(club_cast):
    t = event(club_cast, rated=True, turn_seconds=15, rounds=1)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    match = current(t).matches.get()
    assert match.table.kind == "ranked"
    check_in_everybody(current(t))
    match.refresh_from_db()
    assert match.series.ranked
    end_series(match.series_id, "B", 2, 12)
    rounds.match_finished(match.series_id)
    assert rating_services.rate_series(match.series_id)
    assert RatingChange.objects.filter(series_id=match.series_id).count() == 4
    assert RatedSeries.objects.get(series_id=match.series_id).rated


@pytest.mark.parametrize(("loss", "rated"), [((2, 6), True), ((4, 4), False)])
def test_a_rated_match_decided_at_the_time_limit_is_rated_unless_tied(club_cast, loss, rated):
    t = event(club_cast, rated=True, turn_seconds=15, rounds=1)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    check_in_everybody(current(t))
    match = current(t).matches.get()
    Series.objects.filter(pk=match.series_id).update(loss_points_a=loss[0],
                                                     loss_points_b=loss[1])
    rounds.round_time(current(t).pk, force=True)
    assert rating_services.rate_series(match.series_id)  # recorded either way
    assert RatedSeries.objects.get(series_id=match.series_id).rated is rated
    assert RatingChange.objects.filter(series_id=match.series_id).exists() is rated


def test_individual_rotation_gives_new_partners_and_scores_per_player(club_cast):
    t = event(club_cast, fmt="rotation", rounds=2, bots_allowed=True)
    enter_players(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    r1 = current(t)
    assert r1.matches.count() == 2
    partners_r1 = {frozenset(m.sides.filter(side=s).values_list("entry_id", flat=True))
                   for m in r1.matches.all() for s in "AB"}
    play_round(r1, goat="B")
    partners_r2 = {frozenset(m.sides.filter(side=s).values_list("entry_id", flat=True))
                   for m in current(t).matches.all() for s in "AB"}
    assert not partners_r1 & partners_r2
    points = sorted(r.points for r in selectors.standings_of(t))
    assert points == [0, 0, 0, 0, 2, 2, 2, 2]


def test_whist_needs_a_shipped_size_and_plays_its_schedule(club_cast):
    t = event(club_cast, fmt="whist", bots_allowed=True)
    enter_players(t, club_cast.players[:7])
    with pytest.raises(TableStateError, match="8, 9, 12"):
        act(t, club_cast.director, "start")
    enter_players(t, [club_cast.member])
    act(t, club_cast.director, "start")
    t.refresh_from_db()
    assert t.rounds == 7 and current(t).matches.count() == 2


def test_opted_in_players_get_an_email_when_their_round_starts(club_cast,
                                                                django_capture_on_commit_callbacks):
    t = event(club_cast, fmt="rotation", rounds=1)
    players = club_cast.players[:4]
    enter_players(t, players[:2], email_opt_in=True)
    enter_players(t, players[2:])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        act(t, club_cast.director, "start")
    assert sorted(m.to[0] for m in mail.outbox) == sorted(p.email for p in players[:2])
    assert "Round 1 of Friday Cup has started" in mail.outbox[0].subject
    assert f"/tournament/{t.pk}/" in mail.outbox[0].body


def test_every_page_shows_the_round_start_banner_with_a_check_in_button(client, club_cast):
    t = event(club_cast)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    player = club_cast.players[0]
    client.force_login(player)
    for url in ["/", "/rules/", "/clubs/"]:
        html = client.get(url).content.decode()
        assert "Round 1 of Friday Cup has started" in html and 'id="tournament-checkin"' in html
        assert "js/tournaments/banner.js" in html
    match = current(t).matches.get()
    response = client.post(f"/tournament/{t.pk}/checkin/", {"match_id": match.pk})
    assert response.status_code == 302 and response["Location"] == f"/table/{match.table_id}/"
    assert "go to your table" in client.get("/").content.decode()
    client.force_login(club_cast.member)
    assert "has started" not in client.get("/").content.decode()


def test_csv_exports_standings_and_results(client, club_cast):
    t = event(club_cast, rounds=1)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    play_round(current(t), goat="B", loss=(2, 12))
    match = Match.objects.get(round__tournament=t)
    winner = match.sides.get(side="A").entry  # side B was the goat
    b = match.sides.get(side="B").entry
    Entry.objects.filter(pk=winner.pk).update(name="=HYPERLINK(1)")
    text = client.get(f"/tournament/{t.pk}/standings.csv").content.decode()
    lines = text.strip().splitlines()
    assert lines[0].startswith("rank,place,entry")
    assert lines[1].startswith("1,1,'=HYPERLINK(1)")  # no formula injection
    results = client.get(f"/tournament/{t.pk}/results.csv").content.decode().splitlines()
    assert results[1].split(",")[:5] == ["1", "1", "'=HYPERLINK(1)", b.name, "A"]


def test_the_beat_tick_does_every_due_step_a_lost_task_would_have(club_cast):
    """Scheduled start, check-in deadline, a series that ended without its task, the
    next round after the break, the time limit: each found and done by ``tick``."""
    from datetime import timedelta

    from django.utils import timezone

    t = event(club_cast, rounds=2)
    enter_pairs(t, club_cast.players[:4])
    t.starts_at = timezone.now() - timedelta(seconds=1)
    t.save(update_fields=["starts_at"])
    assert rounds.tick()["started"] == 1
    r1 = current(t)
    assert r1.status == "checkin"
    # Nobody checks in: the tick settles the deadline once it has passed.
    assert "checkins" not in rounds.tick()
    later = timezone.now() + timedelta(seconds=t.checkin_seconds + 1)
    done = rounds.tick(later)
    match = r1.matches.get()
    match.refresh_from_db()
    assert match.outcome == "none" and match.forfeit  # both sides absent
    # Round 2 was paired at once, and the same pass started it (the break is 0).
    assert done == {"checkins": 1, "rounds": 1}
    r2 = current(t)
    assert r2.number == 2 and r2.status == "checkin"
    check_in_everybody(r2)
    series_id = r2.matches.get().series_id
    end_series(series_id, "A", 12, 2)  # its match_finished_task is "lost"
    assert rounds.tick()["matches"] == 1
    t.refresh_from_db()
    assert t.status == "finished"


def test_a_scheduled_start_with_too_few_entries_is_audited_and_not_retried(club_cast):
    from datetime import timedelta

    from django.utils import timezone

    t = event(club_cast)
    t.starts_at = timezone.now() - timedelta(seconds=1)
    t.save(update_fields=["starts_at"])
    assert "started" not in rounds.tick()
    t.refresh_from_db()
    assert t.starts_at is None and t.status == "registration"
    failed = AuditEntry.objects.get(tournament=t, action="tournament.start_failed")
    assert "At least 2 pairs" in failed.reason


def test_the_club_leaderboard_and_the_live_fragment_follow_the_results(client, club_cast):
    t = event(club_cast, rounds=1)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    live = client.get(f"/tournament/{t.pk}/live/").content.decode()
    assert 'data-status="running"' in live and "round 1: check-in" in live
    play_round(current(t), goat="B", loss=(2, 12))
    winners = Match.objects.get(round__tournament=t).sides.get(side="A").entry
    board = client.get("/club/friday-goats/").content.decode()
    for user in (winners.player1, winners.player2):
        assert f"{user.username}</span></a> — 2" in board
    live = client.get(f"/tournament/{t.pk}/live/").content.decode()
    assert 'data-status="finished"' in live and "W2" in live  # the cross-table


def test_verify_games_accepts_a_round_time_decision_and_flags_a_wrong_goat(club_cast):
    from games import verify

    t = event(club_cast)
    enter_pairs(t, club_cast.players[:4])
    act(t, club_cast.director, "start")
    check_in_everybody(current(t))
    rounds.round_time(current(t).pk, force=True)  # 0-0 after no game: a tie, no goat
    series = Series.objects.get(tournament_match__round__tournament=t)
    assert series.goat == "" and series.termination == "round_time"
    assert not verify.check_series(series)
    Series.objects.filter(pk=series.pk).update(goat="A")
    series.refresh_from_db()
    assert [a.message for a in verify.check_series(series)] == [
        "ended by round_time with goat A, but the loss points 0-0 make it a tie"]


def test_a_round_robin_of_three_pairs_meets_everyone_once_and_a_withdrawal_forfeits(club_cast):
    t = event(club_cast, fmt="round_robin", rounds=1)
    a, b, c = enter_pairs(t, club_cast.players[:6])
    act(t, club_cast.director, "start")
    t.refresh_from_db()
    assert t.rounds == 3  # odd: every pair sits out once
    play_round(current(t), goat="B")
    met = set()
    for m in Match.objects.filter(round__number=1, round__tournament=t).exclude(outcome="bye"):
        met.add(frozenset(m.sides.values_list("entry_id", flat=True)))
    r2 = current(t)
    pairing_r2 = r2.matches.exclude(outcome="bye").get()
    leaving = pairing_r2.sides.get(side="A").entry
    rounds.withdraw(t.pk, leaving.player1)  # a fixed schedule: the match stays, forfeited
    rounds.start_next_round(t.pk, 2)
    pairing_r2.refresh_from_db()
    assert (pairing_r2.outcome, pairing_r2.forfeit, pairing_r2.table_id) == ("B", True, None)
    met.add(frozenset(pairing_r2.sides.values_list("entry_id", flat=True)))
    rounds.start_next_round(t.pk, 3)
    r3 = current(t)
    assert r3.number == 3
    met.add(frozenset(r3.matches.exclude(outcome="bye").get().sides
                      .values_list("entry_id", flat=True)))
    assert met == {frozenset({a.pk, b.pk}), frozenset({a.pk, c.pk}), frozenset({b.pk, c.pk})}
    byes = Match.objects.filter(round__tournament=t, outcome="bye")
    assert sorted(byes.values_list("sides__entry_id", flat=True)) == sorted([a.pk, b.pk, c.pk])
