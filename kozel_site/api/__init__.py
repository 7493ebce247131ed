"""The public, read-only JSON API under ``/api/`` (Django Ninja), documented for its
users in docs/api.md and by its OpenAPI schema at ``/api/docs``.

Site glue, like the pages: each operation validates its parameters, authorizes with the
very selectors the matching page uses, reads, and answers. It never writes game data and
never shows a game's hidden state (R19): a game's record opens only once it is over.
"""
