"""Reviews of finished games by the strong bot, one seat at a time.

``services`` takes a request (who may ask, the limits, one review per game and seat) and
runs a review; ``tasks`` runs it on a Celery queue of its own, so a review never waits
in front of a live bot turn or clock; ``selectors`` reads what a page shows.
"""
