"""Never two games at once, never stuck (games/services/elsewhere.py): everyone asking to
play somewhere while a series of theirs is being played is refused with the table to
return to, and naming that table in ``leave_current`` leaves it to a bot and carries on.

Bob plays a quick match with Carol and two bots, and went away (a bot keeps his seat
warm): the state a new player was stuck in. Alice invites him; Dan is a bystander.
"""

from __future__ import annotations

import pytest

from accounts.social import invites
from games.errors import PlayingElsewhereError, SeatTakenError, TableStateError
from games.models import Conduct, Seat, Series, SeriesSeat, Table
from games.queue import casual
from games.queue import services as ranked
from games.queue.models import QueueEntry
from games.selectors import live_seat_of
from games.services import clock, elsewhere, tables
from games.services.tables import TableSettings


@pytest.fixture
def stale(cast) -> Table:
    """Bob's quick match (Bob 0, Carol 2, bots 1 and 3), a bot keeping Bob's seat warm."""
    table = casual.create_casual_table([cast.bob, None, cast.carol, None], None, 12, "beginner")
    assert clock.hand_seats_to_bots(cast.bob.pk, Conduct.Reason.DISCONNECT) == [table.pk]
    return table


def left_to_a_bot(table: Table, position: int = 0) -> bool:
    """The seat is a bot's for good, and the series goes on for the others."""
    seat = SeriesSeat.objects.get(series__table=table, position=position)
    return (seat.gave_up and seat.user_id is None and bool(seat.bot_level)
            and Series.objects.get(table=table).status == Series.Status.PLAYING)


def test_refusal_names_the_table_to_return_to_and_changes_nothing(cast, stale):
    with pytest.raises(PlayingElsewhereError) as refused:
        elsewhere.require_free(cast.bob)
    error = refused.value
    assert (error.table_id, error.table_name, error.ranked) == (stale.pk, "Quick match", False)
    assert error.code == "playing_elsewhere"
    assert "You are playing at table Quick match" in error.message
    assert live_seat_of(cast.bob).series.table_id == stale.pk
    elsewhere.require_free(cast.dan)  # nothing to leave: carries on
    elsewhere.require_free(cast.bob, here=stale.pk)  # his own table is not elsewhere


@pytest.mark.parametrize("forged", ["999999", "", "abc", True, None, -1, "1e3"])
def test_a_stale_or_forged_choice_only_asks_again(cast, stale, forged):
    with pytest.raises(PlayingElsewhereError):
        elsewhere.require_free(cast.bob, forged)
    assert live_seat_of(cast.bob).series.table_id == stale.pk
    assert not SeriesSeat.objects.get(series__table=stale, position=0).gave_up


def test_naming_the_table_leaves_it_to_a_bot_and_carries_on(cast, stale):
    elsewhere.require_free(cast.bob, str(stale.pk))
    assert left_to_a_bot(stale), "a bot plays his seat on for Carol"
    assert live_seat_of(cast.bob) is None
    assert clock.return_to_seat(stale.pk, cast.bob) is None, "no longer his to reclaim"


def test_r1_accepting_an_invitation_leaves_the_stale_game_then_sits_opposite(cast, stale):
    sent = invites.invite(cast.alice, "bob")
    with pytest.raises(PlayingElsewhereError) as refused:
        invites.accept(cast.bob, sent.pk)
    assert refused.value.table_id == stale.pk
    sent.refresh_from_db()
    assert sent.status == "pending", "the invitation waits for his choice"
    table = invites.accept(cast.bob, sent.pk, str(stale.pk))
    assert Seat.objects.get(table=table, position=2).user_id == cast.bob.pk  # R1
    assert left_to_a_bot(stale)


def test_a_refusal_after_leaving_rolls_the_leaving_back(cast, stale):
    """The friend's table filled up meanwhile: Bob keeps his old game."""
    sent = invites.invite(cast.alice, "bob")
    for position, user in ((1, cast.dan), (2, cast.charlie)):
        tables.take_seat(sent.table_id, user, position)
    tables.add_bot(sent.table_id, cast.alice, 3, "random")
    with pytest.raises(TableStateError, match="full"):
        invites.accept(cast.bob, sent.pk, stale.pk)
    seat = SeriesSeat.objects.get(series__table=stale, position=0)
    assert not seat.gave_up and seat.away_user_id == cast.bob.pk, "still his, kept warm"
    assert live_seat_of(cast.bob).series.table_id == stale.pk


