"""Playing a move: the one way an action reaches a game.

``submit_action`` (a person) and ``play_bot_turn`` (a Celery task) validate untrusted
input, lock the Game row, check ``version`` (compare-and-set), rebuild the engine state,
let the engine judge legality, store the Move and the new state, bump ``version``, and
register the broadcast and then the next task to run after commit (games/events.py). An illegal or
stale action raises a typed error and changes nothing.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import engine, events
from games.bots.registry import get_policy
from games.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidRequestError,
    NoGameError,
    NotFoundError,
    NotYourSeatError,
    StaleVersionError,
)
from games.models import Conduct, Game, Move, Series
from games.selectors import bot_seats, person_positions, roster_seat, series_position
from games.services import clock, finish, locks, publish, refusals, schedule

MAX_ACTION_CARDS = 4


def parse_action(raw: Any) -> engine.Action:
    """Turn an untrusted ``{"kind": ..., "cards": [...]}`` into an engine Action."""
    if not isinstance(raw, dict):
        raise InvalidRequestError(
            _('An action is an object like {"kind": "lead", "cards": ["TD"]}.'))
    cards = raw.get("cards")
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_ACTION_CARDS or not all(
        isinstance(c, str) and len(c) == 2 for c in cards
    ):
        raise InvalidRequestError(_("An action names 1 to 4 cards, each like \"TD\" or \"6H\"."))
    if len(set(cards)) != len(cards):
        raise InvalidRequestError(_("An action cannot name the same card twice."))
    if raw.get("kind") not in ("lead", "beat", "discard", "molodka"):
        raise InvalidRequestError(_("The action kind is lead, beat, discard or molodka."))
    try:
        return engine.action_from_dict({"kind": raw["kind"], "cards": cards})
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidRequestError(_("Not a valid action: %(reason)s") % {"reason": exc}) from None


def _version(raw: Any) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 0:
        raise InvalidRequestError(_("version must be the non-negative integer you last saw."))
    return raw


def check_act(action: Any, expected_version: Any,
              game_id: Any = None) -> tuple[engine.Action, int]:
    """The checks of an act that need no database (its shape): the parsed action and
    version, or InvalidRequestError. The live table runs them before anything else."""
    parsed = parse_action(action)
    version = _version(expected_version)
    if game_id is not None and (isinstance(game_id, bool) or not isinstance(game_id, int)):
        raise InvalidRequestError(_("game_id must be the id of the game you saw."))
    return parsed, version


def refuse_another_game(table_id: int, game_id: int) -> None:
    """An act names a game other than the one being played at ``table_id``: refuse it
    with NotFoundError (a game elsewhere, or none) or GameOverError (an ended game of
    this table); return if it is the game being played here after all."""
    row = (Game.objects.filter(pk=game_id)
           .values("status", "series__status", "series__table_id").first())
    if row is None or row["series__table_id"] != table_id:
        raise NotFoundError(_("That game is not at this table."))
    if row["status"] != Game.Status.PLAYING or row["series__status"] != Series.Status.PLAYING:
        raise GameOverError(_("That game is over."))


def stale_error(current_version: int, seen: int) -> StaleVersionError:
    """The refusal of an act on a version that is not the current one."""
    return StaleVersionError(
        _("The game moved on (version %(version)s, you saw %(seen)s); resync and try "
          "again.") % {"version": current_version, "seen": seen}, current_version)


def submit_action(game_id: Any, user: User | None, action: Any,
                  expected_version: Any) -> int:
    """A person plays ``action`` on the version they saw. Returns the new version.

    Raises NotFoundError, NotYourSeatError, GameOverError, StaleVersionError,
    InvalidRequestError or IllegalMoveError (naming the rule), changing nothing.
    """
    parsed = parse_action(action)
    version = _version(expected_version)
    with transaction.atomic():
        return _act_locked(locks.lock_game(game_id), user, parsed, version)


def submit_table_action(table_id: Any, user: User | None, action: Any,
                        expected_version: Any, game_id: Any = None) -> int:
    """:func:`submit_action` on the game being played at ``table_id`` (the live table's
    socket knows its table, not always the game). ``game_id``, when given, must be it.

    The one place that decides every refusal of a live table's act; each refusal
    changes nothing.
    """
    parsed, version = check_act(action, expected_version, game_id)
    with transaction.atomic():
        table = locks.lock_table(table_id)
        series, game = locks.lock_current(table)
        if series is None or game is None:
            if game_id is not None:
                refuse_another_game(table.pk, game_id)
            raise NoGameError(_("No game is being played at this table."))
        if game_id is not None and game.pk != game_id:
            refuse_another_game(table.pk, game_id)
            raise GameOverError(_("That game is over."))  # not the one being played
        return _act_locked(locks.Locked(table, series, game), user, parsed, version)


def _act_locked(locked: locks.Locked, user: User | None, action: engine.Action,
                version: int) -> int:
    seat = series_position(locked.series, user)
    if seat is None:
        raise NotYourSeatError(_("You do not sit at this game."))
    _check_playable(locked.game, version)
    state = engine.GameState.from_dict(locked.game.state)
    return apply_locked(locked, state, seat, action, Move.Source.PLAYER)


def _engine_apply(state: engine.GameState, seat: int,
                  action: engine.Action) -> engine.GameState:
    """``engine.apply``; its refusal names the rule in the player's language."""
    try:
        return engine.apply(state, seat, action)
    except engine.IllegalActionError as exc:
        raise IllegalMoveError(refusals.translate(str(exc))) from None


