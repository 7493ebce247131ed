"""games.services.tables: creating tables and managing seats, with every refusal."""

from __future__ import annotations

import pytest

from games.errors import (
    InvalidRequestError,
    PermissionDeniedError,
    SeatTakenError,
)
from games.models import Seat, Table
from games.services import tables
from games.services.tables import TableSettings
from tests.games.conftest import make_user
from tests.moderation.conftest import mona  # noqa: F401  (the fixture)


def occupants(table):
    return [(s.user.username if s.user_id else s.bot_level or None)
            for s in Seat.objects.filter(table=table).order_by("position")]


def test_create_table_makes_four_empty_seats(cast):
    table = tables.create_table(cast.alice, TableSettings(name="  Friday   night ",
                                                          turn_seconds=30, series_target=6))
    assert table.name == "Friday night"
    assert table.status == Table.Status.OPEN
    assert occupants(table) == [None, None, None, None]
    assert table.turn_seconds == 30 and table.series_target == 6


def test_the_creator_may_sit_at_once(cast):
    table = tables.create_table(cast.alice, TableSettings(name="Mine"), owner_sits=True)
    assert occupants(table) == ["alice", None, None, None]


def test_a_creator_who_may_not_sit_creates_nothing(cast, mona):  # noqa: F811
    """Seating the creator is part of creating the table: refused, nothing is made."""
    from accounts.moderation.services import sanctions

    sanctions.suspend(mona, cast.bob, 3, "Threats in chat")
    with pytest.raises(PermissionDeniedError, match="suspended"):
        tables.create_table(cast.bob, TableSettings(name="Mine"), owner_sits=True)
    assert not Table.objects.filter(name="Mine").exists()


@pytest.mark.parametrize("settings_kwargs, message", [
    ({"name": ""}, "name"),
    ({"name": "x" * 61}, "at most 60"),
    ({"name": "ok", "turn_seconds": 20}, "turn clock"),
    ({"name": "ok", "series_target": 7}, "6, 12 or 18"),
    ({"name": "ok", "visibility": "secret"}, "public or private"),
    ({"name": "ok", "kind": "ranked", "turn_seconds": None}, "15 or 30"),
])
def test_create_table_refuses_bad_settings(cast, settings_kwargs, message):
    with pytest.raises(InvalidRequestError, match=message):
        tables.create_table(cast.alice, TableSettings(**settings_kwargs))
    assert Table.objects.count() == 0


def test_ranked_table_needs_a_verified_email(db):
    unverified = make_user("uma", verified=False)
    with pytest.raises(PermissionDeniedError, match="Verify your email"):
        tables.create_table(unverified, TableSettings(name="r", kind="ranked", turn_seconds=15))
    assert Table.objects.count() == 0


def test_r1_take_seats_and_partners_are_opposite(cast, full_table):
    assert occupants(full_table) == ["alice", "bob", "carol", "dan"]
    seats = list(Seat.objects.filter(table=full_table).order_by("position"))
    assert [s.team for s in seats] == ["A", "B", "A", "B"]


def test_fifth_player_is_refused_and_nothing_changes(cast, full_table):
    for position in range(4):
        with pytest.raises(SeatTakenError):
            tables.take_seat(full_table.pk, cast.charlie, position)
    assert occupants(full_table) == ["alice", "bob", "carol", "dan"]


def test_same_player_twice_moves_instead_of_sitting_twice(cast, table):
    tables.take_seat(table.pk, cast.alice, 0)
    tables.take_seat(table.pk, cast.alice, 2)
    assert occupants(table) == [None, None, "alice", None]
    assert Seat.objects.filter(table=table, user=cast.alice).count() == 1


def test_bad_position_is_refused(cast, table):
    for bad in [-1, 4, "1", None, True]:
        with pytest.raises(InvalidRequestError, match="0 to 3"):
            tables.take_seat(table.pk, cast.alice, bad)
    assert occupants(table) == [None, None, None, None]


def test_leave_seat(cast, full_table):
    tables.leave_seat(full_table.pk, cast.bob)
    assert occupants(full_table) == ["alice", None, "carol", "dan"]
    with pytest.raises(InvalidRequestError, match="not seated"):
        tables.leave_seat(full_table.pk, cast.charlie)


def test_owner_adds_and_removes_bots(cast, table):
    tables.take_seat(table.pk, cast.alice, 0)
    tables.add_bot(table.pk, cast.alice, 1, "random")
    tables.add_bot(table.pk, cast.alice, 3, "casual")
    assert occupants(table) == ["alice", "random", None, "casual"]
    with pytest.raises(SeatTakenError):
        tables.add_bot(table.pk, cast.alice, 0, "random")
    with pytest.raises(InvalidRequestError, match="Unknown bot level"):
        tables.add_bot(table.pk, cast.alice, 2, "grandmaster")
    tables.remove_bot(table.pk, cast.alice, 3)
    assert occupants(table) == ["alice", "random", None, None]


def test_only_the_owner_manages_bots_and_kicks(cast, full_table):
    with pytest.raises(PermissionDeniedError, match="owner"):
        tables.kick(full_table.pk, cast.bob, 3)
    with pytest.raises(PermissionDeniedError, match="owner"):
        tables.add_bot(full_table.pk, cast.charlie, 0, "random")
    assert occupants(full_table) == ["alice", "bob", "carol", "dan"]
    tables.kick(full_table.pk, cast.alice, 3)
    assert occupants(full_table) == ["alice", "bob", "carol", None]


def test_bot_at_a_ranked_table_is_refused(cast):
    table = tables.create_table(cast.alice, TableSettings(name="r", kind="ranked",
                                                          turn_seconds=15))
    with pytest.raises(PermissionDeniedError, match="ranked"):
        tables.add_bot(table.pk, cast.alice, 1, "random")
    assert occupants(table) == [None, None, None, None]


def test_anonymous_user_is_refused(table):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(PermissionDeniedError, match="Sign in"):
        tables.take_seat(table.pk, AnonymousUser(), 0)


def test_seats_change_again_after_a_series_and_the_table_reopens(cast, full_table):
    from games.errors import TableStateError
    from games.services import series as series_service

    series_service.start_series(full_table.pk, cast.alice)
    with pytest.raises(TableStateError, match="started"):
        tables.leave_seat(full_table.pk, cast.bob)
    Table.objects.filter(pk=full_table.pk).update(status=Table.Status.FINISHED)
    tables.leave_seat(full_table.pk, cast.bob)
    full_table.refresh_from_db()
    assert full_table.status == Table.Status.OPEN
    tables.take_seat(full_table.pk, cast.charlie, 1)
    assert occupants(full_table) == ["alice", "charlie", "carol", "dan"]


def test_a_closed_table_refuses_seats(cast, table):
    from games.errors import TableStateError

    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)
    with pytest.raises(TableStateError, match="closed"):
        tables.take_seat(table.pk, cast.alice, 0)