def test_the_casual_queue_asks_then_joins_after_leaving(cast, stale):
    with pytest.raises(PlayingElsewhereError):
        casual.join_casual(cast.bob)
    assert not QueueEntry.objects.filter(user=cast.bob).exists()
    entry = casual.join_casual(cast.bob, None, stale.pk)
    assert entry.status == "waiting" and entry.kind == "casual"
    assert left_to_a_bot(stale)


def test_a_casual_partner_invitation_asks_the_one_playing(cast, stale):
    with pytest.raises(PlayingElsewhereError):
        casual.invite_casual_partner(cast.bob, "dan")
    invite = casual.invite_casual_partner(cast.bob, "dan", None, stale.pk)
    assert invite.to_user == cast.dan and left_to_a_bot(stale)


def test_accepting_a_casual_partner_asks_you_and_names_an_inviter_who_plays(cast, stale):
    invite = casual.invite_casual_partner(cast.dan, "bob")
    with pytest.raises(PlayingElsewhereError):
        casual.accept_casual_invite(cast.bob, invite.pk)
    casual.accept_casual_invite(cast.bob, invite.pk, stale.pk)
    assert QueueEntry.objects.get(user=cast.bob).partner_id == cast.dan.pk
    assert left_to_a_bot(stale)
    # Alice's inviter sat down to a game meanwhile: only he can leave it, so Alice is
    # told who is busy and offered no way out that is not hers.
    theirs = casual.invite_casual_partner(cast.charlie, "alice")
    tables.start_with_bots(cast.charlie)
    with pytest.raises(TableStateError, match="charlie is playing at table") as named:
        casual.accept_casual_invite(cast.alice, theirs.pk, stale.pk)
    assert not isinstance(named.value, PlayingElsewhereError)
    assert not QueueEntry.objects.filter(user=cast.alice).exists()


def test_the_ranked_queue_asks_too(cast, stale):
    with pytest.raises(PlayingElsewhereError):
        ranked.join_queue(cast.bob)
    entry = ranked.join_queue(cast.bob, None, stale.pk)
    assert entry.kind == "ranked" and left_to_a_bot(stale)


def test_sitting_at_another_table_asks_then_sits(cast, stale, table):
    with pytest.raises(PlayingElsewhereError):
        elsewhere.sit(table.pk, cast.bob, 1)
    assert not Seat.objects.filter(table=table, user=cast.bob).exists()
    elsewhere.sit(table.pk, cast.dan, 1)  # free: sits
    with pytest.raises(SeatTakenError):
        elsewhere.sit(table.pk, cast.bob, 1, stale.pk)  # taken: he keeps his old game
    assert not SeriesSeat.objects.get(series__table=stale, position=0).gave_up
    elsewhere.sit(table.pk, cast.bob, 0, stale.pk)
    assert Seat.objects.get(table=table, position=0).user_id == cast.bob.pk
    assert left_to_a_bot(stale)


def test_play_now_leaves_the_old_game_then_starts_with_bots(cast, stale):
    with pytest.raises(PlayingElsewhereError):
        elsewhere.play_with_bots(cast.bob, "casual")
    new = elsewhere.play_with_bots(cast.bob, "casual", stale.pk)
    assert live_seat_of(cast.bob).series.table_id == new.pk
    assert left_to_a_bot(stale)


def test_a_ranked_table_is_named_as_ranked(cast):
    ranked_table = tables.create_table(cast.alice, TableSettings(
        name="Serious", kind=Table.Kind.RANKED, turn_seconds=30))
    for position, user in enumerate(cast.seated):
        tables.take_seat(ranked_table.pk, user, position)
    from games.services import series as series_service

    series_service.start_series(ranked_table.pk, cast.alice)
    with pytest.raises(PlayingElsewhereError) as refused:
        elsewhere.require_free(cast.dan)
    assert refused.value.ranked and refused.value.table_name == "Serious"