def _check_playable(game: Game, expected_version: int) -> None:
    if game.status != Game.Status.PLAYING:
        raise GameOverError(_("This game is over."))
    if game.paused:
        raise GameOverError(_("The series is paused; vote to resume it first."))
    if game.version != expected_version:
        raise stale_error(game.version, expected_version)


MOVE_FIELDS = ["version", "state", "turn_started_at", "turn_deadline", "turn_seat",
               "substitute_seats", "updated_at"]


def apply_locked(locked: locks.Locked, state: engine.GameState, seat: int,
                 action: engine.Action, source: str) -> int:
    """Apply, store and announce one action. The caller holds the locks (locks.py)."""
    game, series = locked.game, locked.series
    new_state = _engine_apply(state, seat, action)
    game.version += 1
    game.state = new_state.to_dict()
    # Registered first, so the players hear of the move before its next task is sent.
    events.send_events_on_commit(publish.game_changed(game, new_state))
    roster_seat_ = roster_seat(series, seat)
    if source == Move.Source.PLAYER:
        clock.note_player_acted_locked(roster_seat_)
    elif roster_seat_.away_user_id:
        game.substitute_seats |= 1 << seat  # not the absent person's own play
    clock.arm_turn_clock_locked(game, new_state, locked.table)
    Move.objects.create(game=game, seq=game.version, seat=seat, kind=action.kind,
                        cards=[c.code for c in action.cards], source=source)
    game.save(update_fields=MOVE_FIELDS)
    result = engine.outcome(new_state)
    if result is not None:
        finish.finish_game_locked(locked, new_state, result)
    elif bot_seats(series):
        schedule.bot_turn(game.pk, game.version)
    return game.version


def choose_bot_action(state: engine.GameState, seat: int, level: str,
                      rng: random.Random,
                      score: dict[str, Any] | None = None) -> engine.Action | None:
    """The bot at ``seat`` decides, seeing only ``observe(state, seat, score)``
    (R19: its own view and the public series score).

    Raises ``UnknownBotLevelError`` (a ``KeyError``) for a level no bot plays:
    stored levels are always ``BotLevel`` values, so anything else is a bug to
    surface, not a game to hand to a random player."""
    policy = get_policy(level)
    return policy(engine.observe(state, seat, score), rng)


def public_score(series: Series) -> dict[str, Any]:
    """The series score the current game is played at (R18), for the bots."""
    return {
        "loss_points": {"A": series.loss_points_a, "B": series.loss_points_b},
        "target": series.target,
    }


