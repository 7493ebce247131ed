"""Ratings, player records and leaderboards: a nested app that depends on games.

It reacts to ``games.signals.series_finished`` (fired on commit by
``games/services/finish.py``) and never writes game data: a Celery task records every
finished series per player (:class:`SeriesRecord`) and rates ranked ones
(:class:`Rating`, :class:`RatingChange`) exactly once.
"""
