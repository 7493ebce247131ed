"""The only code that writes game data. One module per use-case (STYLE c).

The lock order (DESIGN, "one lock order"): a transaction that locks more than one of
a table, its series and a game locks them **Table → Series → Game**, through
``locks.py``, and works only on the rows it read under those locks. Moves, timeouts,
takeovers, reclaims, votes, the sweeps, series start and end all follow it.

Every end of a game or a series goes through ``finish.py`` with a termination reason.
"""
