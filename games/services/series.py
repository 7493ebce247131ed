"""Starting series and games (R4, R5, R15, R18).

The seed of every game is drawn from ``secrets`` on its own (R5: never derived from
another game's seed); the first dealer of a series is drawn at random (R4); in later
games the last trick's taker leads and the dealer is the seat before him (R4, R15).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from games import engine, events, policy
from games.errors import NotFoundError, PermissionDeniedError, TableStateError
from games.models import Game, Seat, Series, SeriesSeat, Table, Team
from games.selectors import bot_seats
from games.services import clock, locks, publish, schedule
from games.services.locks import lock_table


def _secret_seed() -> int:
    return secrets.randbits(63)


def _secret_first_dealer() -> int:
    return secrets.randbelow(4)


# All chance in a series goes through these two module-level sources, so that tests can
# replace them with a fixed sequence (tests/conftest.py ``deal_seeds``) and replay the same
# deals on every run. Production never reassigns them: every draw stays independent (R5).
seed_source: Callable[[], int] = _secret_seed
first_dealer_source: Callable[[], int] = _secret_first_dealer


def draw_seed() -> int:
    """A fresh 63-bit seed from the OS's cryptographic source (fits a signed BIGINT)."""
    return seed_source()


def partnership(first: Seat, second: Seat) -> Team | None:
    """The Team of two partners (R1), when both are people; pairs are stored in id order."""
    if first.user_id is None or second.user_id is None:
        return None
    low, high = sorted([first.user_id, second.user_id])
    team, _ = Team.objects.get_or_create(player_low_id=low, player_high_id=high)
    return team


def create_roster(series: Series, seats: list[Seat]) -> None:
    """The series' roster (SeriesSeat rows) from who sits at the table at its start."""
    SeriesSeat.objects.bulk_create(
        SeriesSeat(series=series, position=s.position, user_id=s.user_id,
                   bot_level=s.bot_level, name=s.occupant_label[:80])
        for s in seats)


def _refuse_a_ranked_replay(table: Table) -> None:
    """A ranked table plays one series: the same people could trade wins to move their
    ratings, and the next ranked series comes from the queue."""
    if table.kind == Table.Kind.RANKED and table.series.exists():
        raise TableStateError(_(
            "A ranked table never plays another series with the same seats: the "
            "next ranked series comes from the ranked queue, which chooses partners "
            "and opponents."))


def start_series(table_id: int, user: User) -> Series:
    """The owner starts a series once all four seats are filled (a ranked table once)."""
    with transaction.atomic():
        table = lock_table(table_id)
        _refuse_a_ranked_replay(table)
        if table.owner_id != getattr(user, "pk", None):
            raise PermissionDeniedError(_("Only the table's owner can start the series."))
        return start_series_locked(table)


def play_again(table_id: int, user: User) -> Series:
    """The owner starts another series with the same seats ("Play again"): casual
    tables only. A ranked table never replays its four: the same people could trade
    wins to move their ratings, and the next ranked series comes from the queue, which
    chooses partners and opponents. Refused before any other check, so nobody is told
    to wait for seats that will never be allowed to play again."""
    with transaction.atomic():
        table = lock_table(table_id)
        _refuse_a_ranked_replay(table)
        if table.owner_id != getattr(user, "pk", None):
            raise PermissionDeniedError(_("Only the table's owner can start the series."))
        return start_series_locked(table)


def start_series_locked(table: Table) -> Series:
    """Start a series and its first game. The caller holds the table's row lock."""
    if table.status == Table.Status.PLAYING:
        raise TableStateError(_("A series is already being played at this table."))
    if table.status == Table.Status.ABANDONED:
        raise TableStateError(_("This table was closed."))
    seats = list(Seat.objects.filter(table=table).select_related("user__profile")
                 .order_by("position"))
    if len(seats) != 4 or any(s.is_empty for s in seats):
        raise TableStateError(_("All four seats must be filled to start."))
    number = (table.series.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    first_dealer = first_dealer_source()  # R4: the first dealer is chosen at random
    state = engine.new_series(target=table.series_target, first_dealer=first_dealer)
    series = Series.objects.create(
        table=table, number=number, target=table.series_target,
        ranked=table.kind == Table.Kind.RANKED, first_dealer=first_dealer,
        state=state.to_dict(), team_ns=partnership(seats[0], seats[2]),
        team_ew=partnership(seats[1], seats[3]),
    )
    create_roster(series, seats)
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status", "updated_at"])
    create_game_locked(table, series)
    events.send_events_on_commit(partial(publish.table_changed, table.pk))
    return series


def create_game_locked(table: Table, series: Series) -> Game:
    """Deal the series' next game. The caller holds the table's and the series' locks."""
    state = engine.Series.from_dict(series.state)
    number = series.games.count() + 1
    dealer, leader = state.next_dealer, state.next_leader
    seed = draw_seed()
    # A duplicate board: the event's stored seed, dealer and first player instead.
    planned = policy.planned_deal(table.pk, number)
    if planned:
        seed, dealer, leader = planned
    game_state = engine.new_game(seed, dealer, leader)
    game = Game(
        series=series, number=number, seed=seed, algorithm=engine.ALGORITHM_VERSION,
        dealer=dealer, first_leader=leader, trump_card=game_state.trump_card.code,
        state=game_state.to_dict(),
    )
    game.save()
    clock.arm_turn_clock_locked(game, game_state, table)
    game.save(update_fields=["turn_started_at", "turn_deadline", "turn_seat"])
    if bot_seats(series):
        schedule.bot_turn(game.pk, game.version)
    return game


def start_next_game(series_id: int, after_number: int) -> Game | None:
    """Deal game ``after_number + 1`` if the series goes on and it is not dealt yet.

    Idempotent (a delayed task and the sweep may both call it): the locks and the
    existing-games check make a second call a no-op.
    """
    with transaction.atomic():
        try:
            table, series = locks.lock_series(series_id)
        except NotFoundError:
            return None
        if series.status != Series.Status.PLAYING:
            return None
        if series.games.filter(number__gt=after_number).exists():
            return None
        last = series.games.filter(number=after_number).first()
        if last is None or last.status == Game.Status.PLAYING:
            return None
        if policy.planned_deal(table.pk, after_number + 1) == policy.NO_MORE_GAMES:
            return None  # a match of a fixed number of games: its app ends the series
        game = create_game_locked(table, series)
        table.save(update_fields=["updated_at"])
        events.send_events_on_commit(partial(publish.table_changed, table.pk))
        return game
