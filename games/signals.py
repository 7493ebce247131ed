"""Hooks other apps react to (ratings, tournaments, moderation), fired after commit.

Declared in one place (allauth style). Receivers must not write game data; they call
their own services.

- ``game_finished(sender=Game, game_id: int, series_id: int)``: a game has a result.
- ``series_finished(sender=Series, series_id: int, winner: str, goat: str)``: a series
  reached its target (R18), or was ended by vote or abandonment.
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
series_finished = Signal()
