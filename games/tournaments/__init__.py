"""Clubs and club tournaments: clubs, events, entries, rounds, matches.

- ``pairing`` and ``standings`` are pure (no Django, like the engine) and tested with
  Hypothesis and hand-worked cases;
- ``services/`` are the only writers (lock order: Table → Series → Game from
  games/services/locks.py, and a tournament's own rows *before* any of those:
  Tournament → Round → Match, then the game locks);
- matches are series at ordinary tables created through games/services/tables.py and
  series.py; a match ends when its series ends (games.signals.series_finished) and a
  round's time limit ends running series through games/services/finish.py.
"""
