"""Celery tasks of tournaments: thin, ids only, validated by ``games.tasks.id_task``.

Each calls one service that re-locks its rows and does nothing when the step is not
due or already done, so a task delivered twice, early or late is harmless; the beat
``tournaments.tick`` is the backstop for any lost message.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.errors import ServiceError
from games.tasks import id_task
from games.tournaments.services import recurrence, reminders, rounds

logger = logging.getLogger(__name__)


@id_task("tournaments.match_finished")
def match_finished_task(series_id: int) -> None:
    """A series ended: score its tournament match (no-op outside tournaments)."""
    rounds.match_finished(series_id)


@id_task(rounds.CHECKIN_DEADLINE_TASK)
def checkin_deadline_task(round_id: int) -> None:
    """The round's check-in window closed: absentees forfeit or get a bot."""
    rounds.checkin_deadline(round_id)


@id_task(rounds.ROUND_TIME_TASK)
def round_time_task(round_id: int) -> None:
    """The round's time limit: running matches are decided by fewer loss points."""
    rounds.round_time(round_id)


@id_task(rounds.START_ROUND_TASK)
def start_round_task(tournament_id: int, number: int) -> None:
    """The break after a round is over: start round ``number`` (unless paused)."""
    try:
        rounds.start_next_round(tournament_id, number)
    except ServiceError as exc:  # gone (a deleted event) or refused: nothing to do
        logger.warning("start_round_task(%s, %s): %s", tournament_id, number, exc.message)


@shared_task(name="tournaments.tick", acks_late=False, ignore_result=True, expires=10)
def tick_task() -> dict[str, int]:
    """The beat backstop (services/rounds.py ``tick``)."""
    done = rounds.tick()
    if done:
        logger.info("tournament tick: %s", done)
    return done


@shared_task(name="tournaments.events_beat", acks_late=False, ignore_result=True, expires=50)
def events_beat_task() -> dict[str, int]:
    """The beat's calendar step: reminders before starts (each sent once,
    services/reminders.py) and the next occurrences of finished recurring events
    (services/recurrence.py, the backstop of the one made at the finish)."""
    done = {"reminders": reminders.send_due(), "recurrences": recurrence.create_due()}
    if any(done.values()):
        logger.info("tournament calendar: %s", done)
    return done
