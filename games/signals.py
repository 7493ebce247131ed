"""Hooks other apps react to (ratings, tournaments, moderation), fired after commit
(games/events.py: a receiver's failure is logged, the commit stands).

Declared in one place (allauth style). Receivers must not write game data; they call
their own services.

- ``game_finished(sender=Game, game_id: int, series_id: int)``: a game has a result.
- ``series_finished(sender=Series, series_id: int, winner: str, goat: str,
  termination: str)``: a series ended; ``termination`` is a ``models.Termination``
  value (completed: a team reached the target, R18; voted_end, abandoned, voided).
  Receivers act on the reason explicitly. Sent only by services/finish.py.
- ``series_corrected(sender=Series, series_id: int, winner: str, goat: str)``: the
  result of an ended series was rewritten (a tournament director's correction; sent
  on commit only by services/finish.correct_result_locked); the ratings rate the
  corrected result again in the series' place.
- ``round_started(sender=Round, tournament_id: int, tournament_name: str,
  round_number: int, user_ids: list[int], checkin_deadline: datetime)``: a tournament
  round's tables are ready for these people (sent after commit by
  tournaments/services/rounds.py; the notification centre listens).
- ``result_corrected(sender=Match, tournament_id: int, tournament_name: str,
  round_number: int, match_number: int, user_ids: list[int])``: a director corrected
  the result of a tournament match these people played (sent after commit by
  tournaments/services/corrections.py; the notification centre tells them).
- ``partner_invited(sender=Entry, tournament_id: int, tournament_name: str,
  inviter_name: str, user_id: int)``: someone entered a pairs event with this person
  as partner, who must confirm (sent after commit by tournaments/services/events.py;
  the notification centre tells them and emails the accept link).
- ``announcement_made(sender=Announcement, announcement_id: int, club_name: str,
  tournament_name: str, author_name: str, text: str, url: str, user_ids: list[int])``:
  a director announced something to a club's members or an event's players
  (``tournament_name`` empty for the club); sent after commit by
  tournaments/services/announcements.py; the notification centre tells each of them
  and e-mails those who opted in.
- ``event_reminder(sender=Tournament, tournament_id: int, tournament_name: str,
  starts_at: datetime, user_ids: list[int])``: an event these people entered starts
  soon (sent once, after commit, by tournaments/services/reminders.py).
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
series_finished = Signal()
series_corrected = Signal()
round_started = Signal()
result_corrected = Signal()
partner_invited = Signal()
announcement_made = Signal()
event_reminder = Signal()
