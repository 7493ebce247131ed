"""Playing a move: the one way an action reaches a game (DESIGN: flow of a move).

``submit_action`` (a person) and ``play_bot_turn`` (a Celery task) validate untrusted
input, lock the Game row, check ``version`` (compare-and-set), rebuild the engine state,
let the engine judge legality, store the Move and the new state, bump ``version``, and
register the broadcast and the next task with ``transaction.on_commit``. An illegal or
stale action raises a typed error and changes nothing.
"""

from __future__ import annotations

import enum
import random
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games import engine
from games.models import Game, Move, Series
from games.selectors import bot_seats, roster_seat, series_position
from games.services import clock, finish, locks, publish, refusals, rows, schedule
from games.services.errors import (
    GameOverError,
    IllegalActionError,
    InvalidRequestError,
    NoGameError,
    NotFoundError,
    NotYourSeatError,
    ServiceError,
    StaleVersionError,
)

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


class OtherGame(enum.Enum):
    """What a game an act names, other than the one its socket was told of, is to this
    table (:func:`another_game`). ``ELSEWHERE``, ``NEVER`` and ``OVER`` hold for good
    (:attr:`settled`): a game never moves to another table, no game takes an id out of
    range and an ended game never plays again."""

    ELSEWHERE = "elsewhere"  # a game of another table
    NEVER = "never"  # an id no game can have (below 1, beyond 64 bits)
    MISSING = "missing"  # no game has that id (yet)
    OVER = "over"  # a game of this table that ended, or whose series did
    PLAYING = "playing"  # a game of this table still being played

    @property
    def settled(self) -> bool:
        return self in (OtherGame.ELSEWHERE, OtherGame.NEVER, OtherGame.OVER)


MAX_ID = 2 ** 63 - 1  # a primary key is a 64-bit signed integer


def another_game(table_id: Any, game_id: int) -> OtherGame:
    """Read, without a lock, what ``game_id`` is to ``table_id`` (one row; none for an
    id no game can have)."""
    if not 1 <= game_id <= MAX_ID:
        return OtherGame.NEVER
    row = (Game.objects.filter(pk=game_id)
           .values("status", "series__status", "series__table_id").first())
    if row is None:
        return OtherGame.MISSING
    if row["series__table_id"] != table_id:
        return OtherGame.ELSEWHERE
    if row["status"] != Game.Status.PLAYING or row["series__status"] != Series.Status.PLAYING:
        return OtherGame.OVER
    return OtherGame.PLAYING


def refuse_other_game(which: OtherGame) -> None:
    """The locked path's refusal of an act naming such a game: NotFoundError for a game
    elsewhere (or none), GameOverError for an ended game of this table; none for the
    game being played here."""
    if which in (OtherGame.ELSEWHERE, OtherGame.NEVER, OtherGame.MISSING):
        raise NotFoundError(_("That game is not at this table."))
    if which is OtherGame.OVER:
        raise GameOverError(_("That game is over."))


def refuse_another_game(table_id: Any, game_id: int) -> None:
    """An act names a game its socket was not told is the current one: refuse it as the
    locked path would, reading one row without taking a lock; return if it is the game
    being played here after all. Hostile frames naming other tables' games took the
    table's lock each (python -m tests.load fuzz, issue 15); the live table's socket
    also keeps the answers that hold for good (games/consumers.py)."""
    refuse_other_game(another_game(table_id, game_id))


def playing_rows(table_id: Any) -> locks.Locked | None:
    """The rows an act locks (the table, its playing series with its roster, the
    series' latest game), read without a lock: what :func:`refuse_unlocked` and
    ``clock.refuse_reclaim`` judge from (games/services/rows.py)."""
    return rows.peek_playing(table_id)


def refuse_unlocked(playing: locks.Locked | None, user: AbstractBaseUser | None,
                    action: Any, expected_version: Any) -> None:
    """Raise the ``stale`` or ``illegal`` refusal the locked path would give an act,
    from ``playing`` (:func:`playing_rows`, read without a lock); return when that is
    not sure (the act then takes the locked path, which judges it). No query: the live
    table's socket judges on its event loop from rows its process's sockets at the
    table share (games/consumers.py).

    The live table's socket asks this for an act that names the version it was last
    sent but is not among that seat view's legal actions, and for an act that names a
    version it was never sent. Under the fuzzer such acts came ~60 a second, and each
    took a table's row lock on the web process's one writing thread, in line with the
    live tables' moves (python -m tests.load fuzz, issue 15).

    Sure, because the refusals are the locked path's own, in its order: a playing game,
    :func:`_check_playable` (its ``stale`` when the stored version is another: versions
    only grow, and an act on a version not yet reached names a view its player was not
    sent, games/WEBSOCKET.md), then the seat and the engine on that version's state,
    which no later write changes. Over, paused or no seat: the locked path says which."""
    parsed, version = check_act(action, expected_version)
    if playing is None:
        return
    game = playing.game
    try:
        _check_playable(game, version)
    except StaleVersionError:
        raise
    except ServiceError:
        return
    seat = series_position(game.series, user)
    if seat is not None:
        _engine_apply(engine.GameState.from_dict(game.state), seat, parsed)


