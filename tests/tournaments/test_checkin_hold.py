"""A round's tables wait for their check-in: the empty-table sweep, which
closes a table nobody has opened for 5 minutes, leaves them alone until the check-in
deadline (a games.policy table hold), so a check-in window may be up to an hour. At
the deadline the no-shows still forfeit, or a bot takes their seat when bots are
allowed. Time is moved by passing ``now`` to the sweep and the tick (no sleeping)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import policy
from games.errors import InvalidRequestError
from games.models import Table
from games.services import sweep
from games.services import tables as table_service
from games.tournaments.models import AuditEntry, Match
from games.tournaments.services import rounds
from tests.tournaments.helpers import act, enter_pairs, event

pytestmark = pytest.mark.django_db
CHECKIN = 20 * 60


def _start(club_cast, **kw):
    t = event(club_cast, checkin_seconds=CHECKIN, round_seconds=3 * 3600, rounds=1, **kw)
    enter_pairs(t, club_cast.players[:8])
    act(t, club_cast.director, "start")
    round_ = t.round_set.get(number=1)
    first, second = round_.matches.order_by("number")
    return t, round_, first, second


def _check_in_all_but_one(match: Match) -> int:
    """Everybody of the match checks in except the person at seat 3 (side B)."""
    seats = rounds.people_by_position(match)
    from django.contrib.auth import get_user_model

    for position in (0, 1, 2):
        rounds.check_in(match.pk, get_user_model().objects.get(pk=seats[position][1]))
    return seats[3][1]


def _statuses(*tables):
    return [Table.objects.get(pk=t.pk).status for t in tables]


@pytest.mark.parametrize("bots_allowed", [True, False])
def test_checkin_tables_survive_the_sweep_until_the_deadline(club_cast, bots_allowed):
    t, round_, first, second = _start(club_cast, bots_allowed=bots_allowed)
    _check_in_all_but_one(first)
    # A plain table nobody opened, as old: the sweep does close that one (the control).
    plain = table_service.create_table(club_cast.member, table_service.TableSettings(
        name="Idle", kind=Table.Kind.CASUAL, visibility=Table.Visibility.PUBLIC,
        turn_seconds=None, series_target=12))
    start = timezone.now()
    assert sweep.close_empty_tables(start + timedelta(minutes=6)) == 1
    assert _statuses(plain) == [Table.Status.ABANDONED]
    assert _statuses(first.table, second.table) == [Table.Status.OPEN] * 2
    assert sweep.sweep(start + timedelta(minutes=19))["closed_tables"] == 0
    assert rounds.tick(now=start + timedelta(minutes=19)).get("checkins", 0) == 0
    first.refresh_from_db()
    assert first.status == Match.Status.CHECKIN
    # The deadline: the no-show of the first match gets a bot or forfeits; nobody of
    # the second came, so both its sides are absent.
    assert rounds.tick(now=start + timedelta(minutes=21))["checkins"] == 2
    first.refresh_from_db()
    second.refresh_from_db()
    if bots_allowed:
        assert first.status == Match.Status.PLAYING and first.substitutes == [3]
        assert first.series.roster.get(position=3).bot_level == rounds.SUBSTITUTE_LEVEL
    else:
        assert (first.status, first.outcome, first.forfeit) == (Match.Status.FINISHED, "A",
                                                                True)
        assert (second.outcome, second.forfeit) == ("none", True)
        # Past the deadline the hold is gone: the forfeited tables are swept as usual.
        assert sweep.close_empty_tables(start + timedelta(minutes=27)) == 2
    assert AuditEntry.objects.filter(
        tournament=t, action="match.substitute_bots" if bots_allowed else "match.forfeit").exists()


def test_the_hold_reads_only_tables_in_checkin_before_their_deadline(club_cast):
    t, round_, first, second = _start(club_cast)
    ids = [first.table_id, second.table_id, 10**9]
    now = timezone.now()
    assert policy.held_tables(ids, now) == {first.table_id, second.table_id}
    assert policy.held_tables(ids, round_.checkin_deadline + timedelta(seconds=1)) == set()
    assert policy.held_tables([], now) == set()
    _check_in_all_but_one(first)
    assert policy.held_tables(ids, now) == {first.table_id, second.table_id}


def test_the_checkin_window_may_be_up_to_an_hour(club_cast):
    assert event(club_cast, checkin_seconds=3600, round_seconds=7200).checkin_seconds == 3600
    for bad in (3601, 4, "600", True):
        with pytest.raises(InvalidRequestError, match="check-in"):
            event(club_cast, checkin_seconds=bad, round_seconds=7200)
