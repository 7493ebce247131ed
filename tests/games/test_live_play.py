"""Live play you can trust, through the services: one roster the sweep reads,
follow-ups that survive a lost enqueue, one finisher with its reason, your seat back
when you return, "Your game is on", and "Play now" that never opens a second table."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import signals
from games.conf import game_settings
from games.models import Conduct, Game, Move, Series, SeriesSeat, Table, Termination
from games.services import absence, clock, finish, locks, play, sweep, tables, votes
from games.services import series as series_service
from tests.games.helpers import (
    clocked_game_after_one_move,
    current_game,
    roster_entry,
    state_of,
    users_by_position,
)


def bot_table(owner, levels=("random", "random", "random", "random")) -> Table:
    table = tables.create_table(owner, tables.TableSettings(name="bots"))
    for position, level in enumerate(levels):
        if level:
            tables.add_bot(table.pk, owner, position, level)
    return table


def take_over(game: Game, position: int, reason: str = Conduct.Reason.DISCONNECT) -> None:
    with transaction.atomic():
        clock.take_over_locked(locks.lock_game(game.pk), position, reason)


def queued_tasks() -> list[tuple[str, str]]:
    """(task name, args) of every message waiting in this run's Celery queue (Redis)."""
    from games import presence as store

    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"]
    raw = store.client().lrange(f"{prefix}{settings.CELERY_TASK_DEFAULT_QUEUE}", 0, -1)
    found = []
    for item in raw:
        headers = json.loads(item)["headers"]
        found.append((headers["task"], headers["argsrepr"]))
    return found


@pytest.fixture
def empty_queue():
    from kozel_site.celery import app

    app.control.purge()
    yield
    app.control.purge()


# --- one roster ------------------------------------------------------------------------

def test_sweep_rescues_a_takeover_whose_bot_task_was_lost(cast, full_table):
    """A bot that took over an absent person's seat is in the roster, which is what the
    sweep reads: the lost task is replaced (on old main the sweep read only the table's
    Seat rows, found no bot, and the table hung)."""
    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    victim = state_of(game).turn
    # The test's transaction never commits, so the takeover's queued bot task is lost.
    take_over(game, victim)
    game.refresh_from_db()
    assert sweep.sweep(game.updated_at)["bots"] == 0  # not stalled yet
    # A killed worker's bot turn waits for this rescue (python -m tests.load faults
    # --kill worker): the bot's delay and 1 s of grace, then the sweep's next pass.
    due = game.updated_at + timedelta(seconds=game_settings.BOT_DELAY_SECONDS + 1)
    assert sweep.sweep(due - timedelta(seconds=0.2))["bots"] == 0
    rescued = sweep.sweep(due + timedelta(seconds=0.2))
    assert rescued["bots"] == 1
    move = Move.objects.get(game=game, seq=1)
    assert move.seat == victim and move.source == Move.Source.BOT


