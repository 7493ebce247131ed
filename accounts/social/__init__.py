"""People to play with: follows (one-way, like lichess), the friends list with
who is online and where they play, invitations to your table, the notification centre
pushed live over the per-user page socket, email for what you opted into, and privacy.

Depends on games (tables, presence, the page group) and on moderation (blocks);
neither depends on it: games reaches it through its hooks (games/signals.py) and
``post_save`` of its models, moderation through ``post_save`` of a sanction.
"""
