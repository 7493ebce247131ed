"""The load and fault harness: ``python -m tests.load SCENARIO``.

It starts the production layout on this machine (K daphne processes, W Celery workers,
one beat, its own Redis and PostgreSQL database; tests/load/layout.py), creates tables of
four signed-in players and drives four WebSocket clients per table through
games/WEBSOCKET.md like the browser (tests/load/clients.py), and measures. Scenarios:

- ``play``: N tables at human pace; move round trip (action → event at all four seats)
  p50/p95/p99/max, beside the floor (an echo broadcast through daphne and
  channels-redis, tests/load/floor.py) and their ratio; actions/s, error frames by code,
  reconnects, games and series finished, CPU and RSS per process, PostgreSQL connections.
- ``capacity``: the same, stepping the pace up until p99 crosses 100 ms.
- ``faults``: SIGKILL web, worker, beat, Redis (or restart PostgreSQL) at random moments;
  the stall after each, the Move log against what the clients sent, verify_games.
- ``fuzz``: hostile frames from many sockets beside live games.
- ``drop``: many sockets opened and dropped without a close; presence returns to the truth.
- ``smoke``: a small version of all of it for CI.

Figures go to stdout as a table and to ``.run/load/<scenario>-*.json``.
"""