def test_roster_records_who_plays_each_seat(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    roster = list(SeriesSeat.objects.filter(series=series).order_by("position"))
    assert [r.user_id for r in roster] == [u.pk for u in cast.seated]
    take_over(current_game(series), 1)
    bob = roster_entry(series, 1)
    assert (bob.user_id, bob.bot_level, bob.away_user_id) == (None, "casual", cast.bob.pk)


# --- a lost follow-up is restored without the sweep --------------------------------------

def test_a_stale_task_queues_what_the_current_version_waits_for(
        cast, empty_queue, django_capture_on_commit_callbacks):
    """The worker died between a commit and its enqueue: the next bot turn was never
    queued. A redelivered task of the old version finds the game moved on and queues
    the bot turn of the current version itself."""
    table = bot_table(cast.alice)
    series = series_service.start_series(table.pk, cast.alice)
    game = current_game(series)
    # A move whose on-commit enqueue is lost (the test transaction never commits).
    assert play.play_bot_turn(game.pk, 0) == 1
    assert queued_tasks() == []
    with django_capture_on_commit_callbacks(execute=True):
        assert play.play_bot_turn(game.pk, 0) is None  # stale: the game moved on
    assert queued_tasks() == [("games.bot_turn", f"({game.pk}, 1)")]
    # ...and only once, however many stale tasks come back.
    with django_capture_on_commit_callbacks(execute=True):
        play.play_bot_turn(game.pk, 0)
    assert len(queued_tasks()) == 1


def test_a_stale_timeout_rearms_the_current_clock(cast, empty_queue,
                                                  django_capture_on_commit_callbacks):
    _series, game = clocked_game_after_one_move(cast)
    assert queued_tasks() == []  # the new turn's timeout task was lost
    with django_capture_on_commit_callbacks(execute=True):
        assert play.play_timeout(game.pk, 0) is None
    assert ("games.turn_timeout", f"({game.pk}, 1)") in queued_tasks()


# --- one finisher -----------------------------------------------------------------------

@pytest.fixture
def ends():
    seen: list[tuple[int, str]] = []

    def record(sender, series_id, termination="", **kwargs):
        seen.append((series_id, termination))

    signals.series_finished.connect(record, dispatch_uid="test-ends")
    yield seen
    signals.series_finished.disconnect(dispatch_uid="test-ends")


def test_every_end_of_a_series_goes_through_the_finisher_with_its_reason(
        cast, full_table, ends, django_capture_on_commit_callbacks):
    series = series_service.start_series(full_table.pk, cast.alice)
    with django_capture_on_commit_callbacks(execute=True):
        for user in cast.seated[:3]:
            votes.cast_vote(full_table.pk, user, "end")
    assert ends == [(series.pk, Termination.VOTED_END)]
    series.refresh_from_db()
    assert (series.status, series.termination) == (Series.Status.ABORTED, "voted_end")

    other = tables.create_table(cast.bob, tables.TableSettings(name="left alone"))
    tables.take_seat(other.pk, cast.bob, 0)
    for position in (1, 2, 3):
        tables.add_bot(other.pk, cast.bob, position, "random")
    abandoned = series_service.start_series(other.pk, cast.bob)
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep.close_empty_tables(timezone.now() + timedelta(minutes=6)) == 1
    assert ends[-1] == (abandoned.pk, Termination.ABANDONED)
    assert current_game(abandoned).status == Game.Status.ABORTED

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        table, locked = locks.lock_series(abandoned.pk)
        finish.end_series_locked(table, locked, Termination.VOIDED)
    assert ends[-1] == (abandoned.pk, Termination.VOIDED)
    with pytest.raises(ValueError, match="unknown termination"), transaction.atomic():
        table, locked = locks.lock_series(series.pk)
        finish.end_series_locked(table, locked, "bored")


# --- your seat is yours ------------------------------------------------------------------

def test_returning_to_a_casual_table_gives_the_seat_back(cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    take_over(current_game(series), 1)
    assert clock.return_to_seat(full_table.pk, cast.charlie) is None  # a stranger: nothing
    assert clock.return_to_seat(full_table.pk, cast.bob) == 1
    bob = roster_entry(series, 1)
    assert (bob.user_id, bob.bot_level, bob.away_user_id) == (cast.bob.pk, "", None)
    assert Conduct.objects.filter(user=cast.bob, kind=Conduct.Kind.RECLAIM).count() == 1


@pytest.fixture
def ranked_table(cast):
    table = tables.create_table(cast.alice, tables.TableSettings(
        name="ranked", kind=Table.Kind.RANKED, turn_seconds=15))
    for position, user in enumerate(cast.seated):
        tables.take_seat(table.pk, user, position)
    return table


def test_a_ranked_leaver_is_told_what_happened_and_why(cast, ranked_table):
    from games.snapshot import table_snapshot

    series = series_service.start_series(ranked_table.pk, cast.alice)
    take_over(current_game(series), 1, Conduct.Reason.TIMEOUTS)
    assert clock.return_to_seat(ranked_table.pk, cast.bob) is None  # the leaver rule
    assert roster_entry(series, 1).bot_level == "casual"
    you = table_snapshot(ranked_table, cast.bob)["you"]
    assert you["can_reclaim"] is False
    assert you["away"]["ranked"] is True and you["away"]["reason"] == "timeouts"
    assert "time ran out twice" in you["away"]["text"]
    assert "leaver rule" in you["away"]["text"]
    assert table_snapshot(ranked_table, cast.alice)["you"]["away"] is None


# --- "Your game is on" and "Play now" ----------------------------------------------------

BANNER = "Your game is on"


@pytest.mark.parametrize("path", ["/", "/tables/", "/leaderboard/", "/rules/", "/@/alice"])
def test_every_page_says_your_game_is_on(client, cast, path):
    table = tables.start_with_bots(cast.alice)
    client.force_login(cast.alice)
    page = client.get(path).content.decode()
    assert BANNER in page and f"/table/{table.pk}/" in page
    client.force_login(cast.charlie)
    assert BANNER not in client.get(path).content.decode()


def test_the_table_itself_does_not_send_you_to_itself(client, cast):
    table = tables.start_with_bots(cast.alice)
    client.force_login(cast.alice)
    assert BANNER not in client.get(f"/table/{table.pk}/").content.decode()


def test_a_substitute_keeps_the_banner_until_the_series_ends(client, cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    take_over(current_game(series), 1)
    client.force_login(cast.bob)
    assert "a bot keeps your seat warm" in client.get("/").content.decode()
    with transaction.atomic():
        table, locked = locks.lock_series(series.pk)
        finish.end_series_locked(table, locked, Termination.VOTED_END)
    assert BANNER not in client.get("/").content.decode()


def test_play_now_while_playing_asks_before_opening_another_table(client, cast):
    first = tables.start_with_bots(cast.alice)
    client.force_login(cast.alice)
    response = client.post("/play/bots/", {"level": "casual"})
    assert response.status_code == 409
    assert "Return to your game" in response.content.decode()
    assert Table.objects.filter(owner=cast.alice).count() == 1
    # A forged or stale choice (another table's id) still only asks.
    assert client.post("/play/bots/", {"leave_current": "999"}).status_code == 409
    response = client.post("/play/bots/", {"level": "casual", "leave_current": str(first.pk)})
    assert response.status_code == 302
    old = first.series.get()
    assert (old.status, old.termination) == (Series.Status.ABORTED, "voted_end")
    assert Table.objects.filter(owner=cast.alice).count() == 2


def test_leaving_a_table_of_people_hands_the_seat_to_a_bot_for_good(client, cast, full_table):
    series = series_service.start_series(full_table.pk, cast.alice)
    client.force_login(cast.bob)
    client.post("/play/bots/", {"level": "casual", "leave_current": str(full_table.pk)})
    bob = roster_entry(series, 1)
    assert bob.bot_level == "casual" and bob.away_user_id == cast.bob.pk and bob.gave_up
    series.refresh_from_db()
    assert series.status == Series.Status.PLAYING  # the others play on
    assert clock.return_to_seat(full_table.pk, cast.bob) is None  # no longer his
    new_table = Table.objects.get(owner=cast.bob)
    page = client.get("/").content.decode()
    assert f'data-live-table="{new_table.pk}"' in page  # the banner points at his new table
    assert f'data-live-table="{full_table.pk}"' not in page


# --- presence ---------------------------------------------------------------------------

def test_presence_sees_a_player_who_sits_after_opening_the_table(cast, table):
    from games.snapshot import table_snapshot

    absence.connected(table.pk, "conn-bob", cast.bob)  # bob opens the page, not seated
    tables.take_seat(table.pk, cast.bob, 1)
    seats = table_snapshot(table, cast.alice)["seats"]
    assert seats[1]["connected"] is True and seats[0]["connected"] is False


def test_presence_counts_spectators_from_live_sockets(cast, table):
    from games.snapshot import table_snapshot

    tables.take_seat(table.pk, cast.alice, 0)
    absence.connected(table.pk, "conn-alice", cast.alice)
    absence.connected(table.pk, "conn-anon", None)
    absence.connected(table.pk, "conn-charlie", cast.charlie)
    assert table_snapshot(table, None)["table"]["spectators"] == 2
    absence.disconnected(table.pk, "conn-anon", None)
    assert table_snapshot(table, None)["table"]["spectators"] == 1


def test_a_socket_that_stops_beating_is_reaped_and_counted_gone(cast, full_table):
    from games import presence as store
    from games.snapshot import table_snapshot

    series = series_service.start_series(full_table.pk, cast.alice)
    game = current_game(series)
    seat = state_of(game).turn
    user = users_by_position(series)[seat]
    absence.connected(full_table.pk, "conn-dies", user)  # and never beats again
    assert table_snapshot(full_table, None)["seats"][seat]["connected"] is True
    later = timezone.now() + timedelta(seconds=store.ttl_seconds() + 1)
    done = sweep.sweep(later)
    assert done["presence_reaped"] == 1
    assert store.live(full_table.pk) == []
    # ...and the 60 s absence rule still fires for a socket that died on its turn.
    assert sweep.sweep(later + timedelta(seconds=61))["abandoned_seats"] == 1
    assert roster_entry(series, seat).away_user_id == user.pk