def stale_error(current_version: int, seen: int) -> StaleVersionError:
    """The refusal of an act on a version that is not the current one."""
    return StaleVersionError(
        _("The game moved on (version %(version)s, you saw %(seen)s); resync and try "
          "again.") % {"version": current_version, "seen": seen}, current_version)


def submit_action(game_id: Any, user: AbstractBaseUser | None, action: Any,
                  expected_version: Any) -> int:
    """A person plays ``action`` on the version they saw. Returns the new version.

    Raises NotFoundError, NotYourSeatError, GameOverError, StaleVersionError,
    InvalidRequestError or IllegalActionError (naming the rule), changing nothing.
    """
    parsed = parse_action(action)
    version = _version(expected_version)
    with transaction.atomic():
        return _act_locked(locks.lock_game(game_id), user, parsed, version)


def submit_table_action(table_id: Any, user: AbstractBaseUser | None, action: Any,
                        expected_version: Any, game_id: Any = None) -> int:
    """:func:`submit_action` on the game being played at ``table_id`` (the live table's
    socket knows its table, not always the game). ``game_id``, when given, must be it.
    """
    parsed, version = check_act(action, expected_version, game_id)
    with transaction.atomic():
        # The live table's hot path: one locking statement (games/services/rows.py).
        locked = rows.lock_playing(table_id)
        if locked is None:  # no playing game here: the ORM's locks say exactly why
            table = locks.lock_table(table_id)
            series, game = locks.lock_current(table)
            if series is None or game is None:
                if game_id is not None:
                    refuse_another_game(table.pk, game_id)
                raise NoGameError(_("No game is being played at this table."))
            locked = locks.Locked(table, series, game)
        if game_id is not None and locked.game.pk != game_id:
            refuse_another_game(locked.table.pk, game_id)
            raise GameOverError(_("That game is over."))  # not the one being played
        return _act_locked(locked, user, parsed, version)


def _act_locked(locked: locks.Locked, user: AbstractBaseUser | None, action: engine.Action,
                version: int) -> int:
    seat = series_position(locked.series, user)
    if seat is None:
        raise NotYourSeatError(_("You do not sit at this game."))
    _check_playable(locked.game, version)
    state = engine.GameState.from_dict(locked.game.state)
    return apply_locked(locked, state, seat, action, Move.Source.PLAYER, last_write=True)


def _engine_apply(state: engine.GameState, seat: int,
                  action: engine.Action) -> engine.GameState:
    """``engine.apply``; its refusal names the rule in the player's language."""
    try:
        return engine.apply(state, seat, action)
    except engine.IllegalActionError as exc:
        raise IllegalActionError(refusals.translate(str(exc))) from None


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
                 action: engine.Action, source: str, *, last_write: bool = False) -> int:
    """Apply, store and announce one action. The caller holds the locks (locks.py).

    ``last_write``: the caller writes nothing after it in its transaction, so the move
    may commit with its own write (rows.Writes), a game's end and a series' end with
    it: every announcement is registered first."""
    game, series = locked.game, locked.series
    new_state = _engine_apply(state, seat, action)
    game.version += 1
    move = Move(game=game, seq=game.version, seat=seat, kind=action.kind,
                cards=[c.code for c in action.cards], source=source)
    game.state = new_state.to_dict()
    publish.on_commit_game_changed(game, new_state)  # the first hook to run (see there)
    roster_seat_ = roster_seat(series, seat)
    if source == Move.Source.PLAYER:
        clock.note_player_acted_locked(roster_seat_)
    elif roster_seat_.away_user_id:
        game.substitute_seats |= 1 << seat  # not the absent person's own play
    clock.arm_turn_clock_locked(game, new_state, locked.table)
    writes = rows.Writes()
    writes.insert(move)
    writes.update(game, MOVE_FIELDS)
    result = engine.outcome(new_state)
    if result is not None:
        finish.finish_game_locked(locked, new_state, result, writes)
    elif bot_seats(series):
        schedule.on_commit_bot_turn(game.pk, game.version)
    writes.send(then_commit=last_write)
    return game.version


def choose_bot_action(state: engine.GameState, seat: int, level: str,
                      rng: random.Random,
                      score: dict[str, Any] | None = None) -> engine.Action | None:
    """The bot at ``seat`` decides, seeing only ``observe(state, seat, score)``
    (R19: its own view and the public series score).

    Raises ``UnknownBotLevelError`` (a ``KeyError``) for a level no bot plays:
    stored levels are always ``BotLevel`` values, so anything else is a bug to
    surface, not a game to hand to a random player."""
    from games.bots.registry import get_policy

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
    the current version waits for is queued (schedule.ensure_due_locked).
    """
    version = _version(expected_version)
    with transaction.atomic():
        locked = locks.lock_for_task(game_id, version)
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
                    return apply_locked(locked, state, seat, choice, Move.Source.BOT,
                                        last_write=True)
        if state.turn is not None and state.turn in bots:
            choice = choose_bot_action(state, state.turn, bots[state.turn], rng, score)
            if choice is None:
                choice = engine.legal_actions(state, state.turn)[0]
            return apply_locked(locked, state, state.turn, choice, Move.Source.BOT,
                                last_write=True)
        return None
