"""Ranked matchmaking: the solo queue and the pair queue.

People join from ``/play/ranked/``; a Celery task (beat every ~2 s, plus a kick on each
enqueue) forms tables of four of similar rating, seats them at a new ranked table and
starts the series through the games services. Matching never runs in a web request.
"""