def play_bot_turn(game_id: Any, expected_version: Any) -> int | None:
    """Let the bots act on ``expected_version``: a bot molodka first, else the bot on turn.

    Compare-and-set: a task that arrives late (the version moved on) or twice changes
    nothing and returns None; when it finds the game moved on it makes sure whatever
    the current version waits for is queued (schedule.lock_for_task).
    """
    version = _version(expected_version)
    with transaction.atomic():
        locked = schedule.lock_for_task(game_id, version)
        if locked is None:
            return None
        game, series = locked.game, locked.series
        if game.paused:
            return None
        state = engine.GameState.from_dict(game.state)
        bots = bot_seats(series)
        score = public_score(series)
        rng = random.Random(f"{game.seed}:{game.version}")
        # Out-of-turn molodkas (R11) first: they restart the trick, so they must be
        # considered before the bot on turn plays into it.
        for seat in sorted(bots):
            if seat != state.turn and any(
                isinstance(a, engine.Molodka) for a in engine.legal_actions(state, seat)
            ):
                choice = choose_bot_action(state, seat, bots[seat], rng, score)
                if isinstance(choice, engine.Molodka):
                    return apply_locked(locked, state, seat, choice, Move.Source.BOT)
        if state.turn is not None and state.turn in bots:
            choice = choose_bot_action(state, state.turn, bots[state.turn], rng, score)
            if choice is None:
                choice = engine.legal_actions(state, state.turn)[0]
            return apply_locked(locked, state, state.turn, choice, Move.Source.BOT)
        return None


# A timeout task may fire a little early (clock skew between hosts): within this it
# plays, earlier it re-arms itself.
EARLY_TOLERANCE = timedelta(milliseconds=250)


def _casual_choice(state: engine.GameState, seat: int, rng: random.Random) -> engine.Action:
    choice = choose_bot_action(state, seat, clock.TAKEOVER_LEVEL, rng)
    if choice is None or choice.kind == "molodka" and state.turn != seat:
        choice = engine.legal_actions(state, seat)[0]
    return choice


def play_timeout(game_id: int, expected_version: int) -> int | None:
    """The clock ran out on ``expected_version``: the server plays for the seat on turn
    (services/clock.py arms the clock and hands a seat to a bot after repeated timeouts).

    Compare-and-set: a late or duplicated task (the version moved on, the deadline was
    cleared) changes nothing and returns None; when the game moved on it makes sure
    what the current version waits for is queued.
    """
    with transaction.atomic():
        locked = schedule.lock_for_task(game_id, expected_version)
        if locked is None:
            return None
        game, series = locked.game, locked.series
        if game.turn_deadline is None or game.paused:
            return None
        remaining = (game.turn_deadline - timezone.now()).total_seconds()
        if remaining > EARLY_TOLERANCE.total_seconds():
            schedule.turn_timeout(game.pk, game.version, game.turn_deadline, force=True)
            return None
        state = engine.GameState.from_dict(game.state)
        seat = state.turn
        if seat is None or seat not in person_positions(series):
            return None
        occupant = roster_seat(series, seat)
        user_id = occupant.user_id
        assert user_id is not None  # a turn clock runs only for a person's seat
        action = _casual_choice(state, seat, random.Random(f"{game.seed}:{game.version}:t"))
        version = apply_locked(locked, state, seat, action, Move.Source.TIMEOUT)
        if occupant.name:
            events.send_event_on_commit(*publish.notice(series.table_id, gettext_noop(
                "%(name)s's time ran out: the server played for them."), name=occupant.name))
        else:
            events.send_event_on_commit(*publish.notice(series.table_id, gettext_noop(
                "A player's time ran out: the server played for them.")))
        Conduct.objects.create(user_id=user_id, series=series, game=game, position=seat,
                               kind=Conduct.Kind.TIMEOUT, reason=Conduct.Reason.CLOCK)
        occupant.timeouts_in_row += 1
        occupant.save(update_fields=["timeouts_in_row"])
        if occupant.timeouts_in_row >= clock.TIMEOUTS_BEFORE_ABANDON:
            clock.take_over_locked(locked, seat, Conduct.Reason.TIMEOUTS)
        elif clock.is_away(series.table_id, user_id):
            # Nobody is there to play the next turn either: the bot takes the seat now
            # rather than cost the others another whole clock (the instant the others
            # were shown: selectors.takeover_deadline).
            clock.take_over_locked(locked, seat, Conduct.Reason.DISCONNECT)
        return version
