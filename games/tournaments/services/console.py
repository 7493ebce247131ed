"""The director's console actions on the tables of the round being played.

Each is a director tool (services/director.py runs it: the permission, the tournament's
lock, the refresh of the open pages): it validates its input, locks the round and the
match (the tournaments' lock order, then the games' own: Table → Series → Game), acts
through the games services, and writes one audit line that names the people and the
entries concerned, never only seat numbers.

- ``bot_seat``: a Casual bot plays a person's seat of a match: during check-in it takes
  the seat (the match starts when nobody else is missing); during play it takes over
  the seat in the live series, as a takeover does (the person sees why);
- ``forfeit_match``: side A, side B or both forfeit a match not finished yet; a live
  series stops through the finisher (``forfeit``: no goat, not rated); it needs an
  explicit confirmation and a reason;
- ``extend_round``: the round's time limit moves later by 1–120 minutes (the time-limit
  task is queued again for the new instant; the one queued before finds it early and
  does nothing);
- ``message_table``: a line from the director in a table's chat.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from games.errors import InvalidRequestError, NotFoundError, ServiceError, TableStateError
from games.events import send_task_on_commit
from games.models import Conduct, Game, Table, Termination
from games.services import chat, clock, finish, locks
from games.services import tables as table_service
from games.services.locks import Locked
from games.tournaments.models import Match, Round, Tournament
from games.tournaments.services import audit, rounds

# The longest extension of a round's time limit one click may give.
MAX_EXTENSION_MINUTES = 120
FORFEIT_SIDES = {"A": "B", "B": "A", "both": "none"}  # who forfeits -> the outcome


def _number(data: Mapping[str, Any], key: str, low: int, high: int, what: str) -> int:
    raw = str(data.get(key, "") or "").strip()
    if not raw.isdigit() or not low <= int(raw) <= high:
        raise InvalidRequestError(_("Give %(what)s as a whole number from %(low)s to "
                                    "%(high)s.") % {"what": what, "low": low, "high": high})
    return int(raw)


def _live_match(t: Tournament, data: Mapping[str, Any]) -> tuple[Round, Match]:
    """The match ``data["match_id"]`` of this event's round in play, locked with its
    round (Round → Match). A finished or not yet started match is refused."""
    raw = str(data.get("match_id", "") or "").strip()
    if not raw.isdigit() or len(raw) > 18:
        raise InvalidRequestError(_("Choose a table of the round."))
    round_id = (Match.objects.filter(pk=int(raw), round__tournament=t)
                .values_list("round_id", flat=True).first())
    if round_id is None:
        raise NotFoundError(_("No such table in this tournament."))
    round_ = Round.objects.select_for_update().get(pk=round_id)
    match = Match.objects.select_for_update().get(pk=int(raw))
    if (round_.status not in (Round.Status.CHECKIN, Round.Status.PLAYING)
            or match.status not in (Match.Status.CHECKIN, Match.Status.PLAYING)):
        raise TableStateError(_("That match is not being played: nothing to change."))
    return round_, match


def _names(user_ids: list[int]) -> dict[int, str]:
    return dict(get_user_model().objects.filter(pk__in=user_ids)
                .values_list("pk", "username"))


def bot_seat(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    """A Casual bot plays one person's seat of a match (see the module docstring)."""
    round_, match = _live_match(t, data)
    position = _number(data, "position", 0, 3, _("the seat"))
    seats = rounds.people_by_position(match)
    entry, person = seats[position]
    if person is None or position in match.substitutes:
        raise InvalidRequestError(_("A bot already plays that seat."))
    assert match.table_id is not None  # a started match has its table
    name = _names([person]).get(person, "?")
    if match.status == Match.Status.CHECKIN:
        table = locks.lock_table(match.table_id)
        if table.status == Table.Status.OPEN:
            table_service.kick(table.pk, t.created_by, position)
            table_service.add_bot(table.pk, t.created_by, position, rounds.SUBSTITUTE_LEVEL)
        match.substitutes = sorted({*match.substitutes, position})
        match.checked_in = [u for u in match.checked_in if u != person]
        match.save(update_fields=["substitutes", "checked_in"])
        if not rounds.absent_people(match):
            rounds.begin_locked(match)
    else:
        try:
            table, series, game = locks.lock_playing(match.table_id)
        except ServiceError:
            raise TableStateError(_("That match's series has just ended.")) from None
        if series.pk != match.series_id or game is None or game.status != Game.Status.PLAYING:
            raise TableStateError(_("No game is being played at that table: try again in a "
                                    "moment."))
        clock.take_over_locked(Locked(table, series, game), position, Conduct.Reason.DIRECTOR)
        match.substitutes = sorted({*match.substitutes, position})
        match.save(update_fields=["substitutes"])
    audit.record(t.club, user, "match.substitute_bot", tournament=t,
                 reason=" ".join(str(data.get("reason", "") or "").split())[:200],
                 round=round_.number, match=match.number, position=position,
                 player=name, entry=entry.name)
    rounds.after_match_change(t, round_)
    return _("A bot plays %(name)s's seat at table %(n)s.") % {"name": name, "n": match.number}


