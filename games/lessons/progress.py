"""Which lessons a visitor has finished, kept in the session so guests keep it too.

Only slugs the catalog knows are kept, so a stale or tampered session shows nothing odd.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from games.lessons.catalog import BY_SLUG

_DONE = "lessons_done"
_TRIES = "lesson_tries"


def finished(session: MutableMapping[str, Any]) -> set[str]:
    """The slugs of the lessons completed in this session."""
    done = session.get(_DONE)
    return {s for s in done if s in BY_SLUG} if isinstance(done, list) else set()


def mark_finished(session: MutableMapping[str, Any], slug: str) -> None:
    """Remember a completed lesson and forget its misses (a replay starts gently)."""
    session[_DONE] = sorted(finished(session) | {slug})
    tries = dict(_tries(session))
    tries.pop(slug, None)
    session[_TRIES] = tries


def _tries(session: MutableMapping[str, Any]) -> dict[str, int]:
    raw = session.get(_TRIES)
    if not isinstance(raw, dict):
        return {}
    return {k: v for k, v in raw.items()
            if k in BY_SLUG and isinstance(v, int) and not isinstance(v, bool) and v > 0}


def misses(session: MutableMapping[str, Any], slug: str) -> int:
    """How many moves in this lesson missed so far (the hints get plainer with each)."""
    return _tries(session).get(slug, 0)


def add_miss(session: MutableMapping[str, Any], slug: str) -> int:
    """Count one more missed move in a lesson; returns the count (hints get plainer)."""
    tries = _tries(session)
    tries[slug] = min(tries.get(slug, 0) + 1, 99)
    session[_TRIES] = tries
    return tries[slug]
