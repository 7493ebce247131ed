"""Every write of moderation, one use-case per module (services are the only writers):

- ``log``: the append-only moderation log (``record`` is its only writer);
- ``reports``: players report, appeal; moderators close reports;
- ``sanctions``: warn, mute, ranked ban, suspend, rename, hide a line, lift; and how
  each takes effect at once on open connections;
- ``voids``: void a series (finisher + ratings rollback), mark cheating or boosting;
- ``escalation``: automatic ranked bans for repeated abandonment;
- ``blocks``: blocks and per-table chat mutes.

Public entry points validate untrusted input and authorize the actor; helpers named
``*_locked`` assume their caller holds the locks. Nothing else writes these models.
"""