def forfeit_match(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    """Side A, B or both forfeit a match of the round (confirmed, with a reason)."""
    side = str(data.get("side", "") or "")
    if side not in FORFEIT_SIDES:
        raise InvalidRequestError(_("Choose who forfeits: side A, side B or both."))
    reason = " ".join(str(data.get("reason", "") or "").split())
    if not reason:
        raise InvalidRequestError(_("Give a reason: it goes into the audit log."))
    if len(reason) > 200:
        raise InvalidRequestError(_("A reason has at most %(max)s characters.") % {"max": 200})
    if str(data.get("confirm", "")) != "1":
        raise InvalidRequestError(_("Tick the confirmation: a forfeit decides the match."))
    round_, match = _live_match(t, data)
    if match.status == Match.Status.PLAYING and match.table_id is not None:
        try:
            table, series, _game = locks.lock_playing(match.table_id)
        except ServiceError:
            series = None  # it ended meanwhile: the forfeit stands in its place
        if series is not None and series.pk == match.series_id:
            series.winner, series.goat = "", ""
            finish.end_series_locked(table, series, Termination.FORFEIT)
    rounds.forfeit_sides_locked(match, FORFEIT_SIDES[side])
    entries = {"A": [], "B": []}  # type: dict[str, list[str]]
    for s in match.sides.select_related("entry").order_by("side", "slot"):
        entries[s.side].append(s.entry.name)
    audit.record(t.club, user, "match.forfeit_by_director", tournament=t, reason=reason,
                 round=round_.number, match=match.number, forfeits=side,
                 side_a=" & ".join(entries["A"]), side_b=" & ".join(entries["B"]))
    rounds.after_match_change(t, round_)
    if side == "both":
        return _("Table %(n)s: both sides forfeit.") % {"n": match.number}
    return _("Table %(n)s: %(names)s forfeit.") % {"n": match.number,
                                                    "names": " & ".join(entries[side])}


def extend_round(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    """Move the time limit of the round in play later by 1–120 minutes."""
    minutes = _number(data, "minutes", 1, MAX_EXTENSION_MINUTES, _("the minutes"))
    round_ = (t.round_set.select_for_update()
              .filter(status__in=[Round.Status.CHECKIN, Round.Status.PLAYING])
              .order_by("-number").first())
    if round_ is None:
        raise TableStateError(_("No round is being played."))
    assert round_.ends_at is not None  # set when the round started
    round_.ends_at += timedelta(minutes=minutes)
    round_.save(update_fields=["ends_at"])
    send_task_on_commit(rounds.ROUND_TIME_TASK, (round_.pk,), eta=round_.ends_at)
    audit.record(t.club, user, "round.extend", tournament=t, round=round_.number,
                 minutes=minutes, ends_at=round_.ends_at.isoformat())
    return _("Round %(n)s now ends at %(time)s UTC.") % {
        "n": round_.number, "time": round_.ends_at.strftime("%H:%M")}


def message_table(t: Tournament, user: User, data: Mapping[str, Any]) -> str:
    """A line from the director in one table's chat."""
    text = chat.check_message(user, data.get("text"))
    round_, match = _live_match(t, data)
    assert match.table_id is not None  # a started match has its table
    chat.post_director_line(match.table_id, user, text)
    audit.record(t.club, user, "table.message", tournament=t, round=round_.number,
                 match=match.number, text=text)
    return _("Message sent to table %(n)s.") % {"n": match.number}
