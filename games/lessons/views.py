"""The lessons' pages: the list with the visitor's progress, and one page per lesson.

A lesson page works without JavaScript: the hand is a set of checkboxes, each action a
submit button, and the answer a fresh page (the move judged by the engine).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games import engine
from games.errors import InvalidRequestError, NotFoundError
from games.lessons import progress, services
from games.lessons.catalog import LEARNER, LESSONS

#: Where each seat sits on the screen, the learner at the bottom (R1: clockwise).
_PLACES = ("bottom", "left", "top", "right")


def _seat_names() -> tuple[str, str, str, str]:
    return (_("You"), _("Left-hand opponent"), _("Your partner"), _("Right-hand opponent"))


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """Every lesson, in order, with a tick for those finished in this session."""
    done = progress.finished(request.session)
    rows = [{"lesson": one, "number": n, "done": one.slug in done}
            for n, one in enumerate(LESSONS, 1)]
    return render(request, "lessons/index.html", {
        "rows": rows, "done_count": len(done), "total": len(LESSONS)})


@require_http_methods(["GET", "POST"])
def lesson_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET shows the lesson from its start (a retry is the same page); POST judges a
    move. A malformed move is answered with a message and changes nothing."""
    error = None
    try:
        step = services.begin(slug)
        if request.method == "POST":
            raw = {"kind": request.POST.get("kind"), "cards": request.POST.getlist("cards")}
            if not raw["cards"]:
                raise InvalidRequestError(_("Select one or more cards first."))
            step = services.try_move(slug, raw, progress.misses(request.session, slug) + 1)
            if step.done:
                progress.mark_finished(request.session, slug)
            else:
                progress.add_miss(request.session, slug)
    except NotFoundError as exc:
        raise Http404(exc.message) from None
    except InvalidRequestError as exc:
        error = exc.message
    status = 400 if error else 200
    return render(request, "lessons/lesson.html", _context(request, step, error), status=status)


def _context(request: HttpRequest, step: services.Step, error: str | None) -> dict[str, Any]:
    one = step.lesson
    number = LESSONS.index(one) + 1
    following = LESSONS[number] if number < len(LESSONS) else None
    state = step.state
    trump = state.trump_suit
    finished_trick = state.tricks_completed > step.start.tricks_completed
    plays = state.last_trick.plays if finished_trick and state.last_trick else state.table
    top = None if finished_trick else state.top_seat
    names = _seat_names()
    seats = []
    for seat in range(4):
        action = plays[seat]
        seats.append({
            "seat": seat, "name": names[seat], "place": _PLACES[seat],
            "team": engine.team_of(seat), "count": len(state.hands[seat]),
            "face_up": [c.code for c in action.cards]
            if action is not None and action.kind != "discard" else [],
            "backs": range(len(action.cards)) if action is not None
            and action.kind == "discard" else range(0),
            "kind": action.kind if action is not None else "",
            "top": seat == top,
            "taker": finished_trick and state.last_trick is not None
            and state.last_trick.taker == seat})
    moved = step.action is not None and step.refusal is None
    hand_state = state if moved else step.start
    hand = sorted(hand_state.hands[LEARNER], key=lambda c: c.sort_key(trump))
    before = set(step.start.hands[LEARNER])
    drawn = {c.code for c in hand if c not in before} if moved else set()
    result = engine.outcome(state)
    series = None
    if one.series is not None:
        loss = result.loss_points if result else {"A": 0, "B": 0}
        totals = (one.series[0] + loss["A"], one.series[1] + loss["B"])
        series = {"before": one.series, "after": totals if result else None,
                  "goat": "A" if totals[0] >= 12 else "B" if totals[1] >= 12 else None}
    return {
        "lesson": one, "number": number, "total": len(LESSONS), "following": following,
        "title": one.title, "idea": services.say(one, one.idea),
        "task": services.say(one, one.task), "step": step, "error": error,
        "seats": seats, "finished_trick": finished_trick,
        "hand": [{"code": c.code, "trump": c.suit == trump, "drawn": c.code in drawn}
                 for c in hand],
        "trump_card": state.trump_card.code, "stock": len(state.stock),
        "tricks": state.tricks, "endgame": not step.start.stock,
        "piles": {"A": sum(c.points for c in step.start.piles[0]),
                  "B": sum(c.points for c in step.start.piles[1])},
        "result": result, "series": series, "moved": moved,
        "success": services.say(one, one.success) if step.done else None,
        "done_before": one.slug in progress.finished(request.session),
    }
