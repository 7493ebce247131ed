"""Check a learner's move in a lesson: the engine judges it, then the lesson's goal.

Nothing is stored here: a lesson always starts again from its fixed deal, so a wrong move
changes nothing and a retry is simply the lesson shown again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _

from games import engine
from games.errors import NotFoundError
from games.lessons.catalog import BY_SLUG, LEARNER, Lesson
from games.services import play, refusals
from kozel_site import glossary


@dataclass(frozen=True)
class Step:
    """A lesson as the learner sees it: before a move, or after one."""

    lesson: Lesson
    #: The state the learner acts on (the lesson's start).
    start: engine.GameState
    #: The state shown: the start, or where the learner's move and the replies led.
    state: engine.GameState
    action: engine.Action | None = None
    #: The goal is met: the lesson is complete.
    done: bool = False
    #: The engine refused the move: its reason, naming the rule, in the reader's language.
    refusal: str | None = None
    #: The lesson's hint after a move that missed the goal.
    hint: str | None = None


def lesson(slug: Any) -> Lesson:
    """The lesson named ``slug``; NotFoundError for any other value."""
    found = BY_SLUG.get(slug) if isinstance(slug, str) else None
    if found is None:
        raise NotFoundError(_("There is no such lesson."))
    return found


def say(one: Lesson, text: Promise) -> str:
    """A lesson's text with its cards in the reader's letters ("the Т♥" in Russian)."""
    words = glossary.cards()
    return str(text) % {name: words.symbol(code) for name, code in one.cards.items()}


def begin(slug: Any) -> Step:
    """The lesson at its start, waiting for the learner's move."""
    one = lesson(slug)
    start = one.start()
    return Step(lesson=one, start=start, state=start)


def hint_for(one: Lesson, tries: int) -> str:
    """The hint after the ``tries``-th miss: the first is gentle, the last says the move."""
    return say(one, one.hints[min(max(tries, 1), len(one.hints)) - 1])


def try_move(slug: Any, raw_action: Any, tries: int = 1) -> Step:
    """Judge the learner's move ``{"kind": ..., "cards": [...]}`` in lesson ``slug``.

    An illegal move is refused with the engine's own reason (translated) plus the hint
    for this many ``tries``; a legal move that misses the goal is played out and gets
    the hint. Raises NotFoundError for an unknown lesson and InvalidRequestError for a
    malformed move, before anything is judged.
    """
    one = lesson(slug)
    action = play.parse_action(raw_action)
    start = one.start()
    try:
        state = engine.apply(start, LEARNER, action)
    except engine.IllegalActionError as exc:
        return Step(lesson=one, start=start, state=start, action=action,
                    refusal=refusals.translate(str(exc)), hint=hint_for(one, tries))
    for seat, reply in one.after:
        # The replies are scripted for the move the lesson asks for; after another move
        # they may not fit, and the trick is shown as far as they went.
        if reply not in engine.legal_actions(state, seat):
            break
        state = engine.apply(state, seat, reply)
    done = one.goal.met(action, start, state)
    return Step(lesson=one, start=start, state=state, action=action, done=done,
                hint=None if done else hint_for(one, tries))
